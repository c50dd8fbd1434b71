/* The catalogue of planted bugs (tests/emu/kernels/bug_*.cu). Each runs in a child process
 * (`<self> --case NAME`: TSan must see the race in-process, not in a forked copy; ASan aborts at
 * the first error) and must be reported at the line marked EMU-BUG(marker) in its source, or -
 * where the build cannot name a line - give wrong results under at least one schedule. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "emu_check.h"
#include "emu_tests.h"
#include "fp8.h"
#include "half.h"
#include "probes.h"

/* What a build must report. */
enum expect {
    SKIP,  /* not what this build catches */
    FAULT, /* a simt fault citing the marker line; the launch returns non-zero */
    WRONG, /* results differ from the reference under at least one schedule (no line to cite) */
    RACE,  /* a ThreadSanitizer data race citing the marker line (fwd) */
    RACE3, /* the same under each of fwd, rev and rand */
    ASAN,  /* an AddressSanitizer/UBSan error citing the marker line */
};

/* Exit status of a child: bits. */
enum { CHILD_FAULTED = 1, CHILD_WRONG = 2, CHILD_SOME_FAULTED = 4 };

#if defined(EMU_FLAVOUR_TSAN) || defined(EMU_FLAVOUR_ASAN)
enum { CHILD_SCHEDULES = 1 }; /* the sanitizers do not depend on the interleaving */
#else
enum { CHILD_SCHEDULES = EMU_N_SCHEDULES };
#endif

/* Runs `launch` under the child's schedules; returns CHILD_* bits: FAULTED when every launch
 * faulted, SOME_FAULTED when only some did. want may be NULL. */
static int run_schedules(int (*launch)(void *), void *ctx, const float *got, const float *want, size_t n) {
    int bits = 0, faults = 0;
    /* The sanitizer builds run one schedule per child: EMU_BUG_SCHEDULE (default fwd). */
    const char *pick = getenv("EMU_BUG_SCHEDULE");
    for (int s = 0; s < CHILD_SCHEDULES; s++) {
        emu_use_schedule(CHILD_SCHEDULES == 1 && pick ? atoi(pick) : s);
        faults += launch(ctx) != 0;
        if (want && emu_mismatches(got, want, n)) {
            bits |= CHILD_WRONG;
            printf("results differ from the reference under %s\n", emu_schedule_desc(s));
        }
    }
    if (faults) bits |= faults == CHILD_SCHEDULES ? CHILD_FAULTED : CHILD_SOME_FAULTED;
    return bits;
}

/* ---- the planted bugs, as run in the child --------------------------------------------------------- */
typedef struct {
    float *in, *out;
    int mode;
    uint16_t *a, *b;
} bug_ctx;

static bug_ctx make_ctx(size_t n, int mode) {
    bug_ctx c = {emu_alloc(n * 4), emu_alloc(n * 4), mode, NULL, NULL};
    for (size_t i = 0; i < n; i++) c.in[i] = (float)(i % 97) + 1.0f;
    return c;
}

static int launch_missing_sync(void *p) {
    return emut_bug_missing_sync(((bug_ctx *)p)->in, ((bug_ctx *)p)->out, 2);
}
static int case_missing_sync(void) {
    bug_ctx c = make_ctx(256, 0);
    float want[256];
    for (int i = 0; i < 256; i++) want[i] = 2.0f * c.in[i / 128 * 128 + (i % 128 + 1) % 128];
    return run_schedules(launch_missing_sync, &c, c.out, want, 256);
}

enum { COPY_TILES = 3, COPY_N = COPY_TILES * 128 * 4 };
static int launch_tiled_copy(void *p) {
    bug_ctx *c = p;
    return emut_bug_tiled_copy(c->in, c->out, COPY_TILES, c->mode);
}
static int run_tiled_copy(int mode) {
    bug_ctx c = make_ctx(COPY_N, mode);
    static float want[COPY_N];
    for (int i = 0; i < COPY_N; i++) want[i] = c.in[i / 512 * 512 + (i % 512 / 4 + 1) % 128 * 4 + i % 4];
    return run_schedules(launch_tiled_copy, &c, c.out, want, COPY_N);
}
static int case_cp_no_wait(void) { return run_tiled_copy(EMUT_CP_NO_WAIT); }
static int case_cp_no_sync(void) { return run_tiled_copy(EMUT_CP_NO_SYNC); }
static int case_cp_tail(void) { return run_tiled_copy(EMUT_CP_TAIL); }

