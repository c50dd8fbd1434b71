/* Latency statistics (host/lib/stats.c). The order-statistic ranks below were derived independently
 * with exact integer arithmetic in Python (fractions + math.comb: the largest j with
 * sum_{t<j} C(n,t) / 2^n <= 0.025, coverage 1 - 2 * that sum); quantiles were checked with numpy's
 * default (linear, type 7) method. */
#include "testutil.h"

#include "rng.h"
#include "stats.h"

static void test_quantiles(void **state) {
    (void)state;
    const double x[] = {1, 2, 3, 4};
    /* numpy.quantile([1,2,3,4], p): 1.75, 2.5, 3.25, 3.7, 3.97 */
    assert_close(stats_quantile_sorted(x, 4, 0.25), 1.75, 1e-15);
    assert_close(stats_quantile_sorted(x, 4, 0.5), 2.5, 1e-15);
    assert_close(stats_quantile_sorted(x, 4, 0.75), 3.25, 1e-15);
    assert_close(stats_quantile_sorted(x, 4, 0.9), 3.7, 1e-15);
    assert_close(stats_quantile_sorted(x, 4, 0.99), 3.97, 1e-15);
    assert_close(stats_quantile_sorted(x, 4, 0.0), 1.0, 0);
    assert_close(stats_quantile_sorted(x, 4, 1.0), 4.0, 0);
    const double one[] = {7};
    assert_close(stats_quantile_sorted(one, 1, 0.3), 7.0, 0);
}

static void test_summary(void **state) {
    (void)state;
    const double x[] = {9, 2, 4, 4, 5, 4, 7, 5}; /* sorted 2 4 4 4 5 5 7 9 */
    stats_summary_t s;
    assert_int_equal(stats_summarize(x, 8, &s), 0);
    assert_int_equal(s.n, 8);
    assert_close(s.min, 2, 0);
    assert_close(s.max, 9, 0);
    assert_close(s.mean, 5, 1e-15);
    assert_close(s.std, sqrt(32.0 / 7.0), 1e-15); /* sum of squared deviations 32, n - 1 = 7 */
    assert_close(s.median, 4.5, 0);
    assert_close(s.q1, 4.0, 0);     /* h = 1.75 between 4 and 4 */
    assert_close(s.q3, 5.5, 1e-15); /* h = 5.25: 5 + 0.25 * 2 */
    assert_close(s.iqr, 1.5, 1e-15);
    assert_close(s.rel_iqr, 1.5 / 4.5, 1e-15);
    assert_close(s.p90, 7.6, 1e-12); /* h = 6.3: 7 + 0.3 * 2 */
    assert_true(s.ci_available);     /* n = 8: j = 1 -> [x(1), x(8)] */
    assert_close(s.ci_lo, 2, 0);
    assert_close(s.ci_hi, 9, 0);
    assert_close(s.ci_coverage, 1.0 - 2.0 / 256.0, 1e-15);
    /* n = 10, data 1..10 shuffled: j = 2, k = 9. */
    const double y[] = {10, 3, 5, 1, 9, 2, 8, 4, 7, 6};
    assert_int_equal(stats_summarize(y, 10, &s), 0);
    assert_close(s.ci_lo, 2, 0);
    assert_close(s.ci_hi, 9, 0);
    assert_close(s.median, 5.5, 0);
    /* Fewer than 6 samples: no CI; one sample: no std. */
    assert_int_equal(stats_summarize(y, 5, &s), 0);
    assert_false(s.ci_available);
    assert_int_equal(stats_summarize(y, 1, &s), 0);
    assert_true(isnan(s.std));
    assert_close(s.median, 10, 0);
    /* Errors. */
    const double bad[] = {1, NAN, 3};
    assert_int_equal(stats_summarize(bad, 3, &s), -1);
    assert_int_equal(stats_summarize(y, 0, &s), -1);
}

static void expect_ranks(size_t n, size_t j, size_t k, double coverage) {
    size_t gj = 0, gk = 0;
    double gc = 0.0;
    assert_int_equal(stats_median_ci_ranks(n, 0.95, &gj, &gk, &gc), 0);
    assert_int_equal(gj, j);
    assert_int_equal(gk, k);
    assert_close(gc, coverage, 1e-12);
}

