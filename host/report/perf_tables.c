/* See perf_tables.h. */
#include "perf_tables.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "textbuf.h"
#include "tables.h"
#include "stats.h"

#define N 64

/* Median of the per-sample SM clocks, or NaN. */
static double median_clock(const cJSON *arr) {
    int n = cJSON_GetArraySize(arr);
    if (!cJSON_IsArray(arr) || n == 0) return NAN;
    double *x = malloc((size_t)n * sizeof *x);
    if (!x) return NAN;
    int k = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, arr) if (cJSON_IsNumber(e)) x[k++] = e->valuedouble;
    stats_summary_t s;
    double m = k > 0 && stats_summarize(x, (size_t)k, &s) == 0 ? s.median : NAN;
    free(x);
    return m;
}

/* Samples whose SM clock sdpa-bench could not read (timing[].clock_unmeasured; older files do not
 * record it) were never checked for throttling: the reader must know how many. */
static int clock_unmeasured_note(report_t *r, rbuf_t *b, int n) {
    const rj_t *d = &r->T;
    for (int i = 0; i < n; i++) {
        if (!rj_present(d, "timing.%d.clock_unmeasured", i)) continue;
        double un;
        TRY(rj_num(d, &un, "timing.%d.clock_unmeasured", i));
        int m = rj_len(d, "timing.%d.samples_us", i);
        const char *v = rj_str(d, "timing.%d.variant", i), *sh = rj_str(d, "timing.%d.shape", i);
        if (m < 0 || !v || !sh) return -1;
        if (un > 0)
            rb_printf(b,
                      "- **%s, %s:** SM clock detection unavailable for %.0f of %d samples (no timestamp "
                      "block landed on SM 0): throttling could not be checked for those.\n",
                      v, sh, un, m);
    }
    return 0;
}

/* What sets a timing entry's roofline floor (timing[].roofline_bound, since 1.5.0): "exp2", "DRAM",
 * "tensor fp8", "tensor fp16", or "tensor fp8/fp16" (Q.K^T / P.V in two formats); "" in older
 * files, whose floor is the DRAM and fp16 tensor terms alone. */
static void roofline_bound_label(const rj_t *d, int i, char *out, size_t n) {
    out[0] = '\0';
    if (!rj_present(d, "timing.%d.roofline_bound", i)) return;
    const char *bound = rj_str(d, "timing.%d.roofline_bound", i);
    if (!bound) return;
    if (strcmp(bound, "tensor") != 0) {
        snprintf(out, n, "%s", strcmp(bound, "dram") == 0 ? "DRAM" : bound);
        return;
    }
    const cJSON *f =
        rj_present(d, "timing.%d.tensor_formats", i) ? rj_node(d, "timing.%d.tensor_formats", i) : NULL;
    const char *qk = jo_str(f, "qk"), *pv = jo_str(f, "pv");
    if (qk && pv && strcmp(qk, pv) != 0)
        snprintf(out, n, "tensor %s/%s", qk, pv);
    else
        snprintf(out, n, "tensor%s%s", qk ? " " : "", qk ? qk : "");
}

