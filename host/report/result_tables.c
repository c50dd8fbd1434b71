/* See result_tables.h. */
#include "result_tables.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "textbuf.h"
#include "tables.h"
#include "stats.h"
#include "sdpa_api.h"
#include "ptxas/occupancy.h"
#include "bench/variants.h"

#define N 64

static const char *pass_text(bool ok) { return ok ? "PASS" : "**FAIL**"; }

static void shape_label(report_t *r, const char *shape, char *dst, size_t n) {
    char dims[64];
    snprintf(dst, n, "%s %s", shape, report_shape_dims(r, shape, dims, sizeof dims));
}

/* Cosine, rel-L1 and RMSE of correctness[i].<which>. rel_l1 and rmse came with schema 1.2.0:
 * an older file has none, and a report of it prints n/a rather than failing. */
static int peer_cells(const rj_t *d, int i, const char *which, const char *cos_fmt, char cell[3][N]) {
    double x;
    TRY(rj_num(d, &x, "correctness.%d.%s.cosine", i, which));
    fmt_num(cell[0], N, cos_fmt, x);
    static const char *const f[] = {"rel_l1", "rmse"};
    for (int k = 0; k < 2; k++) {
        x = NAN;
        if (rj_present(d, "correctness.%d.%s.%s", i, which, f[k]))
            TRY(rj_num(d, &x, "correctness.%d.%s.%s", i, which, f[k]));
        fmt_num(cell[k + 1], N, "%.3g", x);
    }
    return 0;
}

/* The kernel-only bar entry i was judged by, when it is not the run's (stage 6: the fp8p family). */
static bool other_bar(const rj_t *d, int i, const tolerances_t *t, double *bar) {
    return rj_present(d, "correctness.%d.kernel_rel_l2_bar", i) &&
           rj_num(d, bar, "correctness.%d.kernel_rel_l2_bar", i) == 0 && *bar != t->kernel_rel_l2;
}

/* One row of the kernel-only table: entry i of run.json's correctness. */
static int kernel_only_row(const rj_t *d, const tolerances_t *t, int i, rbuf_t *b, const char *v,
                           const char *shape, const char *seed, char peer[3][N]) {
    static const char *const f[] = {"max_abs", "atol_min", "atol_max", "rel_l2", "pct_bad", "worst_ratio"};
    double x[6], nonfin, bar;
    bool pass;
    char c[6][N], a1[N], a2[N];
    TRY(rj_nums(d, x, "correctness.%d.kernel_only.%s", i, f, 6));
    TRY(rj_num(d, &nonfin, "correctness.%d.kernel_only.nonfinite", i));
    TRY(rj_bool(d, &pass, "correctness.%d.pass", i));
    snprintf(c[0], N, "%s", fmt_num(a1, N, "%.3g", x[0]));
    snprintf(c[1], N, "%s to %s", fmt_num(a1, N, "%.3g", x[1]), fmt_num(a2, N, "%.3g", x[2]));
    fmt_num(c[2], N, "%.3g", x[3]);
    if (other_bar(d, i, t, &bar)) {
        const char *fam = rj_str(d, "correctness.%d.tol_family", i);
        const size_t len = strlen(c[2]);
        snprintf(c[2] + len, N - len, " (%s: ≤ %g)", fam ? fam : "?", bar);
    }
    fmt_num(c[3], N, "%.3g", x[4]);
    fmt_num(c[4], N, "%.3g", x[5]);
    fmt_num(c[5], N, "%.0f", nonfin);
    md_row(b, 13, v, shape, seed, c[0], c[1], c[2], peer[0], peer[1], peer[2], c[3], c[4], c[5],
           pass_text(pass));
    return 0;
}

/* One row of the end-to-end table (with the legacy gate): entry i of run.json's correctness. */
static int end_to_end_row(const rj_t *d, int i, rbuf_t *b, const char *v, const char *shape, const char *seed,
                          char peer[3][N]) {
    double x[4];
    bool g1, g2;
    char c[4][N];
    TRY(rj_num(d, &x[0], "correctness.%d.end_to_end.rel_l2", i));
    TRY(rj_num(d, &x[1], "correctness.%d.legacy.max_abs", i));
    TRY(rj_num(d, &x[2], "correctness.%d.legacy.mean_abs", i));
    TRY(rj_num(d, &x[3], "correctness.%d.legacy.pct_bad", i));
    TRY(rj_bool(d, &g1, "correctness.%d.gates.end_to_end", i));
    TRY(rj_bool(d, &g2, "correctness.%d.gates.legacy", i));
    fmt_num(c[0], N, "%.3g", x[0]);
    fmt_num(c[1], N, "%.4f", x[1]);
    fmt_num(c[2], N, "%.4f", x[2]);
    fmt_num(c[3], N, "%.3g", x[3]);
    md_row(b, 12, v, shape, seed, c[0], peer[0], peer[1], peer[2], pass_text(g1), c[1], c[2], c[3],
           pass_text(g2));
    return 0;
}

