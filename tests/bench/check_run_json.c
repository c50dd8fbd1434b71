/* Validates an sdpa-bench-run or ceilings file against data/SCHEMA.md: loads it with results_load
 * (version and kind), then checks the presence and type of every field the schema lists, the enumerated
 * values, and a few consistencies (TIMING.timing equals meta.timing; summary.n equals the sample
 * count; comparison sample arrays have `rounds` entries; a peer's entries, and only they, carry
 * "peer": true and a library; an emulated ceiling is skipped, never a number).
 *   check_run_json FILE [PATH ...]
 * Exit 0 when valid; then prints the value at each dotted PATH, one per line ("array N" for an
 * array, "object" for an object), so shell tests can assert on values. Exit 1 with the first
 * problem otherwise. */
#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "json_file.h"

enum { S = 1, N = 2, B = 4, O = 8, A = 16, Z = 32 }; /* string number bool object array null */

typedef struct {
    const char *key;
    int types;
    const char *values; /* "|a|b|" enumerated strings, or NULL */
} field_t;

static const char *file;
static int problems;

static void problem(const char *where, const char *key, const char *what) {
    if (problems++ == 0) fprintf(stderr, "%s: %s%s%s: %s\n", file, where, *where ? "." : "", key, what);
}

static int type_of(const cJSON *j) {
    if (cJSON_IsString(j)) return S;
    if (cJSON_IsNumber(j)) return N;
    if (cJSON_IsBool(j)) return B;
    if (cJSON_IsObject(j)) return O;
    if (cJSON_IsArray(j)) return A;
    if (cJSON_IsNull(j)) return Z;
    return 0;
}

static void check_fields(const cJSON *obj, const char *where, const field_t *f, size_t n) {
    if (!cJSON_IsObject(obj)) {
        problem(where, "", "not an object");
        return;
    }
    for (size_t i = 0; i < n; i++) {
        const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, f[i].key);
        if (!j)
            problem(where, f[i].key, "missing");
        else if (!(type_of(j) & f[i].types))
            problem(where, f[i].key, "has the wrong type");
        else if (f[i].values && cJSON_IsString(j)) {
            char token[128];
            snprintf(token, sizeof token, "|%s|", j->valuestring);
            if (!strstr(f[i].values, token)) problem(where, f[i].key, "has a value the schema does not list");
        }
    }
}

#define CHECK(obj, where, spec) check_fields((obj), (where), (spec), sizeof(spec) / sizeof((spec)[0]))

