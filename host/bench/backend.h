/* The one interface between the measurement harness and whatever runs the kernels.
 *
 * Two implementations exist: backend_cuda.cu (CUDA runtime: device memory, an explicit stream,
 * cudaEvents, L2 flush, per-sample SM clock) and backend_emu.c (the CPU SIMT emulator: host
 * memory, wall-clock samples labelled "emulated"). The harness core (everything else in host/bench/) sees
 * only this header, so it cannot tell which one it drives, and no CUDA header is ever included
 * outside backend_cuda.cu. A build without nvcc links backend_nocuda.c in place of the CUDA one;
 * its probe explains why CUDA is unavailable.
 *
 * Memory handed out by alloc is "device" memory of the backend: kernels read and write it, the
 * host reaches it only through copy_to / copy_from / fill. It is at least 256-byte aligned (what
 * cudaMalloc gives; WMMA and cp.async need 32 and 16). Every function that can fail returns 0 or
 * -1 and writes the failed call into err ("cudaMemcpyAsync(...): cudaErrorIllegalAddress ..."). */
#ifndef BACKEND_H
#define BACKEND_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sdpa_api.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { BACKEND_AUTO = 0, BACKEND_CUDA = 1, BACKEND_EMU = 2 } backend_kind_t;
typedef enum { EMU_SCHED_FWD = 0, EMU_SCHED_REV = 1, EMU_SCHED_RAND = 2 } emu_schedule_t;

/* The exact announcement of --backend auto falling back to the emulator (a documented contract). */
#define BACKEND_FALLBACK_MSG                                                                                 \
    "no CUDA device: running on the CPU emulator; timings are emulator timings, not GPU timings"

typedef struct {
    bool l2_cold;             /* flush L2 before every timed sample (CUDA) */
    bool blocking_kernel;     /* hold the stream with a spinning kernel while a sample is enqueued
                               * (CUDA; off under profilers that serialise launches) */
    int device;               /* CUDA device index, within CUDA_VISIBLE_DEVICES */
    bool schedule_given;      /* false: keep the emulator's own setting (SIMT_SCHED, SIMT_SEED) */
    emu_schedule_t schedule;  /* fiber resume order between barriers (emulator) */
    bool schedule_seed_given; /* false: keep the emulator's seed */
    uint64_t schedule_seed;   /* seed of the "rand" schedule */
} backend_options_t;

/* One timed launch. */
typedef struct {
    double elapsed_us;   /* kernel time: cudaEvent interval, or emulator wall clock */
    double sm_clock_mhz; /* SM clock during the sample; NaN when not measured */
} backend_sample_t;

/* What a backend keeps of a sample (data/SCHEMA.md, TIMING): its time to the nanosecond, its clock
 * to the kHz. cudaEventElapsedTime resolves ~0.5 us (the first H100 campaigns' samples all lie
 * within 5 ps of a multiple of 32 ns) and the clock is an estimate from two timestamps, so no
 * measured digit is lost; the 17 digits that float ms times 1e3 in double printed were rounding
 * noise, 44 % of a campaign's committed bytes. NaN stays NaN. */
static inline double backend_keep_us(double us) { return round(us * 1e3) / 1e3; }
static inline double backend_keep_mhz(double mhz) { return round(mhz * 1e3) / 1e3; }

/* Device metadata (data/SCHEMA.md, DEVICE). Unknown numbers are NaN, unknown tri-states -1:
 * nothing is assumed. */
typedef struct {
    char name[256];
    char cc[16]; /* "8.9" */
    int sm_count;
    double sm_clock_default_mhz; /* cudaDevAttrClockRate */
    double mem_clock_mhz;        /* cudaDevAttrMemoryClockRate */
    int mem_bus_bits;
    uint64_t l2_bytes;
    char driver_version[16], runtime_version[16]; /* "13.0" */
    int ecc;                                      /* 1, 0, or -1 unknown */
    int clocks_locked;                            /* 1, 0, or -1 unknown (needs NVML/root; never assumed) */
    double peak_dram_gbs;                         /* 2 x mem clock x bus width / 8 */
    double peak_fp16_tensor_tflops; /* dense, from a small table of known devices; NaN otherwise */
    double peak_fp8_tensor_tflops;  /* likewise (roofline.h) */
    double peak_exp2_tps;           /* MUFU exponentials per second (10^12) at the default clock */
    uint64_t l2_flush_bytes;        /* size of the flush buffer actually memset per cold sample */
    int device_index;               /* the index used (--device), within CUDA_VISIBLE_DEVICES */
    char uuid[48];                  /* "GPU-xxxxxxxx-..." (cudaDeviceProp.uuid) */
    char pci_bus_id[32];            /* "0000:65:00.0" */
    /* From NVML when the driver provides it (nvml.h); unknowns "", NaN, -1. */
    char driver_release[32];                     /* "580.65.06" */
    double power_limit_w;                        /* enforced power limit */
    double sm_clock_start_mhz, sm_clock_end_mhz; /* SM clock when the run started and ended */
    int mig;              /* 1: a MIG instance (or MIG enabled on the GPU), 0 no, -1 unknown */
    char mig_profile[32]; /* "1g.10gb" from the device name under MIG, else "" */
    char nvml_why[256];   /* why NVML fields are unknown, "" when NVML answered */
} backend_device_t;

/* Work a backend runs and times besides a kernel launcher: a peer (several library calls and
 * kernels with their own state, peers.h) or a ceiling measurement (ceilings.h). run enqueues
 * everything on stream (the backend's stream; NULL on the emulator, which computes at once) and
 * returns 0, or -1 with the failed call in err. */
