/* The hardware probes (kernels/probes) on the emulator: their records decode to the PTX ISA's
 * layouts (kernels/wgmma_layout.h) and the documented TMA layout, and stage 7g's exponential to its host
 * twin's bits; a corrupted record is caught by the
 * decoding and by the comparison; and the emulator agrees with every hardware record ingested from a
 * campaign, data/gpu/<device>/<id>/probes/probes.json (kind "probes", backend cuda, complete, agreeing
 * with the ISA; SKIP while there is none). */
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "emu_check.h"
#include "json_file.h"
#include "probe_run.h"
#include "probes.h"

#ifndef EMU_DATA_DIR
#define EMU_DATA_DIR "data"
#endif

static cJSON *emulator_record(void) {
    static cJSON *doc;
    char err[512];
    if (doc) return doc;
    simt_set_schedule(SIMT_SCHED_RAND, 7);
    doc = probe_run_all(cJSON_CreateObject(), err, sizeof err);
    if (!doc) fail_msg("the probes on the emulator: %s (%s)", err, simt_last_error());
    return doc;
}

/* Under every schedule: the same record, decoding to the documents, no report (the sanitizer builds,
 * whose reports do not depend on the order, run one schedule: the probes are long for them). */
#if defined(EMU_FLAVOUR_TSAN) || defined(EMU_FLAVOUR_ASAN)
enum { SCHEDULES = 1 };
#else
enum { SCHEDULES = EMU_N_SCHEDULES };
#endif
static void test_emulator_matches_isa(void **state) {
    (void)state;
    char err[512];
    for (int s = 0; s < SCHEDULES; s++) {
        emu_use_schedule(s);
        emu_capture_begin();
        cJSON *doc = probe_run_all(cJSON_CreateObject(), err, sizeof err);
        char *out = emu_capture_end();
        if (!doc) fail_msg("%s: %s (%s)", emu_schedule_desc(s), err, simt_last_error());
        if (strstr(out, "ThreadSanitizer") || strstr(out, "simt:"))
            fail_msg("%s: unexpected report", emu_schedule_desc(s));
        free(out);
        const int bad = probe_check_isa(doc, err, sizeof err);
        if (bad) fail_msg("%s: %d mismatches; first: %s", emu_schedule_desc(s), bad, err);
        if (probe_compare(doc, emulator_record(), err, sizeof err))
            fail_msg("%s: differs from the record under rand seed 7: %s", emu_schedule_desc(s), err);
        cJSON_Delete(doc);
    }
}

/* The checks can fail: one value changed in each part is found by the decoding and by the comparison. */
static void test_corruption_is_caught(void **state) {
    (void)state;
    static const char *const parts[] = {"tma", "wgmma_acc", "wgmma_a", "wgmma_desc"};
    char err[512];
    for (size_t p = 0; p < 4; p++) {
        cJSON *copy = cJSON_Duplicate(emulator_record(), 1);
        cJSON *part = cJSON_GetObjectItem(copy, parts[p]);
        cJSON *leaf =
            p == 0   ? cJSON_GetObjectItem(cJSON_GetArrayItem(part, 4), "bytes_hex")
            : p == 1 ? cJSON_GetArrayItem(cJSON_GetObjectItem(part, "values"), 77)
            : p == 2
                ? cJSON_GetArrayItem(cJSON_GetObjectItem(part, "byte"), 5)
                : cJSON_GetArrayItem(
                      cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(part, 5), "nibbles"), 1), 40);
        assert_non_null(leaf);
        if (p == 0)
            leaf->valuestring[10] = leaf->valuestring[10] == '0' ? '1' : '0';
        else
            cJSON_SetNumberValue(leaf, leaf->valuedouble + 1);
        if (probe_check_isa(copy, err, sizeof err) < 1)
            fail_msg("%s: a changed value decoded as the ISA's", parts[p]);
        if (probe_compare(copy, emulator_record(), err, sizeof err) != 1)
            fail_msg("%s: the comparison missed it", parts[p]);
        cJSON_Delete(copy);
    }
}

/* Stage 7g's exponential: the emulator's record agrees with the host twin at every point; a recorded
 * mismatch is reported by the check, and a changed hash by the comparison; a record without the part
 * (hardware records before it existed) is still compared on the others. */