static const field_t top[] = {
    {"schema_version", S, NULL}, {"kind", S, "|sdpa-bench-run|"}, {"meta", O, NULL},
    {"config", O, NULL},         {"correctness", A, NULL},        {"cross_variant", A, NULL},
    {"timing", A, NULL},         {"comparisons", A, NULL},        {"not_timed", A, NULL},
    {"not_supported", A, NULL},  {"ptxas", O | Z, NULL},          {"ptxas_source", S, NULL},
};
static const field_t meta[] = {
    {"tool", S, "|sdpa-bench|"},
    {"tool_version", S, NULL},
    {"git_sha", S, NULL},
    {"git_dirty", B | Z, NULL},
    {"cc", S, NULL},
    {"nvcc", S | Z, NULL},
    {"cflags", S, NULL},
    {"nvcc_flags", S, NULL},
    {"host", O, NULL},
    {"utc_time", S, NULL},
    {"unix_time_ns", S, NULL},
    {"command_line", A, NULL},
    {"backend", S, "|cuda|emu|"},
    {"timing", S, "|gpu|emulated|none|"},
    {"device", O | Z, NULL},
    {"emulator", O | Z, NULL},
};
static const field_t host[] = {{"hostname", S, NULL}, {"os", S, NULL}, {"cpu", S, NULL}, {"cpus", N, NULL}};
static const field_t device[] = {
    {"name", S, NULL},
    {"cc", S, NULL},
    {"sm_count", N, NULL},
    {"sm_clock_default_mhz", N | Z, NULL},
    {"sm_clock_measured_mhz", N | Z, NULL},
    {"l2_bytes", S, NULL},
    {"mem_clock_mhz", N | Z, NULL},
    {"mem_bus_bits", N, NULL},
    {"driver_version", S, NULL},
    {"runtime_version", S, NULL},
    {"ecc", B | Z, NULL},
    {"clocks_locked", B | Z, NULL},
    {"peak_dram_gbs", N | Z, NULL},
    {"peak_fp16_tensor_tflops", N | Z, NULL},
    {"peak_fp8_tensor_tflops", N | Z, NULL},
    {"peak_exp2_tps", N | Z, NULL},
    {"l2_flush_bytes", S, NULL},
    {"device_index", N, NULL},
    {"cuda_visible_devices", S | Z, NULL},
    {"uuid", S | Z, NULL},
    {"pci_bus_id", S | Z, NULL},
    {"driver_release", S | Z, NULL},
    {"power_limit_w", N | Z, NULL},
    {"sm_clock_start_mhz", N | Z, NULL},
    {"sm_clock_end_mhz", N | Z, NULL},
    {"mig", O | Z, NULL},
    {"nvml", S | Z, NULL},
};
static const field_t mig[] = {{"mode", S, "|enabled|disabled|"}, {"profile", S | Z, NULL}};
static const field_t fallback[] = {{"reason", S, NULL}, {"gpu_visible", B, NULL}};
static const field_t emulator[] = {
    {"schedule", S, "|fwd|rev|rand|"},
    {"schedule_seed", S, NULL},
    {"build", S, "|emu|emu-tsan|emu-asan|"},
};
static const field_t config[] = {
    {"variants", A, NULL},
    {"baseline", S | Z, NULL},
    {"shapes", A, NULL},
    {"seeds", A, NULL},
    {"codec", S, "|e4m3|seed-linear|"},
    {"dist", S, "|normal|uniform|outliers|"},
    {"softmax_scale", N | Z, NULL},
    {"causal", B, NULL},
    {"l2", S, "|cold|warm|"},
    {"arm_order", S, "|rotated|fixed|"},
    {"warmup", N, NULL},
    {"iters", N, NULL},
    {"min_time_s", N, NULL},
    {"max_time_s", N, NULL},
    {"max_samples", N, NULL},
    {"throttle_threshold", N, NULL},
    {"throttle_threshold_source", S, NULL},
    {"min_clock_interval_us", N, NULL},
    {"blocking_kernel", B, NULL},
    {"device_index", N, NULL},
    {"force", B, NULL},
    {"tolerances", O, NULL},
    {"reference", O, NULL},
};
static const field_t shape[] = {{"name", S, NULL}, {"B", N, NULL}, {"H", N, NULL},
                                {"S", N, NULL},    {"D", N, NULL}, {"causal", B, NULL}};