static const char *const CAPTION_KERNEL_ONLY =
    "Kernel-only correctness against the float64 reference on the "
    "dequantised inputs (the kernel's own error). Element-wise bar "
    "$|o - \\text{ref}| \\le \\text{atol}_{bh} + \\text{rtol}\\,|\\text{ref}|$ per "
    "(batch, head) slice; worst err/bar is the largest ratio (≤ 1 passes). The "
    "gate decides the verdict. Beside ours, the metrics peers report, information "
    "only: cosine similarity, relative L1 $= \\sum|o - \\text{ref}| / "
    "\\sum|\\text{ref}|$ (SageAttention) and "
    "RMSE (FlashAttention-3, against float64); n/a where the file predates them.";
static const char *const CAPTION_END_TO_END =
    "End-to-end accuracy against the float64 reference on the "
    "unquantised inputs (includes quantisation), and the original study's legacy "
    "gate (max abs, mean "
    "abs, %bad with bad = $\\lvert \\text{err} \\rvert > 0.06$), labelled legacy: "
    "both are information, not "
    "part of the verdict. Relative L1 and RMSE as in the kernel-only table, "
    "against the unquantised inputs.";

int table_correctness(report_t *r, const gates_t *g) {
    (void)g;
    const rj_t *d = &r->R;
    rbuf_t b = {0};
    tolerances_t t;
    TRY_B(report_tolerances(r, &t));
    int n = rj_len(d, "correctness");
    TRY_B(n);
    char h_rel[N], h_e2e[N], h_cos[N], h_lmax[N], h_lmean[N], h_lpct[N];
    /* Entries judged by another family's bars (stage 6: fp8p) say so in their cell. */
    bool other_bars = false;
    for (int i = 0; i < n; i++) {
        double bar;
        other_bars |= other_bar(d, i, &t, &bar);
    }
    snprintf(h_rel, N, other_bars ? "rel-L2 (≤ %g unless marked)" : "rel-L2 (≤ %g)", t.kernel_rel_l2);
    snprintf(h_e2e, N, "rel-L2 (≤ %g)", t.e2e_rel_l2);
    snprintf(h_cos, N, "cosine (≥ %g)", t.e2e_cosine);
    snprintf(h_lmax, N, "legacy max abs (≤ %g)", t.legacy_max_abs);
    snprintf(h_lmean, N, "legacy mean abs (≤ %g)", t.legacy_mean_abs);
    snprintf(h_lpct, N, "legacy %%bad (≤ %g)", t.legacy_pct_bad);
    /* Peers' metrics (cosine, SageAttention's rel-L1, FlashAttention-3's RMSE) beside ours. */
    const md_col_t k_cols[] = {{"variant", 8, 'l'}, {"shape", 16, 'l'},         {"seed", 5, 'r'},
                               {"max abs", 9, 'r'}, {"atol range", 16, 'r'},    {h_rel, 12, 'r'},
                               {"cosine", 10, 'r'}, {"rel-L1", 8, 'r'},         {"RMSE", 8, 'r'},
                               {"%bad", 6, 'r'},    {"worst err/bar", 10, 'r'}, {"non-finite", 8, 'r'},
                               {"gate", 7, 'l'}};
    const md_col_t e_cols[] = {{"variant", 8, 'l'}, {"shape", 16, 'l'},     {"seed", 5, 'r'},
                               {h_e2e, 11, 'r'},    {h_cos, 11, 'r'},       {"rel-L1", 8, 'r'},
                               {"RMSE", 8, 'r'},    {"end-to-end", 8, 'l'}, {h_lmax, 11, 'r'},
                               {h_lmean, 11, 'r'},  {h_lpct, 10, 'r'},      {"legacy", 8, 'l'}};
    for (int table = 0; table < 2; table++) {
        md_table_head(&b, table ? e_cols : k_cols, table ? 12 : 13);
        for (int i = 0; i < n; i++) {
            const char *v = rj_str(d, "correctness.%d.variant", i),
                       *sh = rj_str(d, "correctness.%d.shape", i);
            const char *seed = rj_str(d, "correctness.%d.seed", i);
            if (!v || !sh || !seed) {
                rb_free(&b);
                return -1;
            }
            char shape[N], peer[3][N];
            shape_label(r, sh, shape, N);
            TRY_B(peer_cells(d, i, table ? "end_to_end" : "kernel_only", table ? "%.6f" : "%.7f", peer));
            TRY_B(table ? end_to_end_row(d, i, &b, v, shape, seed, peer)
                        : kernel_only_row(d, &t, i, &b, v, shape, seed, peer));
        }
        md_table_caption(&b, table ? "tbl:end-to-end" : "tbl:kernel-only",
                         table ? CAPTION_END_TO_END : CAPTION_KERNEL_ONLY);
    }
    return tables_save(r, &b, "correctness.md");
}

