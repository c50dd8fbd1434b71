/* The CPU emulator behind backend.h. "Device" memory is 256-byte-aligned host memory (the
 * emulator checks WMMA's 256-bit pointer rule, and cudaMalloc gives 256), launches are synchronous
 * calls of the emulator-built launchers (sdpa_kernels_emu), and a timed sample is the wall-clock
 * time of one such call. Those samples are CPU times of a fiber emulator: the harness labels them
 * "emulated" everywhere, and nothing here pretends otherwise (no clock, no L2, no throttling). */
#include "backend.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef SDPA_HAVE_SIMT
#include "emu/simt.h"
#endif

/* Which emulator build the kernels came from (mk/bench.mk passes it; data/SCHEMA.md EMULATOR). */
#ifndef SDPA_EMU_BUILD
#define SDPA_EMU_BUILD "emu"
#endif

#define EMU_ALIGN 256

typedef struct {
    backend_options_t opt;
} emu_backend_t;

static const sdpa_kernel_entry_t *emu_kernels(void) { return sdpa_kernels_emu; }

static int emu_probe(const backend_options_t *opt, char *why, size_t whylen) {
    (void)opt;
    (void)why;
    (void)whylen;
    return 1;
}

/* Applies --schedule to the emulator runtime. Without --schedule the runtime keeps its own
 * setting (SIMT_SCHED / SIMT_SEED), and emu_emulator reports whatever is in force. Test builds
 * of the harness (a plain C kernel table, no emulator runtime) have nothing to schedule. */
static void emu_apply_schedule(const backend_options_t *opt) {
#ifdef SDPA_HAVE_SIMT
    static const simt_sched_t policy[] = {SIMT_SCHED_FWD, SIMT_SCHED_REV, SIMT_SCHED_RAND};
    uint64_t seed = 0;
    (void)simt_get_schedule(&seed);
    if (opt->schedule_given)
        simt_set_schedule(policy[opt->schedule], opt->schedule_seed_given ? opt->schedule_seed : seed);
#else
    (void)opt;
#endif
}

static void *emu_open(const backend_options_t *opt, char *err, size_t errlen) {
    emu_backend_t *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(err, errlen, "emulator: out of memory");
        return NULL;
    }
    b->opt = *opt;
    emu_apply_schedule(opt);
    return b;
}

static void emu_close(void *self) { free(self); }

static void *emu_alloc(void *self, size_t bytes, char *err, size_t errlen) {
    (void)self;
    const size_t rounded = (bytes + EMU_ALIGN - 1) / EMU_ALIGN * EMU_ALIGN;
    void *p = rounded ? aligned_alloc(EMU_ALIGN, rounded) : NULL;
    if (!p) snprintf(err, errlen, "emulator: cannot allocate %zu bytes", bytes);
    return p;
}

static void emu_release(void *self, void *dev) {
    (void)self;
    free(dev);
}

static int emu_copy(void *self, void *dst, const void *src, size_t bytes, char *err, size_t errlen) {
    (void)self;
    (void)err;
    (void)errlen;
    memcpy(dst, src, bytes);
    return 0;
}

static int emu_fill(void *self, void *dev, uint8_t value, size_t bytes, char *err, size_t errlen) {
    (void)self;
    (void)err;
    (void)errlen;
    memset(dev, value, bytes);
    return 0;
}

static void fault_message(sdpa_status_t st, char *err, size_t errlen) {
#ifdef SDPA_HAVE_SIMT
    const char *fault = simt_last_error();
    if (st == SDPA_ERR_FAULT && fault && *fault) {
        snprintf(err, errlen, "emulator fault: %s", fault);
        return;
    }
#endif
    snprintf(err, errlen, "%s", sdpa_status_str(st));
}

static void clear_fault(void) {
#ifdef SDPA_HAVE_SIMT
    simt_clear_error();
#endif
}

static sdpa_status_t emu_launch(void *self, sdpa_launch_fn fn, sdpa_args_t *args, char *err, size_t errlen) {
    (void)self;
    clear_fault();
    args->stream = NULL;
    const sdpa_status_t st = fn(args);
    if (st != SDPA_OK) fault_message(st, err, errlen);
    return st;
}

static int emu_sample(void *self, sdpa_launch_fn fn, sdpa_args_t *args, bool warmup, backend_sample_t *out,
                      char *err, size_t errlen) {
    (void)warmup; /* no stream to block: warm-ups run like samples */
    clear_fault();
    args->stream = NULL;
    const double t0 = backend_now_s();
    const sdpa_status_t st = fn(args);
    const double t1 = backend_now_s();
    (void)self;
    if (st != SDPA_OK) {
        fault_message(st, err, errlen);
        return -1;
    }
    out->elapsed_us = backend_keep_us((t1 - t0) * 1e6);
    out->sm_clock_mhz = NAN; /* no SM clock on a CPU: never throttle-checked */
    return 0;
}

static int emu_device(void *self, backend_device_t *out) {
    (void)self;
    (void)out;
    return -1;
}

static int emu_emulator(void *self, backend_emulator_t *out) {
    const emu_backend_t *b = self;
#ifdef SDPA_HAVE_SIMT
    (void)b;
    out->schedule = simt_schedule_name(simt_get_schedule(&out->schedule_seed));
#else
    out->schedule = emu_schedule_name(b->opt.schedule);
    out->schedule_seed = b->opt.schedule_seed;
#endif
    out->build = SDPA_EMU_BUILD;
    return 0;
}

/* Works (peers, ceilings) compute synchronously on the CPU: running one is a plain call. */
static int emu_run_work(void *self, const backend_work_t *w, char *err, size_t errlen) {
    (void)self;
    clear_fault();
    return w->run(w->ctx, NULL, err, errlen);
}

static int emu_sample_work(void *self, const backend_work_t *w, bool warmup, backend_sample_t *out, char *err,
                           size_t errlen) {
    (void)warmup;
    const double t0 = backend_now_s();
    const int rc = emu_run_work(self, w, err, errlen);
    const double t1 = backend_now_s();
    if (rc != 0) return -1;
    out->elapsed_us = backend_keep_us((t1 - t0) * 1e6);
    out->sm_clock_mhz = NAN;
    return 0;
}

static int emu_copy_d2d(void *self, void *dst, const void *src, size_t bytes, void *stream, char *err,
                        size_t errlen) {
    (void)stream;
    return emu_copy(self, dst, src, bytes, err, errlen);
}

static uint64_t emu_mem_bytes(void *self) {
    (void)self;
    const long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}

const backend_ops_t backend_emu_ops = {
    .name = "emu",
    .timing = "emulated",
    .kernels = emu_kernels,
    .probe = emu_probe,
    .open = emu_open,
    .close = emu_close,
    .alloc = emu_alloc,
    .release = emu_release,
    .copy_to = emu_copy,
    .copy_from = emu_copy,
    .fill_bytes = emu_fill,
    .launch = emu_launch,
    .sample = emu_sample,
    .device = emu_device,
    .emulator = emu_emulator,
    .run_work = emu_run_work,
    .sample_work = emu_sample_work,
    .copy_d2d = emu_copy_d2d,
    .mem_bytes = emu_mem_bytes,
};
