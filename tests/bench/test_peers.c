/* The pieces of the unfused cuBLAS peer that can be tested without a GPU:
 *   - the CPU GEMM table (gemm_cpu.c) against a naive fp64 reference of cublasGemmStridedBatchedEx's
 *     semantics, for every (transa, transb) with non-square shapes, leading dimensions larger than
 *     the rows, padded batch strides, alpha and beta; nothing outside each C_i may change, and C
 *     is not read when beta == 0;
 *   - the argument checks cuBLAS makes (leading dimensions, sizes);
 *   - the peer's bar (peer_tolerance.h) on inputs whose bounds are known by hand;
 *   - cuBLAS and cuBLASLt loaded at run time (cublas_dl.c): where the toolkit's libcublas.so.13 is
 *     installed (as on the build machines), every symbol the peer and the ceilings call resolves.
 * Tolerance of the GEMM comparison, fixed from the rounding model before running: one fp16 rounding
 * of the result (u = 2^-11 relative) plus the fp32 sum of k products (k * 2^-24 * sum |a b|). */
#include <dlfcn.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bench/cublas_dl.h"
#include "bench/gemm_table.h"
#include "bench/peer_tolerance.h"
#include "half.h"
#include "metrics.h"
#include "rng.h"

#define SENTINEL 0x7bffu /* 65504, the largest fp16: never a result here */

typedef struct {
    gemm_op_t ta, tb;
    int m, n, k, lda, ldb, ldc, batch;
    long long pad_a, pad_b, pad_c; /* extra elements between batch entries */
    float alpha, beta;
} gemm_case_t;

static size_t cols_of(gemm_op_t op, int rows_op, int cols_op) {
    return (size_t)(op == GEMM_N ? cols_op : rows_op);
}

static void fill_random(uint16_t *x, size_t n, rng_t *r) {
    for (size_t i = 0; i < n; i++) x[i] = half_from_float((float)rng_uniform(r, -2.0, 2.0));
}

static double at(const uint16_t *x, int ld, gemm_op_t op, int r, int c) {
    return half_to_float(op == GEMM_N ? x[(size_t)c * ld + r] : x[(size_t)r * ld + c]);
}

static void run_case(const gemm_case_t *t) {
    const long long sa = (long long)t->lda * (long long)cols_of(t->ta, t->m, t->k) + t->pad_a;
    const long long sb = (long long)t->ldb * (long long)cols_of(t->tb, t->k, t->n) + t->pad_b;
    const long long sc = (long long)t->ldc * t->n + t->pad_c;
    const size_t na = (size_t)(sa * t->batch), nb = (size_t)(sb * t->batch), nc = (size_t)(sc * t->batch);
    uint16_t *a = malloc(na * 2), *b = malloc(nb * 2), *c = malloc(nc * 2), *c0 = malloc(nc * 2);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    assert_non_null(c0);
    rng_t r;
    rng_seed(&r, 42, 0);
    fill_random(a, na, &r);
    fill_random(b, nb, &r);
    for (size_t i = 0; i < nc; i++) c[i] = SENTINEL;
    /* C's own elements: random where beta reads them, NaN where it must not. */
    for (int i = 0; i < t->batch; i++)
        for (int col = 0; col < t->n; col++)
            for (int row = 0; row < t->m; row++)
                c[(size_t)(i * sc) + (size_t)col * t->ldc + row] =
                    t->beta != 0.0f ? half_from_float((float)rng_uniform(&r, -1.0, 1.0)) : 0x7e00u;
    memcpy(c0, c, nc * 2);
    const gemm_args_t g = {t->ta, t->tb, t->m,   t->n, t->k, t->alpha, t->beta, a,       t->lda,
                           sa,    b,     t->ldb, sb,   c,    t->ldc,   sc,      t->batch};
    char err[256];
    void *h = gemm_table_cpu.create(err, sizeof err);
    assert_non_null(h);
    assert_int_equal(gemm_table_cpu.gemm(h, NULL, &g, err, sizeof err), 0);
    gemm_table_cpu.destroy(h);
    size_t inside = 0;
    for (int i = 0; i < t->batch; i++)
        for (int col = 0; col < t->n; col++)
            for (int row = 0; row < t->m; row++) {
                const size_t idx = (size_t)(i * sc) + (size_t)col * t->ldc + row;
                double ref = 0.0, mag = 0.0;
                for (int p = 0; p < t->k; p++) {
                    const double x =
                        at(a + i * sa, t->lda, t->ta, row, p) * at(b + i * sb, t->ldb, t->tb, p, col);
                    ref += x;
                    mag += fabs(x);
                }
                ref = t->alpha * ref + (t->beta != 0.0f ? t->beta * half_to_float(c0[idx]) : 0.0);
                const double tol = TOL_U * fabs(ref) + t->k * ldexp(1.0, -24) * fabs(t->alpha) * mag + 1e-7;
                const double got = half_to_float(c[idx]);
                if (!(fabs(got - ref) <= tol))
                    fail_msg("case %c%c m %d n %d k %d: C_%d(%d,%d) = %.8g, reference %.8g", "NT"[t->ta],
                             "NT"[t->tb], t -> m, t -> n, t -> k, i, row, col, got, ref);
                c[idx] = SENTINEL; /* checked: must now equal the untouched rest */
                inside++;
            }
    assert_int_equal(inside, (size_t)t->m * t->n * t->batch);
    for (size_t i = 0; i < nc; i++)
        if (c[i] != SENTINEL) fail_msg("element %zu outside every C_i was written", i);
    free(a);
    free(b);
    free(c);
    free(c0);
}