static void test_exp2_poly_part(void **state) {
    (void)state;
    char err[512];
    const cJSON *x2 = cJSON_GetObjectItem(emulator_record(), "exp2_poly");
    assert_non_null(x2);
    assert_int_equal(cJSON_GetObjectItem(x2, "host_twin_mismatches")->valueint, 0);
    assert_true(cJSON_GetObjectItem(x2, "points")->valueint > 8000);
    cJSON *copy = cJSON_Duplicate(emulator_record(), 1);
    cJSON *o = cJSON_GetObjectItem(copy, "exp2_poly");
    cJSON_SetNumberValue(cJSON_GetObjectItem(o, "host_twin_mismatches"), 1);
    if (probe_check_isa(copy, err, sizeof err) < 1)
        fail_msg("exp2_poly: a recorded mismatch passed the check");
    assert_non_null(strstr(err, "exp2_poly"));
    cJSON_SetNumberValue(cJSON_GetObjectItem(o, "host_twin_mismatches"), 0);
    cJSON_ReplaceItemInObject(o, "bits_fnv1a64", cJSON_CreateString("0000000000000000"));
    if (probe_compare(copy, emulator_record(), err, sizeof err) != 1)
        fail_msg("exp2_poly: the comparison missed a changed hash");
    cJSON_DeleteItemFromObject(copy, "exp2_poly");
    if (probe_compare(copy, emulator_record(), err, sizeof err) != 0 ||
        probe_check_isa(copy, err, sizeof err) != 0)
        fail_msg("a record without exp2_poly: %s", err);
    cJSON_Delete(copy);
}

/* Stage 7h's flushed exponential: on the emulator every code and every normal weight is __expf's and the
 * flush is reached; a recorded code or weight mismatch, or no flushed point, is reported by the check;
 * the part is not compared between records (each device's __expf is its own); a record without it (the
 * hardware records before it existed) passes. */
static void test_exp_ftz_part(void **state) {
    (void)state;
    char err[512];
    const cJSON *xf = cJSON_GetObjectItem(emulator_record(), "exp_ftz");
    assert_non_null(xf);
    assert_int_equal(cJSON_GetObjectItem(xf, "code_mismatches")->valueint, 0);
    assert_int_equal(cJSON_GetObjectItem(xf, "weight_mismatches")->valueint, 0);
    assert_true(cJSON_GetObjectItem(xf, "flushed")->valueint > 1000);
    static const char *const field[3] = {"code_mismatches", "weight_mismatches", "flushed"};
    for (int f = 0; f < 3; f++) {
        cJSON *copy = cJSON_Duplicate(emulator_record(), 1);
        cJSON_SetNumberValue(cJSON_GetObjectItem(cJSON_GetObjectItem(copy, "exp_ftz"), field[f]),
                             f < 2 ? 1 : 0);
        if (probe_check_isa(copy, err, sizeof err) < 1)
            fail_msg("exp_ftz: %s changed passed the check", field[f]);
        assert_non_null(strstr(err, "exp_ftz"));
        if (probe_compare(copy, emulator_record(), err, sizeof err) != 0)
            fail_msg("exp_ftz: compared between records: %s", err);
        cJSON_Delete(copy);
    }
    cJSON *copy = cJSON_Duplicate(emulator_record(), 1);
    cJSON_DeleteItemFromObject(copy, "exp_ftz");
    if (probe_check_isa(copy, err, sizeof err) != 0) fail_msg("a record without exp_ftz: %s", err);
    cJSON_Delete(copy);
}

/* The hardware records: the campaign's probes part, as make ingest committed it. */
#define HW_RECORDS EMU_DATA_DIR "/gpu/*/*/probes/probes.json"
/* Stage 7k's stmatrix: the emulator's record decodes to the PTX ISA's fragment at every half; a half
 * moved is reported by the check and by the comparison; a record without the part (hardware records
 * before it existed) passes both. */
static void test_stmatrix_part(void **state) {
    (void)state;
    char err[512];
    const cJSON *st = cJSON_GetObjectItem(cJSON_GetObjectItem(emulator_record(), "stmatrix"), "halves");
    assert_int_equal(cJSON_GetArraySize(st), 256);
    cJSON *copy = cJSON_Duplicate(emulator_record(), 1);
    cJSON *h = cJSON_GetObjectItem(cJSON_GetObjectItem(copy, "stmatrix"), "halves");
    const double a = cJSON_GetArrayItem(h, 17)->valuedouble, b = cJSON_GetArrayItem(h, 18)->valuedouble;
    cJSON_SetNumberValue(cJSON_GetArrayItem(h, 17), b); /* a lane's two halves in each other's place */
    cJSON_SetNumberValue(cJSON_GetArrayItem(h, 18), a);
    if (probe_check_isa(copy, err, sizeof err) != 2) fail_msg("stmatrix: two swapped halves: %s", err);
    assert_non_null(strstr(err, "stmatrix"));
    if (probe_compare(copy, emulator_record(), err, sizeof err) != 1)
        fail_msg("stmatrix: the comparison missed two swapped halves");
    cJSON_DeleteItemFromObject(copy, "stmatrix");
    if (probe_compare(copy, emulator_record(), err, sizeof err) != 0 ||
        probe_check_isa(copy, err, sizeof err) != 0)
        fail_msg("a record without stmatrix: %s", err);
    cJSON_Delete(copy);
}

