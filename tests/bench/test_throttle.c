/* The throttle threshold per device kind (host/bench/throttle.c): the table's word match, the
 * precedence flag > environment > table > NVBench's default, and the environment's refusals. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "bench/throttle.h"

static void test_table_matches_words(void **state) {
    (void)state;
    const throttle_kind_t *l4 = throttle_kind_for("NVIDIA L4");
    assert_non_null(l4);
    assert_string_equal(l4->token, "L4");
    assert_true(l4->threshold == 0.5);
    assert_null(throttle_kind_for("NVIDIA L40S")); /* another board: a word, not a substring */
    assert_null(throttle_kind_for("NVIDIA L40"));
    assert_string_equal(throttle_kind_for("NVIDIA H100 80GB HBM3")->token, "H100");
    assert_string_equal(throttle_kind_for("NVIDIA H100 PCIe")->token, "H100");
    assert_string_equal(throttle_kind_for("NVIDIA H200")->token, "H200");
    assert_null(throttle_kind_for("NVIDIA A100-SXM4-80GB"));
    assert_null(throttle_kind_for(NULL));
    for (size_t i = 0; i < throttle_kinds_count; i++) {
        assert_true(throttle_kinds[i].threshold >= 0.0 && throttle_kinds[i].threshold <= 1.0);
        assert_true(strlen(throttle_kinds[i].why) > 20); /* every row says why */
    }
}

static void test_precedence(void **state) {
    (void)state;
    double t = -1;
    char src[512], err[256];
    assert_int_equal(throttle_resolve(0.6, "0.3", "NVIDIA L4", &t, src, sizeof src, err, sizeof err), 0);
    assert_true(t == 0.6);
    assert_string_equal(src, "--throttle-threshold");
    assert_int_equal(throttle_resolve(NAN, "0.3", "NVIDIA L4", &t, src, sizeof src, err, sizeof err), 0);
    assert_true(t == 0.3);
    assert_non_null(strstr(src, "SDPA_THROTTLE_THRESHOLD"));
    assert_int_equal(throttle_resolve(NAN, "auto", "NVIDIA L4", &t, src, sizeof src, err, sizeof err), 0);
    assert_true(t == 0.5);
    assert_non_null(strstr(src, "device table"));
    assert_non_null(strstr(src, "72 W"));
    assert_int_equal(
        throttle_resolve(NAN, NULL, "NVIDIA A100-SXM4-80GB", &t, src, sizeof src, err, sizeof err), 0);
    assert_true(t == 0.75);
    assert_non_null(strstr(src, "not in the table"));
    assert_int_equal(throttle_resolve(NAN, "", NULL, &t, src, sizeof src, err, sizeof err), 0);
    assert_true(t == 0.75);
    assert_non_null(strstr(src, "no device"));
}

static void test_bad_environment_named(void **state) {
    (void)state;
    double t;
    char src[512], err[256];
    const char *bad[] = {"1.5", "-0.1", "x", "0.5x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        assert_int_equal(throttle_resolve(NAN, bad[i], "NVIDIA L4", &t, src, sizeof src, err, sizeof err),
                         -1);
        assert_non_null(strstr(err, "SDPA_THROTTLE_THRESHOLD="));
        assert_non_null(strstr(err, bad[i]));
    }
    assert_int_equal(throttle_parse("auto", &t), 0);
    assert_true(isnan(t));
    assert_int_equal(throttle_parse("0", &t), 0);
    assert_true(t == 0.0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_matches_words),
        cmocka_unit_test(test_precedence),
        cmocka_unit_test(test_bad_environment_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