/* A planted bug without a reference: the launch itself must fault. Buffers of 512 elements. */
static int run_faulting(int (*launch)(void *), int mode) {
    bug_ctx c = make_ctx(512, mode);
    c.a = emu_alloc(512 * 2);
    return run_schedules(launch, &c, NULL, NULL, 0);
}

static int launch_shfl(void *p) {
    bug_ctx *c = p;
    return emut_bug_shfl_divergent(c->in, c->out, c->mode);
}
static int launch_sync_divergent(void *p) { return emut_bug_sync_divergent(((bug_ctx *)p)->out); }
static int launch_sync_after_exit(void *p) { return emut_bug_sync_after_exit(((bug_ctx *)p)->out, 100); }
static int launch_smem_oob(void *p) { return emut_bug_smem_oob(((bug_ctx *)p)->out); }
static int launch_misaligned(void *p) { return emut_bug_misaligned(((bug_ctx *)p)->in, ((bug_ctx *)p)->out); }
static int launch_wmma_args(void *p) {
    bug_ctx *c = p;
    return emut_bug_wmma_args(c->a, c->out, c->mode);
}
static int launch_cp_misuse(void *p) {
    bug_ctx *c = p;
    return emut_bug_cp_async_misuse(c->in, c->out, c->mode);
}
static int case_shfl_exited(void) { return run_faulting(launch_shfl, 0); }
static int case_shfl_other(void) { return run_faulting(launch_shfl, 1); }
static int case_sync_divergent(void) { return run_faulting(launch_sync_divergent, 0); }
static int case_sync_after_exit(void) { return run_faulting(launch_sync_after_exit, 0); }
static int case_smem_oob(void) { return run_faulting(launch_smem_oob, 0); }
static int case_misaligned(void) { return run_faulting(launch_misaligned, 0); }
static int case_wmma_ldm(void) { return run_faulting(launch_wmma_args, 0); }
static int case_wmma_align(void) { return run_faulting(launch_wmma_args, 1); }
static int case_never_waited(void) { return run_faulting(launch_cp_misuse, 0); }
static int case_cp_size(void) { return run_faulting(launch_cp_misuse, 1); }
static int case_cp_direction(void) { return run_faulting(launch_cp_misuse, 2); }

/* S = A B with A = diag(1..16) and B[k][n] = 1 on the diagonal, 1/2 elsewhere: row r of S has
 * maximum r + 1, in column r. */
static int launch_wmma_layout(void *p) {
    bug_ctx *c = p;
    return emut_bug_wmma_layout(c->a, c->b, c->out);
}
static int case_wmma_layout(void) {
    bug_ctx c = make_ctx(256, 0);
    c.a = emu_alloc(256 * 2);
    c.b = emu_alloc(256 * 2);
    float want[16];
    for (int r = 0; r < 16; r++) {
        want[r] = (float)(r + 1);
        for (int k = 0; k < 16; k++) {
            c.a[r * 16 + k] = half_from_float(r == k ? (float)(r + 1) : 0.0f);
            c.b[r * 16 + k] = half_from_float(r == k ? 1.0f : 0.5f);
        }
    }
    return run_schedules(launch_wmma_layout, &c, c.out, want, 16);
}

/* D = A B for the f16 tile with small integers (exact); mode picks the planted bug. */
static int launch_mma_bug(void *p) {
    bug_ctx *c = p;
    return emut_bug_mma(c->a, c->b, c->out, c->mode);
}
/* The f16 tile's inputs (A [16][16], B [k][n] [16][8], small integers) and its exact product in want. */
static bug_ctx mma_tile_inputs(int mode, float want[128]) {
    bug_ctx c = make_ctx(128, mode);
    c.a = emu_alloc(256 * 2);
    c.b = emu_alloc(128 * 2);
    for (int i = 0; i < 256; i++) c.a[i] = half_from_float((float)(i % 7 - 3));
    for (int i = 0; i < 128; i++) c.b[i] = half_from_float((float)(i % 5 - 2));
    for (int i = 0; i < 128; i++) want[i] = 0.0f;
    for (int r = 0; r < 16; r++)
        for (int n = 0; n < 8; n++)
            for (int k = 0; k < 16; k++)
                want[r * 8 + n] += (float)(((r * 16 + k) % 7 - 3) * ((k * 8 + n) % 5 - 2));
    return c;
}
static int run_mma_bug(int mode) {
    float want[128];
    bug_ctx c = mma_tile_inputs(mode, want);
    return run_schedules(launch_mma_bug, &c, mode <= EMUT_LDSM_WRONG_LANES ? c.out : NULL,
                         mode <= EMUT_LDSM_WRONG_LANES ? want : NULL, 128);
}
static int case_mma_swapped(void) { return run_mma_bug(EMUT_MMA_SWAPPED_REG); }
static int case_ldsm_lanes(void) { return run_mma_bug(EMUT_LDSM_WRONG_LANES); }
static int case_ldsm_misaligned(void) { return run_mma_bug(EMUT_LDSM_MISALIGNED); }
static int case_ldsm_global(void) { return run_mma_bug(EMUT_LDSM_GLOBAL); }
static int case_ldsm_no_syncwarp(void) { return run_mma_bug(EMUT_LDSM_NO_SYNCWARP); }

