/* Correct kernels under every schedule: each launch succeeds without a fault (or, in the TSan
 * build, a race report), the results are identical under fwd, rev and rand (2 seeds), and they
 * equal a CPU reference exactly (integer-valued data: no rounding anywhere). */
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

typedef emu_run_fn run_fn;
#define run_everywhere emu_run_everywhere

static void expect_equal(const float *got, const float *want, size_t n, const char *what) {
    for (size_t i = 0; i < n; i++)
        if (!(got[i] == want[i])) fail_msg("%s[%zu] = %g, want %g", what, i, got[i], want[i]);
}

static float small_int(int i, int mod) { return (float)((i * 7 + 3) % mod - mod / 2); }

/* ---- block reduction ---------------------------------------------------------------------------- */
typedef struct {
    float *in, *out;
    int n, threads;
} sum_ctx;
static int run_sum(void *p) {
    sum_ctx *c = p;
    return emut_block_sum(c->in, c->out, c->n, c->threads);
}

static void test_block_sum(void **state) {
    (void)state;
    sum_ctx c = {emu_alloc(1000 * sizeof(float)), emu_alloc(4 * sizeof(float)), 1000, 256};
    float want[4] = {0};
    for (int i = 0; i < c.n; i++) want[i / 256] += c.in[i] = small_int(i, 11);
    run_everywhere(run_sum, &c, c.out, sizeof want);
    expect_equal(c.out, want, 4, "block sum");
    free(c.in);
    free(c.out);
}

/* ---- warp collectives, partial warps ------------------------------------------------------------ */
typedef struct {
    float *in, *out;
    int blocks, threads;
} warp_ctx;
static int run_warp(void *p) {
    warp_ctx *c = p;
    return emut_warp_ops(c->in, c->out, c->blocks, c->threads);
}

/* The reference of warp_ops (reduce.cu) for one thread. */
static void warp_ops_ref(const float *x, int threads, int t, float *o) {
    const int lane = t % 32, base = t - lane, lanes = threads - base < 32 ? threads - base : 32;
    const float *w = x + base;
    o[0] = w[0];
    o[1] = 3.0f * w[lane ^ 1];
    o[2] = 0;
    for (int l = 0; l <= lane; l++) o[2] += w[l];
    o[3] = 0;
    for (int l = lane & 16; l < (lane & 16) + 16 && l < lanes; l++) o[3] += w[l];
    int pos = 0, any3 = 0, count = 0, sum = 0;
    for (int l = 0; l < lanes; l++) {
        pos += w[l] > 0;
        any3 |= w[l] > 3;
        sum += (int)w[l];
    }
    for (int i = 0; i < threads; i++) count += x[i] > 0;
    o[4] = (float)pos;
    o[5] = (float)(2 * any3 + 1);
    o[6] = (float)sum;
    o[7] = lane & 1 ? w[(lane + 2) % lanes] : -1.0f;
    o[8] = (float)count;
}

static void check_warp_ops(int blocks, int threads) {
    const size_t n = (size_t)blocks * threads, outs = n * EMUT_WARP_OPS_OUT;
    warp_ctx c = {emu_alloc(n * sizeof(float)), emu_alloc(outs * sizeof(float)), blocks, threads};
    float *want = emu_alloc(outs * sizeof(float));
    for (size_t i = 0; i < n; i++) c.in[i] = small_int((int)i, 11);
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < threads; t++)
            warp_ops_ref(c.in + b * threads, threads, t,
                         want + ((size_t)b * threads + t) * EMUT_WARP_OPS_OUT);
    run_everywhere(run_warp, &c, c.out, outs * sizeof(float));
    expect_equal(c.out, want, outs, "warp_ops");
    free(c.in);
    free(c.out);
    free(want);
}

static void test_warp_ops_full(void **state) {
    (void)state;
    check_warp_ops(2, 128);
}
static void test_warp_ops_partial(void **state) {
    (void)state;
    check_warp_ops(3, 80); /* warps of 32, 32 and 16 threads */
}

/* ---- WMMA ----------------------------------------------------------------------------------------- */
enum { GM = 64, GN = 64, GK = 64 };
typedef struct {
    uint16_t *A, *B;
    void *C;
    int b_col, acc_half;
} gemm_ctx;
static int run_gemm(void *p) {
    gemm_ctx *c = p;
    return emut_wmma_gemm(c->A, c->B, c->b_col, c->acc_half, c->C, GM, GN, GK, 0.5f);
}