static void test_ci_ranks(void **state) {
    (void)state;
    size_t j, k;
    double c;
    assert_int_equal(stats_median_ci_ranks(5, 0.95, &j, &k, &c), -1); /* 2 * 2^-5 > 0.05 */
    assert_int_equal(stats_median_ci_ranks(0, 0.95, &j, &k, &c), -1);
    assert_int_equal(stats_median_ci_ranks(10, 1.5, &j, &k, &c), -1);
    expect_ranks(6, 1, 6, 0.96875);      /* 1 - 2/64 */
    expect_ranks(7, 1, 7, 0.984375);     /* 1 - 2/128 */
    expect_ranks(10, 2, 9, 0.978515625); /* 1 - 2*11/1024 */
    expect_ranks(20, 6, 15, 0.9586105346679688);
    expect_ranks(100, 40, 61, 0.9647997997822951);
    expect_ranks(1000, 469, 532, 0.9537088026395019);
    expect_ranks(2000, 956, 1045, 0.9534471795082162); /* 2^-2000 underflows a double */
    expect_ranks(10000, 4902, 5099, 0.9511670501036181);
    expect_ranks(20000, 9861, 10140, 0.9514875384041096);
    /* Large n without overflow: j close to n/2 - 0.98 sqrt(n) (Le Boudec), coverage just >= 0.95. */
    assert_int_equal(stats_median_ci_ranks(1000000, 0.95, &j, &k, &c), 0);
    assert_in_range(j, 499018, 499022);
    assert_int_equal(k, 1000001 - j);
    assert_true(c >= 0.95 && c < 0.951);
}

static void test_verdict_rule(void **state) {
    (void)state;
    assert_int_equal(stats_verdict(0.90, 0.95, 0.02), VERDICT_FASTER);
    assert_int_equal(stats_verdict(1.05, 1.10, 0.02), VERDICT_SLOWER);
    assert_int_equal(stats_verdict(0.99, 1.01, 0.02), VERDICT_SAME);
    assert_int_equal(stats_verdict(0.98, 1.02, 0.02), VERDICT_SAME);   /* band edges included */
    assert_int_equal(stats_verdict(0.985, 0.995, 0.02), VERDICT_SAME); /* SAME before FASTER */
    assert_int_equal(stats_verdict(0.97, 1.03, 0.02), VERDICT_AMBIGUOUS);
    assert_int_equal(stats_verdict(0.95, 0.999, 0.0), VERDICT_FASTER);
    assert_int_equal(stats_verdict(0.97, 0.99, 0.02), VERDICT_FASTER); /* partly outside the band */
    assert_string_equal(verdict_name(VERDICT_FASTER), "FASTER");
    assert_string_equal(verdict_name(VERDICT_SLOWER), "SLOWER");
    assert_string_equal(verdict_name(VERDICT_SAME), "SAME");
    assert_string_equal(verdict_name(VERDICT_AMBIGUOUS), "AMBIGUOUS");
}

/* Paired rounds: base ~ 100 (+-noise), candidate = base * factor + noise. */
static void make_rounds(double *b, double *c, size_t n, double factor, double noise, uint64_t seed) {
    rng_t r;
    rng_seed(&r, seed, 0);
    for (size_t i = 0; i < n; i++) {
        b[i] = 100.0 + noise * rng_uniform(&r, -1.0, 1.0);
        c[i] = 100.0 * factor + noise * rng_uniform(&r, -1.0, 1.0);
    }
}

static void test_ab_verdicts(void **state) {
    (void)state;
    enum { N = 200 };
    double b[N], c[N];
    ab_result_t r;
    make_rounds(b, c, N, 0.80, 1.0, 1);
    assert_int_equal(stats_ab_compare(b, c, N, 0.02, 2000, 42, &r), 0);
    assert_int_equal(r.verdict, VERDICT_FASTER);
    assert_close(r.ratio, 0.8, 0.01);
    assert_true(r.ratio_ci_lo <= r.ratio && r.ratio <= r.ratio_ci_hi);
    assert_close(r.speedup, 1.0 / r.ratio, 1e-15);
    assert_close(r.speedup_ci_lo, 1.0 / r.ratio_ci_hi, 1e-15);
    assert_close(r.speedup_ci_hi, 1.0 / r.ratio_ci_lo, 1e-15);
    assert_close(r.latency_reduction, 1.0 - r.ratio, 1e-15);
    assert_close(r.latency_reduction_ci_lo, 1.0 - r.ratio_ci_hi, 1e-15);
    assert_close(r.latency_reduction_ci_hi, 1.0 - r.ratio_ci_lo, 1e-15);
    assert_int_equal(r.rounds, N);
    assert_int_equal(r.resamples, 2000);
    assert_int_equal(r.seed, 42);

    make_rounds(b, c, N, 1.20, 1.0, 2);
    assert_int_equal(stats_ab_compare(b, c, N, 0.02, 2000, 42, &r), 0);
    assert_int_equal(r.verdict, VERDICT_SLOWER);

    make_rounds(b, c, N, 1.00, 0.5, 3); /* CI well inside +-2 % */
    assert_int_equal(stats_ab_compare(b, c, N, 0.02, 2000, 42, &r), 0);
    assert_int_equal(r.verdict, VERDICT_SAME);
    assert_true(r.ratio_ci_lo >= 0.98 && r.ratio_ci_hi <= 1.02);

    make_rounds(b, c, 12, 1.00, 30.0, 4); /* huge noise, few rounds: CI spans the band */
    assert_int_equal(stats_ab_compare(b, c, 12, 0.02, 2000, 42, &r), 0);
    assert_int_equal(r.verdict, VERDICT_AMBIGUOUS);
    assert_true(r.ratio_ci_lo < 1.0 && r.ratio_ci_hi > 1.0);
}