static const field_t tolerances[] = {
    {"u", N, NULL},
    {"rtol", N, NULL},
    {"kernel_rel_l2", N, NULL},
    {"e2e_rel_l2", N, NULL},
    {"e2e_cosine", N, NULL},
    {"legacy_max_abs", N, NULL},
    {"legacy_mean_abs", N, NULL},
    {"legacy_pct_bad", N, NULL},
    {"legacy_atol", N, NULL},
    {"derivation", S, "|paper/methods.md#tolerances|"},
};
static const field_t correctness[] = {
    {"variant", S, NULL},
    {"shape", S, NULL},
    {"seed", S, NULL},
    {"B", N, NULL},
    {"H", N, NULL},
    {"S", N, NULL},
    {"D", N, NULL},
    {"causal", B, NULL},
    {"status", S, NULL},
    {"inputs_unmodified", B, NULL},
    {"all_written", B, NULL},
    {"reference_rows", N, NULL},
    {"kernel_only", O, NULL},
    {"end_to_end", O, NULL},
    {"legacy", O, NULL},
    {"gates", O, NULL},
    {"fp8_mirror", O | Z, NULL},
    {"pass", B, NULL},
    {"input_checksum", S, NULL},
};
static const field_t metrics[] = {
    {"n", N, NULL},           {"nonfinite", N, NULL},    {"n_bad", N, NULL},
    {"pct_bad", N | Z, NULL}, {"max_abs", N | Z, NULL},  {"mean_abs", N | Z, NULL},
    {"max_rel", N | Z, NULL}, {"rel_l2", N | Z, NULL},   {"cosine", N | Z, NULL},
    {"rel_l1", N | Z, NULL},  {"rmse", N | Z, NULL},     {"worst_ratio", N | Z, NULL},
    {"worst_index", N, NULL}, {"atol_min", N | Z, NULL}, {"atol_max", N | Z, NULL},
    {"rtol", N, NULL},
};
static const field_t gates[] = {{"kernel_only", B, NULL}, {"end_to_end", B, NULL}, {"legacy", B, NULL}};
static const field_t cross[] = {
    {"a", S, NULL},
    {"b", S, NULL},
    {"shape", S, NULL},
    {"seed", S, NULL},
    {"max_ulp", N, NULL},
    {"n_diff", N, NULL},
    {"expected", S, "|identical|bounded|"},
    {"pass", B, NULL},
};
static const field_t timing[] = {
    {"variant", S, NULL},
    {"shape", S, NULL},
    {"seed", S, NULL},
    {"timing", S, "|gpu|emulated|"},
    {"l2", S, "|cold|warm|"},
    {"samples_us", A, NULL},
    {"sm_clock_mhz", A | Z, NULL},
    {"discarded_throttled", N, NULL},
    {"clock_unmeasured", N | Z, NULL},
    {"stop_reason", S, "|min_samples_and_min_time|max_time|max_samples|"},
    {"wall_s", N, NULL},
    {"summary", O | Z, NULL},
    {"flops", S, NULL},
    {"bytes_min", S, NULL},
    {"tflops", N | Z, NULL},
    {"bandwidth_gbs", N | Z, NULL},
    {"roofline_floor_us", N | Z, NULL},
    {"roofline_bound", S | Z, "|dram|tensor|exp2|"},
    {"roofline_terms_us", O | Z, NULL},
    {"tensor_formats", O | Z, NULL},
    {"arm", N, NULL},  /* since 2.1.0: the entry's arm in its rounds */
    {"arms", N, NULL}, /* ... and how many arms each round ran */
};
static const field_t roofline_terms[] = {
    {"dram", N | Z, NULL}, {"tensor", N | Z, NULL}, {"exp2", N | Z, NULL}};
static const field_t tensor_formats[] = {{"qk", S | Z, "|fp16|fp8|"}, {"pv", S | Z, "|fp16|fp8|"}};
static const field_t stats[] = {
    {"n", N, NULL},
    {"min", N, NULL},
    {"q1", N, NULL},
    {"median", N, NULL},
    {"q3", N, NULL},
    {"max", N, NULL},
    {"mean", N, NULL},
    {"std", N | Z, NULL},
    {"p90", N, NULL},
    {"p99", N, NULL},
    {"iqr", N, NULL},
    {"rel_iqr", N | Z, NULL},
    {"ci_available", B, NULL},
    {"ci_lo", N | Z, NULL},
    {"ci_hi", N | Z, NULL},
    {"ci_coverage", N | Z, NULL},
};
static const field_t comparison[] = {
    {"baseline", S, NULL},
    {"candidate", S, NULL},
    {"shape", S, NULL},
    {"seed", S, NULL},
    {"timing", S, "|gpu|emulated|"},
    {"rounds", N, NULL},
    {"base_median", N | Z, NULL},
    {"cand_median", N | Z, NULL},
    {"ratio", N | Z, NULL},
    {"ratio_ci", A | Z, NULL},
    {"speedup", N | Z, NULL},
    {"speedup_ci", A | Z, NULL},
    {"latency_reduction", N | Z, NULL},
    {"latency_reduction_ci", A | Z, NULL},
    {"epsilon", N | Z, NULL},
    {"resamples", N | Z, NULL},
    {"bootstrap_seed", S | Z, NULL},
    {"verdict", S | Z, "|FASTER|SLOWER|SAME|AMBIGUOUS|"}, /* null: emulated (2.1.0) */
};
static const field_t not_timed[] = {{"variant", S, NULL}, {"reason", S, NULL}};
static const field_t peer_fields[] = {{"library", S, NULL}};
static const field_t ceilings_top[] = {
    {"schema_version", S, NULL}, {"kind", S, "|ceilings|"}, {"meta", O, NULL}, {"ceilings", A, NULL}};
