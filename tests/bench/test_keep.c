/* What a backend keeps of a sample (backend_keep_us, backend_keep_mhz in host/bench/backend.h;
 * data/SCHEMA.md 1.4.0): the nanosecond grid loses nothing an event timer measured, and the kept
 * values print as short as their digits. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bench/backend.h"
#include "json_file.h"

/* Decimals of the shortest round-trip printing of v, as the result files print it. */
static int printed_decimals(double v) {
    cJSON *n = cJSON_CreateNumber(v);
    char *s = cJSON_PrintUnformatted(n);
    assert_non_null(s);
    const char *dot = strchr(s, '.');
    const int d = dot ? (int)strlen(dot + 1) : 0;
    assert_null(strpbrk(s, "eE")); /* a time in us or a clock in MHz never needs an exponent */
    cJSON_free(s);
    cJSON_Delete(n);
    return d;
}

/* An event interval is a float of milliseconds. Every whole number of 32-ns ticks up to 16 ms (the
 * H100's step; a float's half ulp stays under 0.5 ns up to 2^24 ns) comes back as that number of
 * nanoseconds exactly, and prints with at most 3 decimals. */
static void test_event_intervals_land_on_their_nanosecond(void **state) {
    (void)state;
    for (long ticks = 1; ticks * 32 <= 16000000L; ticks += 7) {
        const long ns = ticks * 32;
        const float ms = (float)((double)ns * 1e-6);
        const double kept = backend_keep_us((double)ms * 1e3);
        assert_true(kept == (double)ns / 1e3);
        if (ticks % 997 == 1) assert_true(printed_decimals(kept) <= 3);
    }
    /* The first H100 campaign's first sample (run-timing.json of stage 6), as it was stored. */
    assert_true(backend_keep_us(14.431999996304512) == 14.432);
    assert_int_equal(printed_decimals(backend_keep_us(14.431999996304512)), 3);
}

/* Any time: the kept value is its nearest nanosecond, never further than half of one. */
static void test_within_half_a_nanosecond(void **state) {
    (void)state;
    srand(7);
    for (int i = 0; i < 200000; i++) {
        const double us = (double)rand() / RAND_MAX * 1e5 * ((i % 3) ? 1.0 : 1e-3);
        const double kept = backend_keep_us(us);
        assert_true(fabs(kept - us) <= 0.5e-3 * (1 + 1e-9));
        assert_true(fabs(kept * 1e3 - round(kept * 1e3)) < 1e-6); /* on the grid */
    }
}

/* A clock estimate keeps its kHz; an unmeasured one stays unmeasured. */
static void test_clock_to_the_khz_and_nan_kept(void **state) {
    (void)state;
    assert_true(backend_keep_mhz(1829.3257612373127) == 1829.326);
    assert_int_equal(printed_decimals(backend_keep_mhz(1829.3257612373127)), 3);
    assert_true(backend_keep_mhz(1980.0) == 1980.0);
    assert_true(isnan(backend_keep_mhz(NAN)) && isnan(backend_keep_us(NAN)));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_event_intervals_land_on_their_nanosecond),
        cmocka_unit_test(test_within_half_a_nanosecond),
        cmocka_unit_test(test_clock_to_the_khz_and_nan_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
