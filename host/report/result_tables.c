/* See result_tables.h. */
#include "result_tables.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "textbuf.h"
#include "tables.h"
#include "stats.h"

#define N 64

static const char *pass_text(bool ok) { return ok ? "PASS" : "**FAIL**"; }

static void shape_label(report_t *r, const char *shape, char *dst, size_t n) {
    char dims[64];
    snprintf(dst, n, "%s %s", shape, report_shape_dims(r, shape, dims, sizeof dims));
}

int table_correctness(report_t *r, const gates_t *g) {
    (void)g;
    const rj_t *d = &r->R;
    rbuf_t b = {0};
    tolerances_t t;
    TRY_B(report_tolerances(r, &t));
    int n = rj_len(d, "correctness");
    TRY_B(n);
    char h_rel[N], h_e2e[N], h_cos[N], h_lmax[N], h_lmean[N], h_lpct[N];
    snprintf(h_rel, N, "rel-L2 (<= %g)", t.kernel_rel_l2);
    snprintf(h_e2e, N, "rel-L2 (<= %g)", t.e2e_rel_l2);
    snprintf(h_cos, N, "cosine (>= %g)", t.e2e_cosine);
    snprintf(h_lmax, N, "legacy max abs (<= %g)", t.legacy_max_abs);
    snprintf(h_lmean, N, "legacy mean abs (<= %g)", t.legacy_mean_abs);
    snprintf(h_lpct, N, "legacy %%bad (<= %g)", t.legacy_pct_bad);
    const md_col_t k_cols[] = {{"variant", 8, 'l'}, {"shape", 16, 'l'},         {"seed", 5, 'r'},
                               {"max abs", 9, 'r'}, {"atol range", 16, 'r'},    {h_rel, 12, 'r'},
                               {"%bad", 6, 'r'},    {"worst err/bar", 10, 'r'}, {"non-finite", 8, 'r'},
                               {"gate", 7, 'l'}};
    const md_col_t e_cols[] = {{"variant", 8, 'l'}, {"shape", 16, 'l'}, {"seed", 5, 'r'},
                               {h_e2e, 11, 'r'},    {h_cos, 11, 'r'},   {"end-to-end", 8, 'l'},
                               {h_lmax, 11, 'r'},   {h_lmean, 11, 'r'}, {h_lpct, 10, 'r'},
                               {"legacy", 8, 'l'}};
    for (int table = 0; table < 2; table++) {
        md_table_head(&b, table ? e_cols : k_cols, 10);
        for (int i = 0; i < n; i++) {
            const char *v = rj_str(d, "correctness.%d.variant", i),
                       *sh = rj_str(d, "correctness.%d.shape", i);
            const char *seed = rj_str(d, "correctness.%d.seed", i);
            if (!v || !sh || !seed) {
                rb_free(&b);
                return -1;
            }
            char shape[N], c[7][N];
            shape_label(r, sh, shape, N);
            double x[6];
            bool g1, g2;
            if (table == 0) {
                static const char *const f[] = {"max_abs", "atol_min", "atol_max",
                                                "rel_l2",  "pct_bad",  "worst_ratio"};
                TRY_B(rj_nums(d, x, "correctness.%d.kernel_only.%s", i, f, 6));
                double nonfin;
                TRY_B(rj_num(d, &nonfin, "correctness.%d.kernel_only.nonfinite", i));
                TRY_B(rj_bool(d, &g1, "correctness.%d.pass", i));
                char a1[N], a2[N];
                snprintf(c[0], N, "%s", fmt_num(a1, N, "%.3g", x[0]));
                snprintf(c[1], N, "%s to %s", fmt_num(a1, N, "%.3g", x[1]), fmt_num(a2, N, "%.3g", x[2]));
                fmt_num(c[2], N, "%.3g", x[3]);
                fmt_num(c[3], N, "%.3g", x[4]);
                fmt_num(c[4], N, "%.3g", x[5]);
                fmt_num(c[5], N, "%.0f", nonfin);
                md_row(&b, 10, v, shape, seed, c[0], c[1], c[2], c[3], c[4], c[5], pass_text(g1));
            } else {
                TRY_B(rj_num(d, &x[0], "correctness.%d.end_to_end.rel_l2", i));
                TRY_B(rj_num(d, &x[1], "correctness.%d.end_to_end.cosine", i));
                TRY_B(rj_num(d, &x[2], "correctness.%d.legacy.max_abs", i));
                TRY_B(rj_num(d, &x[3], "correctness.%d.legacy.mean_abs", i));
                TRY_B(rj_num(d, &x[4], "correctness.%d.legacy.pct_bad", i));
                TRY_B(rj_bool(d, &g1, "correctness.%d.gates.end_to_end", i));
                TRY_B(rj_bool(d, &g2, "correctness.%d.gates.legacy", i));
                fmt_num(c[0], N, "%.3g", x[0]);
                fmt_num(c[1], N, "%.6f", x[1]);
                fmt_num(c[2], N, "%.4f", x[2]);
                fmt_num(c[3], N, "%.4f", x[3]);
                fmt_num(c[4], N, "%.3g", x[4]);
                md_row(&b, 10, v, shape, seed, c[0], c[1], pass_text(g1), c[2], c[3], c[4], pass_text(g2));
            }
        }
        if (table == 0)
            md_table_caption(&b, "tbl:kernel-only",
                             "Kernel-only correctness against the float64 reference on the "
                             "dequantised inputs (the kernel's own error). Element-wise bar |err| <= atol_bh "
                             "+ rtol|ref| per "
                             "(batch, head) slice; worst err/bar is the largest ratio (<= 1 passes). The "
                             "gate decides the verdict.");
        else
            md_table_caption(&b, "tbl:end-to-end",
                             "End-to-end accuracy against the float64 reference on the "
                             "unquantised inputs (includes quantisation), and the original study's legacy "
                             "gate (max abs, mean "
                             "abs, %bad with bad = |err| > 0.06), labelled legacy: both are information, not "
                             "part of the verdict.");
    }
    return tables_save(r, &b, "correctness.md");
}

