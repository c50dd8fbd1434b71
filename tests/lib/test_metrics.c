/* Error metrics and gates (host/lib/metrics.c), every expected value worked out by hand in the
 * comments. */
#include "testutil.h"

#include "metrics.h"

/* out = (1, 2, 3, 4), ref = (1, 2.5, 2, 4): errors (0, 0.5, 1, 0).
 * atol 0.6, rtol 0.1: tolerances (0.7, 0.85, 0.8, 1.0) -> only element 2 is bad (1 > 0.8),
 * its ratio 1/0.8 = 1.25 is the worst. max_abs 1, mean_abs 1.5/4 = 0.375,
 * max_rel = max(0.5/2.500001, 1/2.000001) = 1/2.000001,
 * rel_l2 = sqrt(0.25 + 1)/sqrt(1 + 6.25 + 4 + 16) = sqrt(1.25/27.25),
 * cosine = (1 + 5 + 6 + 16)/(sqrt(30) sqrt(27.25)),
 * rel_l1 = (0 + 0.5 + 1 + 0)/(1 + 2.5 + 2 + 4) = 1.5/9.5 = 3/19, rmse = sqrt((0.25 + 1)/4) = sqrt(0.3125). */
static void test_hand_case(void **state) {
    (void)state;
    const double out[] = {1, 2, 3, 4}, ref[] = {1, 2.5, 2, 4};
    err_metrics_t m;
    metrics_compute(out, ref, 4, NULL, 0, 0.6, 0.1, &m);
    assert_int_equal(m.n, 4);
    assert_int_equal(m.nonfinite, 0);
    assert_int_equal(m.n_bad, 1);
    assert_close(m.pct_bad, 25.0, 1e-12);
    assert_close(m.max_abs, 1.0, 0);
    assert_close(m.mean_abs, 0.375, 1e-15);
    assert_close(m.max_rel, 1.0 / 2.000001, 1e-15);
    assert_close(m.rel_l2, sqrt(1.25 / 27.25), 1e-15);
    assert_close(m.cosine, 28.0 / (sqrt(30.0) * sqrt(27.25)), 1e-15);
    assert_close(m.rel_l1, 3.0 / 19.0, 1e-15);
    assert_close(m.rmse, sqrt(0.3125), 1e-15);
    assert_int_equal(m.worst_index, 2);
    assert_close(m.worst_ratio, 1.25, 1e-15);
    assert_close(m.atol_min, 0.6, 0);
    assert_close(m.atol_max, 0.6, 0);
    assert_close(m.rtol, 0.1, 0);
}

/* Blocks of 2 with atol (0.1, 1.0), rtol 0: errors (0.2, 0, 0.5, 0) -> element 0 bad (0.2 > 0.1,
 * ratio 2), element 2 fine (0.5 <= 1.0, ratio 0.5). */
static void test_per_block_atol(void **state) {
    (void)state;
    const double out[] = {1.2, 1, 2.5, 2}, ref[] = {1, 1, 2, 2}, atol[] = {0.1, 1.0};
    err_metrics_t m;
    metrics_compute(out, ref, 4, atol, 2, 99.0, 0.0, &m);
    assert_int_equal(m.n_bad, 1);
    assert_int_equal(m.worst_index, 0);
    assert_close(m.worst_ratio, 2.0, 1e-12);
    assert_close(m.atol_min, 0.1, 0);
    assert_close(m.atol_max, 1.0, 0);
    /* Exactly on the bar is within tolerance: |err| <= atol + rtol |ref|. */
    const double on[] = {1.5, 2.0}, r2[] = {1.0, 2.0};
    metrics_compute(on, r2, 2, NULL, 0, 0.5, 0.0, &m);
    assert_int_equal(m.n_bad, 0);
    assert_close(m.worst_ratio, 1.0, 0);
}

