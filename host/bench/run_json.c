/* Builders of the sdpa-bench-run blocks (run_json.h, data/SCHEMA.md). */
#include "run_json.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fp8.h"
#include "metrics.h"
#include "json_file.h"
#include "reference.h"
#include "reference_fp8.h"

cJSON *bj_shape(const char *name, sdpa_shape_t s) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", name);
    cJSON_AddNumberToObject(o, "B", s.B);
    cJSON_AddNumberToObject(o, "H", s.H);
    cJSON_AddNumberToObject(o, "S", s.S);
    cJSON_AddNumberToObject(o, "D", s.D);
    cJSON_AddBoolToObject(o, "causal", s.causal != 0);
    return o;
}

/* "shape" (the SHAPE name) and "seed" (a string), as every per-problem record carries them. */
static void add_shape_seed(cJSON *o, const char *shape_name, uint64_t seed) {
    cJSON_AddStringToObject(o, "shape", shape_name);
    json_add_u64(o, "seed", seed);
}

static cJSON *tolerances(void) {
    cJSON *t = cJSON_CreateObject();
    json_add_num(t, "u", TOL_U);
    json_add_num(t, "rtol", TOL_RTOL);
    json_add_num(t, "kernel_rel_l2", TOL_KERNEL_REL_L2);
    json_add_num(t, "e2e_rel_l2", TOL_E2E_REL_L2);
    json_add_num(t, "e2e_cosine", TOL_E2E_COSINE);
    json_add_num(t, "legacy_max_abs", LEGACY_MAX_ABS);
    json_add_num(t, "legacy_mean_abs", LEGACY_MEAN_ABS);
    json_add_num(t, "legacy_pct_bad", LEGACY_PCT_BAD);
    json_add_num(t, "legacy_atol", LEGACY_ATOL);
    cJSON_AddStringToObject(t, "derivation", "paper/methods.md#tolerances");
    return t;
}

cJSON *bj_geometry(const sdpa_kernel_entry_t *const *run, size_t n_run) {
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a && i < n_run; i++) {
        if (!run[i]) continue;
        for (int32_t j = 0; j < run[i]->n_geometry; j++) {
            const sdpa_geometry_t *g = &run[i]->geometry[j];
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "variant", run[i]->id);
            cJSON_AddNumberToObject(o, "head_dim", g->head_dim);
            cJSON_AddNumberToObject(o, "tile_m", g->tile_m);
            cJSON_AddNumberToObject(o, "tile_n", g->tile_n);
            cJSON_AddNumberToObject(o, "warps", g->warps);
            cJSON_AddNumberToObject(o, "mma_warps", g->mma_warps);
            cJSON_AddNumberToObject(o, "smem_bytes", g->smem_bytes);
            cJSON_AddBoolToObject(o, "dynamic_smem", g->dynamic_smem != 0);
            cJSON_AddBoolToObject(o, "causal", g->causal != 0);
            cJSON_AddItemToArray(a, o);
        }
    }
    return a;
}