int table_cross(report_t *r, const gates_t *g) {
    (void)g;
    const rj_t *d = &r->R;
    rbuf_t b = {0};
    int n = rj_len(d, "cross_variant");
    TRY_B(n);
    if (n == 0) {
        rb_puts(&b, "No cross-variant comparison was recorded in this run.\n");
        return tables_save(r, &b, "cross.md");
    }
    static const md_col_t cols[] = {{"a", 8, 'l'},
                                    {"b", 8, 'l'},
                                    {"shape", 16, 'l'},
                                    {"seed", 5, 'r'},
                                    {"expected", 9, 'l'},
                                    {"max ULP", 8, 'r'},
                                    {"elements differing", 10, 'r'},
                                    {"pass", 6, 'l'}};
    md_table_head(&b, cols, 8);
    for (int i = 0; i < n; i++) {
        const char *a = rj_str(d, "cross_variant.%d.a", i), *bb = rj_str(d, "cross_variant.%d.b", i);
        const char *sh = rj_str(d, "cross_variant.%d.shape", i),
                   *seed = rj_str(d, "cross_variant.%d.seed", i);
        const char *ex = rj_str(d, "cross_variant.%d.expected", i);
        double ulp, nd;
        bool ok;
        if (!a || !bb || !sh || !seed || !ex) {
            rb_free(&b);
            return -1;
        }
        TRY_B(rj_num(d, &ulp, "cross_variant.%d.max_ulp", i));
        TRY_B(rj_num(d, &nd, "cross_variant.%d.n_diff", i));
        TRY_B(rj_bool(d, &ok, "cross_variant.%d.pass", i));
        char shape[N], c1[N], c2[N];
        shape_label(r, sh, shape, N);
        md_row(&b, 8, a, bb, shape, seed, ex, fmt_num(c1, N, "%.0f", ulp), fmt_num(c2, N, "%.0f", nd),
               pass_text(ok));
    }
    md_table_caption(
        &b, "tbl:cross",
        "Cross-variant comparison of fp16 outputs on identical inputs: identical "
        "pairs must be bit-identical (0 elements differ); bounded pairs (different arithmetic) are "
        "reported as the largest difference in units in the last place.");
    return tables_save(r, &b, "cross.md");
}

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