static const field_t ceiling[] = {
    {"name", S, "|copy_d2d|gemm_fp16|gemm_fp8_e4m3|"},
    {"unit", S, "|GB/s|TFLOP/s|"},
    {"status", S, "|ok|skipped|failed|"},
    {"reason", S | Z, NULL},
    {"value", N | Z, NULL},
    {"ci", A | Z, NULL},
    {"samples_us", A, NULL},
    {"summary", O | Z, NULL},
    {"details", O, NULL},
};

static const cJSON *item(const cJSON *o, const char *key) { return cJSON_GetObjectItemCaseSensitive(o, key); }
static const char *str(const cJSON *j) { return cJSON_IsString(j) ? j->valuestring : ""; }
/* Whether a and b hold the same string under key. */
static bool same_str(const cJSON *a, const cJSON *b, const char *key) {
    return strcmp(str(item(a, key)), str(item(b, key))) == 0;
}

/* The TIMING entry of comparison c's arm (key "baseline" or "candidate") at c's shape and seed, of
 * A/A arm `arm` when not NULL; NULL when there is none or more than one. */
static const cJSON *arm_timing(const cJSON *doc, const cJSON *c, const char *key, const char *arm) {
    const cJSON *t, *found = NULL;
    int n = 0;
    cJSON_ArrayForEach(t, item(doc, "timing")) {
        if (!same_str(t, c, "shape") || !same_str(t, c, "seed") ||
            strcmp(str(item(t, "variant")), str(item(c, key))) != 0)
            continue;
        if (arm && strcmp(str(item(t, "aa_arm")), arm) != 0) continue;
        found = t, n++;
    }
    return n == 1 ? found : NULL;
}

static void check_meta(const cJSON *doc) {
    const cJSON *m = item(doc, "meta");
    CHECK(m, "meta", meta);
    CHECK(item(m, "host"), "meta.host", host);
    if (cJSON_IsObject(item(m, "device"))) CHECK(item(m, "device"), "meta.device", device);
    if (cJSON_IsObject(item(item(m, "device"), "mig")))
        CHECK(item(item(m, "device"), "mig"), "meta.device.mig", mig);
    /* optional: present only when --backend auto fell back to the emulator */
    if (item(m, "backend_fallback")) CHECK(item(m, "backend_fallback"), "meta.backend_fallback", fallback);
    if (cJSON_IsObject(item(m, "emulator"))) CHECK(item(m, "emulator"), "meta.emulator", emulator);
    const char *backend = cJSON_GetStringValue(item(m, "backend")),
               *t = cJSON_GetStringValue(item(m, "timing"));
    if (backend && t && strcmp(t, "none") != 0 &&
        strcmp(t, strcmp(backend, "emu") == 0 ? "emulated" : "gpu") != 0)
        problem("meta", "timing", "does not match meta.backend");
}

static void check_config(const cJSON *doc) {
    const cJSON *c = item(doc, "config"), *e;
    CHECK(c, "config", config);
    /* config.peers came with schema 1.3.0 */
    int major = 0, minor = 0;
    if (sscanf(str(item(doc, "schema_version")), "%d.%d", &major, &minor) == 2 && (major > 1 || minor >= 3) &&
        !cJSON_IsArray(item(c, "peers")))
        problem("config", "peers", "missing or not an array");
    cJSON_ArrayForEach(e, item(c, "shapes")) CHECK(e, "config.shapes[]", shape);
    cJSON_ArrayForEach(e, item(c, "seeds")) if (!cJSON_IsString(e))
        problem("config", "seeds[]", "not a string");
    CHECK(item(c, "tolerances"), "config.tolerances", tolerances);
}