/* The GPU's throughput table: FLOP, TFLOP/s, bandwidth and the roofline floor per timing entry. */
static int perf_roofline_rows(report_t *r, rbuf_t *b, int n) {
    const rj_t *d = &r->T;
    static const md_col_t rcols[] = {{"variant", 8, 'l'},
                                     {"shape", 16, 'l'},
                                     {"FLOP", 12, 'r'},
                                     {"TFLOP/s", 8, 'r'},
                                     {"GB/s (minimum bytes)", 10, 'r'},
                                     {"roofline floor (us), bound", 12, 'r'},
                                     {"% of floor", 8, 'r'},
                                     {"SM clock (MHz)", 8, 'r'},
                                     {"throttled, discarded", 9, 'r'},
                                     {"stopped by", 14, 'l'}};
    md_table_head(b, rcols, 10);
    bool any_bound = false;
    for (int i = 0; i < n; i++) {
        const char *v = rj_str(d, "timing.%d.variant", i), *sh = rj_str(d, "timing.%d.shape", i);
        const char *flops = rj_str(d, "timing.%d.flops", i), *stop = rj_str(d, "timing.%d.stop_reason", i);
        double tf, bw, floor_us, med, disc;
        if (!v || !sh || !flops || !stop) return -1;
        TRY(rj_num(d, &tf, "timing.%d.tflops", i));
        TRY(rj_num(d, &bw, "timing.%d.bandwidth_gbs", i));
        TRY(rj_num(d, &floor_us, "timing.%d.roofline_floor_us", i));
        med = NAN;
        if (rj_present(d, "timing.%d.summary", i)) TRY(rj_num(d, &med, "timing.%d.summary.median", i));
        TRY(rj_num(d, &disc, "timing.%d.discarded_throttled", i));
        double clk = median_clock(rj_node(d, "timing.%d.sm_clock_mhz", i));
        char shape[N], c[6][N], bound[N], fl[2 * N];
        report_shape_label(r, sh, shape, N);
        roofline_bound_label(d, i, bound, N);
        any_bound |= bound[0] != '\0';
        fmt_num(c[2], N, "%.2f", floor_us);
        if (bound[0] && isfinite(floor_us))
            snprintf(fl, sizeof fl, "%s %s", c[2], bound);
        else
            snprintf(fl, sizeof fl, "%s", c[2]);
        md_row(b, 10, v, shape, flops, fmt_num(c[0], N, "%.3f", tf), fmt_num(c[1], N, "%.2f", bw), fl,
               fmt_num(c[3], N, "%.2f", 100.0 * floor_us / med), fmt_num(c[4], N, "%.0f", clk),
               fmt_num(c[5], N, "%.0f", disc), stop);
    }
    /* One caption; its second half says which floor model the file records. */
    char cap[1536];
    snprintf(
        cap, sizeof cap,
        "Throughput with $\\text{FLOPs} = 4 \\cdot B \\cdot H \\cdot S^2 \\cdot D$ (two matrix products; "
        "half for a causal mask) and minimum bytes = fp8 Q, K, V read once plus fp16 O written once. %s "
        "%% of floor = roofline floor / median latency (100 %% = speed of light).",
        any_bound ? "Roofline floor: the largest of three lower bounds at the device's peaks, named after "
                    "the floor: DRAM (minimum bytes), tensor (each product at the dense datasheet peak of "
                    "the format its instruction runs in on this device, fp8 or fp16, Q·Kᵀ/P·V where they "
                    "differ) and exp2 (one exponential per score at 16 per clock per SM)."
                  : "This file predates schema 1.5.0: its roofline floor holds both products to the fp16 "
                    "tensor peak and leaves the exponentials out, so for FP8 products it is no lower "
                    "bound.");
    md_table_caption(b, "tbl:roofline", cap);
    return 0;
}

static int perf_variant_rows(report_t *r, rbuf_t *b, bool gpu) {
    const rj_t *d = &r->T;
    int n = rj_len(d, "timing");
    TRY(n);
    static const md_col_t cols[] = {{"variant", 8, 'l'},
                                    {"shape", 14, 'l'},
                                    {"n", 4, 'r'},
                                    {"p50 (µs)", 10, 'r'},
                                    {"p90 (µs)", 10, 'r'},
                                    {"mean (µs)", 10, 'r'},
                                    {"std (µs)", 8, 'r'},
                                    {"noise (IQR/median)", 7, 'r'},
                                    {"95 % CI of the median (µs)", 18, 'r'}};
    md_table_head(b, cols, 9);
    for (int i = 0; i < n; i++) {
        const char *v = rj_str(d, "timing.%d.variant", i), *sh = rj_str(d, "timing.%d.shape", i);
        if (!v || !sh) return -1;
        char shape[N], c[6][N];
        report_shape_label(r, sh, shape, N);
        if (!rj_present(d, "timing.%d.summary", i)) { /* no sample kept */
            md_row(b, 9, v, shape, "0", NA_MARK, NA_MARK, NA_MARK, NA_MARK, NA_MARK, NA_MARK);
            continue;
        }
        static const char *const f[] = {"n", "median", "p90", "mean", "std", "ci_lo", "ci_hi", "rel_iqr"};
        double x[8];
        char no[N];
        TRY(rj_nums(d, x, "timing.%d.summary.%s", i, f, 8));
        md_row(b, 9, v, shape, fmt_num(c[0], N, "%.0f", x[0]), fmt_us(c[1], N, x[1]), fmt_us(c[2], N, x[2]),
               fmt_us(c[3], N, x[3]), fmt_us(c[4], N, x[4]), fmt_pct(no, N, x[7]),
               fmt_ci(c[5], N, fabs(x[5]) >= 1e5 ? "%.0f" : "%.2f", x[5], x[6]));
    }
    if (gpu) {
        md_table_caption(b, "tbl:latency",
                         "GPU latency per variant (CUDA events, one launch per sample): n samples kept, "
                         "their noise (interquartile range over the median); the median's 95 % CI is "
                         "distribution-free, from order statistics. The noise floor of a comparison is a "
                         "campaign's A/A control (paper, Measured on GPUs).");
        TRY(perf_roofline_rows(r, b, n));
        TRY(clock_unmeasured_note(r, b, n));
    } else {
        md_table_caption(
            b, "tbl:latency",
            "EMULATED (CPU) TIMINGS, NOT GPU TIMINGS: wall-clock time of the "
            "CPU SIMT emulator per launch. They say nothing about GPU performance and decide nothing.");
    }
    return 0;
}