static int launch_named(void *p) { return emut_bug_named_barrier(((bug_ctx *)p)->out, ((bug_ctx *)p)->mode); }
static int case_bar_never(void) { return run_faulting(launch_named, EMUT_BAR_NEVER_ARRIVES); }
static int case_bar_wrong_id(void) { return run_faulting(launch_named, EMUT_BAR_WRONG_ID); }
static int case_bar_count(void) { return run_faulting(launch_named, EMUT_BAR_COUNT_MISMATCH); }
static int case_bar_divergent(void) { return run_faulting(launch_named, EMUT_BAR_DIVERGENT); }

static int launch_mbar(void *p) { return emut_bug_mbarrier(((bug_ctx *)p)->out, ((bug_ctx *)p)->mode); }
static int case_mbar_parity(void) { return run_faulting(launch_mbar, EMUT_MBAR_PARITY_NOT_FLIPPED); }
static int case_mbar_producer0(void) { return run_faulting(launch_mbar, EMUT_MBAR_PRODUCER_PARITY0); }
static int case_mbar_reinit(void) { return run_faulting(launch_mbar, EMUT_MBAR_REINIT); }
static int case_mbar_unordered(void) { return run_faulting(launch_mbar, EMUT_MBAR_NO_SYNC_AFTER_INIT); }
static int case_mbar_double_release(void) { return run_faulting(launch_mbar, EMUT_MBAR_DOUBLE_RELEASE); }

/* TMA: a 128 x 128 uint8 tensor (byte i = i % 251), a 2-D map with a 64 x 64-byte box and a 3-D one. */
static CUtensorMap tma_map, tma_map3;
static void tma_maps(void) {
    static uint8_t *g;
    if (g) return;
    g = emu_alloc(128 * 128);
    for (int i = 0; i < 128 * 128; i++) g[i] = (uint8_t)(i % 251);
    const cuuint64_t dims[3] = {128, 64, 2}, strides[2] = {128, 128 * 64};
    const cuuint32_t box[3] = {64, 64, 1};
    char err[256];
    if (probe_encode_tiled(&tma_map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, g, dims, strides, box,
                           CU_TENSOR_MAP_SWIZZLE_NONE, err, sizeof err) ||
        probe_encode_tiled(&tma_map3, CU_TENSOR_MAP_DATA_TYPE_UINT8, 3, g, dims, strides, box,
                           CU_TENSOR_MAP_SWIZZLE_NONE, err, sizeof err))
        fail_msg("encode: %s", err);
}
/* The launch's bytes as floats in c->in (got): the box, then the early read. */
static int launch_tma(void *p) {
    bug_ctx *c = p;
    uint8_t *out = (uint8_t *)c->out;
    memset(out, 0, 8193);
    const int rc = emut_bug_tma(&tma_map, &tma_map3, out, c->mode);
    for (int i = 0; i < 4096; i++) c->in[i] = out[i];
    c->in[4096] = out[8192];
    return rc;
}
static int run_tma_bug(int mode) {
    tma_maps();
    bug_ctx c = make_ctx(4097, mode);
    c.out = emu_alloc(8193);
    static float want[4097];
    for (int i = 0; i < 4096; i++) want[i] = (float)((i / 64 * 128 + i % 64) % 251);
    want[4096] = mode == EMUT_TMA_READ_EARLY ? want[0] : 0.0f;
    const int compare = mode == EMUT_TMA_OK || mode == EMUT_TMA_READ_EARLY; /* the others must fault */
    return run_schedules(launch_tma, &c, c.in, compare ? want : NULL, 4097);
}
int emu_bug_tma_control(void) { return run_tma_bug(EMUT_TMA_OK); }
static int case_tma_expect_small(void) { return run_tma_bug(EMUT_TMA_EXPECT_SMALL); }
static int case_tma_expect_large(void) { return run_tma_bug(EMUT_TMA_EXPECT_LARGE); }
static int case_tma_no_fence(void) { return run_tma_bug(EMUT_TMA_NO_INIT_FENCE); }
static int case_tma_misaligned(void) { return run_tma_bug(EMUT_TMA_MISALIGNED); }
static int case_tma_bad_map(void) { return run_tma_bug(EMUT_TMA_BAD_MAP); }
static int case_tma_no_wait(void) { return run_tma_bug(EMUT_TMA_NO_WAIT); }
static int case_tma_overlap(void) { return run_tma_bug(EMUT_TMA_OVERLAP); }
static int case_tma_read_early(void) { return run_tma_bug(EMUT_TMA_READ_EARLY); }
static int case_tma_unaligned_coord(void) { return run_tma_bug(EMUT_TMA_UNALIGNED_COORD); }