/* NaN and inf outputs: counted, bad, excluded from the sums; the first is the worst element. */
static void test_nonfinite(void **state) {
    (void)state;
    const double out[] = {1, NAN, 3, INFINITY}, ref[] = {1, 2, 2, 4};
    err_metrics_t m;
    metrics_compute(out, ref, 4, NULL, 0, 10.0, 0.0, &m);
    assert_int_equal(m.nonfinite, 2);
    assert_int_equal(m.n_bad, 2);
    assert_close(m.pct_bad, 50.0, 0);
    assert_int_equal(m.worst_index, 1);
    assert_true(isinf(m.worst_ratio));
    assert_close(m.max_abs, 1.0, 0); /* finite elements only: errors 0 and 1 */
    assert_close(m.mean_abs, 0.5, 0);
    assert_close(m.rel_l2, 1.0 / sqrt(5.0), 1e-15);
    assert_close(m.rel_l1, 1.0 / 3.0, 1e-15); /* (0 + 1)/(1 + 2) */
    assert_close(m.rmse, sqrt(0.5), 1e-15);   /* mean over the 2 finite elements */
    assert_false(gate_kernel_only(&m));
    assert_false(gate_end_to_end(&m));
    assert_false(gate_legacy(&m));
    /* Nothing finite: the sums-based metrics are NaN, never a passing 0. */
    const double bad[] = {NAN, NAN};
    metrics_compute(bad, ref, 2, NULL, 0, 1.0, 0.0, &m);
    assert_true(isnan(m.rel_l2) && isnan(m.cosine) && isnan(m.max_abs));
    assert_true(isnan(m.rel_l1) && isnan(m.rmse));
    assert_false(gate_end_to_end(&m));
}

static void test_degenerate(void **state) {
    (void)state;
    const double z[] = {0, 0, 0}, one[] = {0, 1, 0};
    err_metrics_t m;
    metrics_compute(z, z, 3, NULL, 0, 0.0, 0.0, &m);
    assert_close(m.rel_l2, 0.0, 0);
    assert_close(m.rel_l1, 0.0, 0);
    assert_close(m.rmse, 0.0, 0);
    assert_close(m.cosine, 1.0, 0);
    assert_int_equal(m.n_bad, 0);
    metrics_compute(one, z, 3, NULL, 0, 0.0, 0.0, &m); /* zero reference, non-zero output */
    assert_true(isinf(m.rel_l2));
    assert_true(isinf(m.rel_l1));
    assert_close(m.rmse, sqrt(1.0 / 3.0), 1e-15);
    assert_close(m.cosine, 0.0, 0);
    assert_int_equal(m.n_bad, 1);
    assert_true(isinf(m.worst_ratio)); /* zero tolerance, non-zero error */
    metrics_compute(z, z, 0, NULL, 0, 0.5, 0.0, &m);
    assert_int_equal(m.n, 0);
    assert_close(m.pct_bad, 0.0, 0);
}

static void test_kernel_atol(void **state) {
    (void)state;
    /* 2u (2 Smax + 1) Vmax with u = 2^-11: Smax 3, Vmax 2 -> 2/2048 * 7 * 2 = 28/2048. */
    assert_close(tol_kernel_atol(3.0, 2.0), 28.0 / 2048.0, 0);
    assert_close(tol_kernel_atol(0.0, 0.0), 0.0, 0);
    assert_close(TOL_RTOL, 2.0 / 2048.0, 0);
}

/* RMSE is not relative: scaling both vectors by 4 scales it by 4 and leaves rel-L1 alone.
 * out = (4, 8, 12, 16), ref = (4, 10, 8, 16): errors (0, 2, 4, 0), rmse = sqrt(20/4) = sqrt(5),
 * rel_l1 = 6/38 = 3/19 as in the hand case. */
static void test_peer_metrics_scale(void **state) {
    (void)state;
    const double out[] = {4, 8, 12, 16}, ref[] = {4, 10, 8, 16};
    err_metrics_t m;
    metrics_compute(out, ref, 4, NULL, 0, 0.0, 0.0, &m);
    assert_close(m.rmse, sqrt(5.0), 1e-15);
    assert_close(m.rel_l1, 3.0 / 19.0, 1e-15);
}

/* The two bar families of paper/methods.md. fp16 must be the old formula: Smax 3, Vmax 2 ->
 * (4u*3 + 2u)*2 = 28u = 28/2048, any number of keys. fp8p with Smax 3, Vmax 2, S = 448 keys:
 * 4 (3/2048 + 1/16 + 448/(1024*448)) * 2 = 8 (3/2048 + 128/2048 + 2/2048) = 8*133/2048 = 133/256. */