static void test_gemm_cases(void **state) {
    (void)state;
    static const gemm_case_t cases[] = {
        /* the peer's two calls, at a ragged size: scores^T = K'^T(T) Q' and O^T = V' P */
        {GEMM_T, GEMM_N, 33, 33, 64, 64, 64, 33, 6, 0, 0, 0, 1.0f, 0.0f},
        {GEMM_N, GEMM_N, 64, 33, 33, 64, 33, 64, 6, 0, 0, 0, 1.0f, 0.0f},
        /* every transpose pair, non-square, leading dimensions above the rows, padded strides */
        {GEMM_N, GEMM_N, 5, 7, 3, 9, 4, 6, 3, 5, 2, 7, 1.5f, 0.0f},
        {GEMM_N, GEMM_T, 5, 7, 3, 8, 9, 5, 2, 1, 3, 0, 1.0f, 0.5f},
        {GEMM_T, GEMM_N, 6, 4, 11, 12, 13, 7, 3, 0, 5, 3, -0.75f, 0.0f},
        {GEMM_T, GEMM_T, 7, 5, 2, 3, 6, 9, 4, 2, 2, 2, 2.0f, -1.0f},
        {GEMM_N, GEMM_N, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1.0f, 0.0f},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) run_case(&cases[i]);
}

static void test_gemm_argument_checks(void **state) {
    (void)state;
    uint16_t x[64] = {0};
    char err[256];
    const gemm_args_t ok = {GEMM_T, GEMM_N, 4, 4, 8, 1.0f, 0.0f, x, 8, 0, x, 8, 0, x, 4, 0, 1};
    assert_int_equal(gemm_args_check(&ok, err, sizeof err), 0);
    gemm_args_t g = ok;
    g.lda = 7; /* op T: A is k x m, so lda >= k = 8 */
    assert_int_equal(gemm_args_check(&g, err, sizeof err), -1);
    assert_non_null(strstr(err, "lda"));
    g = ok;
    g.transa = GEMM_N; /* op N: lda >= m = 4 is enough */
    assert_int_equal(gemm_args_check(&g, err, sizeof err), 0);
    g = ok;
    g.ldc = 3;
    assert_int_equal(gemm_args_check(&g, err, sizeof err), -1);
    assert_non_null(strstr(err, "ldc"));
    g = ok;
    g.batch = 0;
    assert_int_equal(gemm_args_check(&g, err, sizeof err), -1);
    g = ok;
    g.k = 0;
    assert_int_equal(gemm_args_check(&g, err, sizeof err), -1);
    assert_int_equal(gemm_table_cpu.gemm(NULL, NULL, &g, err, sizeof err), -1);
}