static int perf_variant_rows(report_t *r, rbuf_t *b, bool gpu) {
    const rj_t *d = &r->T;
    int n = rj_len(d, "timing");
    TRY(n);
    static const md_col_t cols[] = {{"variant", 8, 'l'},   {"shape", 16, 'l'},
                                    {"n", 5, 'r'},         {"p50 (us)", 10, 'r'},
                                    {"p90 (us)", 10, 'r'}, {"mean (us)", 10, 'r'},
                                    {"std (us)", 8, 'r'},  {"95 % CI of the median (us)", 20, 'r'}};
    md_table_head(b, cols, 8);
    for (int i = 0; i < n; i++) {
        const char *v = rj_str(d, "timing.%d.variant", i), *sh = rj_str(d, "timing.%d.shape", i);
        if (!v || !sh) return -1;
        char shape[N], c[6][N];
        shape_label(r, sh, shape, N);
        if (!rj_present(d, "timing.%d.summary", i)) { /* no sample kept */
            md_row(b, 8, v, shape, "0", NA_MARK, NA_MARK, NA_MARK, NA_MARK, NA_MARK);
            continue;
        }
        static const char *const f[] = {"n", "median", "p90", "mean", "std", "ci_lo", "ci_hi"};
        double x[7];
        TRY(rj_nums(d, x, "timing.%d.summary.%s", i, f, 7));
        md_row(b, 8, v, shape, fmt_num(c[0], N, "%.0f", x[0]), fmt_us(c[1], N, x[1]), fmt_us(c[2], N, x[2]),
               fmt_us(c[3], N, x[3]), fmt_us(c[4], N, x[4]),
               fmt_ci(c[5], N, fabs(x[5]) >= 1e5 ? "%.0f" : "%.2f", x[5], x[6]));
    }
    if (gpu) {
        md_table_caption(b, "tbl:latency",
                         "GPU latency per variant (CUDA events, one launch per sample); the "
                         "median's 95 % CI is distribution-free, from order statistics.");
        static const md_col_t rcols[] = {{"variant", 8, 'l'},
                                         {"shape", 16, 'l'},
                                         {"FLOP", 12, 'r'},
                                         {"TFLOP/s", 8, 'r'},
                                         {"GB/s (minimum bytes)", 10, 'r'},
                                         {"roofline floor (us)", 10, 'r'},
                                         {"% of floor", 8, 'r'},
                                         {"SM clock (MHz)", 8, 'r'},
                                         {"throttled, discarded", 9, 'r'},
                                         {"stopped by", 14, 'l'}};
        md_table_head(b, rcols, 10);
        for (int i = 0; i < n; i++) {
            const char *v = rj_str(d, "timing.%d.variant", i), *sh = rj_str(d, "timing.%d.shape", i);
            const char *flops = rj_str(d, "timing.%d.flops", i),
                       *stop = rj_str(d, "timing.%d.stop_reason", i);
            double tf, bw, floor_us, med, disc;
            if (!v || !sh || !flops || !stop) return -1;
            TRY(rj_num(d, &tf, "timing.%d.tflops", i));
            TRY(rj_num(d, &bw, "timing.%d.bandwidth_gbs", i));
            TRY(rj_num(d, &floor_us, "timing.%d.roofline_floor_us", i));
            med = NAN;
            if (rj_present(d, "timing.%d.summary", i)) TRY(rj_num(d, &med, "timing.%d.summary.median", i));
            TRY(rj_num(d, &disc, "timing.%d.discarded_throttled", i));
            double clk = median_clock(rj_node(d, "timing.%d.sm_clock_mhz", i));
            char shape[N], c[6][N];
            shape_label(r, sh, shape, N);
            md_row(b, 10, v, shape, flops, fmt_num(c[0], N, "%.3f", tf), fmt_num(c[1], N, "%.2f", bw),
                   fmt_num(c[2], N, "%.2f", floor_us), fmt_num(c[3], N, "%.2f", 100.0 * floor_us / med),
                   fmt_num(c[4], N, "%.0f", clk), fmt_num(c[5], N, "%.0f", disc), stop);
        }
        md_table_caption(
            b, "tbl:roofline",
            "Throughput with FLOPs = 4 B H S^2 D (two matrix products, "
            "non-causal) and minimum bytes = fp8 Q, K, V read once plus fp16 O written once; % of "
            "floor = roofline floor / median latency (100 % = speed of light).");
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
    static const md_col_t cols[] = {{"baseline -> candidate", 14, 'l'},
                                    {"shape", 14, 'l'},
                                    {"rounds", 6, 'r'},
                                    {"baseline p50 (us)", 10, 'r'},
                                    {"candidate p50 (us)", 10, 'r'},
                                    {"speedup ratio t_base/t_new [95 % CI]", 20, 'r'},
                                    {"latency reduction 1 - t_new/t_base [95 % CI]", 20, 'r'},
                                    {"verdict", 9, 'l'}};
    md_table_head(b, cols, 8);
    for (int i = 0; i < n; i++) {
        const char *base = rj_str(d, "comparisons.%d.baseline", i),
                   *cand = rj_str(d, "comparisons.%d.candidate", i);
        const char *sh = rj_str(d, "comparisons.%d.shape", i), *vd = rj_str(d, "comparisons.%d.verdict", i);
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
        shape_label(r, sh, shape, N);
        snprintf(c[0], N, "%s %s", fmt_num(c[6], N, "%.3f", x[3]), fmt_ci(c[7], N, "%.3f", x[4], x[5]));
        snprintf(c[1], N, "%s %% %s", fmt_num(c[6], N, "%.1f", 100 * x[6]),
                 fmt_ci(c[7], N, "%.1f %%", 100 * x[7], 100 * x[8]));
        md_row(b, 8, pair, shape, fmt_num(c[2], N, "%.0f", x[0]), fmt_us(c[3], N, x[1]),
               fmt_us(c[4], N, x[2]), c[0], c[1], vd);
    }
    md_table_caption(b, "tbl:comparison",
                     gpu ? "Interleaved A/B comparison (baseline and candidate launched alternately in one "
                           "process): speedup ratio "
                           "and latency reduction are named separately, each with a fixed-seed percentile "
                           "bootstrap 95 % CI over "
                           "whole rounds. Verdict: SAME if the ratio CI lies within +-2 % of 1, "
                           "FASTER/SLOWER if it excludes 1."
                         : "EMULATED (CPU) TIMINGS, NOT GPU TIMINGS: the same comparison on emulator "
                           "wall-clock times; it is "
                           "shown for completeness and says nothing about GPU performance.");
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
                "### Emulated (CPU) timings: not GPU timings {.unnumbered}\n\n"
                "These are wall-clock times of the CPU SIMT emulator. They are not GPU timings, are never "
                "compared with GPU figures and decide no gate.\n");
    TRY_B(perf_variant_rows(r, &b, gpu));
    TRY_B(perf_comparison_rows(r, &b, gpu));
    return tables_save(r, &b, "performance.md");
}