/* The floor is its bound's term, and no term exceeds it (roofline.h); none without a bound. */
static void check_roofline(const cJSON *t) {
    const cJSON *terms = item(t, "roofline_terms_us"), *floor = item(t, "roofline_floor_us");
    if (cJSON_IsObject(item(t, "tensor_formats")))
        CHECK(item(t, "tensor_formats"), "timing[].tensor_formats", tensor_formats);
    const char *bound = cJSON_GetStringValue(item(t, "roofline_bound"));
    if (!cJSON_IsObject(terms)) {
        if (bound) problem("timing[]", "roofline_bound", "is set without roofline_terms_us");
        return;
    }
    CHECK(terms, "timing[].roofline_terms_us", roofline_terms);
    if (!bound) {
        if (!cJSON_IsNull(floor)) problem("timing[]", "roofline_floor_us", "is set without a bound");
        return;
    }
    const cJSON *b = item(terms, bound), *e;
    if (!cJSON_IsNumber(b) || !cJSON_IsNumber(floor) || b->valuedouble != floor->valuedouble)
        problem("timing[]", "roofline_floor_us", "is not its bound's term");
    cJSON_ArrayForEach(e, terms) if (cJSON_IsNumber(e) && cJSON_IsNumber(floor) &&
                                     e->valuedouble > floor->valuedouble)
        problem("timing[].roofline_terms_us", e->string, "exceeds the floor");
}

static void check_timing(const cJSON *t, const char *meta_timing) {
    CHECK(t, "timing[]", timing);
    const cJSON *samples = item(t, "samples_us"), *summary = item(t, "summary"),
                *clock = item(t, "sm_clock_mhz");
    if (cJSON_IsObject(summary)) {
        CHECK(summary, "timing[].summary", stats);
        const cJSON *n = item(summary, "n");
        if (cJSON_IsNumber(n) && (int)n->valuedouble != cJSON_GetArraySize(samples))
            problem("timing[]", "summary.n", "differs from the number of samples");
    }
    if (cJSON_IsArray(clock) && cJSON_GetArraySize(clock) != cJSON_GetArraySize(samples))
        problem("timing[]", "sm_clock_mhz", "differs in length from samples_us");
    const char *tt = cJSON_GetStringValue(item(t, "timing"));
    if (tt && meta_timing && strcmp(tt, meta_timing) != 0)
        problem("timing[]", "timing", "differs from meta.timing");
    check_roofline(t);
}

/* "peer": true and "library" on a peer's entries (id "peer-..."), on no other. */
static void check_peer(const cJSON *e, const char *where) {
    const char *id = cJSON_GetStringValue(item(e, "variant"));
    const bool is_peer = id && strncmp(id, "peer-", 5) == 0;
    const cJSON *flag = item(e, "peer");
    if (is_peer != (flag != NULL)) problem(where, "peer", is_peer ? "missing on a peer" : "on a variant");
    if (flag && !cJSON_IsTrue(flag)) problem(where, "peer", "is not true");
    if (flag) CHECK(e, where, peer_fields);
}