static void test_ab_medians_and_determinism(void **state) {
    (void)state;
    enum { N = 51 };
    double b[N], c[N];
    make_rounds(b, c, N, 0.9, 20.0, 5);
    for (int i = 0; i < 10; i++) b[i] = b[0]; /* ties, as at a timer's resolution */
    ab_result_t r1, r2, r3;
    assert_int_equal(stats_ab_compare(b, c, N, 0.02, 1000, 7, &r1), 0);
    assert_int_equal(stats_ab_compare(b, c, N, 0.02, 1000, 7, &r2), 0);
    assert_int_equal(stats_ab_compare(b, c, N, 0.02, 1000, 8, &r3), 0);
    assert_same_double(r1.ratio_ci_lo, r2.ratio_ci_lo);
    assert_same_double(r1.ratio_ci_hi, r2.ratio_ci_hi);
    assert_true(r1.ratio_ci_lo != r3.ratio_ci_lo || r1.ratio_ci_hi != r3.ratio_ci_hi);
    /* Point medians agree with the summary's (type 7), odd and even counts. */
    for (size_t n = 50; n <= 51; n++) {
        stats_summary_t sb, sc;
        assert_int_equal(stats_summarize(b, n, &sb), 0);
        assert_int_equal(stats_summarize(c, n, &sc), 0);
        assert_int_equal(stats_ab_compare(b, c, n, 0.02, 10, 7, &r1), 0);
        assert_same_double(r1.base_median, sb.median);
        assert_same_double(r1.cand_median, sc.median);
        assert_same_double(r1.ratio, sc.median / sb.median);
    }
    /* The inputs are left untouched. */
    double b2[N], c2[N];
    make_rounds(b2, c2, N, 0.9, 20.0, 5);
    assert_memory_equal(c, c2, sizeof c);
}

static void test_min_step(void **state) {
    (void)state;
    /* samples on a 0.032 grid, unsorted, with repeats: the step is the grid's */
    const double x[] = {51.712, 51.648, 51.712, 51.680, 51.840, 51.648};
    assert_close(stats_min_step(x, 6, 0.001), 0.032, 1e-12);
    /* differences at or below the floor (float rounding of equal ticks) are not a step */
    const double y[] = {1.0, 1.0 + 1e-7, 2.0, 2.5};
    assert_close(stats_min_step(y, 4, 1e-6), 0.5, 1e-12);
    assert_close(stats_min_step(y, 4, 0.0), 1e-7, 1e-12);
    /* a 1 ns timer, samples stored to the ns: 12.346 - 12.345 is 0.000999... in binary, so a floor
     * of exactly 1e-3 misses the step (reads 2 ns); the report's floor, half a ns, finds it */
    const double ns[] = {12.345, 12.346, 12.348};
    assert_close(stats_min_step(ns, 3, 0.5e-3), 0.001, 1e-9);
    assert_close(stats_min_step(ns, 3, 1e-3), 0.002, 1e-9);
    const double z[] = {3.0, 3.0, 3.0};
    assert_true(stats_min_step(z, 3, 0.0) == 0.0); /* no two values differ */
    assert_true(stats_min_step(z, 1, 0.0) == 0.0);
    const double w[] = {1.0, NAN, 2.0};
    assert_true(isnan(stats_min_step(w, 3, 0.0)));
}

static void test_ab_errors(void **state) {
    (void)state;
    double b[3] = {1, 2, 3}, c[3] = {1, 2, 3};
    ab_result_t r;
    assert_int_equal(stats_ab_compare(b, c, 1, 0.02, 10, 1, &r), -1);
    assert_int_equal(stats_ab_compare(b, c, 3, 0.02, 0, 1, &r), -1);
    assert_int_equal(stats_ab_compare(b, c, 3, -0.1, 10, 1, &r), -1);
    c[1] = 0.0;
    assert_int_equal(stats_ab_compare(b, c, 3, 0.02, 10, 1, &r), -1);
    c[1] = INFINITY;
    assert_int_equal(stats_ab_compare(b, c, 3, 0.02, 10, 1, &r), -1);
    c[1] = 2;
    assert_int_equal(stats_ab_compare(b, c, 3, 0.02, 10, 1, &r), 0);
    assert_int_equal(r.verdict, VERDICT_SAME); /* identical samples: every resample ratio is 1 */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quantiles),   cmocka_unit_test(test_summary),
        cmocka_unit_test(test_ci_ranks),    cmocka_unit_test(test_verdict_rule),
        cmocka_unit_test(test_ab_verdicts), cmocka_unit_test(test_ab_medians_and_determinism),
        cmocka_unit_test(test_ab_errors),   cmocka_unit_test(test_min_step),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
