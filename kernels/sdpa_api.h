/* The C interface between the host and the kernels: one struct of arguments, one launcher per
 * variant, status codes. Plain C (no CUDA types) so that C11 host code, nvcc and the emulator
 * build (clang++) all include it.
 *
 * Layout: Q, K, V are uint8 codes [B,H,S,D] contiguous; q/k/v_scale are float32 per head
 * (length H, shared by all batch elements); O is fp16 [B,H,S,D] (IEEE binary16 bits).
 * Pointers are device pointers on the CUDA backend and host pointers on the emulator; all must be
 * 16-byte aligned (cp.async copies 16 bytes; cudaMalloc gives 256).
 * Semantics: O = softmax(softmax_scale * Qd Kd^T + M) Vd, where Xd is the decoded input
 * (codec_decode in host/lib/fp8.h) and M is 0, or with causal = 1 -inf for every key after its
 * query row (key j > row i). */
#ifndef SDPA_API_H
#define SDPA_API_H

#include <stddef.h>
#include <stdint.h>
#include "switches.h"
#include "geometry.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The head dimensions a kernel instance may exist for (each variant's own: sdpa_geometry_t; the
 * register-resident line, stages 7a on included, has both, stages 0-3a only 64: geometry.h,
 * SDPA_WIDE_OF). */
#define SDPA_HEAD_DIMS_TEXT "64, 128"
#define SDPA_MAX_HEAD_DIMS 2
static inline int sdpa_head_dim_known(long long D) { return D == 64 || D == 128; }
#define SDPA_MAX_GRID_YZ 65535 /* gridDim.y (H) and gridDim.z (B) limits */

typedef enum { SDPA_CODEC_E4M3 = 0, SDPA_CODEC_SEED_LINEAR = 1 } sdpa_codec_t;

typedef enum {
    SDPA_OK = 0,
    SDPA_ERR_NULL,        /* a required pointer is NULL */
    SDPA_ERR_HEAD_DIM,    /* D not one of SDPA_HEAD_DIMS_TEXT, or not one this variant is built for */
    SDPA_ERR_EMPTY,       /* B, H or S < 1 */
    SDPA_ERR_TOO_LARGE,   /* B*H*S*D does not fit the kernel's 32-bit indexing, or H/B exceed the grid */
    SDPA_ERR_CODEC,       /* unknown codec */
    SDPA_ERR_ALIGNMENT,   /* a pointer is not 16-byte aligned */
    SDPA_ERR_LAUNCH,      /* the device or runtime failed the launch (a CUDA error): a run-time error of the
                         * machine, never a verdict on the kernel (sdpa-bench exits 3) */
    SDPA_ERR_FAULT,       /* the emulator found a fault in the kernel (barrier, race, bounds): the
                         * kernel is wrong (a correctness failure) */
    SDPA_ERR_UNSUPPORTED, /* the variant cannot compute on these inputs (an FP8_MMA variant given the
                           * seed-linear codec; a causal mask or D = 128 where the variant has no
                           * such instance, or with the seed-linear codec): never run, never a
                           * verdict (sdpa-bench lists it under not_supported before launching) */
} sdpa_status_t;

typedef struct {
    const uint8_t *q, *k, *v;
    const float *q_scale, *k_scale, *v_scale;
    uint16_t *o;
    int32_t B, H, S, D;
    float softmax_scale;
    sdpa_codec_t codec;
    void *stream;   /* cudaStream_t on the CUDA backend; ignored by the emulator */
    int32_t causal; /* 1: key j > query row i is masked (sdpa_geometry_t.causal says who can) */
} sdpa_args_t;

typedef sdpa_status_t (*sdpa_launch_fn)(const sdpa_args_t *args);

/* One kernel instance's geometry (geometry.h), as the kernels' Config computes it: the launcher's
 * grid (ceil(S / tile_m), H, B), block (32 warps threads) and shared memory. */
typedef struct {
    const char *kernel;   /* the e4m3 __global__ function's name in ptxas output: sdpa_<ident>_e4m3[_d<D>] */
    int32_t head_dim;     /* D of this instance */
    int32_t tile_m;       /* query rows per CTA */
    int32_t tile_n;       /* keys per KV tile */
    int32_t warps;        /* per CTA */
    int32_t mma_warps;    /* computing warps of the register-resident line (0: all 4 share rows) */
    int32_t smem_bytes;   /* shared memory per CTA */
    int32_t dynamic_smem; /* 1: dynamic (above SDPA_STATIC_SMEM_MAX, opted in), 0: static */
    int32_t causal;       /* 1: a causal instance exists too (E4M3 codec: the kernel's name + "_causal",
                           * the same geometry) */
} sdpa_geometry_t;