/* wgmma: A [64][32], B [16][32] small integers; the map of A for the TMA modes. */
static CUtensorMap wg_map;
static uint8_t *wg_a, *wg_b;
static void wg_inputs(void) {
    if (wg_a) return;
    wg_a = emu_alloc(64 * 32);
    wg_b = emu_alloc(16 * 32);
    for (int i = 0; i < 64 * 32; i++) wg_a[i] = fp8_from_float((float)(i % 5 - 2), FP8_E4M3, FP8_SATFINITE);
    for (int i = 0; i < 16 * 32; i++) wg_b[i] = fp8_from_float((float)(i % 3 - 1), FP8_E4M3, FP8_SATFINITE);
    const cuuint64_t dims[2] = {32, 64}, strides[1] = {32};
    const cuuint32_t box[2] = {32, 64};
    char err[256];
    if (probe_encode_tiled(&wg_map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, wg_a, dims, strides, box,
                           CU_TENSOR_MAP_SWIZZLE_32B, err, sizeof err))
        fail_msg("encode: %s", err);
}
static int launch_wgmma(void *p) {
    bug_ctx *c = p;
    return emut_bug_wgmma(&wg_map, wg_a, wg_b, c->out, c->mode);
}
static int run_wgmma_bug(int mode) {
    wg_inputs();
    bug_ctx c = make_ctx(2048, mode);
    static float want[2048];
    for (int r = 0; r < 64; r++)
        for (int n = 0; n < 16; n++) {
            float s = 0;
            for (int k = 0; k < 32; k++) s += (float)((r * 32 + k) % 5 - 2) * (float)((n * 32 + k) % 3 - 1);
            want[r * 16 + n] = want[1024 + r * 16 + n] = s;
        }
    const int compare = mode == EMUT_WG_OK || mode == EMUT_WG_TMA_OK;
    return run_schedules(launch_wgmma, &c, c.out, compare ? want : NULL, 2048);
}
int emu_bug_wgmma_control(int tma) { return run_wgmma_bug(tma ? EMUT_WG_TMA_OK : EMUT_WG_OK); }
static int case_wg_w1(void) { return run_wgmma_bug(EMUT_WG_W1); }
static int case_wg_w3(void) { return run_wgmma_bug(EMUT_WG_W3); }
static int case_wg_w4(void) { return run_wgmma_bug(EMUT_WG_W4); }
static int case_wg_w5(void) { return run_wgmma_bug(EMUT_WG_W5); }
static int case_wg_w6(void) { return run_wgmma_bug(EMUT_WG_W6); }
static int case_wg_w6_tma(void) { return run_wgmma_bug(EMUT_WG_W6_TMA); }
static int case_wg_w7(void) { return run_wgmma_bug(EMUT_WG_W7); }
static int case_wg_w8(void) { return run_wgmma_bug(EMUT_WG_W8); }
static int case_wg_w8_misaligned(void) { return run_wgmma_bug(EMUT_WG_W8_MISALIGNED); }
static int case_wg_w9(void) { return run_wgmma_bug(EMUT_WG_W9); }
static int case_wg_w10(void) { return run_wgmma_bug(EMUT_WG_W10); }
static int case_wg_m1(void) { return run_wgmma_bug(EMUT_WG_M1); }
static int case_wg_swz_mid(void) { return run_wgmma_bug(EMUT_WG_SWZ_MID); }

