/* See gpu_scaling.h. */
#include "gpu_scaling.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_figdata.h"
#include "gpu_section.h"

#define N 96

/* Which S values of the sweep were checked against a sampled reference (gpu_point_t.ref_rows), and
 * with how many rows per slice: said under the table (paper/methods.md, sampled reference). */
static int long_cmp(const void *a, const void *b) {
    const long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

static void sampled_note(const gpu_campaign_t *c, rbuf_t *b) {
    long rows_min = 0, rows_max = 0, S[GPU_MAX_POINTS];
    int nS = 0;
    for (int i = 0; i < c->npts; i++) {
        const gpu_point_t *p = &c->pts[i];
        if (p->ref_rows <= 0 || p->ref_rows >= p->S) continue;
        rows_min = rows_min && rows_min < p->ref_rows ? rows_min : p->ref_rows;
        rows_max = rows_max > p->ref_rows ? rows_max : p->ref_rows;
        bool seen = false;
        for (int k = 0; k < nS; k++) seen |= S[k] == p->S;
        if (!seen) S[nS++] = p->S;
    }
    qsort(S, (size_t)nS, sizeof S[0], long_cmp);
    rbuf_t list = {0};
    for (int k = 0; k < nS; k++) rb_printf(&list, "%s%ld", k ? ", " : "", S[k]);
    if (rows_max) {
        char rows[64];
        if (rows_min == rows_max)
            snprintf(rows, sizeof rows, "%ld", rows_max);
        else
            snprintf(rows, sizeof rows, "%ld to %ld", rows_min, rows_max);
        rb_printf(b,
                  "Correctness at S = %s was checked against a sampled fp64 reference: %s query rows of "
                  "every (b, h) slice, one per stratum of S/N rows, with both ends; the metrics and gates "
                  "cover those rows, "
                  "the checks of every element written and of bit-identity every element (Methods, sampled "
                  "reference).\n\n",
                  list.s, rows);
    }
    rb_free(&list);
}

/* Ceilings, then the sweep: every variant and peer at every S, measured or why not. */
/* The device's measured ceilings (ceilings.json), the roofs of the roofline. */
static void ceilings_table(const gpu_campaign_t *c, rbuf_t *b) {
    char id[N];
    if (c->ceilings) {
        static const md_col_t cc[] = {{"ceiling", 14, 'l'},
                                      {"value", 8, 'r'},
                                      {"95 % CI", 14, 'r'},
                                      {"unit", 6, 'l'},
                                      {"status", 20, 'l'}};
        md_table_head(b, cc, 5);
        const cJSON *e;
        cJSON_ArrayForEach(e, jo(c->ceilings, "ceilings")) {
            char v[N] = NA_MARK, ci[N] = NA_MARK, st[3 * N];
            bool ok = jo_eq(e, "status", "ok");
            if (ok) {
                const cJSON *k = jo(e, "ci");
                fmt_num(v, N, "%.4g", jo_num(e, "value"));
                fmt_ci(ci, N, "%.4g", gpu_node_num(cJSON_GetArrayItem(k, 0)),
                       gpu_node_num(cJSON_GetArrayItem(k, 1)));
            }
            snprintf(st, sizeof st, "%s%s%s", jo_str_or(e, "status", "not recorded"), ok ? "" : ": ",
                     ok ? "" : (jo_str(e, "reason") ? jo_str(e, "reason") : "no reason recorded"));
            md_row(b, 5, jo_str_or(e, "name", "not recorded"), v, ci, jo_str_or(e, "unit", "not recorded"),
                   st);
        }
        snprintf(id, N, "tbl:gpu-%s-ceilings", c->tag);
        gpu_caption(c, b, id,
                    "Measured ceilings of the device (ceilings.json): device-to-device copy "
                    "bandwidth and dense GEMM throughput; the roofs of the roofline.");
    } else {
        rb_puts(b, "No ceilings were measured in this campaign (no ceilings.json): no percentage of a "
                   "ceiling is given.\n\n");
    }
}

/* The sweep's points, each with its throughput and share of the ceilings, or its reason. */
static void scaling_table(const gpu_campaign_t *c, rbuf_t *b) {
    char id[N];
    double f16 = gpu_ceiling(c, "gemm_fp16"), f8 = gpu_ceiling(c, "gemm_fp8_e4m3"), dim, rate;
    const double x2 = gpu_exp2_roof(c, &dim, &rate); /* NaN: not known, or a sweep of mixed D */
    static const md_col_t cols[] = {{"variant or peer", 14, 'l'},
                                    {"S", 5, 'r'},
                                    {"B × H", 6, 'r'},
                                    {"median (µs)", 8, 'r'},
                                    {"n", 4, 'r'},
                                    {"noise", 6, 'r'},
                                    {"TFLOP/s", 7, 'r'},
                                    {"% fp16 ceiling", 7, 'r'},
                                    {"% FP8 ceiling", 7, 'r'},
                                    {"% exp2 roof", 7, 'r'},
                                    {"status", 16, 'l'}};
    md_table_head(b, cols, 11);
    for (int i = 0; i < c->npts; i++) {
        const gpu_point_t *p = &c->pts[i];
        char s[N], bh[N], m[N] = NA_MARK, t[N] = NA_MARK, a[N] = NA_MARK, e[N] = NA_MARK, x[N] = NA_MARK;
        char st[3 * N];
        char nn[N] = NA_MARK, no[N] = NA_MARK;
        snprintf(s, N, "%ld", p->S);
        snprintf(bh, N, "%.0f × %.0f", p->B, p->H);
        bool ok = !strcmp(p->status, "ok");
        if (ok) {
            fmt_us(m, N, p->median_us);
            fmt_num(nn, N, "%.0f", p->n);
            fmt_pct(no, N, p->noise);
            fmt_num(t, N, c->emulated ? "%.3g" : "%.2f", p->tflops);
            fmt_num(a, N, "%.1f", 100 * p->tflops / f16);
            fmt_num(e, N, "%.1f", 100 * p->tflops / f8);
            if (!c->emulated) fmt_num(x, N, "%.1f", 100 * p->tflops / x2);
        }
        snprintf(st, sizeof st, "%s%s%s",
                 ok ? (c->fixture    ? "SYNTHETIC"
                       : c->emulated ? "EMULATED"
                                     : "ok")
                    : p->status,
                 ok ? "" : ": ", ok ? "" : p->reason);
        md_row(b, 11, p->series, s, bh, m, nn, no, t, a, e, x, st);
    }
    snprintf(id, N, "tbl:gpu-%s-scaling", c->tag);
    gpu_caption(c, b, id,
                c->emulated ? "Scaling sweep, EMULATED (CPU wall-clock times, not GPU timings): "
                              "$\\text{TFLOP/s} = 4 \\cdot B \\cdot H \\cdot S^2 \\cdot D / "
                              "t_\\text{median}$; peers (peer-...) beside the variants."
                            : "Scaling sweep: $\\text{TFLOP/s} = 4 \\cdot B \\cdot H \\cdot S^2 \\cdot "
                              "D / t_\\text{median}$, and its share of "
                              "the measured fp16 and FP8 GEMM ceilings (n/a where the ceiling was not "
                              "measured) and of the exponentials' roof, a model, not measured (16 per clock "
                              "per SM at the default clock, one per score of 4 D FLOPs: the roofline's "
                              "dash-dot line; n/a where the device run did not record what it needs); n "
                              "samples kept, noise their interquartile range over the median; "
                              "peers (peer-...) beside the variants; skipped and failed "
                              "points with their reason.");
    /* each peer once, with the libraries its file records */
    for (int i = 0; i < c->npts; i++) {
        const gpu_point_t *p = &c->pts[i];
        if (!p->peer || (i && !strcmp(c->pts[i - 1].series, p->series))) continue;
        rb_printf(b, "%s`%s`: %s", i && c->pts[i - 1].peer ? "; " : "Peers: ", p->series,
                  *p->library ? p->library : "libraries not recorded");
    }
    for (int i = 0; i < c->npts; i++)
        if (c->pts[i].peer) {
            rb_puts(b, ".\n\n");
            break;
        }
    sampled_note(c, b);
}

static void scaling_figures(const gpu_campaign_t *c, rbuf_t *b, unsigned figs) {
    if (figs & GPU_FIG_SCALING)
        rb_printf(b,
                  "![%sThroughput against sequence length S (log scale), one line per variant and peer, "
                  "campaign %s%s; error bars from the median's 95 %% CI.]({figdir}/gpu/%s/scaling.png)"
                  "{#fig:gpu-%s-scaling width=100%%}\n\n",
                  gpu_fig_mark(c), c->id, c->emulated ? " (EMULATED: CPU times)" : "", c->tag, c->tag);
    double dim, rate, x2 = gpu_exp2_roof(c, &dim, &rate);
    char exp2[3 * N] = "";
    if (isfinite(x2))
        snprintf(
            exp2, sizeof exp2,
            "; dash-dot, the exponentials' bound at D = %.0f, a model, not measured: $%.3g \\times 10^{12}$ "
            "exponentials per second (16 per clock per SM at the device's SM count and default clock), "
            "one per score of 4 D FLOPs, %.0f TFLOP/s",
            dim, rate, x2);
    if (figs & GPU_FIG_ROOFLINE)
        rb_printf(
            b,
            "![%sRoofline of campaign %s%s: arithmetic intensity (FLOPs over the minimum DRAM bytes, "
            "5 B H S D: Q, K and V codes 1 byte per element, O fp16 2 bytes; a model, not measured "
            "bytes) against TFLOP/s, under the measured fp16 and FP8 GEMM ceilings and the copy "
            "bandwidth slope (roofs drawn only where measured)%s%s%s%s.]({figdir}/gpu/%s/roofline.png)"
            "{#fig:gpu-%s-roofline width=100%%}\n\n",
            gpu_fig_mark(c), c->id, c->emulated ? " (EMULATED: CPU times)" : "", exp2,
            gpu_dram_metric(c)
                ? "; diamonds: the "
                  "history's variants at the profile's shape with the DRAM bytes the profiler measured ("
                : "",
            gpu_dram_metric(c) ? gpu_dram_metric(c) : "",
            gpu_dram_metric(c)
                ? "), one per variant and unlabelled: they lie close together, and the profile "
                  "table names them"
                : "",
            c->tag, c->tag);
}

void gpu_scaling_section(const gpu_campaign_t *c, rbuf_t *b, unsigned figs) {
    rb_printf(b, "### Scaling, roofline and peers {#sec:gpu-%s-scaling}\n\n", c->tag);
    ceilings_table(c, b);
    if (!c->npts) {
        rb_puts(b, "No scaling sweep in this campaign.\n\n");
        return;
    }
    scaling_table(c, b);
    scaling_figures(c, b, figs);
}