static void check_gemm(int b_col, int acc_half) {
    gemm_ctx c = {emu_alloc(GM * GK * 2), emu_alloc(GK * GN * 2), emu_alloc(GM * GN * 4), b_col, acc_half};
    static float a[GM][GK], b[GK][GN], want[GM * GN], got[GM * GN];
    for (int m = 0; m < GM; m++)
        for (int k = 0; k < GK; k++) c.A[m * GK + k] = half_from_float(a[m][k] = small_int(m * GK + k, 5));
    for (int k = 0; k < GK; k++)
        for (int n = 0; n < GN; n++) {
            b[k][n] = small_int(k * 3 + n * 5, 5);
            c.B[b_col ? n * GK + k : k * GN + n] = half_from_float(b[k][n]);
        }
    for (int m = 0; m < GM; m++)
        for (int n = 0; n < GN; n++) {
            float s = 0;
            for (int k = 0; k < GK; k++) s += a[m][k] * b[k][n];
            want[m * GN + n] = 0.5f * s;
        }
    run_everywhere(run_gemm, &c, c.C, (size_t)GM * GN * (acc_half ? 2 : 4));
    for (int i = 0; i < GM * GN; i++)
        got[i] = acc_half ? half_to_float(((uint16_t *)c.C)[i]) : ((float *)c.C)[i];
    expect_equal(got, want, GM * GN, "C");
    free(c.A);
    free(c.B);
    free(c.C);
}

static void test_wmma_row_float(void **state) { (void)state, check_gemm(0, 0); }
static void test_wmma_col_float(void **state) { (void)state, check_gemm(1, 0); }
static void test_wmma_row_half(void **state) { (void)state, check_gemm(0, 1); }
static void test_wmma_col_half(void **state) { (void)state, check_gemm(1, 1); }

typedef struct {
    float *in, *out;
    uint16_t *out_h;
} transpose_ctx;
static int run_transpose(void *p) {
    transpose_ctx *c = p;
    return emut_wmma_transpose(c->in, c->out, c->out_h);
}

static void test_wmma_accumulator_layouts(void **state) {
    (void)state;
    transpose_ctx c = {emu_alloc(256 * 4), emu_alloc(256 * 4), emu_alloc(256 * 2)};
    float want[256], got_h[256];
    for (int i = 0; i < 256; i++) c.in[i] = 0.25f * (float)i - 10.0f;
    for (int r = 0; r < 16; r++)
        for (int col = 0; col < 16; col++) want[r * 16 + col] = c.in[col * 16 + r];
    run_everywhere(run_transpose, &c, c.out, 256 * 4);
    expect_equal(c.out, want, 256, "transposed");
    for (int i = 0; i < 256; i++) got_h[i] = half_to_float(c.out_h[i]);
    expect_equal(got_h, c.in, 256, "half copy");
    free(c.in);
    free(c.out);
    free(c.out_h);
}

/* ---- cp.async ------------------------------------------------------------------------------------ */
enum { FP8_ROWS = 100, FP8_TILES = (FP8_ROWS + EMUT_CP_ROWS - 1) / EMUT_CP_ROWS };
typedef struct {
    uint8_t *codes;
    float *scales, *row_max, *warp_max;
    uint16_t *out;
    int drain;
} fp8_ctx;
static int run_fp8(void *p) {
    fp8_ctx *c = p;
    return emut_fp8_stage(c->codes, c->scales, c->out, c->row_max, c->warp_max, FP8_ROWS, c->drain);
}