/* ---- correctness-summary.md */

/* The row of the rounding model (paper/derivation/rounding_model.py) with this variant's arithmetic:
 * its ARITH switches decide (variants.def); stages 4 and 5 move data, not arithmetic. */
static const char *model_row(const char *variant) {
    const variant_info_t *v = variants_find(variant);
    if (!v) return NULL;
    if (v->sw & SDPA_SW(KEYS128)) return "stage7e l=p8"; /* stage 6's arithmetic on 128-key tiles */
    if (v->sw & SDPA_SW(FP8_MMA)) return "stage6 l=p8";
    if (v->sw & SDPA_SW(REG_MMA)) return "stage3b";
    if (v->sw & SDPA_SW(WMMA_PV)) return "stage2";
    return "stage0";
}

/* "lo to hi" of the model's kernel-only rel-L2 for `row`, normal inputs, at the shapes the run
 * has (all of the model's when it has none of them); NA_MARK without the model file. */
static const char *model_range(report_t *r, const char *row, char *dst, size_t n) {
    snprintf(dst, n, "%s", NA_MARK);
    FILE *f = row ? fopen(ROUNDING_MODEL_TSV, "r") : NULL;
    if (!f) return dst;
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY}; /* [0]: the run's shapes, [1]: any */
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char dist[32], shape[32], name[64];
        double rel;
        if (line[0] == '#' ||
            sscanf(line, "%31[^\t]\t%31[^\t]\t%63[^\t]\t%lf", dist, shape, name, &rel) != 4 ||
            strcmp(dist, "normal") != 0 || strcmp(name, row) != 0)
            continue;
        char dims[64];
        int k = report_shape_dims(r, shape, dims, sizeof dims)[0] ? 0 : 1;
        for (int j = k; j < 2; j++) {
            lo[j] = fmin(lo[j], rel);
            hi[j] = fmax(hi[j], rel);
        }
    }
    fclose(f);
    int j = isfinite(lo[0]) ? 0 : 1;
    if (isfinite(lo[j])) snprintf(dst, n, "%.2g to %.2g%s", lo[j], hi[j], j ? " (the model's shapes)" : "");
    return dst;
}