cJSON *bj_config(const cli_opts_t *o, const char *const *variants, size_t n_variants, size_t max_samples,
                 double throttle_threshold, const char *throttle_source) {
    cJSON *c = cJSON_CreateObject();
    cJSON *v = cJSON_AddArrayToObject(c, "variants");
    for (size_t i = 0; i < n_variants; i++) cJSON_AddItemToArray(v, cJSON_CreateString(variants[i]));
    cJSON *peers = cJSON_AddArrayToObject(c, "peers"); /* --peer names, as given (since 1.3.0) */
    for (size_t i = 0; i < o->n_peers; i++) cJSON_AddItemToArray(peers, cJSON_CreateString(o->peers[i]));
    if (o->baseline)
        cJSON_AddStringToObject(c, "baseline", o->baseline);
    else
        cJSON_AddNullToObject(c, "baseline");
    cJSON_AddBoolToObject(c, "aa_control", o->aa_control); /* --vs X --variant X */
    cJSON *shapes = cJSON_AddArrayToObject(c, "shapes");
    for (size_t i = 0; i < o->n_shapes; i++)
        cJSON_AddItemToArray(shapes, bj_shape(o->shapes[i].name, o->shapes[i].shape));
    cJSON *seeds = cJSON_AddArrayToObject(c, "seeds");
    for (size_t i = 0; i < o->n_seeds; i++) {
        char buf[32];
        snprintf(buf, sizeof buf, "%" PRIu64, o->seeds[i]);
        cJSON_AddItemToArray(seeds, cJSON_CreateString(buf));
    }
    cJSON_AddStringToObject(c, "codec", codec_name(o->codec));
    cJSON_AddBoolToObject(c, "causal", o->causal); /* --causal (each shape records its own mask) */
    cJSON_AddStringToObject(c, "dist", dist_name(o->dist));
    /* 1/sqrt(D): one number when every shape has the same D, else null (each shape's own) */
    double scale = o->n_shapes ? 1.0 / sqrt((double)o->shapes[0].shape.D) : NAN;
    for (size_t i = 1; i < o->n_shapes; i++)
        if (o->shapes[i].shape.D != o->shapes[0].shape.D) scale = NAN;
    json_add_num(c, "softmax_scale", scale);
    cJSON_AddStringToObject(c, "l2", o->l2_cold ? "cold" : "warm");
    /* since 2.1.0; absent in older files, whose rounds all ran in arm order ("fixed") */
    cJSON_AddStringToObject(c, "arm_order", bench_arm_order_name(o->arm_order));
    cJSON_AddNumberToObject(c, "warmup", (double)o->warmup);
    cJSON_AddNumberToObject(c, "iters", (double)o->iters);
    json_add_num(c, "min_time_s", o->min_time_s);
    json_add_num(c, "max_time_s", o->max_time_s);
    cJSON_AddNumberToObject(c, "max_samples", (double)max_samples);
    json_add_num(c, "throttle_threshold", throttle_threshold);
    cJSON_AddStringToObject(c, "throttle_threshold_source", throttle_source);
    json_add_num(c, "min_clock_interval_us", BENCH_MIN_CLOCK_INTERVAL_US);
    cJSON_AddBoolToObject(c, "blocking_kernel", o->blocking_kernel);
    cJSON_AddNumberToObject(c, "device_index", (double)o->device);
    cJSON_AddBoolToObject(c, "force", o->force);
    cJSON_AddItemToObject(c, "tolerances", tolerances());
    cJSON *ref = cJSON_AddObjectToObject(c, "reference");
    if (o->ref_rows)
        cJSON_AddNumberToObject(ref, "rows_per_slice", (double)o->ref_rows);
    else
        cJSON_AddNullToObject(ref, "rows_per_slice");
    cJSON_AddStringToObject(
        ref, "rows",
        o->ref_rows ? "one row in each of N equal strata of every (b,h) slice, at offset "
                      "floor(frac(k phi) w_k) in stratum k, and row S - 1 (host/lib/reference.h, "
                      "reference_sample_rows), when S > N (N = rows_per_slice); every row otherwise"
                    : "every row");
    cJSON_AddNumberToObject(ref, "threads",
                            o->ref_threads ? (double)o->ref_threads : (double)reference_cpus());
    return c;
}

/* An unknown string (NULL or "") is null, never an empty string. */
static void add_str_or_null(cJSON *o, const char *key, const char *v) {
    if (v && *v)
        cJSON_AddStringToObject(o, key, v);
    else
        cJSON_AddNullToObject(o, key);
}

static void add_tristate(cJSON *o, const char *key, int v) {
    if (v < 0)
        cJSON_AddNullToObject(o, key);
    else
        cJSON_AddBoolToObject(o, key, v != 0);
}