/* One ptxas entry of a variant in this build as a table row. */
static int ptxas_row(report_t *r, int i, const char *arch, void *ctx) {
    rbuf_t *b = ctx;
    const rj_t *d = &r->P;
    static const char *const f[] = {
        "registers",   "static_smem_bytes",      "stack_bytes", "spill_store_bytes", "spill_load_bytes",
        "local_bytes", "occupancy.blocks_per_sm"};
    double x[7];
    TRY(rj_nums(d, x, "kernels.%d.%s", i, f, 7));
    const char *lim = rj_str(d, "kernels.%d.occupancy.limited_by", i),
               *v = rj_str(d, "kernels.%d.variant", i);
    bool ok;
    if (!lim || !v) return -1;
    TRY(rj_bool(d, &ok, "kernels.%d.pass", i));
    char c[6][N], occ[N];
    snprintf(occ, N, "%.0f (%s)", x[6], lim);
    md_row(b, 9, v, arch, "this build", fmt_num(c[0], N, "%.0f", x[0]), fmt_int(c[1], N, x[1]),
           fmt_num(c[2], N, "%.0f", x[2]), fmt_num(c[3], N, "%.0f", x[3] + x[4]),
           fmt_num(c[4], N, "%.0f", x[5]), occ);
    return 0;
}