static int launch_regs(void *p) { return emut_bug_regs(((bug_ctx *)p)->out, ((bug_ctx *)p)->mode); }
int emu_bug_regs_control(void) {
    bug_ctx c = make_ctx(384, EMUT_REG_OK);
    static float want[384];
    for (int i = 0; i < 384; i++) want[i] = (float)(i / 128);
    return run_schedules(launch_regs, &c, c.out, want, 384);
}
static int case_reg_r1(void) { return run_faulting(launch_regs, EMUT_REG_DIVERGENT); }
static int case_reg_r3(void) { return run_faulting(launch_regs, EMUT_REG_NO_DEC); }

static int launch_handover(void *p) {
    bug_ctx *c = p;
    return emut_bug_handover(c->in, c->out, c->mode);
}
static int run_handover(int mode) {
    bug_ctx c = make_ctx(128, mode);
    float want[32];
    for (int l = 0; l < 32; l++) want[l] = c.in[l] + c.in[32 + l] + c.in[64 + l] + c.in[96 + l];
    return run_schedules(launch_handover, &c, c.out, want, 32);
}
int emu_bug_handover_control(void) { return run_handover(EMUT_HANDOVER_OK); }
static int case_release_early(void) { return run_handover(EMUT_HANDOVER_RELEASE_EARLY); }
static int case_signal_early(void) { return run_handover(EMUT_HANDOVER_SIGNAL_EARLY); }

/* The f16 tile of run_mma_bug with an accumulator never zeroed: correct only if the stack held zeros. */
static int launch_uninit(void *p) {
    bug_ctx *c = p;
    return emut_bug_uninit(c->a, c->b, c->out);
}
static int case_uninit(void) {
    float want[128];
    bug_ctx c = mma_tile_inputs(0, want);
    return run_schedules(launch_uninit, &c, c.out, want, 128);
}

static int launch_tree(void *p) { return emut_bug_tree_reduce(((bug_ctx *)p)->in, ((bug_ctx *)p)->out, 2); }
static int case_tree_reduce(void) {
    bug_ctx c = make_ctx(512, 0);
    float want[2] = {0, 0};
    for (int i = 0; i < 512; i++) want[i / 256] += c.in[i];
    return run_schedules(launch_tree, &c, c.out, want, 2);
}

/* ---- the catalogue ------------------------------------------------------------------------------- */
typedef struct {
    const char *name;
    int (*run)(void);
    const char *file, *marker;
    const char *also; /* another marker the report must cite, or NULL */
    enum expect plain, tsan, asan;
    const char *says; /* FAULT: a phrase the fault message must contain (the hazard's class), or NULL */
} bug_case_t;

