/* The sampling engine (host/bench/sampling.c) driven by a fake clock and a scripted sampler: stopping
 * rule, warm-up, the arms' order within a round (rotated and fixed), throttle discard and recovery
 * pauses. No test sleeps:
 * "time" advances only when the fake sampler or pause says so. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "arm_order.h"
#include "bench/sampling.h"

#define MAX_CALLS 4096

typedef struct {
    double t;         /* fake monotonic time, seconds */
    double dt;        /* duration of one sample */
    const double *us; /* scripted elapsed_us per sample call, cycled; NULL: 1000 + the call index */
    size_t n_us;
    const double *clocks; /* scripted SM clock per sample call, cycled; NULL: NaN */
    size_t n_clocks;
    size_t calls;
    size_t arm[MAX_CALLS];  /* arm of each sample call, in call order */
    bool warmup[MAX_CALLS]; /* whether the engine marked the call a warm-up */
    double pauses[MAX_CALLS];
    size_t n_pauses;
    size_t fail_at; /* call index that fails; SIZE_MAX: never */
    size_t progress_calls, progress_rounds;
} fake_t;

static double fake_now(void *ctx) { return ((fake_t *)ctx)->t; }

static int fake_sample(void *ctx, size_t arm, bool warmup, backend_sample_t *out, char *err, size_t errlen) {
    fake_t *f = ctx;
    if (f->calls == f->fail_at) {
        snprintf(err, errlen, "scripted failure at call %zu", f->calls);
        return -1;
    }
    assert_true(f->calls < MAX_CALLS);
    f->arm[f->calls] = arm;
    f->warmup[f->calls] = warmup;
    /* 1000 + the call index identifies the call that produced a sample */
    out->elapsed_us = f->us ? f->us[f->calls % f->n_us] : 1000.0 + (double)f->calls;
    out->sm_clock_mhz = f->clocks ? f->clocks[f->calls % f->n_clocks] : NAN;
    f->calls++;
    f->t += f->dt;
    return 0;
}

static void fake_pause(void *ctx, double s) {
    fake_t *f = ctx;
    f->pauses[f->n_pauses++] = s;
    f->t += s;
}

static void fake_progress(void *ctx, size_t rounds, double elapsed) {
    fake_t *f = ctx;
    assert_true(elapsed <= f->t);
    f->progress_calls++;
    f->progress_rounds = rounds;
}

static void fake_init(fake_t *f, double dt) {
    memset(f, 0, sizeof *f);
    f->dt = dt;
    f->fail_at = SIZE_MAX;
}

static int run(fake_t *f, const bench_plan_t *plan, size_t arms, bench_result_t *r) {
    const bench_clock_t clock = {f, fake_now, fake_sample, fake_pause, fake_progress};
    char err[256] = "";
    return bench_run(plan, &clock, arms, r, err, sizeof err);
}

/* The stopping rule: one row per case, each with its own fake sample duration. */
typedef struct {
    const char *what;
    double dt;
    size_t min_samples, max_samples;
    double min_time_s, max_time_s;
    size_t rounds;
    bench_stop_t stop;
    const char *stop_name;
} stop_case_t;

