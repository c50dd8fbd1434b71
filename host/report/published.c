/* The original study's published figures in a report (data/published/seed-l4.json): its timings
 * of the experiment's pair, its claim decoded into speedup ratio and latency reduction, and the
 * published-versus-reproduced table (tables/published.md). Always labelled "published (original
 * study, L4)", or with the device's name from the published file where a reproduced device stands
 * beside it; emulated timings are never set beside them. */
#include "published.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tables.h"

#define N 64

void published_timings_head(rbuf_t *b) {
    static const md_col_t cols[] = {{"published variant", 16, 'l'},
                                    {"shape", 7, 'l'},
                                    {"seed", 4, 'r'},
                                    {"iters", 5, 'r'},
                                    {"p50 (us)", 7, 'r'},
                                    {"p90 (us)", 7, 'r'},
                                    {"mean (us)", 7, 'r'},
                                    {"std (us)", 6, 'r'},
                                    {"correct", 6, 'l'},
                                    {"source", 32, 'l'}};
    md_table_head(b, cols, 10);
}

int published_timings(report_t *r, rbuf_t *b, const char *variant) {
    const rj_t *d = &r->PUB;
    int n = rj_len(d, "timings");
    TRY(n);
    for (int i = 0; i < n; i++) {
        const cJSON *e = cJSON_GetArrayItem(jo(d->root, "timings"), i);
        if (variant && !jo_eq(e, "variant", variant)) continue;
        const char *label = rj_str(d, "timings.%d.label", i), *sh = rj_str(d, "timings.%d.shape", i);
        const char *src = rj_str(d, "timings.%d.source", i);
        if (!label || !sh || !src) return -1;
        const char *seed = jo_str(e, "seed"), *ok = jo_str(e, "correct");
        double x[5];
        static const char *const f[] = {"iters", "p50_us", "p90_us", "mean_us", "std_us"};
        TRY(rj_nums(d, x, "timings.%d.%s", i, f, 5));
        char c[5][N];
        md_row(b, 10, label, sh, seed ? seed : NA_MARK, fmt_num(c[0], N, "%.0f", x[0]),
               fmt_num(c[1], N, "%.2f", x[1]), fmt_num(c[2], N, "%.2f", x[2]), fmt_num(c[3], N, "%.2f", x[3]),
               fmt_num(c[4], N, "%.2f", x[4]), ok ? ok : NA_MARK, src);
    }
    return 0;
}

int published_find_claim(const cJSON *published, const char *experiment) {
    int i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, jo(published, "claims")) {
        if (jo_eq(e, "experiment", experiment)) return i;
        i++;
    }
    return -1;
}

int published_speedup_cells(const report_t *r, int cmp, char *sp, char *lr, size_t n, double x[6],
                            const char **kind) {
    static const char *const f[] = {"speedup",           "speedup_ci.0",           "speedup_ci.1",
                                    "latency_reduction", "latency_reduction_ci.0", "latency_reduction_ci.1"};
    char a[N], c[N];
    TRY(rj_nums(&r->T, x, "comparisons.%d.%s", cmp, f, 6));
    if (!(*kind = rj_str(&r->T, "comparisons.%d.timing", cmp))) return -1;
    if (strcmp(*kind, "gpu") == 0) {
        snprintf(sp, n, "%s %s", fmt_num(a, N, "%.3f", x[0]), fmt_ci(c, N, "%.3f", x[1], x[2]));
        snprintf(lr, n, "%s %% %s", fmt_num(a, N, "%.1f", 100 * x[3]),
                 fmt_ci(c, N, "%.1f %%", 100 * x[4], 100 * x[5]));
    } else {
        /* emulated ratios are not GPU speedups: never set beside the published ones */
        snprintf(sp, n, NA_MARK " (emulated: no GPU)");
        snprintf(lr, n, NA_MARK " (emulated: no GPU)");
        for (int j = 0; j < 6; j++) x[j] = NAN;
    }
    return 0;
}