static int perf_comparison_rows(report_t *r, rbuf_t *b, bool gpu) {
    const rj_t *d = &r->T;
    int n = rj_len(d, "comparisons");
    TRY(n);
    if (n == 0) return 0;
    static const md_col_t cols[] = {
        {"baseline -> candidate", 14, 'l'},
        {"shape", 14, 'l'},
        {"rounds", 6, 'r'},
        {"baseline p50 (us)", 10, 'r'},
        {"candidate p50 (us)", 10, 'r'},
        {"speedup ratio $t_\\text{base}/t_\\text{new}$ [95 % CI]", 20, 'r'},
        {"latency reduction $1 - t_\\text{new}/t_\\text{base}$ [95 % CI]", 20, 'r'},
        {"verdict", 9, 'l'}};
    md_table_head(b, cols, 8);
    for (int i = 0; i < n; i++) {
        const char *base = rj_str(d, "comparisons.%d.baseline", i),
                   *cand = rj_str(d, "comparisons.%d.candidate", i);
        const char *sh = rj_str(d, "comparisons.%d.shape", i);
        /* emulated comparisons carry no verdict (null since schema 2.1.0) and show none */
        const char *vd = gpu ? rj_str(d, "comparisons.%d.verdict", i) : NA_MARK " (emulated)";
        if (!base || !cand || !sh || !vd) return -1;
        static const char *const f[] = {"rounds",
                                        "base_median",
                                        "cand_median",
                                        "speedup",
                                        "speedup_ci.0",
                                        "speedup_ci.1",
                                        "latency_reduction",
                                        "latency_reduction_ci.0",
                                        "latency_reduction_ci.1"};
        double x[9];
        TRY(rj_nums(d, x, "comparisons.%d.%s", i, f, 9));
        char pair[2 * N], shape[N], c[8][N];
        snprintf(pair, sizeof pair, "%s -> %s", base, cand);
        report_shape_label(r, sh, shape, N);
        snprintf(c[0], N, "%s %s", fmt_num(c[6], N, "%.3f", x[3]), fmt_ci(c[7], N, "%.3f", x[4], x[5]));
        snprintf(c[1], N, "%s %% %s", fmt_num(c[6], N, "%.1f", 100 * x[6]),
                 fmt_ci(c[7], N, "%.1f %%", 100 * x[7], 100 * x[8]));
        md_row(b, 8, pair, shape, fmt_num(c[2], N, "%.0f", x[0]), fmt_us(c[3], N, x[1]),
               fmt_us(c[4], N, x[2]), c[0], c[1], vd);
    }
    double eps = AB_DEFAULT_EPSILON; /* older files do not record it */
    if (rj_present(d, "comparisons.0.epsilon")) TRY(rj_num(d, &eps, "comparisons.0.epsilon"));
    char rule[512], cap[1536];
    snprintf(
        cap, sizeof cap,
        "Interleaved A/B comparison (baseline and candidate launched once each per round in one process, "
        "%s): speedup ratio and latency reduction are named separately, each with a fixed-seed "
        "percentile bootstrap 95 %% CI over whole rounds. %s",
        strcmp(jo_run_arm_order(d->root), "rotated") == 0
            ? "their order rotating from round to round"
            : "the baseline first in every round (config.arm_order fixed, or absent before schema 2.1.0)",
        verdict_rule(rule, sizeof rule, eps));
    md_table_caption(b, "tbl:comparison",
                     gpu ? cap
                         : "EMULATED (CPU) TIMINGS, NOT GPU TIMINGS: the same comparison on emulator "
                           "wall-clock times; it is shown for completeness, says nothing about GPU "
                           "performance and gives no verdict (n/a).");
    return 0;
}

int table_performance(report_t *r, const gates_t *g) {
    (void)g;
    rbuf_t b = {0};
    const char *kind = report_timing_kind(r);
    int n = rj_len(&r->T, "timing");
    TRY_B(n);
    if (n == 0) {
        rb_printf(&b,
                  "No timings were recorded (timing: %s). The performance gates are NOT EVALUATED (Table "
                  "@tbl:gates).\n",
                  kind);
        return tables_save(r, &b, "performance.md");
    }
    bool gpu = strcmp(kind, "gpu") == 0;
    if (!gpu)
        rb_puts(&b,
                "### Emulated (CPU) timings: not GPU timings {#sec:emulated-timings .unnumbered}\n\n"
                "These are wall-clock times of the CPU SIMT emulator. They are not GPU timings, are never "
                "compared with GPU figures and decide no gate.\n");
    TRY_B(perf_variant_rows(r, &b, gpu));
    TRY_B(perf_comparison_rows(r, &b, gpu));
    return tables_save(r, &b, "performance.md");
}