typedef struct {
    const char *id;        /* "stage2" */
    const char *parent;    /* "stage1", "" for the root */
    sdpa_switches_t sw;    /* SDPA_SW(...) bits (switches.h) */
    const char *summary;   /* one line */
    sdpa_launch_fn launch; /* the launcher of this build (CUDA or emulator) */
    int32_t n_geometry;    /* head dimensions this variant is built for */
    sdpa_geometry_t geometry[SDPA_MAX_HEAD_DIMS];
} sdpa_kernel_entry_t;

/* A geometry from a variant's switches (geometry.h), for kernel tables written by hand (the tests'
 * stand-ins for the kernels); kernels/stages.cu takes its geometry from each Config instead. */
#define SDPA_GEOMETRY_OF_SWITCHES(kernel, sw, D, smem_bytes)                                                 \
    {                                                                                                        \
        (kernel), (D), SDPA_TILE_M_OF(sw), SDPA_TILE_N_OF(sw), SDPA_WARPS_OF(sw), SDPA_MMA_WARPS_OF(sw),     \
            (smem_bytes), 0, 0                                                                               \
    }

/* The entry's geometry for head dimension D; NULL when the variant is not built for it. */
static inline const sdpa_geometry_t *sdpa_entry_geometry(const sdpa_kernel_entry_t *e, int32_t D) {
    for (int32_t i = 0; e && i < e->n_geometry; i++)
        if (e->geometry[i].head_dim == D) return &e->geometry[i];
    return (const sdpa_geometry_t *)0;
}

/* One table per build of kernels/stages.cu: the nvcc build defines sdpa_kernels_cuda, the
 * emulator build sdpa_kernels_emu. A table ends with an entry whose id is NULL. */
extern const sdpa_kernel_entry_t sdpa_kernels_cuda[];
extern const sdpa_kernel_entry_t sdpa_kernels_emu[];

static inline const char *sdpa_status_str(sdpa_status_t s) {
    switch (s) {
    case SDPA_OK: return "ok";
    case SDPA_ERR_NULL: return "a required pointer is NULL";
    case SDPA_ERR_HEAD_DIM: return "unsupported head dimension (D = " SDPA_HEAD_DIMS_TEXT ")";
    case SDPA_ERR_EMPTY: return "empty problem (B, H and S must be >= 1)";
    case SDPA_ERR_TOO_LARGE: return "problem too large (B*H*S*D must be < 2^31, B and H <= 65535)";
    case SDPA_ERR_CODEC: return "unknown codec";
    case SDPA_ERR_ALIGNMENT: return "a pointer is not 16-byte aligned";
    case SDPA_ERR_LAUNCH: return "kernel launch failed";
    case SDPA_ERR_FAULT: return "the emulator found a fault in the kernel";
    case SDPA_ERR_UNSUPPORTED:
        return "this variant has no kernel for these inputs (codec, head dimension or causal mask)";
    }
    return "unknown status";
}

/* Shape check shared by the launchers and the CLI (so both reject the same inputs). */
static inline sdpa_status_t sdpa_check_shape(int64_t B, int64_t H, int64_t S, int64_t D) {
    if (B < 1 || H < 1 || S < 1) return SDPA_ERR_EMPTY;
    if (!sdpa_head_dim_known(D)) return SDPA_ERR_HEAD_DIM;
    if (B > SDPA_MAX_GRID_YZ || H > SDPA_MAX_GRID_YZ || S > INT32_MAX / D) return SDPA_ERR_TOO_LARGE;
    if (B * H > INT32_MAX / (S * D)) return SDPA_ERR_TOO_LARGE; /* no product can overflow here */
    return SDPA_OK;
}

static inline sdpa_status_t sdpa_check_args(const sdpa_args_t *a) {
    if (!a || !a->q || !a->k || !a->v || !a->q_scale || !a->k_scale || !a->v_scale || !a->o)
        return SDPA_ERR_NULL;
    sdpa_status_t st = sdpa_check_shape(a->B, a->H, a->S, a->D);
    if (st != SDPA_OK) return st;
    if (a->codec != SDPA_CODEC_E4M3 && a->codec != SDPA_CODEC_SEED_LINEAR) return SDPA_ERR_CODEC;
    if (((uintptr_t)a->q | (uintptr_t)a->k | (uintptr_t)a->v | (uintptr_t)a->o) & 15u)
        return SDPA_ERR_ALIGNMENT;
    return SDPA_OK;
}

#ifdef __cplusplus
}
#endif

#endif
