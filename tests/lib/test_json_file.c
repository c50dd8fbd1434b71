/* JSON result files (host/lib/json_file.c): round trip, null for non-finite numbers, 64-bit integers as
 * strings, no overwrite, and load errors that name the file and the field. */
#include "testutil.h"

#include "json_file.h"

static char *argv_demo[] = {"sdpa-bench", "--out", "x.json"};

/* A minimal but complete sdpa-bench-run document. */
static cJSON *bench_doc(void) {
    cJSON *doc = results_new("sdpa-bench-run", "sdpa-bench", 3, argv_demo);
    assert_non_null(doc);
    cJSON *meta = results_meta(doc);
    cJSON_AddStringToObject(meta, "backend", "emu");
    cJSON_AddStringToObject(meta, "timing", "emulated");
    cJSON_AddNullToObject(meta, "device");
    cJSON_AddObjectToObject(meta, "emulator");
    cJSON_AddObjectToObject(doc, "config");
    cJSON_AddArrayToObject(doc, "correctness");
    cJSON_AddArrayToObject(doc, "cross_variant");
    cJSON_AddArrayToObject(doc, "timing");
    cJSON_AddArrayToObject(doc, "comparisons");
    cJSON_AddNullToObject(doc, "ptxas");
    return doc;
}

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_round_trip(void **state) {
    (void)state;
    char *dir = test_tmpdir();
    char err[512] = "", path[600];
    snprintf(path, sizeof path, "%s/run.json", dir);
    cJSON *doc = bench_doc();
    json_add_u64(doc, "seed", UINT64_MAX);
    json_add_num(doc, "nan", NAN);
    json_add_num(doc, "inf", -INFINITY);
    json_add_num(doc, "pi", 3.25);
    const double xs[] = {1.5, NAN, INFINITY, -2.0};
    json_add_doubles(doc, "samples", xs, 4);
    assert_int_equal(results_write(doc, path, err, sizeof err), 0);
    cJSON_Delete(doc);

    char *text = NULL;
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    text = calloc(1, 1 << 16);
    size_t got = fread(text, 1, (1 << 16) - 1, f);
    fclose(f);
    assert_true(got > 0 && text[got - 1] == '\n');
    assert_contains(text, "\"seed\":\t\"18446744073709551615\"");
    assert_contains(text, "\"nan\":\tnull");
    assert_contains(text, "\"inf\":\tnull");
    assert_contains(text, "[1.5, null, null, -2]");
    free(text);

    doc = results_load(path, "sdpa-bench-run", err, sizeof err);
    if (!doc) fail_msg("%s", err);
    assert_string_equal(json_get_str(doc, "schema_version", path, err, sizeof err), RESULTS_SCHEMA_VERSION);
    assert_string_equal(json_get_str(doc, "meta.tool", path, err, sizeof err), "sdpa-bench");
    assert_string_equal(json_get_str(doc, "meta.tool_version", path, err, sizeof err), RESULTS_TOOL_VERSION);
    assert_string_equal(json_get_str(doc, "meta.command_line.1", path, err, sizeof err), "--out");
    assert_non_null(json_get_str(doc, "meta.git_sha", path, err, sizeof err));
    assert_non_null(json_get_str(doc, "meta.host.os", path, err, sizeof err));
    assert_non_null(json_get_str(doc, "meta.utc_time", path, err, sizeof err));
    assert_string_equal(json_get_str(doc, "seed", path, err, sizeof err), "18446744073709551615");
    double v;
    assert_int_equal(json_get_num(doc, "pi", &v, path, err, sizeof err), 0);
    assert_same_double(v, 3.25);
    assert_int_equal(json_get_num(doc, "nan", &v, path, err, sizeof err), 0);
    assert_true(isnan(v)); /* null reads back as NaN */
    assert_int_equal(json_get_num(doc, "samples.3", &v, path, err, sizeof err), 0);
    assert_same_double(v, -2.0);
    assert_int_equal(json_get_num(doc, "meta.host.cpus", &v, path, err, sizeof err), 0);
    assert_true(v >= 1);
    cJSON_Delete(doc);

    /* Never overwrites; the file is untouched and nothing else is left in the directory. */
    doc = bench_doc();
    assert_int_equal(results_write(doc, path, err, sizeof err), -1);
    assert_contains(err, path);
    assert_contains(err, "exists");
    cJSON_Delete(doc);
    doc = results_load(path, NULL, err, sizeof err);
    assert_non_null(doc);
    assert_non_null(json_get(doc, "seed", path, err, sizeof err));
    cJSON_Delete(doc);
    assert_int_equal(test_count_entries(dir), 1);
    test_rmdir(dir);
}