/* q = k = 0.5 everywhere (D = 64): every logit is 0.125 * 64 * 0.25 = 2, and so is A; v = -3 at one
 * element. */
static void test_peer_bar(void **state) {
    (void)state;
    const sdpa_shape_t s = {1, 2, 3, 64, 0};
    const size_t n = 2 * 3 * 64;
    double *q = malloc(n * sizeof *q), *k = malloc(n * sizeof *k), *v = calloc(n, sizeof *v);
    assert_non_null(q);
    assert_non_null(k);
    assert_non_null(v);
    for (size_t i = 0; i < n; i++) q[i] = k[i] = 0.5;
    for (size_t i = 3 * 64; i < n; i++) k[i] = (i % 2) ? 0.5 : -0.5; /* head 1: logits 0, A still 2 */
    v[5] = -3.0;
    v[3 * 64 + 7] = 1.0;
    peer_bound_t b[2];
    const size_t rows[3] = {0, 1, 2};
    peer_bounds(q, k, v, s, 0.125, rows, 3, b);
    assert_true(b[0].smax == 2.0 && b[0].amax == 2.0 && b[0].vmax == 3.0);
    assert_true(b[1].smax == 0.0 && b[1].amax == 2.0 && b[1].vmax == 1.0);
    assert_true(peer_atol(&b[0]) == 2.0 * TOL_U * (2.0 * 2.0 + 4.0 * 2.0 + 2.0) * 3.0);
    /* never tighter than the fp16 family's (A >= |s|) */
    for (int i = 0; i < 2; i++) assert_true(peer_atol(&b[i]) > tol_kernel_atol(b[i].smax, b[i].vmax));
    /* Over sampled rows only: row 1 of head 0 with a larger q; rows 0 and 2 do not see it. */
    for (size_t d = 0; d < 64; d++) q[64 + d] = 1.0;
    const size_t ends[2] = {0, 2};
    peer_bounds(q, k, v, s, 0.125, ends, 2, b);
    assert_true(b[0].smax == 2.0 && b[0].amax == 2.0);
    peer_bounds(q, k, v, s, 0.125, rows, 3, b);
    assert_true(b[0].smax == 4.0 && b[0].amax == 4.0);
    free(q);
    free(k);
    free(v);
}

static void test_cublas_symbols(void **state) {
    (void)state;
    char why[512] = "";
    void *probe = dlopen("libcublas.so.13", RTLD_NOW | RTLD_LOCAL);
    const cublas_dl_t *dl = cublas_dl_get(why, sizeof why);
#ifdef CUBLAS_DL_HAVE_HEADERS
    if (!probe) {
        assert_null(dl);
        assert_non_null(strstr(why, "not found"));
        skip(); /* no toolkit library on this machine: the loading itself cannot be checked */
    }
    if (!dl) fail_msg("libcublas.so.13 is installed, yet: %s", why);
    assert_string_equal(dl->cublas_file, "libcublas.so.13");
    assert_non_null(dl->cublasGemmStridedBatchedEx);
    assert_non_null(dl->cublasLtMatmul);
    assert_true(strncmp(dl->cublas_version, "13.", 3) == 0);
    assert_true(strncmp(dl->cublaslt_version, "13.", 3) == 0);
    dlclose(probe);
#else
    (void)probe;
    assert_null(dl);
    assert_non_null(strstr(why, "headers"));
#endif
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gemm_cases),
        cmocka_unit_test(test_gemm_argument_checks),
        cmocka_unit_test(test_peer_bar),
        cmocka_unit_test(test_cublas_symbols),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