/* Stage 7's dynamic shared memory base: the emulator's record says 0 (SIMT_DYN_SMEM_OFFSET unset); a
 * base off 1024 bytes fails the check by name and is not a difference between records (the runtime's
 * choice, not a layout); one on 1024 bytes, or no part (records before it), passes. */
static void test_smem_base_part(void **state) {
    (void)state;
    char err[512];
    const cJSON *sb = cJSON_GetObjectItem(emulator_record(), "smem_base");
    const cJSON *at = cJSON_GetObjectItem(sb, "window_address"),
                *n = cJSON_GetObjectItem(sb, "dynamic_bytes");
    assert_true(cJSON_IsNumber(at) && cJSON_IsNumber(n));
    assert_true(at->valuedouble == 0 && n->valuedouble == PROBE_SMEM_BASE_BYTES);
    cJSON *copy = cJSON_Duplicate(emulator_record(), 1);
    cJSON *wa = cJSON_GetObjectItem(cJSON_GetObjectItem(copy, "smem_base"), "window_address");
    cJSON_SetNumberValue(wa, 1024.5); /* not an address: the record is malformed */
    if (probe_check_isa(copy, err, sizeof err) != -1) fail_msg("smem_base 1024.5 accepted");
    cJSON_SetNumberValue(wa, 0x410);
    if (probe_check_isa(copy, err, sizeof err) != 1) fail_msg("smem_base 0x410 passed the check");
    assert_non_null(strstr(err, "smem_base"));
    assert_non_null(strstr(err, "0x410"));
    if (probe_compare(copy, emulator_record(), err, sizeof err) != 0) fail_msg("smem_base compared: %s", err);
    cJSON_SetNumberValue(wa, 0x800);
    if (probe_check_isa(copy, err, sizeof err) != 0) fail_msg("smem_base 0x800: %s", err);
    cJSON_DeleteItemFromObject(copy, "smem_base");
    if (probe_check_isa(copy, err, sizeof err) != 0) fail_msg("a record without smem_base: %s", err);
    cJSON_Delete(copy);
}

static void test_hardware_fixtures(void **state) {
    (void)state;
    glob_t g;
    if (glob(HW_RECORDS, 0, NULL, &g) != 0 || g.gl_pathc == 0) {
        printf("# SKIP no hardware record (" HW_RECORDS ": the campaign's probes part on an H100, then make "
               "ingest)\n");
        skip();
    }
    for (size_t i = 0; i < g.gl_pathc; i++) {
        char err[512];
        cJSON *fix = results_load(g.gl_pathv[i], "probes", err, sizeof err);
        if (!fix) fail_msg("%s", err);
        const char *backend = json_get_str(fix, "meta.backend", g.gl_pathv[i], err, sizeof err);
        if (!backend || strcmp(backend, "cuda") != 0)
            fail_msg("%s: not a hardware record (meta.backend)", g.gl_pathv[i]);
        if (cJSON_GetObjectItem(fix, "incomplete"))
            fail_msg("%s: an incomplete record (a probe faulted on the device)", g.gl_pathv[i]);
        const int bad = probe_check_isa(fix, err, sizeof err);
        if (bad)
            fail_msg("%s: the hardware disagrees with the PTX ISA %d times; first: %s", g.gl_pathv[i], bad,
                     err);
        if (probe_compare(emulator_record(), fix, err, sizeof err))
            fail_msg("%s: the emulator differs from the hardware: %s", g.gl_pathv[i], err);
        /* The emulator refuses the unaligned TMA coordinate because an H100 did (records since
         * the probe was added carry what the device said). */
        const cJSON *ua = cJSON_GetObjectItem(cJSON_GetObjectItem(fix, "tma_unaligned"), "result");
        if (ua && (!cJSON_IsString(ua) || !strcmp(ua->valuestring, "loaded")))
            fail_msg("%s: the device loaded the unaligned TMA box the emulator refuses (tma_unaligned)",
                     g.gl_pathv[i]);
        printf("# %s: the emulator's record equals the hardware's\n", g.gl_pathv[i]);
        cJSON_Delete(fix);
    }
    globfree(&g);
}

int emu_run_probe_tests(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_emulator_matches_isa), cmocka_unit_test(test_corruption_is_caught),
        cmocka_unit_test(test_exp2_poly_part),       cmocka_unit_test(test_exp_ftz_part),
        cmocka_unit_test(test_stmatrix_part),        cmocka_unit_test(test_smem_base_part),
        cmocka_unit_test(test_hardware_fixtures),
    };
    return cmocka_run_group_tests_name(
        "hardware probes: the emulator against the ISA and against H100 records", tests, NULL, NULL);
}