/* ptxas rows of a variant in this build, then the published row of the original. */
static int ptxas_rows(report_t *r, rbuf_t *b, const char *variant) {
    TRY(report_ptxas_each(r, variant, ptxas_row, b));
    int p = report_find_published_resource(r, variant, NULL);
    if (p >= 0) {
        const rj_t *d = &r->PUB;
        double x[4];
        static const char *const f[] = {"registers", "static_smem_bytes", "stack_bytes", "spill_store_bytes"};
        TRY(rj_nums(d, x, "resources.%d.%s", p, f, 4));
        const char *arch = rj_str(d, "resources.%d.arch", p), *src = rj_str(d, "resources.%d.source", p);
        if (!arch || !src) return -1;
        char label[N * 2], c[4][N];
        snprintf(label, sizeof label, "published (original study, L4): %s", src);
        md_row(b, 9, variant, arch, label, fmt_num(c[0], N, "%.0f", x[0]), fmt_int(c[1], N, x[1]),
               fmt_num(c[2], N, "%.0f", x[2]), fmt_num(c[3], N, "%.0f", x[3]), NA_MARK, NA_MARK);
    }
    return 0;
}

int table_ptxas(report_t *r, const gates_t *g) {
    (void)g;
    rbuf_t b = {0};
    if (r->have_ptxas) {
        double x[4];
        for (int k = 0; k < 4; k++) TRY_B(report_static_budget(r, k, &x[k]));
        char s[N];
        rb_printf(
            &b,
            "Budgets of the experiment: at most %.0f registers per thread, %.0f spill bytes, %.0f bytes of "
            "local memory and %s bytes of static shared memory per block, on every architecture built.\n",
            x[STATIC_BUDGET_REGS], x[STATIC_BUDGET_SPILL], x[STATIC_BUDGET_LOCAL],
            fmt_int(s, N, x[STATIC_BUDGET_SMEM]));
    } else {
        rb_printf(
            &b,
            "**Static gates NOT EVALUATED: %s.** This run has no ptxas resource file; only the original "
            "study's published values are shown.\n",
            r->ptxas_missing);
    }
    static const md_col_t cols[] = {
        {"variant", 8, 'l'},    {"arch (codec)", 9, 'l'},    {"source", 24, 'l'},
        {"registers", 8, 'r'},  {"static smem (B)", 9, 'r'}, {"stack (B)", 7, 'r'},
        {"spills (B)", 7, 'r'}, {"local (B)", 7, 'r'},       {"blocks/SM (limited by)", 14, 'l'}};
    md_table_head(&b, cols, 9);
    TRY_B(ptxas_rows(r, &b, r->baseline));
    TRY_B(ptxas_rows(r, &b, r->candidate));
    md_table_caption(&b, "tbl:ptxas",
                     "ptxas resources per variant and architecture, from ptxas.json, beside the "
                     "values the original study published for the NVIDIA L4 (sm_89), from "
                     "data/published/seed-l4.json.");
    return tables_save(r, &b, "ptxas.md");
}
