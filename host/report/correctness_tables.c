/* See correctness_tables.h. */
#include "correctness_tables.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "textbuf.h"
#include "tables.h"
#include "bench/variants.h"

#define N 64

static const char *pass_text(bool ok) { return ok ? "PASS" : "**FAIL**"; }

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
            report_shape_label(r, sh, shape, N);
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
        report_shape_label(r, sh, shape, N);
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