static void test_families(void **state) {
    (void)state;
    assert_close(tol_family_atol(&TOL_FAMILY_FP16, 3.0, 2.0, 512), tol_kernel_atol(3.0, 2.0), 1e-18);
    assert_close(tol_family_atol(NULL, 3.0, 2.0, 0), 28.0 / 2048.0, 1e-18);
    assert_close(tol_family_atol(&TOL_FAMILY_FP8P, 3.0, 2.0, 448), 133.0 / 256.0, 1e-15);
    /* The subnormal term grows with the keys: 448 more keys add 4 * 2^-10 * 2 = 1/128. */
    assert_close(tol_family_atol(&TOL_FAMILY_FP8P, 3.0, 2.0, 896) -
                     tol_family_atol(&TOL_FAMILY_FP8P, 3.0, 2.0, 448),
                 1.0 / 128.0, 1e-15);
    assert_close(TOL_FAMILY_FP8P.rtol, 2.0 / 2048.0, 0);
    assert_close(TOL_FAMILY_FP8P.rel_l2, 7e-2, 0);
    assert_close(TOL_FAMILY_FP16.rel_l2, TOL_KERNEL_REL_L2, 0);
    assert_close(TOL_FP8P_EPS_SUB * TOL_FP8P_SCALE, 1.0 / 1024.0, 0);

    /* The gates with each family's rel-L2 bar: 7e-2 passes fp8p only, just above it passes none. */
    err_metrics_t m = {.n = 10, .rel_l2 = 7e-2, .cosine = 1.0};
    assert_true(gate_kernel_only_family(&m, &TOL_FAMILY_FP8P));
    assert_false(gate_kernel_only_family(&m, &TOL_FAMILY_FP16));
    assert_false(gate_kernel_only(&m));
    m.rel_l2 = 7.01e-2;
    assert_false(gate_kernel_only_family(&m, &TOL_FAMILY_FP8P));
    m.rel_l2 = 1e-3;
    assert_true(gate_kernel_only_family(&m, NULL));
    m.n_bad = 1; /* the element-wise bar still decides */
    assert_false(gate_kernel_only_family(&m, &TOL_FAMILY_FP8P));
    m.n_bad = 0;
    m.nonfinite = 1;
    assert_false(gate_kernel_only_family(&m, &TOL_FAMILY_FP8P));
}

static err_metrics_t clean(double rel_l2, double cosine) {
    return (err_metrics_t){.n = 10, .rel_l2 = rel_l2, .cosine = cosine};
}

static void test_gates(void **state) {
    (void)state;
    err_metrics_t m = clean(1e-3, 1.0);
    assert_true(gate_kernel_only(&m));
    m = clean(1.01e-3, 1.0);
    assert_false(gate_kernel_only(&m));
    m = clean(1e-4, 1.0);
    m.n_bad = 1;
    assert_false(gate_kernel_only(&m));
    m = clean(1e-4, 1.0);
    m.nonfinite = 1;
    assert_false(gate_kernel_only(&m));

    m = clean(6e-2, 0.998);
    assert_true(gate_end_to_end(&m));
    m = clean(6.01e-2, 0.999);
    assert_false(gate_end_to_end(&m));
    m = clean(1e-2, 0.9979);
    assert_false(gate_end_to_end(&m));
    m = clean(1e-2, 0.999);
    m.n_bad = 5; /* end-to-end ignores element-wise bars */
    assert_true(gate_end_to_end(&m));

    m = clean(0, 1);
    m.max_abs = 0.06;
    m.mean_abs = 0.02;
    m.pct_bad = 1.0;
    assert_true(gate_legacy(&m));
    m.max_abs = 0.0601;
    assert_false(gate_legacy(&m));
    m.max_abs = 0.05;
    m.mean_abs = 0.0201;
    assert_false(gate_legacy(&m));
    m.mean_abs = 0.01;
    m.pct_bad = 1.01;
    assert_false(gate_legacy(&m));
}

/* The legacy bar as the original computed it: bad = |err| > 0.06 (atol 0.06, rtol 0). */
static void test_legacy_end_to_end(void **state) {
    (void)state;
    double out[200], ref[200];
    for (int i = 0; i < 200; i++) {
        ref[i] = 1.0;
        out[i] = 1.0 + (i < 2 ? 0.059 : 0.01);
    }
    err_metrics_t m;
    metrics_compute(out, ref, 200, NULL, 0, LEGACY_ATOL, 0.0, &m);
    assert_int_equal(m.n_bad, 0);
    assert_true(gate_legacy(&m));
    out[0] = 1.07; /* one of 200 bad: 0.5 %, max 0.07 > 0.06 */
    metrics_compute(out, ref, 200, NULL, 0, LEGACY_ATOL, 0.0, &m);
    assert_int_equal(m.n_bad, 1);
    assert_close(m.pct_bad, 0.5, 1e-12);
    assert_false(gate_legacy(&m));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_case),         cmocka_unit_test(test_per_block_atol),
        cmocka_unit_test(test_nonfinite),         cmocka_unit_test(test_degenerate),
        cmocka_unit_test(test_kernel_atol),       cmocka_unit_test(test_gates),
        cmocka_unit_test(test_legacy_end_to_end), cmocka_unit_test(test_peer_metrics_scale),
        cmocka_unit_test(test_families),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
