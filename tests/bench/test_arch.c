/* The build-versus-device check (host/bench/arch.c) against a table of devices: what a build for
 * sm_80/89/90 + compute_90 PTX runs on, and what it must refuse with a sentence naming both. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "bench/arch.h"

static void test_parse(void **state) {
    (void)state;
    arch_build_t b;
    assert_int_equal(arch_build_parse("80 89 90", &b), 0);
    assert_int_equal(b.n_sass, 3);
    assert_int_equal(b.ptx, 90);
    assert_int_equal(arch_build_parse(" 90  80 ", &b), 0);
    assert_int_equal(b.ptx, 90);
    assert_int_equal(arch_build_parse("", &b), -1);
    assert_int_equal(arch_build_parse("80 sm89", &b), -1);
    assert_int_equal(arch_build_parse("8", &b), -1);
    assert_int_equal(arch_cc_from_string("8.9"), 89);
    assert_int_equal(arch_cc_from_string("10.0"), 100);
    assert_int_equal(arch_cc_from_string("8"), -1);
    assert_int_equal(arch_cc_from_string("8.9x"), -1);
    assert_int_equal(arch_cc_from_string(NULL), -1);
}

/* The devices users bring: (name, capability, runs the default build?). */
static void test_device_table(void **state) {
    (void)state;
    static const struct {
        const char *name;
        int cc;
        bool runs;
    } devices[] = {
        {"V100", 70, false},          {"T4", 75, false},         {"A100", 80, true},
        {"A10 / RTX 3090", 86, true}, {"Jetson Orin", 87, true}, {"L4 / RTX 4090", 89, true},
        {"H100", 90, true},           {"B200", 100, true},       {"RTX 5090", 120, true},
    };
    arch_build_t b;
    assert_int_equal(arch_build_parse("80 89 90", &b), 0);
    for (size_t i = 0; i < sizeof devices / sizeof devices[0]; i++) {
        char why[512] = "";
        const bool runs = arch_runnable(&b, devices[i].cc, why, sizeof why);
        if (runs != devices[i].runs)
            fail_msg("%s (cc %d): expected %d, got %d", devices[i].name, devices[i].cc, devices[i].runs,
                     runs);
        if (!runs) {
            char dev[16];
            snprintf(dev, sizeof dev, "sm_%d", devices[i].cc);
            assert_non_null(strstr(why, dev));
            assert_non_null(strstr(why, "sm_80 sm_89 sm_90"));
            assert_non_null(strstr(why, "compute_90"));
        }
    }
    /* Without PTX for a newer major, SASS alone does not carry over to the next major version. */
    assert_int_equal(arch_build_parse("80", &b), 0);
    char why[512];
    assert_true(arch_runnable(&b, 86, why, sizeof why));
    assert_true(arch_runnable(&b, 90, why, sizeof why)); /* compute_80 PTX JIT-compiles */
    assert_false(arch_runnable(&b, 75, why, sizeof why));
    b.ptx = 0;
    assert_false(arch_runnable(&b, 90, why, sizeof why));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_device_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