static const bug_case_t cases[] = {
    {"missing-sync", case_missing_sync, "bug_missing_sync.cu", "missing-sync", NULL, WRONG, RACE, SKIP, NULL},
    {"cp-missing-wait", case_cp_no_wait, "bug_cp_async_sync.cu", "cp-async-read", NULL, WRONG, RACE, SKIP,
     NULL},
    {"cp-no-barrier-after-wait", case_cp_no_sync, "bug_cp_async_sync.cu", "cp-async-read", NULL, WRONG, RACE,
     SKIP, NULL},
    {"cp-tail-wait-prior-1", case_cp_tail, "bug_cp_async_sync.cu", "cp-async-read", NULL, WRONG, RACE, SKIP,
     NULL},
    {"shfl-lanes-exited", case_shfl_exited, "bug_divergence.cu", "shfl-divergent", NULL, FAULT, FAULT, FAULT,
     NULL},
    {"shfl-lanes-elsewhere", case_shfl_other, "bug_divergence.cu", "shfl-divergent", "shfl-other", FAULT,
     FAULT, FAULT, NULL},
    {"syncthreads-divergent", case_sync_divergent, "bug_divergence.cu", "sync-divergent", NULL, FAULT, FAULT,
     FAULT, NULL},
    {"syncthreads-after-exit", case_sync_after_exit, "bug_divergence.cu", "sync-after-exit", NULL, FAULT,
     FAULT, FAULT, NULL},
    {"smem-out-of-bounds", case_smem_oob, "bug_memory.cu", "smem-oob", NULL, SKIP, SKIP, ASAN, NULL},
    {"misaligned-vector-load", case_misaligned, "bug_memory.cu", "misaligned", NULL, SKIP, SKIP, ASAN, NULL},
    {"wmma-accumulator-by-position", case_wmma_layout, "bug_wmma.cu", "wmma-layout", NULL, WRONG, SKIP, SKIP,
     NULL},
    {"wmma-bad-ldm", case_wmma_ldm, "bug_wmma.cu", "wmma-ldm", NULL, FAULT, FAULT, FAULT, NULL},
    {"wmma-misaligned-pointer", case_wmma_align, "bug_wmma.cu", "wmma-align", NULL, FAULT, FAULT, FAULT,
     NULL},
    {"cp-never-waited", case_never_waited, "bug_cp_async_misuse.cu", "never-waited", NULL, FAULT, FAULT,
     FAULT, NULL},
    {"cp-bad-size", case_cp_size, "bug_cp_async_misuse.cu", "cp-size", NULL, FAULT, FAULT, FAULT, NULL},
    {"cp-global-destination", case_cp_direction, "bug_cp_async_misuse.cu", "cp-direction", NULL, FAULT, FAULT,
     FAULT, NULL},
    {"mma-register-swapped", case_mma_swapped, "bug_mma.cu", "mma-swapped", NULL, WRONG, SKIP, SKIP, NULL},
    {"ldmatrix-wrong-lanes", case_ldsm_lanes, "bug_mma.cu", "ldsm-lanes", NULL, WRONG, SKIP, SKIP, NULL},
    {"ldmatrix-misaligned", case_ldsm_misaligned, "bug_mma.cu", "ldsm-misaligned", NULL, FAULT, FAULT, FAULT,
     NULL},
    /* ASan: static shared memory is ordinary storage there, so shared cannot be told from global */
    {"ldmatrix-global-address", case_ldsm_global, "bug_mma.cu", "ldsm-global", NULL, FAULT, FAULT, SKIP,
     NULL},
    {"bar-producer-never-arrives", case_bar_never, "bug_named_barrier.cu", "never-arrives", NULL, FAULT,
     FAULT, FAULT, NULL},
    {"bar-consumer-wrong-id", case_bar_wrong_id, "bug_named_barrier.cu", "wrong-id", NULL, FAULT, FAULT,
     FAULT, NULL},
    {"bar-mismatched-counts", case_bar_count, "bug_named_barrier.cu", "count-producer", "count-consumer",
     FAULT, FAULT, FAULT, NULL},
    {"bar-sync-divergent", case_bar_divergent, "bug_named_barrier.cu", "bar-divergent", NULL, FAULT, FAULT,
     FAULT, NULL},
    {"mbar-parity-not-flipped", case_mbar_parity, "bug_mbarrier.cu", "mbar-wait", NULL, FAULT, FAULT, FAULT,
     "(M2)"},
    {"mbar-producer-starts-on-parity-0", case_mbar_producer0, "bug_mbarrier.cu", "mbar-wait", NULL, FAULT,
     FAULT, FAULT, "M7)"},
    {"mbar-second-init", case_mbar_reinit, "bug_mbarrier.cu", "mbar-reinit", NULL, FAULT, FAULT, FAULT,
     "(M6)"},
    {"mbar-init-not-ordered", case_mbar_unordered, "bug_mbarrier.cu", "mbar-wait", NULL, FAULT, FAULT, FAULT,
     "mbarrier"},
    {"mbar-arrive-before-phase-waited", case_mbar_double_release, "bug_mbarrier.cu", "mbar-release", NULL,
     FAULT, FAULT, FAULT, "before any wait saw phase"},
    {"tma-expect-tx-too-small", case_tma_expect_small, "bug_tma.cu", "tma-expect", NULL, FAULT, FAULT, FAULT,
     "(M3)"},
    {"tma-expect-tx-too-large", case_tma_expect_large, "bug_tma.cu", "tma-expect", NULL, FAULT, FAULT, FAULT,
     "(M3)"},
    {"tma-init-not-fenced", case_tma_no_fence, "bug_tma.cu", "tma-issue", NULL, FAULT, FAULT, FAULT, "M5"},
    {"tma-misaligned-destination", case_tma_misaligned, "bug_tma.cu", "tma-issue", NULL, FAULT, FAULT, FAULT,
     "(T1"},
    {"tma-unaligned-inner-coordinate", case_tma_unaligned_coord, "bug_tma.cu", "tma-issue", NULL, FAULT,
     FAULT, FAULT, "(T1, measured)"},
    {"tma-invalid-map", case_tma_bad_map, "bug_tma.cu", "tma-issue", NULL, FAULT, FAULT, FAULT, "(T2)"},
    {"tma-in-flight-at-exit", case_tma_no_wait, "bug_tma.cu", "tma-issue", NULL, FAULT, FAULT, FAULT, "T3)"},
    {"tma-overlapping-copies", case_tma_overlap, "bug_tma.cu", "tma-overlap", NULL, FAULT, FAULT, FAULT,
     "(T4)"},
    {"tma-read-before-wait", case_tma_read_early, "bug_tma.cu", "tma-read-early", NULL, WRONG, RACE, SKIP,
     NULL},
    {"wgmma-no-fence", case_wg_w1, "bug_wgmma.cu", "wg-issue", NULL, FAULT, FAULT, FAULT, "(W1)"},
    {"wgmma-read-before-wait", case_wg_w3, "bug_wgmma.cu", "wg-wait1", "wg-issue-rs", FAULT, FAULT, FAULT,
     "(W3)"},
    {"wgmma-accumulator-written-in-flight", case_wg_w4, "bug_wgmma.cu", "wg-issue", NULL, FAULT, FAULT, FAULT,
     "(W4)"},
    {"wgmma-a-registers-overwritten", case_wg_w5, "bug_wgmma.cu", "wg-issue-rs", NULL, FAULT, FAULT, FAULT,
     "(W5)"},
    {"wgmma-operand-overwritten", case_wg_w6, "bug_wgmma.cu", "wg-issue", NULL, FAULT, FAULT, FAULT, "W6"},
    {"wgmma-stage-refilled-in-flight", case_wg_w6_tma, "bug_wgmma.cu", "wg-refill", "wg-issue", FAULT, FAULT,
     FAULT, "W6"},
    {"wgmma-stores-not-fenced", case_wg_w7, "bug_wgmma.cu", "wg-issue", NULL, FAULT, FAULT, FAULT, "(W7)"},
    {"wgmma-warp-leaves-warpgroup", case_wg_w8, "bug_wgmma.cu", "wg-issue", NULL, FAULT, FAULT, FAULT,
     "(W8)"},
    {"wgmma-partial-warpgroup", case_wg_w8_misaligned, "bug_wgmma.cu", "wg-issue", NULL, FAULT, FAULT, FAULT,
     "(W8)"},
    {"wgmma-descriptors-differ", case_wg_w9, "bug_wgmma.cu", "wg-issue", NULL, FAULT, FAULT, FAULT, "(W9)"},
    {"wgmma-descriptor-vs-tma-layout", case_wg_w10, "bug_wgmma.cu", "wg-issue", NULL, FAULT, FAULT, FAULT,
     "(W10)"},
    {"wgmma-reads-tma-before-wait", case_wg_m1, "bug_wgmma.cu", "wg-issue", NULL, FAULT, FAULT, FAULT,
     "(M1)"},
    {"wgmma-swizzled-start-inside-repeat", case_wg_swz_mid, "bug_wgmma.cu", "wg-issue", NULL, FAULT, FAULT,
     FAULT, "inside its swizzle's"},
    {"setmaxnreg-divergent-warpgroup", case_reg_r1, "bug_wgmma.cu", "reg-inc", NULL, FAULT, FAULT, FAULT,
     "setmaxnreg"},
    {"setmaxnreg-pool-oversubscribed", case_reg_r3, "bug_wgmma.cu", "reg-inc", NULL, FAULT, FAULT, FAULT,
     "(R3)"},
    {"consumer-releases-slot-before-reading", case_release_early, "bug_handover.cu", "release-early", NULL,
     WRONG, RACE, SKIP, NULL},
    {"producer-signals-before-copies-land", case_signal_early, "bug_handover.cu", "signal-early", NULL, WRONG,
     SKIP, SKIP, NULL},
    /* TSan: its own runtime runs on the fiber stacks and overwrites the poison below the kernel's frames */
    {"accumulator-never-zeroed", case_uninit, "bug_uninit.cu", "uninit", NULL, WRONG, SKIP, WRONG, NULL},
    /* the plain build runs each lane up to the collective: the rows are complete (no wrong result) */
    {"ldmatrix-rows-without-syncwarp", case_ldsm_no_syncwarp, "bug_mma.cu", "ldsm-no-syncwarp", NULL, SKIP,
     RACE, SKIP, NULL},
    {"tree-reduce-no-barrier", case_tree_reduce, "bug_tree_reduce.cu", "tree-reduce", NULL, WRONG, RACE3,
     SKIP, NULL},
};
enum { N_CASES = sizeof cases / sizeof cases[0] };