static void check_fp8_stage(int drain) {
    const int n = FP8_ROWS * EMUT_CP_COLS;
    fp8_ctx c = {emu_alloc(n),
                 emu_alloc(FP8_TILES * 4),
                 emu_alloc(FP8_ROWS * 4),
                 emu_alloc(FP8_TILES * 4 * 4),
                 emu_alloc(n * 2),
                 drain};
    static float want[FP8_ROWS * EMUT_CP_COLS], got[FP8_ROWS * EMUT_CP_COLS];
    float want_row[FP8_ROWS], want_warp[FP8_TILES * 4];
    const float scales[4] = {0.5f, 2.0f, 0.25f, 1.0f};
    for (int i = 0; i < n; i++) {
        uint8_t code = (uint8_t)(i * 37 + 11);
        c.codes[i] = (code & 0x7f) == 0x7f ? code ^ 1 : code; /* no NaN codes: NaN means poison */
    }
    for (int t = 0; t < FP8_TILES; t++) c.scales[t] = scales[t % 4];
    for (int r = 0; r < FP8_ROWS; r++) {
        want_row[r] = -INFINITY;
        for (int j = 0; j < EMUT_CP_COLS; j++) {
            float v = want[r * EMUT_CP_COLS + j] =
                fp8_to_float(c.codes[r * EMUT_CP_COLS + j], FP8_E4M3) * c.scales[r / EMUT_CP_ROWS];
            want_row[r] = fmaxf(want_row[r], v);
        }
    }
    /* Warp w of a tile decodes its rows 8w..8w+7; rows past the end are zero-filled (0.0). */
    for (int w = 0; w < FP8_TILES * 4; w++) {
        want_warp[w] = -INFINITY;
        for (int r = w / 4 * EMUT_CP_ROWS + w % 4 * 8, k = 0; k < 8; r++, k++)
            want_warp[w] = fmaxf(want_warp[w], r < FP8_ROWS ? want_row[r] : 0.0f);
    }
    run_everywhere(run_fp8, &c, c.out, (size_t)n * 2);
    for (int i = 0; i < n; i++) got[i] = half_to_float(c.out[i]);
    expect_equal(got, want, (size_t)n, "decoded");
    expect_equal(c.row_max, want_row, FP8_ROWS, "row max");
    expect_equal(c.warp_max, want_warp, FP8_TILES * 4, "warp max");
    free(c.codes);
    free(c.scales);
    free(c.row_max);
    free(c.warp_max);
    free(c.out);
}

static void test_cp_async_empty_group_tail(void **state) { (void)state, check_fp8_stage(0); }
static void test_cp_async_drained_tail(void **state) { (void)state, check_fp8_stage(1); }

typedef struct {
    float *in, *out;
} copy_ctx;
static int run_copy(void *p) {
    copy_ctx *c = p;
    return emut_bug_tiled_copy(c->in, c->out, 3, EMUT_CP_OK);
}

/* The correct mode of the planted-bug kernel (bug_cp_async_sync.cu). */
static void test_cp_async_tiled_copy(void **state) {
    (void)state;
    const int n = 3 * 128 * 4;
    copy_ctx c = {emu_alloc(n * 4), emu_alloc(n * 4)};
    float *want = emu_alloc(n * 4);
    for (int i = 0; i < n; i++) c.in[i] = 0.5f * (float)i;
    for (int tile = 0; tile < 3; tile++)
        for (int t = 0; t < 128; t++)
            for (int j = 0; j < 4; j++)
                want[(tile * 128 + t) * 4 + j] = c.in[(tile * 128 + (t + 1) % 128) * 4 + j];
    run_everywhere(run_copy, &c, c.out, (size_t)n * 4);
    expect_equal(c.out, want, (size_t)n, "copied");
    free(c.in);
    free(c.out);
    free(want);
}

/* ---- indexing and dynamic shared memory --------------------------------------------------------- */
typedef struct {
    int *out;
    int grid[3], block[3];
} index_ctx;
static int run_index(void *p) {
    index_ctx *c = p;
    return emut_index3d(c->out, c->grid, c->block);
}

static void check_index(int gx, int gy, int gz, int bx, int by, int bz) {
    index_ctx c = {NULL, {gx, gy, gz}, {bx, by, bz}};
    const int per = bx * by * bz, total = gx * gy * gz * per;
    c.out = emu_alloc((size_t)total * EMUT_INDEX_OUT * sizeof(int));
    run_everywhere(run_index, &c, c.out, (size_t)total * EMUT_INDEX_OUT * sizeof(int));
    for (int z = 0, g = 0; z < gz; z++)
        for (int y = 0; y < gy; y++)
            for (int x = 0; x < gx; x++)
                for (int tz = 0; tz < bz; tz++)
                    for (int ty = 0; ty < by; ty++)
                        for (int tx = 0; tx < bx; tx++, g++) {
                            const int *o = c.out + g * EMUT_INDEX_OUT, local = g % per;
                            const int want[EMUT_INDEX_OUT] = {
                                tx + 100 * ty + 10000 * tz, x + 100 * y + 10000 * z,
                                g - local + per - 1 - local, gx + 100 * gy + 10000 * gz,
                                bx + 100 * by + 10000 * bz};
                            for (int k = 0; k < EMUT_INDEX_OUT; k++)
                                if (o[k] != want[k])
                                    fail_msg("thread %d: output %d = %d, want %d", g, k, o[k], want[k]);
                        }
    free(c.out);
}