static void test_field_access_errors(void **state) {
    (void)state;
    cJSON *doc = bench_doc();
    char err[512] = "";
    double v;
    bool b;
    assert_null(json_get(doc, "meta.nope", "f.json", err, sizeof err));
    assert_string_equal(err, "f.json: field 'meta.nope' missing");
    assert_int_equal(json_get_num(doc, "meta.tool", &v, "f.json", err, sizeof err), -1);
    assert_string_equal(err, "f.json: field 'meta.tool' is not a number or null");
    assert_null(json_get_str(doc, "meta.host.cpus", "f.json", err, sizeof err));
    assert_string_equal(err, "f.json: field 'meta.host.cpus' is not a string");
    assert_int_equal(json_get_bool(doc, "meta.tool", &b, "f.json", err, sizeof err), -1);
    assert_string_equal(err, "f.json: field 'meta.tool' is not a boolean");
    assert_null(json_get(doc, "meta.command_line.7", "f.json", err, sizeof err));
    assert_contains(err, "'meta.command_line.7' missing");
    assert_null(json_get(doc, "meta..tool", "f.json", err, sizeof err));
    cJSON_AddTrueToObject(doc, "flag");
    assert_int_equal(json_get_bool(doc, "flag", &b, "f.json", err, sizeof err), 0);
    assert_true(b);
    cJSON_Delete(doc);
}

/* Each load error names the file and what is wrong with it. */
static void test_load_errors(void **state) {
    (void)state;
    char *dir = test_tmpdir();
    char err[512] = "", path[600], ok_path[600];
    snprintf(ok_path, sizeof ok_path, "%s/ok.json", dir);
    cJSON *doc = bench_doc();
    assert_int_equal(results_write(doc, ok_path, err, sizeof err), 0);

    /* missing field */
    snprintf(path, sizeof path, "%s/missing.json", dir);
    cJSON_DeleteItemFromObject(results_meta(doc), "backend");
    assert_int_equal(results_write(doc, path, err, sizeof err), 0);
    assert_null(results_load(path, "sdpa-bench-run", err, sizeof err));
    char want[800];
    snprintf(want, sizeof want, "%s: field 'meta.backend' missing", path);
    assert_string_equal(err, want);

    /* wrong type */
    snprintf(path, sizeof path, "%s/type.json", dir);
    cJSON_AddNumberToObject(results_meta(doc), "backend", 3);
    assert_int_equal(results_write(doc, path, err, sizeof err), 0);
    assert_null(results_load(path, NULL, err, sizeof err));
    snprintf(want, sizeof want, "%s: field 'meta.backend' is not a string", path);
    assert_string_equal(err, want);
    cJSON_Delete(doc);

    /* a newer schema major version than the build's, and one older than the oldest it reads */
    snprintf(path, sizeof path, "%s/v3.json", dir);
    write_text(path, "{\"schema_version\": \"3.0.0\", \"kind\": \"sdpa-bench-run\", \"meta\": {}}\n");
    assert_null(results_load(path, NULL, err, sizeof err));
    snprintf(want, sizeof want, "%s: schema_version 3.0.0, expected 1.x to 2.x", path);
    assert_string_equal(err, want);
    snprintf(path, sizeof path, "%s/v0.json", dir);
    write_text(path, "{\"schema_version\": \"0.9.0\", \"kind\": \"sdpa-bench-run\", \"meta\": {}}\n");
    assert_null(results_load(path, NULL, err, sizeof err));
    snprintf(want, sizeof want, "%s: schema_version 0.9.0, expected 1.x to 2.x", path);
    assert_string_equal(err, want);
    /* both majors the build reads, a 1.x file (the committed campaigns) and its own: accepted (a kind
     * without rules of its own, so that only the common head is checked) */
    for (int k = 0; k < 2; k++) {
        snprintf(path, sizeof path, "%s/v%d.json", dir, k + 1);
        write_text(path, k ? "{\"schema_version\": \"2.0.0\", \"kind\": \"head-only\", \"meta\": {}}\n"
                           : "{\"schema_version\": \"1.5.0\", \"kind\": \"head-only\", \"meta\": {}}\n");
        cJSON *ok = results_load(path, NULL, err, sizeof err);
        assert_non_null(ok);
        cJSON_Delete(ok);
    }

    /* not JSON */
    snprintf(path, sizeof path, "%s/bad.json", dir);
    write_text(path, "{\n  \"schema_version\": \"1.0.0\",\n  oops\n}\n");
    assert_null(results_load(path, NULL, err, sizeof err));
    assert_contains(err, path);
    assert_contains(err, "not valid JSON (line 3");

    /* a top-level value that is not an object */
    snprintf(path, sizeof path, "%s/array.json", dir);
    write_text(path, "[1, 2]\n");
    assert_null(results_load(path, NULL, err, sizeof err));
    assert_contains(err, "not a JSON object");

    /* wrong kind, and no schema_version */
    assert_null(results_load(ok_path, "ptxas-resources", err, sizeof err));
    snprintf(want, sizeof want, "%s: kind 'sdpa-bench-run', expected 'ptxas-resources'", ok_path);
    assert_string_equal(err, want);
    snprintf(path, sizeof path, "%s/nover.json", dir);
    write_text(path, "{\"kind\": \"x\"}\n");
    assert_null(results_load(path, NULL, err, sizeof err));
    assert_contains(err, "field 'schema_version' missing");

    /* missing file */
    snprintf(path, sizeof path, "%s/absent.json", dir);
    assert_null(results_load(path, NULL, err, sizeof err));
    snprintf(want, sizeof want, "%s: cannot read: No such file or directory", path);
    assert_string_equal(err, want);

    /* A kind without specific rules needs only the head and a meta object. */
    snprintf(path, sizeof path, "%s/pub.json", dir);
    write_text(path, "{\"schema_version\": \"1.2.0\", \"kind\": \"published-figures\", \"meta\": {}}\n");
    doc = results_load(path, "published-figures", err, sizeof err);
    assert_non_null(doc);
    cJSON_Delete(doc);
    test_rmdir(dir);
}