int table_correctness_summary(report_t *r, const gates_t *g) {
    (void)g;
    const rj_t *d = &r->R;
    rbuf_t b = {0};
    tolerances_t t;
    TRY_B(report_tolerances(r, &t));
    int n = rj_len(d, "correctness");
    TRY_B(n);
    static const md_col_t cols[] = {{"variant", 9, 'l'},
                                    {"cases passed", 6, 'r'},
                                    {"kernel-only rel-L2, worst (bar)", 16, 'r'},
                                    {"rounding model, normal inputs", 16, 'r'},
                                    {"max abs err", 8, 'r'},
                                    {"worst err/bar", 7, 'r'},
                                    {"lowest cosine", 9, 'r'},
                                    {"end-to-end rel-L2, worst (bar)", 14, 'r'},
                                    {"end-to-end cosine, lowest", 9, 'r'}};
    md_table_head(&b, cols, 9);
    const char *vs[2] = {r->baseline, r->candidate};
    for (int k = 0; k < 2; k++) {
        double rel = -INFINITY, mx = -INFINITY, worst = -INFINITY, cs = INFINITY, e2e = -INFINITY,
               ecs = INFINITY, x;
        int cases = 0, passed = 0;
        for (int i = 0; i < n; i++) {
            const char *v = rj_str(d, "correctness.%d.variant", i);
            if (!v) {
                rb_free(&b);
                return -1;
            }
            if (strcmp(v, vs[k]) != 0) continue;
            static const char *const f[] = {"rel_l2", "max_abs", "worst_ratio", "cosine"};
            double y[4];
            bool ok;
            TRY_B(rj_nums(d, y, "correctness.%d.kernel_only.%s", i, f, 4));
            TRY_B(rj_bool(d, &ok, "correctness.%d.pass", i));
            rel = fmax(rel, y[0]), mx = fmax(mx, y[1]), worst = fmax(worst, y[2]), cs = fmin(cs, y[3]);
            TRY_B(rj_num(d, &x, "correctness.%d.end_to_end.rel_l2", i));
            e2e = fmax(e2e, x);
            TRY_B(rj_num(d, &x, "correctness.%d.end_to_end.cosine", i));
            ecs = fmin(ecs, x);
            cases++;
            passed += ok;
        }
        double bar;
        TRY_B(report_variant_rel_l2_bar(r, vs[k], t.kernel_rel_l2, &bar));
        char c[9][N], a[N];
        if (!cases) rel = mx = worst = cs = e2e = ecs = NAN;
        snprintf(c[0], N, "%d/%d", passed, cases);
        snprintf(c[1], N, "%s (%g)", fmt_num(a, N, "%.2g", rel), bar);
        model_range(r, model_row(vs[k]), c[2], N);
        fmt_num(c[3], N, "%.3g", mx);
        fmt_num(c[4], N, "%.3g", worst);
        fmt_num(c[5], N, "%.7f", cs);
        snprintf(c[6], N, "%s (%g)", fmt_num(a, N, "%.2g", e2e), t.e2e_rel_l2);
        fmt_num(c[7], N, "%.5f", ecs);
        md_row(&b, 9, vs[k], c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]);
    }
    md_table_caption(
        &b, "tbl:correctness-summary",
        "Correctness over every shape and seed of the run, per variant: the worst kernel-only "
        "rel-L2 against its bar (fixed before measuring), beside the range the rounding model of "
        "the Methods predicts for the same arithmetic on normal inputs at the run's shapes "
        "(paper/derivation/rounding-model.tsv); the largest absolute error, the worst element's "
        "error over its element-wise bar, the lowest cosine; end to end, the worst rel-L2 against "
        "its informative bar and the lowest cosine (quantisation included).");
    return tables_save(r, &b, "correctness-summary.md");
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
                                    {"max |a - b|", 8, 'r'},
                                    {"max |a - b| / bar", 8, 'r'},
                                    {"max ULP", 7, 'r'},
                                    {"elements differing", 9, 'r'},
                                    {"pass", 6, 'l'}};
    md_table_head(&b, cols, 10);
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
        double mad = NAN, ratio = NAN; /* absent in files written before them: n/a */
        if (rj_present(d, "cross_variant.%d.max_abs_diff", i))
            TRY_B(rj_num(d, &mad, "cross_variant.%d.max_abs_diff", i));
        if (rj_present(d, "cross_variant.%d.worst_ratio", i))
            TRY_B(rj_num(d, &ratio, "cross_variant.%d.worst_ratio", i));
        char shape[N], c1[N], c2[N], c3[N], c4[N];
        shape_label(r, sh, shape, N);
        md_row(&b, 10, a, bb, shape, seed, ex, fmt_num(c3, N, "%.3g", mad), fmt_num(c4, N, "%.3g", ratio),
               fmt_num(c1, N, "%.0f", ulp), fmt_num(c2, N, "%.0f", nd), pass_text(ok));
    }
    md_table_caption(
        &b, "tbl:cross",
        "Cross-variant comparison of fp16 outputs on identical inputs: identical "
        "pairs must be bit-identical (0 elements differ); bounded pairs (different arithmetic) must stay "
        "within the kernel-only element-wise bar: the largest difference and its largest ratio to the bar "
        "(≤ 1 passes; n/a where the file predates them). ULPs, which grow large near zero, for reference.");
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
        shape_label(r, sh, shape, N);
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
        shape_label(r, sh, shape, N);
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
               fmt_us(c[4], N, x[2]), c[0], c[1], gpu ? vd : NA_MARK " (emulated)");
    }
    double eps = AB_DEFAULT_EPSILON; /* older files do not record it */
    if (rj_present(d, "comparisons.0.epsilon")) TRY(rj_num(d, &eps, "comparisons.0.epsilon"));
    char rule[512], cap[1024];
    snprintf(
        cap, sizeof cap,
        "Interleaved A/B comparison (baseline and candidate launched alternately in one process): speedup "
        "ratio and latency reduction are named separately, each with a fixed-seed percentile bootstrap "
        "95 %% CI over whole rounds. %s",
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

/* One ptxas entry of a variant in this build as a table row. */
static int ptxas_row(report_t *r, int i, const char *arch, void *ctx) {
    rbuf_t *b = ctx;
    const rj_t *d = &r->P;
    char why[128];
    if (report_kernel_unsupported(r, i, why, sizeof why)) {
        const char *v = rj_str(d, "kernels.%d.variant", i);
        if (!v) return -1;
        md_row(b, 9, v, arch, "this build: a stub", NA_MARK, NA_MARK, NA_MARK, NA_MARK, NA_MARK, why);
        return 0;
    }
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
    for (char *u = occ; *u; u++)
        if (*u == '_') *u = ' '; /* shared_memory -> shared memory */
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
        double x[4], lo, hi;
        for (int k = 0; k < 4; k++) TRY_B(report_static_budget(r, k, &x[k]));
        char s[N], w[N * 4] = "", caps[N];
        TRY_B(report_wide_register_budget(r, r->candidate, &lo, &hi, caps, sizeof caps));
        if (lo == lo)
            snprintf(
                w, sizeof w,
                " (%s for %s's builds at D = 128: the cap of each one's launch bounds, kernels/geometry.h, "
                "as the methods fix it)",
                caps, r->candidate);
        rb_printf(
            &b,
            "Budgets of the experiment: at most %.0f registers per thread%s, %.0f spill bytes, %.0f bytes "
            "of local memory and %s bytes of static shared memory per block, on every architecture "
            "built.\n",
            x[STATIC_BUDGET_REGS], w, x[STATIC_BUDGET_SPILL], x[STATIC_BUDGET_LOCAL],
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

/* ---- occupancy.md: CTAs per SM and waves, so that an occupancy change is not credited to the switch */

/* The device occupancy is stated for: the GPU of the timing run; else, modelled, the original's,
 * or an H100 where baseline or candidate needs sm_90 (the Hopper rows: an L4 runs none of them). */
typedef struct {
    char arch[16], name[256];
    double sms;
    bool measured, hopper; /* hopper: modelled for the Hopper line's device, not the original's */
    const char *whose;     /* "the device measured", "the original's device", "the Hopper line's device" */
} occ_device_t;

static bool needs_hopper(const char *variant) {
    const variant_info_t *v = variants_find(variant);
    return v && (variants_min_sm(v->sw) >= 90 || variants_exact_sm(v->sw) == 90);
}

static int occ_device(report_t *r, occ_device_t *d) {
    const rj_t *T = &r->T;
    if (!cJSON_IsObject(jo(jo(T->root, "meta"), "device"))) {
        d->measured = false;
        d->hopper = needs_hopper(r->baseline) || needs_hopper(r->candidate);
        if (d->hopper) {
            snprintf(d->name, sizeof d->name, "%s", HOPPER_DEVICE_NAME);
            snprintf(d->arch, sizeof d->arch, "%s", HOPPER_DEVICE_ARCH);
            d->sms = HOPPER_DEVICE_SMS;
            d->whose = "the Hopper line's device";
            return 0;
        }
        if (!report_published_device(r, d->name, sizeof d->name)) return -1;
        snprintf(d->arch, sizeof d->arch, "%s", ORIGINAL_DEVICE_ARCH);
        d->sms = ORIGINAL_DEVICE_SMS;
        d->whose = "the original's device";
        return 0;
    }
    const char *cc = rj_str(T, "meta.device.cc"), *name = rj_str(T, "meta.device.name");
    if (!cc || !name) return -1;
    TRY(rj_num(T, &d->sms, "meta.device.sm_count"));
    size_t k = (size_t)snprintf(d->arch, sizeof d->arch, "sm_"); /* "8.9" -> "sm_89", as ptxas.json */
    for (const char *c = cc; *c && k + 1 < sizeof d->arch; c++)
        if (*c != '.') d->arch[k++] = *c;
    d->arch[k] = '\0';
    snprintf(d->name, sizeof d->name, "%s", name);
    d->measured = true;
    d->hopper = false;
    d->whose = "the device measured";
    return 0;
}

/* One variant's occupancy on the device's arch, for the build the run used (its codec). */
typedef struct {
    const char *variant, *arch;
    double head_dim; /* the kernel instance: the run's head dimension */
    bool causal;     /* ... and its mask (a causal instance is another kernel, listed before) */
    char label[64], limiter[32], why[160];
    double ctas;   /* CTAs per SM; NaN when unknown (why says so) */
    double tile_m; /* query rows per CTA (its geometry); NaN when no file records it */
} occ_variant_t;

/* A variant's rows per CTA from the run JSON's config.geometry, at head dimension D. A file of
 * schema 1.3.0 or older without it needs none: it was written before the geometry became a
 * parameter, when every variant ran 32 rows per CTA (data/SCHEMA.md, config.geometry); every 1.4.0
 * writer records it. */
#define PRE_GEOMETRY_TILE_M 32
static double run_tile_m(const rj_t *T, const char *variant, double D) {
    const char *version = rj_str(T, "schema_version");
    int major = 0, minor = 0;
    if (!rj_present(T, "config.geometry") && version && sscanf(version, "%d.%d", &major, &minor) == 2 &&
        major == 1 && minor < 4)
        return PRE_GEOMETRY_TILE_M;
    const int n = rj_len(T, "config.geometry");
    for (int i = 0; i < n; i++) {
        double d, m;
        if (!jo_eq(cJSON_GetArrayItem(jo(jo(T->root, "config"), "geometry"), i), "variant", variant))
            continue;
        if (rj_num(T, &d, "config.geometry.%d.head_dim", i) == 0 && d == D &&
            rj_num(T, &m, "config.geometry.%d.tile_m", i) == 0)
            return m;
    }
    return NAN;
}

static int occ_variant(report_t *r, int i, const char *label, void *ctx) {
    occ_variant_t *v = ctx;
    const rj_t *P = &r->P;
    if (!jo_eq(cJSON_GetArrayItem(jo(P->root, "kernels"), i), "arch", v->arch) || !report_kernel_of_run(r, i))
        return 0;
    double d;
    if (rj_present(P, "kernels.%d.geometry", i) &&
        (rj_num(P, &d, "kernels.%d.geometry.head_dim", i) != 0 || d != v->head_dim))
        return 0; /* another head dimension's instance */
    if (cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetArrayItem(jo(P->root, "kernels"), i), "causal")) !=
        v->causal)
        return 0; /* the other mask's instance (files without "causal" had none) */
    if (rj_present(P, "kernels.%d.geometry", i)) TRY(rj_num(P, &v->tile_m, "kernels.%d.geometry.tile_m", i));
    snprintf(v->label, sizeof v->label, "%s", label);
    if (report_kernel_unsupported(r, i, v->why, sizeof v->why)) return 1;
    if (!rj_present(P, "kernels.%d.occupancy", i)) {
        snprintf(v->why, sizeof v->why, "the occupancy model does not know %s", v->arch);
        return 1;
    }
    const char *lim = rj_str(P, "kernels.%d.occupancy.limited_by", i);
    if (!lim) return -1;
    TRY(rj_num(P, &v->ctas, "kernels.%d.occupancy.blocks_per_sm", i));
    snprintf(v->limiter, sizeof v->limiter, "%s", lim);
    for (char *c = v->limiter; *c; c++)
        if (*c == '_') *c = ' '; /* shared_memory -> shared memory */
    return 1;
}

/* The original study's CTAs per SM on its device, from its published resources of `variant` on
 * ORIGINAL_DEVICE_ARCH through ptxas-json's occupancy model, beside this build's on the same
 * architecture (ptxas.json, the run's codec): a sentence, or nothing when the original published no
 * resources for the variant. Its own run never measured occupancy: the original's figure is what
 * its resources imply ("had"), this build's what it would be on that device ("would fit"). */
static int original_occupancy(report_t *r, rbuf_t *b, const char *variant) {
    int p = report_find_published_resource(r, variant, ORIGINAL_DEVICE_ARCH);
    if (p < 0) return 0;
    double regs, smem;
    TRY(rj_num(&r->PUB, &regs, "resources.%d.registers", p));
    TRY(rj_num(&r->PUB, &smem, "resources.%d.static_smem_bytes", p));
    const char *src = rj_str(&r->PUB, "resources.%d.source", p);
    char dev[N], sm[N];
    if (!src || !report_published_device(r, dev, sizeof dev)) return -1;
    occupancy_t o;
    if (occupancy_compute(atoi(&ORIGINAL_DEVICE_ARCH[3]), ORIGINAL_THREADS, (int)regs, (long)smem,
                          ORIGINAL_BARRIERS, &o) < 0)
        return 0;
    char lim[32];
    snprintf(lim, sizeof lim, "%s", o.limited_by);
    for (char *c = lim; *c; c++)
        if (*c == '_') *c = ' ';
    rb_printf(b,
              "The original's %s had %d CTA%s per SM on its %s (%s; limited by %s): its published %.0f "
              "registers and %s B of static shared memory (%s) through the same occupancy model. ",
              variant, o.blocks_per_sm, o.blocks_per_sm == 1 ? "" : "s", dev, ORIGINAL_DEVICE_ARCH, lim, regs,
              fmt_int(sm, N, smem), src);
    /* this build's instance of the original's problems: D = 64, no mask (a kernel of another head
     * dimension or mask is another instance; head_dim 0 matched none that records its geometry) */
    occ_variant_t ours = {.variant = variant,
                          .arch = ORIGINAL_DEVICE_ARCH,
                          .head_dim = ORIGINAL_HEAD_DIM,
                          .causal = false,
                          .ctas = NAN};
    snprintf(ours.why, sizeof ours.why, "ptxas.json has no %s kernel of %s", ORIGINAL_DEVICE_ARCH, variant);
    if (r->have_ptxas) TRY(report_ptxas_each(r, variant, occ_variant, &ours));
    if (!r->have_ptxas)
        rb_printf(b, "Whether this artifact's %s would fit as many cannot be said: %s.\n", variant,
                  r->ptxas_missing);
    else if (!isfinite(ours.ctas))
        rb_printf(b, "Whether this artifact's %s would fit as many cannot be said: %s.\n", variant, ours.why);
    else
        rb_printf(b, "This artifact's %s would fit %.0f there (limited by %s): %s.\n", variant, ours.ctas,
                  ours.limiter,
                  ours.ctas == o.blocks_per_sm  ? "as many as the original's"
                  : ours.ctas < o.blocks_per_sm ? "fewer than the original's"
                                                : "more than the original's");
    return 0;
}

/* Baseline and candidate on the device: CTAs per SM and limiter from ptxas.json, rows per CTA
 * from ptxas.json or the run; NaN with why where unknown. */
static int occ_variants(report_t *r, const occ_device_t *dev, occ_variant_t v[2]) {
    const rj_t *T = &r->T;
    double head_dim = NAN;
    if (rj_num(T, &head_dim, "config.shapes.0.D") != 0) head_dim = NAN;
    const bool causal = cJSON_IsTrue(
        cJSON_GetObjectItem(cJSON_GetArrayItem(jo(jo(T->root, "config"), "shapes"), 0), "causal"));
    for (int k = 0; k < 2; k++) {
        v[k].arch = dev->arch;
        v[k].head_dim = head_dim;
        v[k].causal = causal;
        v[k].ctas = NAN;
        v[k].tile_m = NAN;
        snprintf(v[k].label, sizeof v[k].label, "%s", dev->arch);
        snprintf(v[k].why, sizeof v[k].why, "ptxas.json has no %s kernel of %s", dev->arch, v[k].variant);
        TRY(report_ptxas_each(r, v[k].variant, occ_variant, &v[k]));
        if (!isfinite(v[k].tile_m)) v[k].tile_m = run_tile_m(T, v[k].variant, head_dim);
        if (!isfinite(v[k].tile_m)) {
            snprintf(v[k].why, sizeof v[k].why,
                     "neither ptxas.json nor the run records the rows per CTA of %s", v[k].variant);
            v[k].ctas = NAN;
        }
    }
    return 0;
}

/* The table's rows: both variants at each shape of the timing run; the per-shape clause of the
 * confounded sentence into waves; *differ when CTAs per SM or full waves differ. */
static int occ_rows(report_t *r, const occ_device_t *dev, const occ_variant_t v[2], rbuf_t *b, rbuf_t *waves,
                    bool *differ) {
    const rj_t *T = &r->T;
    int ns = rj_len(T, "config.shapes");
    TRY(ns);
    *differ = v[0].ctas != v[1].ctas;
    for (int j = 0; j < ns; j++) {
        static const char *const f[] = {"B", "H", "S", "D"};
        double x[4];
        const char *name = rj_str(T, "config.shapes.%d.name", j);
        if (!name || rj_nums(T, x, "config.shapes.%d.%s", j, f, 4) < 0) return -1;
        char shape[N], c[5][N];
        snprintf(shape, N, "%s (%g,%g,%g,%g)", name, x[0], x[1], x[2], x[3]);
        double grid[2], w[2], full[2];
        for (int k = 0; k < 2; k++) {
            grid[k] = ceil(x[2] / v[k].tile_m) * x[1] * x[0];
            w[k] = grid[k] / (v[k].ctas * dev->sms);
            full[k] = ceil(w[k]);
            md_row(b, 9, v[k].variant, v[k].label, fmt_num(c[0], N, "%.0f", v[k].ctas),
                   isfinite(v[k].ctas) ? v[k].limiter : NA_MARK, shape, fmt_num(c[1], N, "%.0f", grid[k]),
                   fmt_num(c[2], N, "%.0f", dev->sms), fmt_num(c[3], N, "%.2f", w[k]),
                   fmt_num(c[4], N, "%.0f", full[k]));
        }
        *differ |= full[0] != full[1];
        rb_printf(waves,
                  "; at %s, %.0f CTAs %s %.2f waves (%.0f full) with %s and %.0f CTAs %s %.2f waves "
                  "(%.0f full) with %s",
                  shape, grid[0], dev->measured ? "take" : "would take", w[0], full[0], v[0].variant, grid[1],
                  dev->measured ? "take" : "would take", w[1], full[1], v[1].variant);
    }
    return 0;
}

/* The sentence under the table: unknown, confounded (with the waves clause) or not. */
static void occ_verdict(rbuf_t *b, const occ_device_t *dev, const occ_variant_t v[2], bool differ,
                        const char *waves) {
    bool known = true;
    for (int k = 0; k < 2; k++)
        if (!isfinite(v[k].ctas)) {
            rb_printf(b, "Occupancy of %s is unknown: %s. ", v[k].variant, v[k].why);
            known = false;
        }
    if (!known)
        rb_puts(b, "Whether occupancy confounds the comparison cannot be said.\n");
    else if (differ)
        rb_printf(b,
                  "The comparison %s confounded by occupancy: on %s (%s, %.0f SMs) %s %s %.0f CTAs per SM "
                  "(limited by %s) and %s %s %.0f (limited by %s)%s. Part of any latency difference between "
                  "them %s from occupancy, not from the switch alone.\n",
                  dev->measured ? "is" : "would be", dev->name, dev->arch, dev->sms, v[0].variant,
                  dev->measured ? "fits" : "would fit", v[0].ctas, v[0].limiter, v[1].variant,
                  dev->measured ? "fits" : "would fit", v[1].ctas, v[1].limiter, waves,
                  dev->measured ? "comes" : "would come");
    else
        rb_printf(b, "Occupancy %s the same for both variants: the comparison %s confounded by it.\n",
                  dev->measured ? "is" : "would be", dev->measured ? "is not" : "would not be");
}

int table_occupancy(report_t *r, const gates_t *g) {
    (void)g;
    rbuf_t b = {0};
    if (!r->have_ptxas) {
        rb_printf(&b,
                  "**Occupancy NOT EVALUATED: %s.** Without ptxas resources there are no CTAs per SM, so "
                  "this report cannot say whether occupancy differs between %s and %s.\n",
                  r->ptxas_missing, r->baseline, r->candidate);
        return tables_save(r, &b, "occupancy.md");
    }
    occ_device_t dev;
    TRY_B(occ_device(r, &dev));
    occ_variant_t v[2] = {{.variant = r->baseline}, {.variant = r->candidate}};
    TRY_B(occ_variants(r, &dev, v));
    if (!dev.measured)
        rb_printf(
            &b,
            "**Modelled for %s (%s); not measured.** This run timed no GPU, so CTAs per SM and waves are "
            "stated for the device %s (%s, %.0f SMs)%s.\n",
            dev.whose, dev.name, dev.hopper ? "the Hopper rows are built for" : "the original study measured",
            dev.arch, dev.sms, dev.hopper ? ": the original's L4 runs none of them" : "");
    static const md_col_t cols[] = {
        {"variant", 8, 'l'},     {"arch (codec)", 9, 'l'}, {"CTAs per SM", 5, 'r'},
        {"limited by", 13, 'l'}, {"shape", 18, 'l'},       {"grid (CTAs)", 6, 'r'},
        {"SMs", 4, 'r'},         {"waves", 5, 'r'},        {"full waves", 5, 'r'}};
    md_table_head(&b, cols, 9);
    rbuf_t waves = {0}; /* the per-shape clause of the confounded sentence */
    bool differ;
    if (occ_rows(r, &dev, v, &b, &waves, &differ) < 0) {
        rb_free(&waves);
        rb_free(&b);
        return -1;
    }
    char cap[1024], where[64];
    snprintf(where, sizeof where, dev.measured ? "on the device measured," : "modelled for %s,", dev.whose);
    snprintf(
        cap, sizeof cap,
        "Occupancy of baseline and candidate %s %s (%s, %.0f SMs%s). CTAs per SM and the resource that "
        "limits them: ptxas.json's occupancy model for that architecture and the run's codec. Grid: "
        "$\\lceil S/\\text{rows per CTA} \\rceil \\cdot H \\cdot B$ CTAs at each shape of the timing run, "
        "the rows per CTA of each variant's geometry (%s %.0f, %s %.0f); waves = grid / "
        "(CTAs per SM $\\cdot$ SMs), full waves rounded up.",
        where, dev.name, dev.arch, dev.sms,
        dev.measured ? ", from meta.device of the timing run" : "; not measured", v[0].variant, v[0].tile_m,
        v[1].variant, v[1].tile_m);
    md_table_caption(&b, "tbl:occupancy", cap);
    occ_verdict(&b, &dev, v, differ, waves.s ? waves.s : "");
    rb_free(&waves);
    rb_puts(&b, "\n");
    for (int k = 0; k < 2; k++) TRY_B(original_occupancy(r, &b, v[k].variant));
    return tables_save(r, &b, "occupancy.md");
}