cJSON *bj_device(const backend_device_t *d) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", d->name);
    cJSON_AddStringToObject(o, "cc", d->cc);
    cJSON_AddNumberToObject(o, "sm_count", d->sm_count);
    json_add_num(o, "sm_clock_default_mhz", d->sm_clock_default_mhz);
    cJSON_AddNullToObject(o, "sm_clock_measured_mhz");
    json_add_u64(o, "l2_bytes", d->l2_bytes);
    json_add_num(o, "mem_clock_mhz", d->mem_clock_mhz);
    cJSON_AddNumberToObject(o, "mem_bus_bits", d->mem_bus_bits);
    cJSON_AddStringToObject(o, "driver_version", d->driver_version);
    cJSON_AddStringToObject(o, "runtime_version", d->runtime_version);
    add_tristate(o, "ecc", d->ecc);
    add_tristate(o, "clocks_locked", d->clocks_locked);
    json_add_num(o, "peak_dram_gbs", d->peak_dram_gbs);
    json_add_num(o, "peak_fp16_tensor_tflops", d->peak_fp16_tensor_tflops);
    json_add_num(o, "peak_fp8_tensor_tflops", d->peak_fp8_tensor_tflops);
    json_add_num(o, "peak_exp2_tps", d->peak_exp2_tps);
    json_add_u64(o, "l2_flush_bytes", d->l2_flush_bytes);
    cJSON_AddNumberToObject(o, "device_index", d->device_index);
    const char *visible = getenv("CUDA_VISIBLE_DEVICES");
    add_str_or_null(o, "cuda_visible_devices", visible);
    add_str_or_null(o, "uuid", d->uuid);
    add_str_or_null(o, "pci_bus_id", d->pci_bus_id);
    add_str_or_null(o, "driver_release", d->driver_release);
    json_add_num(o, "power_limit_w", d->power_limit_w);
    json_add_num(o, "sm_clock_start_mhz", d->sm_clock_start_mhz);
    json_add_num(o, "sm_clock_end_mhz", d->sm_clock_end_mhz);
    if (d->mig >= 0) {
        cJSON *m = cJSON_AddObjectToObject(o, "mig");
        cJSON_AddStringToObject(m, "mode", d->mig ? "enabled" : "disabled");
        add_str_or_null(m, "profile", d->mig_profile);
    } else {
        cJSON_AddNullToObject(o, "mig");
    }
    add_str_or_null(o, "nvml", d->nvml_why[0] ? d->nvml_why : NULL);
    return o;
}

void bj_set_device_num(cJSON *device, const char *key, double v) {
    if (device)
        cJSON_ReplaceItemInObjectCaseSensitive(device, key,
                                               isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull());
}

cJSON *bj_emulator(const backend_emulator_t *e) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "schedule", e->schedule);
    json_add_u64(o, "schedule_seed", e->schedule_seed);
    cJSON_AddStringToObject(o, "build", e->build);
    return o;
}