static enum expect expected(const bug_case_t *c) {
#if defined(EMU_FLAVOUR_TSAN)
    return c->tsan;
#elif defined(EMU_FLAVOUR_ASAN)
    return c->asan;
#else
    return c->plain;
#endif
}

int emu_run_bug_case(const char *name) {
    for (int i = 0; i < N_CASES; i++)
        if (strcmp(cases[i].name, name) == 0) {
            int bits = cases[i].run();
            fprintf(stderr, "last_error: %s\n", simt_last_error());
            return bits;
        }
    fprintf(stderr, "unknown case %s\n", name);
    return 99;
}

static void expect_cited(const char *out, const bug_case_t *c, const char *marker) {
    int line = emu_marker_line(c->file, marker);
    if (!emu_cites(out, c->file, line)) fail_msg("the report does not cite %s:%d", c->file, line);
}

/* A data race must be reported under every schedule (TSan sees only the interleaving that ran):
 * one child per schedule, fwd, rev and rand. */
static void expect_race_everywhere(const bug_case_t *c) {
    for (int s = 0; s < 3; s++) {
        char pick[32], *out = NULL;
        snprintf(pick, sizeof pick, "EMU_BUG_SCHEDULE=%d", s);
        const char *env[] = {pick, NULL};
        emu_run_child(c->name, env, &out);
        if (!strstr(out, "WARNING: ThreadSanitizer: data race"))
            fail_msg("no data race reported under %s", emu_schedule_desc(s));
        expect_cited(out, c, c->marker);
        free(out);
    }
}