static void test_sub_objects(void **state) {
    (void)state;
    char err[256];
    double v;
    stats_summary_t s = {.n = 3, .min = 1, .median = 2, .max = 3, .std = NAN, .ci_available = false};
    cJSON *o = json_stats_summary(&s);
    assert_int_equal(json_get_num(o, "median", &v, "s", err, sizeof err), 0);
    assert_same_double(v, 2.0);
    assert_true(cJSON_IsNull(json_get(o, "std", "s", err, sizeof err)));
    assert_true(cJSON_IsNull(json_get(o, "ci_lo", "s", err, sizeof err)));
    assert_true(cJSON_IsFalse(json_get(o, "ci_available", "s", err, sizeof err)));
    const char *stats_keys[] = {"n",     "min",        "q1",  "median", "q3",      "max",          "mean",
                                "std",   "p90",        "p99", "iqr",    "rel_iqr", "ci_available", "ci_lo",
                                "ci_hi", "ci_coverage"};
    for (size_t i = 0; i < sizeof stats_keys / sizeof stats_keys[0]; i++)
        assert_non_null(json_get(o, stats_keys[i], "s", err, sizeof err));
    cJSON_Delete(o);

    err_metrics_t m = {.n = 10,
                       .n_bad = 1,
                       .max_abs = 0.5,
                       .rel_l2 = NAN,
                       .worst_index = 7,
                       .atol_min = 0.01,
                       .atol_max = 0.02,
                       .rtol = 0.001};
    o = json_err_metrics(&m);
    const char *metric_keys[] = {"n",           "nonfinite", "n_bad",    "pct_bad", "max_abs", "mean_abs",
                                 "max_rel",     "rel_l2",    "cosine",   "rel_l1",  "rmse",    "worst_ratio",
                                 "worst_index", "atol_min",  "atol_max", "rtol"};
    for (size_t i = 0; i < sizeof metric_keys / sizeof metric_keys[0]; i++)
        assert_non_null(json_get(o, metric_keys[i], "m", err, sizeof err));
    assert_true(cJSON_IsNull(json_get(o, "rel_l2", "m", err, sizeof err)));
    assert_int_equal(json_get_num(o, "worst_index", &v, "m", err, sizeof err), 0);
    assert_same_double(v, 7.0);
    cJSON_Delete(o);

    ab_result_t r = {.rounds = 100,
                     .ratio = 0.5,
                     .ratio_ci_lo = 0.4,
                     .ratio_ci_hi = 0.6,
                     .speedup = 2,
                     .resamples = 10000,
                     .seed = 0x5eedab5eedULL,
                     .verdict = VERDICT_FASTER};
    o = json_ab_result(&r);
    assert_string_equal(json_get_str(o, "verdict", "a", err, sizeof err), "FASTER");
    assert_string_equal(json_get_str(o, "bootstrap_seed", "a", err, sizeof err), "407714356973");
    assert_int_equal(json_get_num(o, "ratio_ci.1", &v, "a", err, sizeof err), 0);
    assert_same_double(v, 0.6);
    const char *ab_keys[] = {
        "rounds",     "base_median",       "cand_median",          "ratio",   "ratio_ci",  "speedup",
        "speedup_ci", "latency_reduction", "latency_reduction_ci", "epsilon", "resamples", "bootstrap_seed",
        "verdict"};
    for (size_t i = 0; i < sizeof ab_keys / sizeof ab_keys[0]; i++)
        assert_non_null(json_get(o, ab_keys[i], "a", err, sizeof err));
    cJSON_Delete(o);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_field_access_errors),
        cmocka_unit_test(test_load_errors),
        cmocka_unit_test(test_sub_objects),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