static void check_arrays(const cJSON *doc) {
    const char *meta_timing = cJSON_GetStringValue(item(item(doc, "meta"), "timing"));
    const cJSON *e;
    cJSON_ArrayForEach(e, item(doc, "correctness")) {
        CHECK(e, "correctness[]", correctness);
        CHECK(item(e, "kernel_only"), "correctness[].kernel_only", metrics);
        CHECK(item(e, "end_to_end"), "correctness[].end_to_end", metrics);
        CHECK(item(e, "legacy"), "correctness[].legacy", metrics);
        CHECK(item(e, "gates"), "correctness[].gates", gates);
        check_peer(e, "correctness[]");
    }
    cJSON_ArrayForEach(e, item(doc, "cross_variant")) CHECK(e, "cross_variant[]", cross);
    cJSON_ArrayForEach(e, item(doc, "not_supported")) CHECK(e, "not_supported[]", not_timed);
    cJSON_ArrayForEach(e, item(doc, "timing")) {
        check_timing(e, meta_timing);
        check_peer(e, "timing[]");
    }
    cJSON_ArrayForEach(e, item(doc, "comparisons")) {
        CHECK(e, "comparisons[]", comparison);
        /* The pairs are the two arms' TIMING samples, round for round (schema 2.0.0): each arm has
         * one entry at the comparison's shape and seed (an A/A control: arm A the baseline, B the
         * candidate), holding exactly `rounds` samples. */
        const cJSON *rounds = item(e, "rounds");
        const bool aa = cJSON_IsTrue(item(e, "aa_control"));
        const cJSON *arm[2] = {arm_timing(doc, e, "baseline", aa ? "A" : NULL),
                               arm_timing(doc, e, "candidate", aa ? "B" : NULL)};
        for (int k = 0; k < 2; k++)
            if (!arm[k])
                problem("comparisons[]", k ? "candidate" : "baseline",
                        "no single TIMING entry of that variant at the comparison's shape and seed");
            else if (cJSON_IsNumber(rounds) &&
                     (int)rounds->valuedouble != cJSON_GetArraySize(item(arm[k], "samples_us")))
                problem("comparisons[]", "rounds", "differs from an arm's TIMING samples");
    }
    cJSON_ArrayForEach(e, item(doc, "not_timed")) CHECK(e, "not_timed[]", not_timed);
}

/* kind ceilings: "ok" has a value and at least 20 samples and no reason; anything else a reason and
 * no value; on the emulator everything is skipped as emulated. */
static void check_ceilings(const cJSON *doc) {
    CHECK(doc, "", ceilings_top);
    check_meta(doc);
    const bool emulated = strcmp(str(item(item(doc, "meta"), "backend")), "emu") == 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, item(doc, "ceilings")) {
        CHECK(e, "ceilings[]", ceiling);
        const bool ok = strcmp(str(item(e, "status")), "ok") == 0;
        if (ok != cJSON_IsNumber(item(e, "value")))
            problem("ceilings[]", "value", "a number iff status is ok");
        if (ok != cJSON_IsNull(item(e, "reason"))) problem("ceilings[]", "reason", "null iff status is ok");
        if (ok && cJSON_GetArraySize(item(e, "samples_us")) < 20)
            problem("ceilings[]", "samples_us", "under 20");
        if (emulated && (ok || strcmp(str(item(e, "reason")), "emulated: no GPU") != 0))
            problem("ceilings[]", "status", "not skipped as \"emulated: no GPU\" on the emulator");
    }
}

static void print_value(const cJSON *root, const char *path) {
    char err[512];
    const cJSON *j = json_get(root, path, file, err, sizeof err);
    if (!j)
        printf("missing\n");
    else if (cJSON_IsString(j))
        printf("%s\n", j->valuestring);
    else if (cJSON_IsNumber(j))
        printf("%.17g\n", j->valuedouble);
    else if (cJSON_IsBool(j))
        printf("%s\n", cJSON_IsTrue(j) ? "true" : "false");
    else if (cJSON_IsNull(j))
        printf("null\n");
    else if (cJSON_IsArray(j))
        printf("array %d\n", cJSON_GetArraySize(j));
    else
        printf("object\n");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: check_run_json FILE [PATH ...]\n");
        return 2;
    }
    file = argv[1];
    char err[1024];
    cJSON *doc = results_load(file, NULL, err, sizeof err);
    if (!doc) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    if (strcmp(str(item(doc, "kind")), "ceilings") == 0) {
        check_ceilings(doc);
    } else {
        CHECK(doc, "", top);
        check_meta(doc);
        check_config(doc);
        check_arrays(doc);
    }
    if (problems == 0)
        for (int i = 2; i < argc; i++) print_value(doc, argv[i]);
    cJSON_Delete(doc);
    return problems ? 1 : 0;
}