static void test_bug(void **state) {
    const bug_case_t *c = *state;
    char *out = NULL;
    if (expected(c) == RACE3) {
        expect_race_everywhere(c);
        return;
    }
    int status = emu_run_child(c->name, NULL, &out);
    switch (expected(c)) {
    case FAULT: {
        char head[256];
        snprintf(head, sizeof head, "last_error: simt: ");
        if (status != CHILD_FAULTED) fail_msg("exit status %d: want a fault under every schedule", status);
        if (!strstr(out, head) || !strstr(out, "(block (") || !strstr(out, ", thread ("))
            fail_msg("no fault message in simt_last_error()");
        expect_cited(strstr(out, head), c, c->marker);
        if (c->also) expect_cited(out, c, c->also);
        if (c->says && !strstr(strstr(out, head), c->says))
            fail_msg("the fault does not say \"%s\"", c->says);
        break;
    }
    case WRONG:
        if (status != CHILD_WRONG) fail_msg("exit status %d: want wrong results and no fault", status);
        break;
    case RACE:
        if (!strstr(out, "WARNING: ThreadSanitizer: data race")) fail_msg("no data race reported");
        expect_cited(out, c, c->marker);
        break;
    case RACE3: break; /* above */
    case ASAN:
        if (status == 0) fail_msg("exit status 0: the sanitizer did not stop the run");
        if (!strstr(out, "ERROR: AddressSanitizer") && !strstr(out, "runtime error:"))
            fail_msg("no AddressSanitizer/UBSan report");
        expect_cited(out, c, c->marker);
        break;
    case SKIP: break;
    }
    free(out);
}

int emu_run_bug_tests(void) {
    struct CMUnitTest tests[N_CASES];
    static char names[N_CASES][96];
    static const char *what[] = {"",
                                 "fault at its line",
                                 "wrong results",
                                 "data race at its line",
                                 "data race at its line",
                                 "sanitizer error at its line"};
    int n = 0;
    for (int i = 0; i < N_CASES; i++) {
        if (expected(&cases[i]) == SKIP) continue;
        snprintf(names[n], sizeof names[n], "planted bug %s: %s%s", cases[i].name, what[expected(&cases[i])],
                 expected(&cases[i]) == RACE3 ? " (fwd, rev, rand)" : "");
        tests[n] = (struct CMUnitTest){names[n], test_bug, NULL, NULL, (void *)&cases[i]};
        n++;
    }
    return _cmocka_run_group_tests("emulator: planted bugs", tests, (size_t)n, NULL, NULL);
}
