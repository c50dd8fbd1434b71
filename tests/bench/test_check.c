/* Correctness before timing (host/bench/check.c) on the emulator backend with the test kernel
 * table: a correct variant passes, each planted fault is caught by the check meant for it, inputs
 * a kernel modified are restored for the next variant, and the cross-variant comparison tells
 * identical, bounded and broken pairs apart. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bench/check.h"
#include "bench/variants.h"

static backend_t be;
static problem_t prob;

static int setup(void **state) {
    (void)state;
    char err[512];
    const backend_options_t opt = {.l2_cold = false, .schedule = EMU_SCHED_FWD};
    if (backend_select(BACKEND_EMU, &opt, &be, err, sizeof err) != 0) return -1;
    const named_shape_t *s = named_shape_find("ragged");
    return problem_init(&prob, &be, s->name, s->shape, DIST_NORMAL, SDPA_CODEC_E4M3, 0, true, err,
                        sizeof err);
}

static int teardown(void **state) {
    (void)state;
    problem_free(&prob);
    backend_close(&be);
    return 0;
}

static void check(const char *id, check_t *c) {
    const sdpa_kernel_entry_t *k = variants_kernel(be.ops->kernels(), id);
    char err[512];
    assert_non_null(k);
    assert_int_equal(problem_check(&prob, id, k->launch, c, err, sizeof err), 0);
}

static void test_problem(void **state) {
    (void)state;
    assert_int_equal(prob.n, 2 * 3 * 33 * 64);
    assert_true(prob.softmax_scale == 0.125);
    assert_non_null(prob.ref_kernel);
    assert_non_null(prob.ref_e2e);
    assert_true(prob.atol_min > 0 && prob.atol_min <= prob.atol_max);
    sdpa_args_t a;
    problem_args(&prob, &a);
    assert_int_equal(sdpa_check_args(&a), SDPA_OK);
}

static void test_correct_variant_passes(void **state) {
    (void)state;
    check_t c;
    check("stage2", &c);
    assert_int_equal(c.status, SDPA_OK);
    assert_string_equal(c.status_msg, "ok");
    assert_true(c.inputs_unmodified && c.all_written && c.gate_kernel && c.gate_e2e && c.pass);
    assert_int_equal(c.kernel_only.n_bad, 0);
    assert_true(c.kernel_only.rel_l2 < 1e-3);
    check_free(&c);
}

static void test_planted_faults_caught(void **state) {
    (void)state;
    check_t c;
    check("test-wrong", &c);
    assert_false(c.gate_kernel);
    assert_false(c.pass);
    assert_true(c.inputs_unmodified && c.all_written);
    check_free(&c);

    check("test-nowrite", &c);
    assert_false(c.all_written);
    assert_false(c.pass);
    check_free(&c);

    check("test-fault", &c);
    assert_int_equal(c.status, SDPA_ERR_FAULT);
    assert_string_equal(c.status_msg, sdpa_status_str(SDPA_ERR_FAULT));
    assert_false(c.all_written);
    assert_int_equal(c.kernel_only.nonfinite, prob.n); /* the NaN fill survived everywhere */
    assert_false(c.pass);
    check_free(&c);
}

/* A launch the device fails is the machine's error: problem_check returns -1 with the launcher's
 * message, and no verdict is formed (the harness exits 3 instead of recording a FAIL). */
static void test_launch_error_is_not_a_verdict(void **state) {
    (void)state;
    const sdpa_kernel_entry_t *k = variants_kernel(be.ops->kernels(), "test-status");
    check_t c;
    char err[512] = "";
    assert_non_null(k);
    assert_int_equal(problem_check(&prob, "test-status", k->launch, &c, err, sizeof err), -1);
    assert_string_equal(err, sdpa_status_str(SDPA_ERR_LAUNCH));
    assert_false(c.pass);
    check_free(&c);
}

static void test_clobbered_inputs_restored(void **state) {
    (void)state;
    check_t before, clobber, after;
    check("stage2", &before);
    check("test-clobber", &clobber);
    assert_false(clobber.inputs_unmodified);
    assert_false(clobber.pass);
    assert_true(clobber.gate_kernel); /* its output is right: only the input check sees it */
    check("stage2", &after);
    assert_true(after.inputs_unmodified && after.pass);
    assert_memory_equal(before.out, after.out, prob.n * sizeof(uint16_t));
    check_free(&before);
    check_free(&clobber);
    check_free(&after);
}

static void test_cross_variant(void **state) {
    (void)state;
    check_t s1, s2, s3, ulp, wrong;
    check("stage1", &s1);
    check("stage2", &s2);
    check("stage3a", &s3);
    check("test-ulp", &ulp);
    check("test-wrong", &wrong);
    cross_t x;
    cross_compare(&prob, &s2, &s3, true, &x);
    assert_true(x.pass);
    assert_int_equal(x.n_diff, 0);
    assert_int_equal(x.max_ulp, 0);
    assert_string_equal(x.a, "stage2");
    assert_string_equal(x.b, "stage3a");

    cross_compare(&prob, &s2, &ulp, true, &x); /* within tolerance, yet not identical */
    assert_true(ulp.pass);
    assert_false(x.pass);
    assert_int_equal(x.n_diff, 1);
    assert_int_equal(x.max_ulp, 1);

    cross_compare(&prob, &s1, &s2, false, &x); /* fp32 P vs fp16 P: bounded */
    assert_true(x.pass);
    assert_true(x.n_diff > 0);

    cross_compare(&prob, &s1, &wrong, false, &x);
    assert_false(x.pass);
    check_t *all[] = {&s1, &s2, &s3, &ulp, &wrong};
    for (size_t i = 0; i < 5; i++) check_free(all[i]);
}

static void test_timing_problem_has_no_references(void **state) {
    (void)state;
    problem_t p;
    char err[512];
    const named_shape_t *s = named_shape_find("small");
    assert_int_equal(problem_init(&p, &be, s->name, s->shape, DIST_UNIFORM, SDPA_CODEC_SEED_LINEAR, 3, false,
                                  err, sizeof err),
                     0);
    assert_null(p.ref_kernel);
    assert_null(p.atol);
    assert_non_null(p.d_o);
    problem_free(&p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_problem),
        cmocka_unit_test(test_correct_variant_passes),
        cmocka_unit_test(test_planted_faults_caught),
        cmocka_unit_test(test_launch_error_is_not_a_verdict),
        cmocka_unit_test(test_clobbered_inputs_restored),
        cmocka_unit_test(test_cross_variant),
        cmocka_unit_test(test_timing_problem_has_no_references),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