static int side_by_side(report_t *r, rbuf_t *b, const gates_t *g, int claim) {
    const rj_t *P = &r->PUB;
    double pb, pc;
    TRY(rj_num(P, &pb, "claims.%d.baseline_p50_us", claim));
    TRY(rj_num(P, &pc, "claims.%d.candidate_p50_us", claim));
    const char *pverdict = rj_str(P, "claims.%d.published_verdict", claim);
    if (!pverdict) return -1;
    int cmp = report_find_comparison(r);
    char ours_sp[2 * N] = NA_MARK, ours_lr[2 * N] = NA_MARK;
    double x[6];
    const char *kind;
    if (cmp >= 0) TRY(published_speedup_cells(r, cmp, ours_sp, ours_lr, sizeof ours_sp, x, &kind));
    /* each side names its device: the original's ratio is an L4 ratio */
    char pdev[N], h_pub[2 * N], h_ours[2 * N + 64];
    if (!report_published_device(r, pdev, sizeof pdev)) return -1;
    snprintf(h_pub, sizeof h_pub, "published (original study, %s)", pdev);
    snprintf(h_ours, sizeof h_ours, "reproduced (this run): %s", report_device_name(r));
    const md_col_t cols[] = {{"quantity", 20, 'l'}, {h_pub, 22, 'l'}, {h_ours, 30, 'l'}};
    md_table_head(b, cols, 3);
    char p_sp[N], p_lr[N];
    snprintf(p_sp, N, "%.3f", pb / pc);
    snprintf(p_lr, N, "%.1f %%", 100 * (1 - pc / pb));
    md_row(b, 3, "speedup ratio $t_\\text{base}/t_\\text{new}$", p_sp, ours_sp);
    md_row(b, 3, "latency reduction $1 - t_\\text{new}/t_\\text{base}$", p_lr, ours_lr);
    /* resources of the candidate on sm_89, the original's architecture */
    int p = report_find_published_resource(r, r->candidate, ORIGINAL_DEVICE_ARCH);
    static const char *const rf[] = {"registers", "static_smem_bytes"};
    static const char *const rl[] = {"registers per thread, candidate, sm_89",
                                     "static shared memory (B), candidate, sm_89"};
    for (int k = 0; k < 2; k++) {
        char pub[N] = NA_MARK, ours[N] = NA_MARK;
        double x;
        if (p >= 0) {
            TRY(rj_num(P, &x, "resources.%d.%s", p, rf[k]));
            fmt_int(pub, N, x);
        }
        const cJSON *e, *kernels = r->have_ptxas ? jo(r->P.root, "kernels") : NULL;
        int i = 0;
        cJSON_ArrayForEach(e, kernels) {
            char why[128];
            if (jo_eq(e, "variant", r->candidate) && jo_eq(e, "arch", ORIGINAL_DEVICE_ARCH) &&
                report_kernel_of_run(r, i) && !report_kernel_unsupported(r, i, why, sizeof why)) {
                TRY(rj_num(&r->P, &x, "kernels.%d.%s", i, rf[k]));
                fmt_int(ours, N, x);
            }
            i++;
        }
        md_row(b, 3, rl[k], pub, ours);
    }
    md_row(b, 3, "verdict", pverdict, verdict_kind_name(gates_verdict(g)));
    md_table_caption(
        b, "tbl:published-vs-reproduced",
        "Published versus reproduced. Ratios, not absolute times, "
        "are comparable: the original timed a Python call per iteration on an L4 without an L2 flush. "
        "The published ratio is computed from the published medians.");
    return 0;
}

int table_published(report_t *r, const gates_t *g) {
    rbuf_t b = {0};
    const char *method = rj_str(&r->PUB, "timing_method"), *dev = rj_str(&r->PUB, "device");
    if (!method || !dev) {
        rb_free(&b);
        return -1;
    }
    const size_t at = b.len;
    published_timings_head(&b);
    TRY_B(published_timings(r, &b, r->baseline));
    TRY_B(published_timings(r, &b, r->candidate));
    char cap[1024], none[256];
    snprintf(
        cap, sizeof cap,
        "Published (original study, L4): the original's figures for this pair, transcribed "
        "in data/published/seed-l4.json with their sources (commit:file of GOATnote-Inc/periodicdent42). "
        "Device: %s. Method: %s. Not reproduced numbers.",
        dev, method);
    snprintf(none, sizeof none, "The original study published no timing of %s or %s.", r->baseline,
             r->candidate);
    md_table_end(&b, at, "tbl:published", cap, none);
    int claim = published_find_claim(r->PUB.root, r->experiment);
    if (claim >= 0) {
        const char *as = rj_str(&r->PUB, "claims.%d.as_published", claim);
        const char *src = rj_str(&r->PUB, "claims.%d.source", claim),
                   *cav = rj_str(&r->PUB, "claims.%d.caveats", claim);
        if (!as || !src || !cav) {
            rb_free(&b);
            return -1;
        }
        rb_printf(&b, "The original reported \"%s\" (%s); %s.\n", as, src, cav);
        TRY_B(side_by_side(r, &b, g, claim));
    }
    return tables_save(r, &b, "published.md");
}
