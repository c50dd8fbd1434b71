/* The C interface (kernels/emu/simt.h): schedules, launch validation, last error, counters, and a
 * fault that leaves the emulator usable for the next launch. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "emu_check.h"
#include "emu_tests.h"

static void test_schedule_names(void **state) {
    (void)state;
    const char *names[] = {"fwd", "rev", "rand"};
    for (int i = 0; i < 3; i++) {
        simt_sched_t p;
        assert_int_equal(simt_parse_schedule(names[i], &p), 0);
        assert_string_equal(simt_schedule_name(p), names[i]);
        uint64_t seed = 0;
        simt_set_schedule(p, 40 + i);
        assert_int_equal(simt_get_schedule(&seed), p);
        assert_int_equal(seed, 40 + i);
    }
    simt_sched_t p;
    assert_int_equal(simt_parse_schedule("backwards", &p), -1);
}

static void expect_launch_error(const int grid[3], const int block[3], const char *what) {
    int *out = emu_alloc(64);
    simt_clear_error();
    assert_string_equal(simt_last_error(), "");
    emu_capture_begin();
    int rc = emut_index3d(out, grid, block);
    free(emu_capture_end());
    assert_int_not_equal(rc, 0);
    if (strncmp(simt_last_error(), "simt: launch: ", 14) != 0 || !strstr(simt_last_error(), what))
        fail_msg("last error \"%s\", want \"simt: launch: %s...\"", simt_last_error(), what);
    free(out);
}

static void test_invalid_launches(void **state) {
    (void)state;
    expect_launch_error((const int[]){1, 1, 1}, (const int[]){2048, 1, 1}, "invalid block");
    expect_launch_error((const int[]){1, 1, 1}, (const int[]){1, 1, 65}, "invalid block");
    expect_launch_error((const int[]){0, 1, 1}, (const int[]){32, 1, 1}, "invalid grid");
    expect_launch_error((const int[]){1, 70000, 1}, (const int[]){32, 1, 1}, "invalid grid");
}

/* Dynamic shared memory above 48 KB needs the kernel's opt-in, per kernel, up to 227 KB. */
static void test_dynamic_smem_opt_in(void **state) {
    (void)state;
    const size_t big = 64 * 1024, words = big / sizeof(unsigned);
    unsigned *out = emu_alloc(big);
    simt_clear_error();
    emu_capture_begin();
    int rc = emut_big_dynamic_smem(0, 0, big, out); /* no opt-in */
    free(emu_capture_end());
    assert_int_not_equal(rc, 0);
    if (!strstr(simt_last_error(), "exceeds the kernel's 49152"))
        fail_msg("last error \"%s\", want the 48 KB opt-in rule", simt_last_error());
    assert_int_equal(emut_big_dynamic_smem(0, 48 * 1024, 48 * 1024, out), 0); /* 48 KB: no opt-in needed */
    assert_int_equal(emut_big_dynamic_smem(1, big, big, out), 0);             /* opted in */
    for (size_t i = 0; i < words; i++)
        if (out[i] != (unsigned)(words - 1 - i) * 3u + 1u) fail_msg("word %zu: %u", i, out[i]);
    emu_capture_begin();
    rc = emut_big_dynamic_smem(1, 0, big + 4, out); /* above what kernel 1 opted in for */
    free(emu_capture_end());
    assert_int_not_equal(rc, 0);
    emu_capture_begin();
    rc = emut_big_dynamic_smem(1, 228 * 1024, big, out); /* an opt-in above 227 KB is refused */
    free(emu_capture_end());
    assert_int_equal(rc, -1);
    free(out);
}

/* After an abandoned block (fibers left waiting at a barrier), the next launch runs normally,
 * with no stale state and, in the TSan build, no report. */
static void test_recovers_after_fault(void **state) {
    (void)state;
    float *out = emu_alloc(128 * 4), *in = emu_alloc(1024 * 4), *sums = emu_alloc(4 * 4);
    for (int i = 0; i < 1024; i++) in[i] = 1.0f;
    simt_set_schedule(SIMT_SCHED_FWD, 1);
    simt_stats_t before, after;
    simt_get_stats(&before);
    emu_capture_begin();
    int bad = emut_bug_sync_divergent(out);
    int good = emut_block_sum(in, sums, 1024, 256);
    char *err = emu_capture_end();
    simt_get_stats(&after);
    assert_int_not_equal(bad, 0);
    assert_int_equal(good, 0);
    assert_null(strstr(err, "ThreadSanitizer"));
    free(err);
    for (int b = 0; b < 4; b++) assert_true(sums[b] == 256.0f);
    assert_int_equal(after.launches - before.launches, 2);
    assert_int_equal(after.faults - before.faults, 1);
    assert_int_equal(after.blocks - before.blocks, 4); /* the faulting block does not count */
    assert_true(after.barriers - before.barriers >= 4);
    assert_true(after.collectives - before.collectives >= 4 * (8 * 5 + 5));
    assert_true(after.switches > before.switches);
    free(out);
    free(in);
    free(sums);
}

/* Child cases (`--case NAME`): -1 for a name that is not one of them. */
int emu_run_api_case(const char *name) {
    if (strcmp(name, "print-schedule") == 0) {
        uint64_t seed = 0;
        const char *policy = simt_schedule_name(simt_get_schedule(&seed));
        printf("schedule %s seed %llu\n", policy, (unsigned long long)seed);
        return 0;
    }
    return -1;
}

static void test_schedule_from_environment(void **state) {
    (void)state;
    char *out = NULL;
    const char *const env[] = {"SIMT_SCHED=rand", "SIMT_SEED=7", NULL};
    assert_int_equal(emu_run_child("print-schedule", env, &out), 0);
    assert_non_null(strstr(out, "schedule rand seed 7"));
    free(out);
    const char *const bad[] = {"SIMT_SCHED=sideways", NULL};
    assert_int_equal(emu_run_child("print-schedule", bad, &out), 2);
    assert_non_null(strstr(out, "SIMT_SCHED=sideways: expected fwd, rev or rand"));
    free(out);
}

/* SIMT_ABORT=1: the first fault aborts the process after its message, both for a fault found in
 * the faulting thread (an ldm check) and for one found by the scheduler (a divergent barrier,
 * where the waiting thread is resumed to abort on its own stack). */
static void test_abort_on_fault(void **state) {
    (void)state;
    const char *const env[] = {"SIMT_ABORT=1", NULL};
    const char *cases[] = {"wmma-bad-ldm", "syncthreads-divergent"};
    for (int i = 0; i < 2; i++) {
        char *out = NULL;
        int status = emu_run_child(cases[i], env, &out);
        if (status != 128 + 6) fail_msg("%s: exit status %d, want SIGABRT", cases[i], status);
        assert_non_null(strstr(out, "simt: "));
        assert_null(strstr(out, "last_error:")); /* aborted before the launch returned */
        free(out);
    }
}

int emu_run_api_tests(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_schedule_names),
        cmocka_unit_test(test_dynamic_smem_opt_in),
        cmocka_unit_test(test_invalid_launches),
        cmocka_unit_test(test_recovers_after_fault),
        cmocka_unit_test(test_schedule_from_environment),
        cmocka_unit_test(test_abort_on_fault),
    };
    return cmocka_run_group_tests_name("emulator: C interface", tests, NULL, NULL);
}