typedef struct {
    int (*run)(void *ctx, void *stream, char *err, size_t errlen);
    void *ctx;
} backend_work_t;

typedef struct {
    const char *schedule; /* "fwd", "rev", "rand" */
    uint64_t schedule_seed;
    const char *build; /* "emu", "emu-tsan", "emu-asan" */
} backend_emulator_t;

/* The operations of one backend. `self` is the backend's own state, created by open. */
typedef struct backend_ops {
    const char *name;   /* "cuda" or "emu" (meta.backend) */
    const char *timing; /* "gpu" or "emulated" (meta.timing) */
    /* The kernel table this backend was linked with (NULL-id terminated), NULL if none. */
    const sdpa_kernel_entry_t *(*kernels)(void);
    /* 1 when usable with these options (device index, architecture of the build); 0 with the
     * reason in why ("built without CUDA ...", "cudaGetDeviceCount: ...", "the device is sm_75 ..."). */
    int (*probe)(const backend_options_t *opt, char *why, size_t whylen);
    void *(*open)(const backend_options_t *opt, char *err, size_t errlen);
    void (*close)(void *self);
    void *(*alloc)(void *self, size_t bytes, char *err, size_t errlen);
    void (*release)(void *self, void *dev);
    int (*copy_to)(void *self, void *dev, const void *host, size_t bytes, char *err, size_t errlen);
    int (*copy_from)(void *self, void *host, const void *dev, size_t bytes, char *err, size_t errlen);
    int (*fill_bytes)(void *self, void *dev, uint8_t value, size_t bytes, char *err, size_t errlen);
    /* Checked launch for correctness: sets args->stream, launches, waits for completion. Returns
     * the launcher's status: SDPA_ERR_LAUNCH with the CUDA error (name and text) in err, or
     * SDPA_ERR_FAULT with the emulator's fault; the message of any other status in err. */
    sdpa_status_t (*launch)(void *self, sdpa_launch_fn fn, sdpa_args_t *args, char *err, size_t errlen);
    /* One timed sample of fn (cold or warm L2 per the options). A warm-up sample never holds the
     * stream with the blocking kernel: a kernel's first launch may load its module, and with lazy
     * loading that can wait for the device to be idle, which a blocked stream never is. */
    int (*sample)(void *self, sdpa_launch_fn fn, sdpa_args_t *args, bool warmup, backend_sample_t *out,
                  char *err, size_t errlen);
    /* 0 and *out filled when the backend runs on a device; -1 otherwise (emulator). */
    int (*device)(void *self, backend_device_t *out);
    /* 0 and *out filled for the emulator; -1 otherwise. */
    int (*emulator)(void *self, backend_emulator_t *out);
    /* Work (backend_work_t), run once to completion: 0, or -1 with err (the work's own error, or
     * the device's when the stream fails). */
    int (*run_work)(void *self, const backend_work_t *w, char *err, size_t errlen);
    /* One timed sample of work, exactly as sample times a kernel (cold L2, blocking kernel, events). */
    int (*sample_work)(void *self, const backend_work_t *w, bool warmup, backend_sample_t *out, char *err,
                       size_t errlen);
    /* Enqueues a device-to-device copy on stream (the copy-bandwidth ceiling). 0 or -1 with err. */
    int (*copy_d2d)(void *self, void *dst, const void *src, size_t bytes, void *stream, char *err,
                    size_t errlen);
    /* Total device memory in bytes (the emulator's device memory is the host's physical memory);
     * 0 when unknown. */
    uint64_t (*mem_bytes)(void *self);
} backend_ops_t;

extern const backend_ops_t backend_cuda_ops; /* backend_cuda.cu, or backend_nocuda.c */
extern const backend_ops_t backend_emu_ops;  /* backend_emu.c */

/* An opened backend: what the harness holds. */
typedef struct {
    const backend_ops_t *ops;
    void *self;
    /* --backend auto fell back to the emulator: why, and whether a GPU is visible on the machine
     * all the same (then the run says so at its end and in its report, never silently). */
    bool fell_back, gpu_visible;
    char fallback_reason[512];
} backend_t;

/* Whether an NVIDIA GPU is visible on this machine although CUDA is unusable: a device node
 * nvidia<N> in dev_dir ("/dev"; SDPA_DEV_DIR overrides it, for tests). */
bool backend_gpu_visible(const char *dev_dir);

/* Resolves kind (auto: CUDA when a device is usable, else the emulator, announcing
 * BACKEND_FALLBACK_MSG on stderr) and opens it. Returns 0; 2 when the requested backend cannot
 * be used (bad usage/input: "--backend cuda: ..."); 3 when opening failed at run time. */
int backend_select(backend_kind_t kind, const backend_options_t *opt, backend_t *out, char *err,
                   size_t errlen);
void backend_close(backend_t *b);
/* The kernel table of a backend kind (no device needed); NULL if that backend has none. */
const sdpa_kernel_entry_t *backend_kernels(backend_kind_t kind);
const char *backend_kind_name(backend_kind_t kind); /* "auto", "cuda", "emu" */
int backend_kind_from_name(const char *name, backend_kind_t *out);
const char *emu_schedule_name(emu_schedule_t s); /* "fwd", "rev", "rand" */
int emu_schedule_from_name(const char *name, emu_schedule_t *out);
/* Host pause used after throttled samples (nanosleep; restarts on EINTR). */
void backend_pause_s(double seconds);
/* Monotonic seconds (CLOCK_MONOTONIC). */
double backend_now_s(void);

#ifdef __cplusplus
}
#endif

#endif