static void test_index_1d(void **state) { (void)state, check_index(5, 1, 1, 33, 1, 1); }
static void test_index_2d(void **state) { (void)state, check_index(4, 3, 1, 16, 5, 1); }
static void test_index_3d(void **state) { (void)state, check_index(3, 2, 2, 8, 4, 2); }

/* ---- intrinsics ------------------------------------------------------------------------------------ */
enum { INTR_N = 64 };
typedef struct {
    float *in, *out;
} intr_ctx;
static int run_intrinsics(void *p) {
    return emut_intrinsics(((intr_ctx *)p)->in, ((intr_ctx *)p)->out, INTR_N);
}

static float to_half(float x) { return half_to_float(half_from_float(x)); }

/* The reference of intrinsics.cu for one input. */
static void intrinsics_ref(float x, int t, float *o) {
    const float h = to_half(x);
    unsigned bits;
    memcpy(&bits, &x, sizeof bits);
    o[0] = expf(x);
    o[1] = exp2f(x);
    o[2] = expf(x);
    o[3] = x / 3.0f;
    o[4] = 1.0f / x;
    o[5] = fmaxf(x, 0.5f);
    o[6] = to_half(exp2f(h));
    o[7] = to_half(exp2f(h)) + to_half(exp2f(-h));
    o[8] = to_half(h * 2.0f + 1.0f);
    o[9] = to_half(h + 1.0f) - to_half(-2.0f * h + 1.0f);
    o[10] = fmaxf(h, 0.25f);
    o[11] = h;
    o[12] = x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
    o[13] = -x;
    o[14] = 1.0f / sqrtf(fabsf(x) + 1.0f);
    o[15] = (float)(__builtin_popcount(bits) + __builtin_clz((unsigned)t + 1));
}

static void test_intrinsics(void **state) {
    (void)state;
    intr_ctx c = {emu_alloc(INTR_N * 4), emu_alloc(INTR_N * EMUT_INTRINSICS_OUT * 4)};
    for (int i = 0; i < INTR_N; i++) c.in[i] = 0.37f * (float)(i - INTR_N / 2) + 0.11f;
    run_everywhere(run_intrinsics, &c, c.out, INTR_N * EMUT_INTRINSICS_OUT * 4);
    for (int i = 0; i < INTR_N; i++) {
        float want[EMUT_INTRINSICS_OUT];
        intrinsics_ref(c.in[i], i, want);
        for (int k = 0; k < EMUT_INTRINSICS_OUT; k++) {
            float got = c.out[i * EMUT_INTRINSICS_OUT + k];
            if (!(fabsf(got - want[k]) <= 1e-6f * fabsf(want[k]) + 1e-30f))
                fail_msg("input %g, intrinsic %d: %.9g, want %.9g", c.in[i], k, got, want[k]);
        }
    }
    free(c.in);
    free(c.out);
}

typedef struct {
    unsigned *out;
} align_ctx;
static int run_alignment(void *p) { return emut_smem_alignment(((align_ctx *)p)->out); }

static void test_smem_alignment(void **state) {
    (void)state;
    align_ctx c = {emu_alloc(4 * sizeof(unsigned))};
    run_everywhere(run_alignment, &c, c.out, 4 * sizeof(unsigned));
    const unsigned want[4] = {0, 0, 0, 1};
    for (int i = 0; i < 4; i++)
        if (c.out[i] != want[i]) fail_msg("alignment check %d: %u, want %u", i, c.out[i], want[i]);
    free(c.out);
}

int emu_run_correct_tests(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_block_sum),
        cmocka_unit_test(test_warp_ops_full),
        cmocka_unit_test(test_warp_ops_partial),
        cmocka_unit_test(test_wmma_row_float),
        cmocka_unit_test(test_wmma_col_float),
        cmocka_unit_test(test_wmma_row_half),
        cmocka_unit_test(test_wmma_col_half),
        cmocka_unit_test(test_wmma_accumulator_layouts),
        cmocka_unit_test(test_cp_async_empty_group_tail),
        cmocka_unit_test(test_cp_async_drained_tail),
        cmocka_unit_test(test_cp_async_tiled_copy),
        cmocka_unit_test(test_index_1d),
        cmocka_unit_test(test_index_2d),
        cmocka_unit_test(test_index_3d),
        cmocka_unit_test(test_smem_alignment),
        cmocka_unit_test(test_intrinsics),
    };
    return cmocka_run_group_tests_name("emulator: correct kernels under fwd, rev, rand x2", tests, NULL,
                                       NULL);
}