cJSON *bj_correctness(const problem_t *p, const check_t *c) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "variant", c->variant);
    add_shape_seed(o, p->shape_name, p->seed);
    cJSON_AddNumberToObject(o, "B", p->shape.B);
    cJSON_AddNumberToObject(o, "H", p->shape.H);
    cJSON_AddNumberToObject(o, "S", p->shape.S);
    cJSON_AddNumberToObject(o, "D", p->shape.D);
    cJSON_AddBoolToObject(o, "causal", p->shape.causal != 0);
    cJSON_AddStringToObject(o, "status", c->status_msg);
    cJSON_AddBoolToObject(o, "inputs_unmodified", c->inputs_unmodified);
    cJSON_AddBoolToObject(o, "all_written", c->all_written);
    /* The bars it was judged by (check_family_of): name and rel-L2 bar; atol and rtol are in METRICS. */
    cJSON_AddStringToObject(o, "tol_family", check_bar_name(p, c));
    cJSON_AddNumberToObject(o, "kernel_rel_l2_bar", p->bars[c->family].family->rel_l2);
    /* Rows of every slice the metrics cover: S, or the sample's size (config.reference). */
    cJSON_AddNumberToObject(o, "reference_rows", (double)p->n_ref_rows);
    cJSON_AddItemToObject(o, "kernel_only", json_err_metrics(&c->kernel_only));
    cJSON_AddItemToObject(o, "end_to_end", json_err_metrics(&c->end_to_end));
    cJSON_AddItemToObject(o, "legacy", json_err_metrics(&c->legacy));
    cJSON *g = cJSON_AddObjectToObject(o, "gates");
    cJSON_AddBoolToObject(g, "kernel_only", c->gate_kernel);
    cJSON_AddBoolToObject(g, "end_to_end", c->gate_e2e);
    cJSON_AddBoolToObject(g, "legacy", c->gate_legacy);
    /* The FP8 line's mirror check (paper/methods.md#fp8-mirror); null for the other families. */
    if (c->has_mirror) {
        cJSON *m = cJSON_AddObjectToObject(o, "fp8_mirror");
        json_add_num(m, "rel_l2", c->mirror_rel_l2);
        cJSON_AddNumberToObject(m, "bar", REFERENCE_FP8_MIRROR_BAR);
        cJSON_AddBoolToObject(m, "pass", c->gate_mirror);
        cJSON_AddBoolToObject(m, "gating", c->mirror_gates);
    } else {
        cJSON_AddNullToObject(o, "fp8_mirror");
    }
    cJSON_AddBoolToObject(o, "pass", c->pass);
    char sum[24];
    snprintf(sum, sizeof sum, "%016" PRIx64, inputs_checksum(&p->in));
    cJSON_AddStringToObject(o, "input_checksum", sum);
    return o;
}

cJSON *bj_cross(const problem_t *p, const cross_t *x) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "a", x->a);
    cJSON_AddStringToObject(o, "b", x->b);
    add_shape_seed(o, p->shape_name, p->seed);
    cJSON_AddNumberToObject(o, "max_ulp", (double)x->max_ulp);
    cJSON_AddNumberToObject(o, "n_diff", (double)x->n_diff);
    json_add_num(o, "max_abs_diff", x->max_abs_diff);
    json_add_num(o, "worst_ratio", x->worst_ratio);
    cJSON_AddStringToObject(o, "expected", x->expect_identical ? "identical" : "bounded");
    cJSON_AddBoolToObject(o, "pass", x->pass);
    return o;
}

/* roofline_floor_us, the term that sets it, every term, and the format each product's tensor-core
 * peak is taken at (roofline.h); null without a device (emulated). */
static void add_roofline(cJSON *o, const timing_rec_t *t) {
    const roof_t r = roof_floor(t->shape, t->dev, t->products);
    json_add_num(o, "roofline_floor_us", r.floor_us);
    add_str_or_null(o, "roofline_bound", r.bound);
    if (!t->dev) {
        cJSON_AddNullToObject(o, "roofline_terms_us");
        cJSON_AddNullToObject(o, "tensor_formats");
        return;
    }
    cJSON *terms = cJSON_AddObjectToObject(o, "roofline_terms_us");
    json_add_num(terms, "dram", r.dram_us);
    json_add_num(terms, "tensor", r.tensor_us);
    json_add_num(terms, "exp2", r.exp2_us);
    cJSON *f = cJSON_AddObjectToObject(o, "tensor_formats");
    add_str_or_null(f, "qk", roof_fmt_name(t->products.qk));
    add_str_or_null(f, "pv", roof_fmt_name(t->products.pv));
}

