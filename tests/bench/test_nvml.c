/* NVML through dlopen (host/bench/nvml.c) against a fake library with known answers
 * (tests/bench/fake_nvml.c, its path in argv[1]), against no library at all, and the
 * /proc/driver/nvidia/version fallback. Usage: test_nvml LIBFAKE.so */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "bench/nvml.h"

static const char *fake_lib;

static void test_fake_nvml(void **state) {
    (void)state;
    nvml_info_t n;
    setenv("SDPA_NVML_LIB", fake_lib, 1);
    assert_int_equal(nvml_query("0000:65:00.0", &n), 0);
    assert_true(n.available);
    assert_string_equal(n.driver_release, "580.65.06");
    assert_true(n.sm_clock_mhz == 1755.0);
    assert_true(n.power_limit_w == 72.0);
    assert_int_equal(n.mig_mode, 1);
    /* a device NVML does not know: unknowns, and why */
    assert_int_equal(nvml_query("0000:01:00.0", &n), -1);
    assert_false(n.available);
    assert_true(isnan(n.sm_clock_mhz) && isnan(n.power_limit_w));
    assert_int_equal(n.mig_mode, -1);
    assert_non_null(strstr(n.why, "0000:01:00.0"));
}

static void test_no_nvml(void **state) {
    (void)state;
    nvml_info_t n;
    setenv("SDPA_NVML_LIB", "/nonexistent/libnvidia-ml.so.1", 1);
    assert_int_equal(nvml_query("0000:65:00.0", &n), -1);
    assert_false(n.available);
    assert_non_null(strstr(n.why, "NVML not loaded"));
    assert_string_equal(n.driver_release, "");
    assert_true(isnan(n.sm_clock_mhz));
}

static void test_proc_fallback(void **state) {
    (void)state;
    char path[] = "/tmp/test_nvml_XXXXXX";
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    static const char text[] =
        "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.65.06  Sun Jul 27 07:09:29 UTC 2025\n"
        "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n";
    assert_int_equal(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
    close(fd);
    char rel[32] = "";
    assert_int_equal(nvml_driver_release_from_proc(path, rel, sizeof rel), 0);
    assert_string_equal(rel, "580.65.06");
    unlink(path);
    assert_int_equal(nvml_driver_release_from_proc(path, rel, sizeof rel), -1);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: test_nvml LIBFAKE.so\n");
        return 2;
    }
    fake_lib = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fake_nvml),
        cmocka_unit_test(test_no_nvml),
        cmocka_unit_test(test_proc_fallback),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