static void test_stopping_rule(void **state) {
    (void)state;
    static const stop_case_t cases[] = {
        /* 0.5 s is reached after 4 samples, but 10 are needed */
        {"samples dominate", 0.125, 10, BENCH_DEFAULT_MAX_SAMPLES, 0.5, 15.0, 10,
         BENCH_STOP_MIN_SAMPLES_AND_TIME, "min_samples_and_min_time"},
        {"min time dominates", 0.125, 2, BENCH_DEFAULT_MAX_SAMPLES, 1.0, 15.0, 8,
         BENCH_STOP_MIN_SAMPLES_AND_TIME, "min_samples_and_min_time"},
        {"max time", 0.125, 1000, BENCH_DEFAULT_MAX_SAMPLES, 0.5, 1.0, 8, BENCH_STOP_MAX_TIME, "max_time"},
        {"max samples", 0.001, 10, 5, 100.0, 1000.0, 5, BENCH_STOP_MAX_SAMPLES, "max_samples"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const stop_case_t *c = &cases[i];
        fake_t f;
        fake_init(&f, c->dt);
        bench_plan_t plan;
        bench_plan_init(&plan, 0, c->min_samples, c->min_time_s, c->max_time_s, NAN);
        plan.max_samples = c->max_samples;
        bench_result_t r;
        assert_int_equal(run(&f, &plan, 1, &r), 0);
        if (r.rounds != c->rounds || r.stop != c->stop)
            fail_msg("%s: %zu rounds, stop %d", c->what, r.rounds, r.stop);
        assert_string_equal(bench_stop_name(r.stop), c->stop_name);
        assert_true(fabs(r.wall_s - (double)c->rounds * c->dt) < 1e-9);
        bench_result_free(&r);
    }
}

static void test_warmup_interleaved_and_not_recorded(void **state) {
    (void)state;
    fake_t f;
    fake_init(&f, 0.125);
    bench_plan_t plan;
    bench_plan_init(&plan, 3, 4, 0.0, 15.0, NAN);
    bench_result_t r;
    assert_int_equal(run(&f, &plan, 2, &r), 0);
    assert_int_equal(f.calls, 3 * 2 + 4 * 2);
    /* warm-up rounds in arm order, then the kept rounds rotated: A B, B A, A B, B A */
    static const size_t arms[] = {0, 1, 0, 1, 0, 1, 0, 1, 1, 0, 0, 1, 1, 0};
    for (size_t c = 0; c < f.calls; c++) assert_int_equal(f.arm[c], arms[c]);
    /* warm-ups are marked (the CUDA backend runs them without the blocking kernel, so that a
     * kernel's first launch, which may load its module, never happens in a blocked stream) */
    for (size_t c = 0; c < f.calls; c++) assert_int_equal(f.warmup[c], c < 3 * 2);
    assert_true(r.samples_us[0][0] == 1006.0);
    assert_true(r.samples_us[1][0] == 1007.0);
    /* warm-up time counts toward the run's time */
    assert_true(fabs(r.wall_s - 14 * 0.125) < 1e-12);
    bench_result_free(&r);
}

/* --arm-order fixed: arm 0, 1, 2 in every round (the order of the campaigns before schema 2.1.0). */
static void test_rounds_fixed_order(void **state) {
    (void)state;
    fake_t f;
    fake_init(&f, 0.01);
    bench_plan_t plan;
    bench_plan_init(&plan, 0, 20, 0.0, 15.0, NAN);
    plan.arm_order = BENCH_ARMS_FIXED;
    bench_result_t r;
    assert_int_equal(run(&f, &plan, 3, &r), 0);
    assert_int_equal(r.rounds, 20);
    assert_int_equal(f.calls, 60);
    for (size_t c = 0; c < f.calls; c++) assert_int_equal(f.arm[c], c % 3); /* A B C A B C ... */
    for (size_t k = 0; k < r.rounds; k++)
        for (size_t a = 0; a < 3; a++) assert_true(r.samples_us[a][k] == 1000.0 + (double)(3 * k + a));
    bench_result_free(&r);
}

/* The default order: kept round k starts at arm k mod 3 and goes on cyclically, so over 20 rounds
 * each arm is first in 7, 7 and 6 of them (and likewise second and third): no arm keeps a position. */
static void test_rounds_rotate(void **state) {
    (void)state;
    fake_t f;
    fake_init(&f, 0.01);
    bench_plan_t plan;
    bench_plan_init(&plan, 0, 20, 0.0, 15.0, NAN);
    assert_int_equal(plan.arm_order, BENCH_ARMS_ROTATED);
    bench_result_t r;
    assert_int_equal(run(&f, &plan, 3, &r), 0);
    assert_int_equal(r.rounds, 20);
    assert_int_equal(f.calls, 60);
    static const size_t first[] = {0, 1, 2, 1, 2, 0, 2, 0, 1, 0, 1, 2}; /* A B C, B C A, C A B, A B C */
    for (size_t c = 0; c < 12; c++) assert_int_equal(f.arm[c], first[c]);
    size_t at[3][3] = {{0}}; /* at[arm][position]: rounds */
    for (size_t c = 0; c < f.calls; c++) at[f.arm[c]][c % 3]++;
    static const size_t want[3][3] = {{7, 6, 7}, {7, 7, 6}, {6, 7, 7}};
    for (size_t a = 0; a < 3; a++)
        for (size_t p = 0; p < 3; p++) assert_int_equal(at[a][p], want[a][p]);
    /* each arm's samples stay in measurement order, one per round: arm a sat at (a - k) mod 3 */
    for (size_t k = 0; k < r.rounds; k++)
        for (size_t a = 0; a < 3; a++)
            assert_true(r.samples_us[a][k] == 1000.0 + (double)(3 * k + (a + 3 - k % 3) % 3));
    bench_result_free(&r);
}

/* host/lib/arm_order.h: the report's position of an arm inverts the sampler's arm at a position. */
static void test_arm_position_inverts_arm_at(void **state) {
    (void)state;
    for (int rotated = 0; rotated < 2; rotated++)
        for (size_t k = 1; k <= 5; k++)
            for (size_t r = 0; r < 12; r++)
                for (size_t p = 0; p < k; p++) {
                    const size_t a = arm_at(rotated, k, r, p);
                    assert_true(a < k);
                    assert_int_equal(arm_position(rotated, k, r, a), p);
                }
    assert_int_equal(arm_position(true, 2, 1, 0), 1); /* round 1 of two arms: B A */
    assert_int_equal(arm_position(false, 2, 1, 0), 0);
}

static void test_arm_order_names(void **state) {
    (void)state;
    bench_arm_order_t o = BENCH_ARMS_FIXED;
    assert_int_equal(bench_arm_order_from_name("rotated", &o), 0);
    assert_int_equal(o, BENCH_ARMS_ROTATED);
    assert_int_equal(bench_arm_order_from_name("fixed", &o), 0);
    assert_int_equal(o, BENCH_ARMS_FIXED);
    assert_int_equal(bench_arm_order_from_name("Rotated", &o), -1);
    assert_int_equal(bench_arm_order_from_name("", &o), -1);
    assert_int_equal(o, BENCH_ARMS_FIXED); /* untouched on a refusal */
    assert_string_equal(bench_arm_order_name(BENCH_ARMS_ROTATED), "rotated");
    assert_string_equal(bench_arm_order_name(BENCH_ARMS_FIXED), "fixed");
}

static void test_throttled_samples_discarded_with_pauses(void **state) {
    (void)state;
    /* default 1000 MHz, threshold 0.75: 700 is throttled, 900 not */
    static const double clocks[] = {900, 700, 900, 700, 700, 700, 700, 900, 900, 900};
    fake_t f;
    fake_init(&f, 0.001);
    f.clocks = clocks;
    f.n_clocks = sizeof clocks / sizeof clocks[0];
    bench_plan_t plan;
    bench_plan_init(&plan, 0, 5, 0.0, 15.0, 1000.0);
    bench_result_t r;
    assert_int_equal(run(&f, &plan, 1, &r), 0);
    assert_int_equal(r.rounds, 5);
    assert_int_equal(r.discarded_rounds, 5);
    assert_int_equal(r.throttled_samples[0], 5);
    for (size_t k = 0; k < r.rounds; k++) assert_true(r.clock_mhz[0][k] >= 750.0);
    /* kept samples are calls 0, 2, 7, 8, 9, in measurement order */
    const double kept[] = {1000, 1002, 1007, 1008, 1009};
    for (size_t k = 0; k < 5; k++) assert_true(r.samples_us[0][k] == kept[k]);
    /* one pause after each discard: 1 alone, then 4 in a row, growing after the second */
    const double pauses[] = {0.05, 0.05, 0.05, 0.1, 0.2};
    assert_int_equal(f.n_pauses, 5);
    for (size_t i = 0; i < 5; i++) assert_true(fabs(f.pauses[i] - pauses[i]) < 1e-12);
    bench_result_free(&r);
}

static void test_throttle_discards_whole_ab_round(void **state) {
    (void)state;
    static const double clocks[] = {900, 700, 900, 900}; /* round 0: B throttled; round 1 clean */
    fake_t f;
    fake_init(&f, 0.001);
    f.clocks = clocks;
    f.n_clocks = 4;
    bench_plan_t plan;
    bench_plan_init(&plan, 0, 3, 0.0, 15.0, 1000.0);
    bench_result_t r;
    assert_int_equal(run(&f, &plan, 2, &r), 0);
    assert_int_equal(r.rounds, 3);
    assert_int_equal(r.discarded_rounds, 3); /* calls 0-1, 4-5 and 8-9 */
    /* a discarded round is taken again in its order: A B (700 on B), A B; B A (700 on A), B A;
     * A B (700 on B), A B */
    static const size_t arms[] = {0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 0, 1};
    assert_int_equal(f.calls, 12);
    for (size_t c = 0; c < f.calls; c++) assert_int_equal(f.arm[c], arms[c]);
    assert_int_equal(r.throttled_samples[0], 1);
    assert_int_equal(r.throttled_samples[1], 2);
    /* pairs stay aligned: round k's A and B are consecutive calls, in either order */
    static const double a_us[] = {1002, 1007, 1010}, b_us[] = {1003, 1006, 1011};
    for (size_t k = 0; k < r.rounds; k++)
        assert_true(r.samples_us[0][k] == a_us[k] && r.samples_us[1][k] == b_us[k]);
    bench_result_free(&r);
    /* fixed order: A B every round, so B carries every throttled sample */
    fake_init(&f, 0.001);
    f.clocks = clocks;
    f.n_clocks = 4;
    plan.arm_order = BENCH_ARMS_FIXED;
    assert_int_equal(run(&f, &plan, 2, &r), 0);
    assert_int_equal(r.discarded_rounds, 3);
    assert_int_equal(r.throttled_samples[0], 0);
    assert_int_equal(r.throttled_samples[1], 3);
    for (size_t k = 0; k < r.rounds; k++) assert_true(r.samples_us[1][k] == r.samples_us[0][k] + 1.0);
    assert_true(r.samples_us[0][0] == 1002.0);
    bench_result_free(&r);
}

static void test_unknown_clock_never_throttled(void **state) {
    (void)state;
    static const double low[] = {10.0};
    fake_t f;
    fake_init(&f, 0.001);
    bench_plan_t plan;
    bench_plan_init(&plan, 0, 4, 0.0, 15.0, 1000.0); /* clock NaN (emulator): nothing to judge */
    bench_result_t r;
    assert_int_equal(run(&f, &plan, 1, &r), 0);
    assert_int_equal(r.discarded_rounds, 0);
    bench_result_free(&r);
    fake_init(&f, 0.001);
    f.clocks = low;
    f.n_clocks = 1;
    bench_plan_init(&plan, 0, 4, 0.0, 15.0, NAN); /* default clock unknown */
    assert_int_equal(run(&f, &plan, 1, &r), 0);
    assert_int_equal(r.discarded_rounds, 0);
    assert_false(bench_throttled(&plan, 10.0));
    bench_result_free(&r);
}

/* A sample shorter than the clock estimate needs (BENCH_MIN_CLOCK_INTERVAL_US, 20 us) is kept
 * and its clock recorded as unmeasured (NaN), however low it read; from 20 us on it is judged. */
static void test_short_samples_clock_unmeasured(void **state) {
    (void)state;
    static const double us[] = {5.0, 19.9, 20.0, 50.0}, clocks[] = {500.0, 500.0, 500.0, 900.0};
    fake_t f;
    fake_init(&f, 0.001);
    f.us = us;
    f.n_us = 4;
    f.clocks = clocks;
    f.n_clocks = 4;
    bench_plan_t plan;
    bench_plan_init(&plan, 0, 3, 0.0, 15.0, 1000.0);
    assert_true(plan.min_clock_interval_us == 20.0);
    bench_result_t r;
    assert_int_equal(run(&f, &plan, 1, &r), 0);
    /* calls 0, 1 kept unmeasured; 2 (20 us at 500 MHz) discarded; 3 kept with its clock */
    assert_int_equal(r.rounds, 3);
    assert_int_equal(r.discarded_rounds, 1);
    assert_int_equal(r.throttled_samples[0], 1);
    assert_true(r.samples_us[0][0] == 5.0 && isnan(r.clock_mhz[0][0]));
    assert_true(r.samples_us[0][1] == 19.9 && isnan(r.clock_mhz[0][1]));
    assert_true(r.samples_us[0][2] == 50.0 && r.clock_mhz[0][2] == 900.0);
    bench_result_free(&r);
}

static void test_sampler_error_aborts(void **state) {
    (void)state;
    fake_t f;
    fake_init(&f, 0.001);
    f.fail_at = 5;
    bench_plan_t plan;
    bench_plan_init(&plan, 1, 10, 0.0, 15.0, NAN);
    const bench_clock_t clock = {&f, fake_now, fake_sample, fake_pause, NULL};
    bench_result_t r;
    char err[256] = "";
    assert_int_equal(bench_run(&plan, &clock, 2, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "scripted failure at call 5"));
    assert_null(r.samples_us[0]); /* freed */
    assert_int_equal(bench_run(&plan, &clock, 0, &r, err, sizeof err), -1);
    assert_int_equal(bench_run(&plan, &clock, BENCH_MAX_ARMS + 1, &r, err, sizeof err), -1);
}

static void test_recovery_pause_growth(void **state) {
    (void)state;
    bench_plan_t plan;
    bench_plan_init(&plan, 0, 1, 0.0, 1.0, 1000.0);
    assert_true(bench_recovery_pause(&plan, 1) == 0.05);
    assert_true(bench_recovery_pause(&plan, 2) == 0.05);
    assert_true(bench_recovery_pause(&plan, 3) == 0.1);
    assert_true(bench_recovery_pause(&plan, 4) == 0.2);
    assert_true(bench_recovery_pause(&plan, 50) == BENCH_MAX_RECOVERY_S);
    assert_true(plan.throttle_threshold == 0.75);
    assert_true(bench_throttled(&plan, 749.0));
    assert_false(bench_throttled(&plan, 750.0));
}

static void test_progress_called_per_kept_round(void **state) {
    (void)state;
    static const double clocks[] = {900, 700};
    fake_t f;
    fake_init(&f, 0.5);
    f.clocks = clocks;
    f.n_clocks = 2;
    bench_plan_t plan;
    bench_plan_init(&plan, 0, 3, 0.0, 15.0, 1000.0);
    bench_result_t r;
    assert_int_equal(run(&f, &plan, 1, &r), 0);
    assert_int_equal(r.rounds, 3);
    assert_int_equal(f.progress_calls, 3); /* not for the two discarded rounds */
    assert_int_equal(f.progress_rounds, 3);
    bench_result_free(&r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stopping_rule),
        cmocka_unit_test(test_warmup_interleaved_and_not_recorded),
        cmocka_unit_test(test_rounds_fixed_order),
        cmocka_unit_test(test_rounds_rotate),
        cmocka_unit_test(test_arm_order_names),
        cmocka_unit_test(test_arm_position_inverts_arm_at),
        cmocka_unit_test(test_throttled_samples_discarded_with_pauses),
        cmocka_unit_test(test_throttle_discards_whole_ab_round),
        cmocka_unit_test(test_unknown_clock_never_throttled),
        cmocka_unit_test(test_short_samples_clock_unmeasured),
        cmocka_unit_test(test_sampler_error_aborts),
        cmocka_unit_test(test_recovery_pause_growth),
        cmocka_unit_test(test_progress_called_per_kept_round),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