cJSON *bj_timing(const timing_rec_t *t) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "variant", t->variant);
    add_shape_seed(o, t->shape_name, t->seed);
    cJSON_AddStringToObject(o, "timing", t->timing);
    cJSON_AddStringToObject(o, "l2", t->l2);
    json_add_doubles(o, "samples_us", t->samples_us, t->n);
    if (t->clock_mhz)
        json_add_doubles(o, "sm_clock_mhz", t->clock_mhz, t->n);
    else
        cJSON_AddNullToObject(o, "sm_clock_mhz");
    cJSON_AddNumberToObject(o, "discarded_throttled", (double)t->discarded);
    if (t->clock_mhz) {
        size_t unmeasured = 0;
        for (size_t i = 0; i < t->n; i++) unmeasured += !isfinite(t->clock_mhz[i]);
        cJSON_AddNumberToObject(o, "clock_unmeasured", (double)unmeasured);
    } else {
        cJSON_AddNullToObject(o, "clock_unmeasured");
    }
    cJSON_AddStringToObject(o, "stop_reason", t->stop_reason);
    json_add_num(o, "wall_s", t->wall_s);
    stats_summary_t s;
    const bool have = t->n && stats_summarize(t->samples_us, t->n, &s) == 0;
    cJSON_AddItemToObject(o, "summary", have ? json_stats_summary(&s) : cJSON_CreateNull());
    const uint64_t flops = bench_flops(t->shape), bytes = bench_bytes_min(t->shape);
    const double median = have ? s.median : NAN;
    json_add_u64(o, "flops", flops);
    json_add_u64(o, "bytes_min", bytes);
    json_add_num(o, "tflops", (double)flops / (median * 1e6));
    json_add_num(o, "bandwidth_gbs", (double)bytes / (median * 1e3));
    add_roofline(o, t);
    return o;
}

cJSON *bj_comparison(const comparison_rec_t *c) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "baseline", c->baseline);
    cJSON_AddStringToObject(o, "candidate", c->candidate);
    add_shape_seed(o, c->shape_name, c->seed);
    cJSON_AddStringToObject(o, "timing", c->timing);
    /* The rounds' paired samples are the two arms' TIMING samples_us, index for index (a throttled
     * round is discarded for every arm at once); until schema 2.0.0 they were copied here too. */
    cJSON_AddNumberToObject(o, "rounds", (double)c->rounds);
    if (!c->ab) {
        /* Too few rounds for a CI: every statistic is unknown, and so is the verdict. */
        static const char *const unknown[] = {"base_median",
                                              "cand_median",
                                              "ratio",
                                              "ratio_ci",
                                              "speedup",
                                              "speedup_ci",
                                              "latency_reduction",
                                              "latency_reduction_ci",
                                              "epsilon",
                                              "resamples",
                                              "bootstrap_seed"};
        for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) cJSON_AddNullToObject(o, unknown[i]);
        if (strcmp(c->timing, "gpu") == 0)
            cJSON_AddStringToObject(o, "verdict", "AMBIGUOUS");
        else
            cJSON_AddNullToObject(o, "verdict");
        return o;
    }
    /* json_ab_result's fields follow "rounds" in the schema's order; move them over. */
    cJSON *ab = json_ab_result(c->ab);
    while (ab && ab->child) {
        cJSON *item = cJSON_DetachItemViaPointer(ab, ab->child);
        if (strcmp(item->string, "rounds") == 0)
            cJSON_Delete(item);
        else
            cJSON_AddItemToObject(o, item->string, item);
    }
    cJSON_Delete(ab);
    /* Emulated timings are CPU wall-clock times: the statistics stand, a verdict would say something
     * about a GPU (paper/methods.md, Timing). Since schema 2.1.0; older files carried one. */
    if (strcmp(c->timing, "gpu") != 0)
        cJSON_ReplaceItemInObjectCaseSensitive(o, "verdict", cJSON_CreateNull());
    return o;
}

cJSON *bj_not_timed(const char *variant, const char *reason) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "variant", variant);
    cJSON_AddStringToObject(o, "reason", reason);
    return o;
}

void bj_peer_fields(cJSON *entry, const char *library) {
    cJSON_AddBoolToObject(entry, "peer", true);
    cJSON_AddStringToObject(entry, "library", library);
}
