/* See gpu_tables.h. Table and section ids carry the campaign's tag ("c1") so that several
 * campaigns share one document; every number is read from the campaign's JSON. */
#include "gpu_tables.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_figdata.h"
#include "gpu_parts.h"
#include "gpu_matrix.h"
#include "gpu_probes.h"
#include "gpu_stage7g.h"
#include "gpu_verdicts.h"
#include "tables.h"
#include "stats.h"

#define N 96
/* Columns of the profile table: more would not fit a page; the legend below it lists them all. */
#define MAX_METRICS 10

/* A JSON number node's value; NaN for anything else (null, missing). */
static double node_num(const cJSON *x) { return cJSON_IsNumber(x) ? x->valuedouble : NAN; }

static const char *const TOOLS[] = {"memcheck", "racecheck", "synccheck", "initcheck"};

/* Every table and figure of a test fixture says so in its caption, and its verdicts and timing
 * labels in their cells: a reader who lands on one table must not take it for a measurement. */
#define FIXTURE_MARK "SYNTHETIC FIXTURE, NOT A MEASUREMENT: "
static const char *mark(const gpu_campaign_t *c) { return c->fixture ? "SYNTHETIC " : ""; }
static void caption(const gpu_campaign_t *c, rbuf_t *b, const char *id, const char *text) {
    rbuf_t t = {0};
    rb_printf(&t, "%s%s", c->fixture ? FIXTURE_MARK : "", text);
    md_table_caption(b, id, t.s ? t.s : text);
    rb_free(&t);
}
/* The same for a figure's caption: the text to put before it. */
static const char *fig_mark(const gpu_campaign_t *c) { return c->fixture ? FIXTURE_MARK : ""; }

/* A number field with its unit as text, "2040 MHz" ("not recorded" when absent or null). */
static const char *num_or(char *dst, size_t n, const cJSON *o, const char *key, const char *unit) {
    double x = jo_num(o, key);
    if (!isfinite(x)) return snprintf(dst, n, "not recorded"), dst;
    return snprintf(dst, n, "%.0f%s", x, unit), dst;
}

static void banner(const gpu_campaign_t *c, rbuf_t *b) {
    gpu_parts_banner(c, b);
    if (c->fixture)
        rb_puts(
            b, "::: {.banner .emulated}\n**SYNTHETIC FIXTURE, NOT A MEASUREMENT.** This campaign is the test "
               "fixture of `tests/report/fixtures/gpu-campaign/`: every number in this section was made up "
               "to exercise the report, and says nothing about any GPU.\n:::\n\n");
    if (c->emulated)
        rb_puts(b,
                "::: {.banner .emulated}\n**EMULATED CAMPAIGN (CPU), NOT A GPU.** This campaign ran on the "
                "CPU SIMT emulator (ingested with `--allow-emulated`): its times are CPU wall-clock times, "
                "labelled EMULATED, and no GPU performance can be read from them.\n:::\n\n");
}

/* The device as recorded by the campaign's device step (meta.device of device-run.json). */
static void device_line(const gpu_campaign_t *c, rbuf_t *b) {
    const cJSON *d = jo(jo(c->device_run, "meta"), "device");
    char a[N], s[N], m[N], k[N];
    rb_printf(b, "Campaign `%s` (`%s`), backend %s%s. ", c->id, c->slug, jo_str(c->campaign, "backend"),
              jo(c->campaign, "quick") && cJSON_IsTrue(jo(c->campaign, "quick")) ? ", quick (smoke) run"
                                                                                 : "");
    if (!d || cJSON_IsNull(d)) {
        rb_printf(b, "Device: %s (no GPU device recorded).\n\n", jo_str(c->campaign, "device"));
        return;
    }
    const cJSON *locked = jo(d, "clocks_locked");
    rb_printf(b,
              "Device: **%s**, compute capability %s, %s SMs; SM clock: default %s, measured %s; memory "
              "clock %s; clocks locked: %s; driver %s (release %s), CUDA runtime %s.\n\n",
              jo_str_or(d, "name", "not recorded"), jo_str_or(d, "cc", "not recorded"),
              num_or(a, N, d, "sm_count", ""), num_or(s, N, d, "sm_clock_default_mhz", " MHz"),
              num_or(m, N, d, "sm_clock_measured_mhz", " MHz"), num_or(k, N, d, "mem_clock_mhz", " MHz"),
              cJSON_IsBool(locked) ? (cJSON_IsTrue(locked) ? "yes" : "no") : "not recorded",
              jo_str_or(d, "driver_version", "not recorded"), jo_str_or(d, "driver_release", "not recorded"),
              jo_str_or(d, "runtime_version", "not recorded"));
}

static void steps(const gpu_campaign_t *c, rbuf_t *b) {
    static const md_col_t cols[] = {
        {"step", 16, 'l'}, {"status", 14, 'l'}, {"seconds", 6, 'r'}, {"planned (s)", 6, 'r'}};
    md_table_head(b, cols, 4);
    const cJSON *e;
    cJSON_ArrayForEach(e, jo(c->campaign, "steps")) {
        char st[3 * N], x[N], y[N];
        double rc = jo_num(e, "exit_status");
        const cJSON *skip = jo(e, "skipped"); /* true, or the reason */
        if (cJSON_IsString(skip))
            snprintf(st, sizeof st, "skipped: %s", skip->valuestring);
        else if (cJSON_IsTrue(skip))
            snprintf(st, sizeof st, "skipped");
        else if (rc == 0)
            snprintf(st, sizeof st, "ok");
        else /* with the note that says how it ended (interrupted, stopped by the step guard) */
            snprintf(st, sizeof st, "FAILED (exit %s)%s%s", fmt_num(x, N, "%.0f", rc),
                     jo_str(e, "note") ? ": " : "", jo_str_or(e, "note", ""));
        md_row(b, 4, jo_str_or(e, "name", "not recorded"), st, fmt_num(x, N, "%.0f", jo_num(e, "seconds")),
               fmt_num(y, N, "%.0f", jo_num(e, "expected_seconds")));
    }
    char id[N];
    snprintf(id, N, "tbl:gpu-%s-steps", c->tag);
    caption(c, b, id,
            "Steps of the campaign as campaign.json records them, a failed step with its note where "
            "it has one (its log is in the campaign's logs/).");
}

static const cJSON *find_cmp(const cJSON *doc, const char *cand, const char *shape) {
    const cJSON *e;
    cJSON_ArrayForEach(e, jo(doc, "comparisons")) {
        if (jo_eq(e, "candidate", cand) && jo_eq(e, "shape", shape)) return e;
    }
    return NULL;
}

/* The timer's step in µs as the history's samples show it: the smallest difference above 1 ns
 * between two samples of one entry, over all entries (0: none seen). CUDA events count whole ticks
 * (32 ns on the first H100), so many samples tie, and a median's interval can lie within a step. */
static double timer_step_us(const cJSON *history) {
    const cJSON *t, *x;
    double step = 0.0;
    cJSON_ArrayForEach(t, jo(history, "timing")) {
        const cJSON *s = jo(t, "samples_us");
        const int n = cJSON_GetArraySize(s);
        double *v = n > 1 ? malloc((size_t)n * sizeof *v) : NULL;
        if (!v) continue;
        int k = 0;
        cJSON_ArrayForEach(x, s) if (cJSON_IsNumber(x)) v[k++] = x->valuedouble;
        const double d = stats_min_step(v, (size_t)k, 1e-3);
        free(v);
        if (d > 0 && (step == 0.0 || d < step)) step = d;
    }
    return step;
}

/* Median with CI per variant and shape; the speedup ratio and the latency reduction vs the
 * history's baseline (stage0), named separately. */
static int history(const gpu_campaign_t *c, rbuf_t *b, unsigned figs) {
    rb_printf(b, "### Stage history {#sec:gpu-%s-history}\n\n", c->tag);
    if (!c->history) {
        rb_puts(b, "No history in this campaign (its history step did not run).\n\n");
        return 0;
    }
    const char *base = jo_str(jo(c->history, "config"), "baseline");
    char h_sp[N], h_lr[N];
    snprintf(h_sp, N, "speedup ratio $t_\\text{%s}/t_v$ [95 %% CI]", base ? base : "base");
    snprintf(h_lr, N, "latency reduction $1 - t_v/t_\\text{%s}$ [95 %% CI]", base ? base : "base");
    const md_col_t cols[] = {{"variant", 9, 'l'},       {"shape", 7, 'l'}, {"median (µs)", 8, 'r'},
                             {"95 % CI (µs)", 14, 'r'}, {"n", 4, 'r'},     {"noise", 6, 'r'},
                             {h_sp, 16, 'r'},           {h_lr, 16, 'r'},   {"timing", 13, 'l'}};
    md_table_head(b, cols, 9);
    const cJSON *t;
    int i = 0;
    cJSON_ArrayForEach(t, jo(c->history, "timing")) {
        const char *v = jo_str(t, "variant"), *shape = jo_str(t, "shape");
        const cJSON *s = jo(t, "summary");
        char m[N], ci[N], sp[2 * N] = NA_MARK, lr[2 * N] = NA_MARK, x[N], y[N];
        if (!v || !shape) {
            snprintf(c->H.err, c->H.errlen, "%s: field 'timing.%d.variant' or '.shape' missing", c->H.file,
                     i);
            return -1;
        }
        if (!s || cJSON_IsNull(s)) {
            md_row(b, 9, v, shape, "not timed", NA_MARK, NA_MARK, NA_MARK, NA_MARK, NA_MARK,
                   gpu_timing_label(c));
            i++;
            continue;
        }
        const cJSON *cmp = find_cmp(c->history, v, shape);
        if (base && !strcmp(v, base))
            snprintf(sp, sizeof sp, "baseline");
        else if (cmp && c->emulated)
            snprintf(sp, sizeof sp, "not evaluated: emulated");
        else if (cmp) {
            const cJSON *sc = jo(cmp, "speedup_ci"), *lc = jo(cmp, "latency_reduction_ci");
            snprintf(sp, sizeof sp, "%s %s", fmt_num(x, N, "%.3f", jo_num(cmp, "speedup")),
                     fmt_ci(y, N, "%.3f", node_num(cJSON_GetArrayItem(sc, 0)),
                            node_num(cJSON_GetArrayItem(sc, 1))));
            snprintf(lr, sizeof lr, "%s %% %s", fmt_num(x, N, "%.1f", 100 * jo_num(cmp, "latency_reduction")),
                     fmt_ci(y, N, "%.1f %%", 100 * node_num(cJSON_GetArrayItem(lc, 0)),
                            100 * node_num(cJSON_GetArrayItem(lc, 1))));
        }
        if (c->emulated && cmp && strcmp(sp, "baseline")) snprintf(lr, sizeof lr, "not evaluated: emulated");
        char nn[N], no[N];
        md_row(b, 9, v, shape, fmt_us(m, N, jo_num(s, "median")),
               fmt_ci(ci, N, "%.2f", jo_num(s, "ci_lo"), jo_num(s, "ci_hi")),
               fmt_num(nn, N, "%.0f", jo_num(s, "n")), fmt_pct(no, N, jo_num(s, "rel_iqr")), sp, lr,
               gpu_timing_label(c));
        i++;
    }
    char id[N], cap[1024], step[256] = "";
    const double dt = c->emulated ? 0.0 : timer_step_us(c->history);
    if (dt > 0)
        snprintf(step, sizeof step,
                 " The smallest difference between two samples of one entry is %.0f ns, the event timer's "
                 "step: samples tie, and an interval whose ends agree to the digits shown lies within a step "
                 "or two.",
                 1e3 * dt);
    snprintf(id, N, "tbl:gpu-%s-history", c->tag);
    snprintf(cap, sizeof cap,
             "Stage history of campaign %s%s: every variant against %s, interleaved in one process "
             "(history.json, cold L2); medians with distribution-free 95 %% CIs, n samples kept, noise their "
             "interquartile range over the median; ratios with bootstrap CIs (the noise floor of a ratio: "
             "the A/A control below).%s",
             c->id, c->emulated ? " (EMULATED, CPU wall-clock times, not GPU timings)" : "", base ? base : "",
             step);
    caption(c, b, id, cap);
    if (figs & GPU_FIG_ECDF)
        rb_printf(
            b,
            "![%sLatency ECDF of every variant of the history of campaign %s%s at its first shape, %s: "
            "fraction of samples at or below each latency.]({figdir}/gpu/%s/ecdf.png)"
            "{#fig:gpu-%s-ecdf width=100%%}\n\n",
            fig_mark(c), c->id, c->emulated ? " (EMULATED: CPU times)" : "",
            jo_str_or(cJSON_GetArrayItem(jo(jo(c->history, "config"), "shapes"), 0), "name", "not recorded"),
            c->tag, c->tag);
    return 0;
}

/* Warm-L2 timings (history-warm.json, no flush between samples) beside the cold ones of the
 * history, variant by variant at the shapes both have: the inputs fit in any L2. */
static void warm(const gpu_campaign_t *c, rbuf_t *b) {
    rb_printf(b, "#### Warm L2 beside cold {#sec:gpu-%s-warm}\n\n", c->tag);
    if (!c->history_warm || !c->history) {
        rb_printf(b, "No warm-L2 timings in this campaign (%s): the cold-L2 medians above stand alone.\n\n",
                  c->history_warm ? "no cold history to set them beside" : "no history-warm.json");
        return;
    }
    static const md_col_t cols[] = {{"variant", 9, 'l'},
                                    {"shape", 7, 'l'},
                                    {"cold median (µs) [95 % CI]", 20, 'r'},
                                    {"n", 4, 'r'},
                                    {"warm median (µs) [95 % CI]", 20, 'r'},
                                    {"n", 4, 'r'},
                                    {"warm / cold", 7, 'r'},
                                    {"timing", 12, 'l'}};
    const size_t at = b->len;
    md_table_head(b, cols, 8);
    const cJSON *w, *t;
    cJSON_ArrayForEach(w, jo(c->history_warm, "timing")) {
        const cJSON *ws = jo(w, "summary"), *cs = NULL;
        cJSON_ArrayForEach(t, jo(c->history, "timing")) {
            if (jo_eq(t, "variant", jo_str(w, "variant")) && jo_eq(t, "shape", jo_str(w, "shape")))
                cs = jo(t, "summary");
        }
        char cm[2 * N], wm[2 * N], cn[N], wn[N], r[N], x[N], y[N];
        snprintf(cm, sizeof cm, "%s %s", fmt_us(x, N, jo_num(cs, "median")),
                 fmt_ci(y, N, "%.2f", jo_num(cs, "ci_lo"), jo_num(cs, "ci_hi")));
        snprintf(wm, sizeof wm, "%s %s", fmt_us(x, N, jo_num(ws, "median")),
                 fmt_ci(y, N, "%.2f", jo_num(ws, "ci_lo"), jo_num(ws, "ci_hi")));
        md_row(b, 8, jo_str_or(w, "variant", "not recorded"), jo_str_or(w, "shape", "not recorded"), cm,
               fmt_num(cn, N, "%.0f", jo_num(cs, "n")), wm, fmt_num(wn, N, "%.0f", jo_num(ws, "n")),
               fmt_num(r, N, "%.3f", jo_num(ws, "median") / jo_num(cs, "median")), gpu_timing_label(c));
    }
    char id[N], cap[1024];
    snprintf(id, N, "tbl:gpu-%s-warm", c->tag);
    snprintf(cap, sizeof cap,
             "%sCold against warm L2 (%s), campaign %s: cold medians flush the L2 before every sample "
             "(history.json), warm ones do not (history-warm.json); the working set fits in the L2, so "
             "warm is the L2-resident latency the original study timed. n: samples kept.",
             fig_mark(c), gpu_timing_label(c), c->id);
    md_table_end(b, at, id, cap, "No variant of history-warm.json was timed.");
}

/* The A/A control (aa-control.json): one variant against itself in one interleaved process. Its
 * speedup CI is the noise floor of a comparison on this device; the SAME band (the comparison's
 * epsilon) is calibrated when it is wider than that floor. */
static void aa_control(const gpu_campaign_t *c, rbuf_t *b) {
    rb_printf(b, "#### A/A control: the noise floor of the SAME band {#sec:gpu-%s-aa}\n\n", c->tag);
    int n = cJSON_GetArraySize(jo(c->aa_control, "comparisons"));
    if (!c->aa_control || n == 0) {
        rb_printf(b,
                  "No A/A control in this campaign (%s): the SAME band of the verdicts is not calibrated "
                  "on this device.\n\n",
                  c->aa_control ? "aa-control.json holds no comparison" : "no aa-control.json");
        return;
    }
    static const md_col_t cols[] = {{"control", 14, 'l'},     {"shape", 7, 'l'},
                                    {"rounds", 5, 'r'},       {"speedup ratio [95 % CI]", 18, 'r'},
                                    {"noise floor", 7, 'r'},  {"SAME band", 7, 'r'},
                                    {"band / floor", 6, 'r'}, {"verdict", 9, 'l'}};
    md_table_head(b, cols, 8);
    const cJSON *e;
    rbuf_t say = {0};
    cJSON_ArrayForEach(e, jo(c->aa_control, "comparisons")) {
        const cJSON *ci = jo(e, "speedup_ci");
        double lo = node_num(cJSON_GetArrayItem(ci, 0)), hi = node_num(cJSON_GetArrayItem(ci, 1));
        double eps = jo_num(e, "epsilon"), floor = fmax(1 - lo, hi - 1);
        char pair[2 * N], sp[2 * N], x[N], y[N], fl[N], band[N], k[N], vd[N];
        snprintf(pair, sizeof pair, "%s against %s", jo_str_or(e, "candidate", "not recorded"),
                 jo_str_or(e, "baseline", "not recorded"));
        snprintf(sp, sizeof sp, "%s %s", fmt_num(x, N, "%.4f", jo_num(e, "speedup")),
                 fmt_ci(y, N, "%.4f", lo, hi));
        snprintf(fl, sizeof fl, "±%s", fmt_pct(x, N, floor));
        snprintf(band, sizeof band, "±%s", fmt_pct(y, N, eps));
        snprintf(vd, sizeof vd, "%s%s", mark(c),
                 c->emulated ? NA_MARK " (emulated)" : jo_str_or(e, "verdict", "not recorded"));
        md_row(b, 8, pair, jo_str_or(e, "shape", "not recorded"), fmt_num(x, N, "%.0f", jo_num(e, "rounds")),
               sp, fl, band, fmt_num(k, N, "%.1f", eps / floor), vd);
        if (!say.len && isfinite(floor) && isfinite(eps))
            rb_printf(&say,
                      floor < eps
                          ? "On this device a variant timed against itself stays within ±%s of 1: the SAME "
                            "band of ±%s is %s times that noise floor, so SAME is reachable and a "
                            "difference inside the floor is never called FASTER or SLOWER.\n\n"
                          : "On this device a variant timed against itself spans ±%s, more than the SAME "
                            "band of ±%s (%s times the floor): SAME cannot be established here, and "
                            "differences inside the floor read AMBIGUOUS.\n\n",
                      fmt_pct(x, N, floor), fmt_pct(y, N, eps), fmt_num(k, N, "%.1f", eps / floor));
    }
    char id[N], cap[1024];
    snprintf(id, N, "tbl:gpu-%s-aa", c->tag);
    snprintf(
        cap, sizeof cap,
        "A/A control of campaign %s (aa-control.json): one variant against itself, interleaved in one "
        "process as every comparison. Noise floor: how far its speedup CI reaches from 1; SAME band: the "
        "verdicts' equivalence band on the latency ratio (the comparison's epsilon).%s",
        c->id, c->emulated ? " EMULATED: CPU wall-clock times, no verdict." : "");
    caption(c, b, id, cap);
    if (say.s && !c->emulated) rb_puts(b, say.s);
    rb_free(&say);
}

/* Each experiment's verdict against its gates, from the run directory's summary.json. */
static void verdicts(const gpu_campaign_t *c, rbuf_t *b) {
    rb_printf(b, "### Experiments and their gates {#sec:gpu-%s-verdicts}\n\n", c->tag);
    if (!c->nruns) {
        rb_puts(b, "No experiment ran in this campaign.\n\n");
        return;
    }
    static const md_col_t cols[] = {{"experiment", 12, 'l'},
                                    {"baseline -> candidate", 10, 'l'},
                                    {"performance gate", 22, 'l'},
                                    {"value", 22, 'r'},
                                    {"status", 8, 'l'},
                                    {"verdict", 10, 'l'}};
    md_table_head(b, cols, 6);
    for (int k = 0; k < c->nruns; k++) {
        const gpu_run_t *r = &c->runs[k];
        if (!r->loaded) {
            md_row(b, 6, r->name, NA_MARK, NA_MARK, NA_MARK, NA_MARK, r->note);
            continue;
        }
        char pair[2 * N], v[N];
        snprintf(pair, sizeof pair, "%s -> %s", jo_str(r->summary, "baseline"),
                 jo_str(r->summary, "candidate"));
        const cJSON *perf = gpu_run_performance_gate(r);
        char gate[3 * N] = NA_MARK;
        if (perf)
            snprintf(gate, sizeof gate, "%s (%s)", jo_str_or(perf, "name", "not recorded"),
                     jo_str_or(perf, "target", "not recorded"));
        const char *status = perf ? jo_str_or(perf, "status", "not recorded") : NA_MARK;
        char st[3 * N];
        const char *why = perf ? jo_str(perf, "reason") : NULL;
        snprintf(st, sizeof st, "%s%s%s%s", mark(c), status, why && *why ? ": " : "", why && *why ? why : "");
        const cJSON *val = perf ? jo(perf, "value") : NULL;
        char vd[N];
        snprintf(vd, sizeof vd, "%s%s", mark(c), jo_str_or(r->summary, "verdict", "not recorded"));
        md_row(b, 6, r->name, pair, gate,
               cJSON_IsString(val) ? val->valuestring : fmt_num(v, N, "%.3f", jo_num(perf, "value")), st, vd);
    }
    char id[N];
    snprintf(id, N, "tbl:gpu-%s-verdicts", c->tag);
    caption(c, b, id,
            "Each experiment of the campaign: its performance gate (judged on the lower end "
            "of the speedup's 95 % CI) and its verdict over every gate, from the run "
            "directory's summary.json (sdpa-report experiment).");
}

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
                fmt_ci(ci, N, "%.4g", node_num(cJSON_GetArrayItem(k, 0)), node_num(cJSON_GetArrayItem(k, 1)));
            }
            snprintf(st, sizeof st, "%s%s%s", jo_str_or(e, "status", "not recorded"), ok ? "" : ": ",
                     ok ? "" : (jo_str(e, "reason") ? jo_str(e, "reason") : "no reason recorded"));
            md_row(b, 5, jo_str_or(e, "name", "not recorded"), v, ci, jo_str_or(e, "unit", "not recorded"),
                   st);
        }
        snprintf(id, N, "tbl:gpu-%s-ceilings", c->tag);
        caption(c, b, id,
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
    caption(c, b, id,
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
                  fig_mark(c), c->id, c->emulated ? " (EMULATED: CPU times)" : "", c->tag, c->tag);
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
            fig_mark(c), c->id, c->emulated ? " (EMULATED: CPU times)" : "", exp2,
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

static void scaling(const gpu_campaign_t *c, rbuf_t *b, unsigned figs) {
    rb_printf(b, "### Scaling, roofline and peers {#sec:gpu-%s-scaling}\n\n", c->tag);
    ceilings_table(c, b);
    if (!c->npts) {
        rb_puts(b, "No scaling sweep in this campaign.\n\n");
        return;
    }
    scaling_table(c, b);
    scaling_figures(c, b, figs);
}

/* A sanitizer result run at other shapes than the file's (a faulted variant's memcheck, also at the
 * deep check's shapes: sanitizers.json since 2026-11-28): " (at S1, S2, ...)" after its cell. */
static void shapes_note(const gpu_campaign_t *c, const cJSON *result, char *cell, size_t size) {
    const cJSON *sh = jo(result, "shapes"), *x;
    const char *file = jo_str(c->sanitizers, "shape");
    if (!cJSON_IsArray(sh) || cJSON_GetArraySize(sh) == 0) return;
    if (cJSON_GetArraySize(sh) == 1 && cJSON_IsString(sh->child) && file &&
        !strcmp(sh->child->valuestring, file))
        return;
    size_t n = strlen(cell);
    bool first = true;
    cJSON_ArrayForEach(x, sh) {
        if (!cJSON_IsString(x) || n >= size) continue;
        n += (size_t)snprintf(cell + n, size - n, "%s%s", first ? " (at " : ", ", x->valuestring);
        first = false;
    }
    if (!first && n < size) snprintf(cell + n, size - n, ")");
}

static void sanitizers(const gpu_campaign_t *c, rbuf_t *b) {
    rb_printf(b, "### Sanitizers {#sec:gpu-%s-sanitizers}\n\n", c->tag);
    if (!c->sanitizers) {
        rb_puts(b, "No compute-sanitizer results in this campaign (no sanitizers.json).\n\n");
        return;
    }
    static const md_col_t cols[] = {{"variant", 10, 'l'},
                                    {"memcheck", 14, 'l'},
                                    {"racecheck", 14, 'l'},
                                    {"synccheck", 14, 'l'},
                                    {"initcheck", 14, 'l'}};
    md_table_head(b, cols, 5);
    /* variants in order of first appearance */
    const cJSON *e, *f;
    int i = 0;
    cJSON_ArrayForEach(e, jo(c->sanitizers, "results")) {
        const char *v = jo_str(e, "variant");
        int j = 0;
        bool seen = false;
        cJSON_ArrayForEach(f, jo(c->sanitizers, "results")) {
            if (j++ >= i) break;
            seen |= v && jo_eq(f, "variant", v);
        }
        i++;
        if (!v || seen) continue;
        char cell[4][3 * N];
        for (int t = 0; t < 4; t++) {
            snprintf(cell[t], sizeof cell[t], "not run");
            cJSON_ArrayForEach(f, jo(c->sanitizers, "results")) {
                if (!jo_eq(f, "variant", v) || !jo_eq(f, "tool", TOOLS[t])) continue;
                const char *st = jo_str_or(f, "status", "not recorded"), *why = jo_str(f, "reason");
                char n[N];
                if (!strcmp(st, "pass"))
                    snprintf(cell[t], sizeof cell[t], "pass (%s errors)",
                             fmt_num(n, N, "%.0f", jo_num(f, "errors")));
                else if (!strcmp(st, "fail"))
                    snprintf(cell[t], sizeof cell[t], "FAIL (%s errors)",
                             fmt_num(n, N, "%.0f", jo_num(f, "errors")));
                else
                    snprintf(cell[t], sizeof cell[t], "%s: %s", st, why ? why : "no reason recorded");
                shapes_note(c, f, cell[t], sizeof cell[t]);
            }
        }
        md_row(b, 5, v, cell[0], cell[1], cell[2], cell[3]);
    }
    char id[N], cap[256];
    snprintf(id, N, "tbl:gpu-%s-sanitizers", c->tag);
    snprintf(cap, sizeof cap,
             "compute-sanitizer on every variant at shape %s (sanitizers.json; a run at other "
             "shapes names them); skipped and errored runs with their reason.",
             jo_str_or(c->sanitizers, "shape", "not recorded"));
    caption(c, b, id, cap);
}

/* A profile's table: doc is profile.json (every variant at the mission shape, its legend and
 * figure follow) or profile-gate.json (the Hopper line at stage 7f's gate shape: stem
 * "profile-gate", no legend or figure; stage 7g's go/no-go follows it). */
static void profile(const gpu_campaign_t *c, rbuf_t *b, unsigned figs, const cJSON *doc, const char *stem) {
    bool gate = strcmp(stem, "profile") != 0;
    if (gate)
        rb_printf(b, "### Profile metrics at stage 7f's gate shape {#sec:gpu-%s-%s}\n\n", c->tag, stem);
    else
        rb_printf(b, "### Profile metrics {#sec:gpu-%s-%s}\n\n", c->tag, stem);
    if (!doc) {
        rb_printf(b, "No profile in this campaign (no %s.json).\n\n", stem);
        return;
    }
    const cJSON *ms = jo(doc, "metrics"), *m, *v, *shown[MAX_METRICS];
    md_col_t cols[2 + MAX_METRICS];
    char heads[MAX_METRICS][2 * N];
    cols[0] = (md_col_t){"variant", 10, 'l'};
    int k = 0;
    /* At the gate shape the XU metric, which decides stage 7g, is the first column. */
    cJSON_ArrayForEach(m, ms) if (gate && k < MAX_METRICS && jo_eq(m, "name", STAGE7G_METRIC)) shown[k++] = m;
    cJSON_ArrayForEach(m, ms) {
        if (k >= MAX_METRICS) break;
        if (!(gate && jo_eq(m, "name", STAGE7G_METRIC))) shown[k++] = m;
    }
    for (int j = 0; j < k; j++) {
        snprintf(heads[j], sizeof heads[j], "%s (%s)", jo_str_or(shown[j], "label", "not recorded"),
                 jo_str_or(shown[j], "unit", "not recorded"));
        cols[1 + j] = (md_col_t){heads[j], 10, 'r'};
    }
    cols[1 + k] = (md_col_t){"status", 14, 'l'};
    md_table_head(b, cols, (size_t)k + 2);
    cJSON_ArrayForEach(v, jo(doc, "variants")) {
        rbuf_t row = {0};
        bool ok = jo_eq(v, "status", "ok");
        rb_puts(&row, "| ");
        rb_cell(&row, jo_str_or(v, "variant", "not recorded"));
        for (int j = 0; j < k; j++) {
            char x[N] = NA_MARK;
            if (ok) fmt_num(x, N, "%.4g", jo_num(jo(v, "values"), jo_str(shown[j], "name")));
            rb_printf(&row, " | %s", x);
        }
        char st[3 * N];
        snprintf(st, sizeof st, "%s%s%s", jo_str_or(v, "status", "not recorded"), ok ? "" : ": ",
                 ok ? "" : (jo_str(v, "reason") ? jo_str(v, "reason") : "no reason recorded"));
        rb_puts(&row, " | ");
        rb_cell(&row, st);
        rb_puts(&row, " |\n");
        rb_puts(b, row.s ? row.s : "");
        rb_free(&row);
    }
    char id[N], cap[640];
    snprintf(id, N, "tbl:gpu-%s-%s", c->tag, stem);
    int all = cJSON_GetArraySize(ms);
    char more[2 * N] = "";
    if (all > k)
        snprintf(more, sizeof more, " The first %d of its %d metrics; %s.json holds them all.", k, all, stem);
    snprintf(cap, sizeof cap,
             "Profile metrics per variant at the %s shape (%s, %s.json%s); skipped "
             "variants with their reason.%s",
             jo_str_or(doc, "shape", "not recorded"), jo_str_or(doc, "tool", "not recorded"), stem,
             gate ? ": the variants an experiment times at stage 7f's gate shape" : "", more);
    caption(c, b, id, cap);
    if (gate) {
        gpu_stage7g_section(c, b);
        return;
    }
    static const md_col_t hc[] = {{"metric", 12, 'l'}, {"unit", 6, 'l'}, {"what it tests", 40, 'l'}};
    md_table_head(b, hc, 3);
    cJSON_ArrayForEach(m, ms)
        md_row(b, 3, jo_str_or(m, "label", "not recorded"), jo_str_or(m, "unit", "not recorded"),
               jo_str_or(m, "hypothesis", "not recorded"));
    snprintf(id, N, "tbl:gpu-%s-metrics", c->tag);
    caption(c, b, id, "The profile's metrics and the hypothesis each one tests.");
    if (figs & GPU_FIG_PROFILE)
        rb_printf(b,
                  "![%sProfile metrics per variant, campaign %s, each divided by its largest value over the "
                  "variants.]({figdir}/gpu/%s/profile.png){#fig:gpu-%s-profile width=100%%}\n\n",
                  fig_mark(c), c->id, c->tag, c->tag);
}

/* Per sweep (data/gpu/sweeps/), the parts that are missing and why. */
static void sweeps(const gpu_data_t *g, rbuf_t *b) {
    if (!g->nsweeps) return;
    rb_puts(b, "## Cluster sweeps {#sec:gpu-sweeps}\n\n");
    static const md_col_t cols[] = {{"sweep", 12, 'l'},
                                    {"part", 18, 'l'},
                                    {"kind", 10, 'l'},
                                    {"Slurm state", 10, 'l'},
                                    {"why missing", 30, 'l'}};
    md_table_head(b, cols, 5);
    for (int i = 0; i < g->nsweeps; i++) {
        const cJSON *s = g->sweeps[i], *p;
        int missing = 0;
        cJSON_ArrayForEach(p, jo(s, "parts")) {
            if (jo_eq(p, "status", "complete")) continue;
            md_row(b, 5, jo_str_or(s, "sweep", "not recorded"), jo_str_or(p, "part", "not recorded"),
                   jo_str_or(p, "kind", "not recorded"), jo_str_or(p, "slurm_state", "not recorded"),
                   jo_str_or(p, "reason", "not recorded"));
            missing++;
        }
        if (!missing)
            md_row(b, 5, jo_str_or(s, "sweep", "not recorded"), "(none missing)", "", "",
                   "every part complete");
    }
    md_table_caption(b, "tbl:gpu-sweeps",
                     "Parts of each cluster sweep that are missing, and why "
                     "(data/gpu/sweeps/*.json, written by the sweep's collector).");
}

/* gpu-lead.md and gpu-results.md: the paper's sentences about the GPU part, which depend on whether
 * a campaign is committed (and whether it is only the test fixture). */
static int leads(const gpu_data_t *g, const char *out, char *err, size_t n) {
    rbuf_t lead = {0}, res = {0};
    int fixtures = 0;
    for (int i = 0; i < g->n; i++) fixtures += g->c[i]->fixture;
    if (!g->n) {
        rb_puts(&lead, "Until such a campaign is committed, nothing is compared.\n");
    } else {
        const char *fx =
            fixtures == g->n ? " (here only the SYNTHETIC FIXTURE of the tests: not a measurement)" : "";
        const char *first = NULL; /* the first campaign with a scaling section */
        for (int i = 0; i < g->n && !first; i++)
            if (gpu_campaign_plans(g->c[i], "scaling")) first = g->c[i]->tag;
        rb_printf(&lead,
                  "Section @sec:gpu does so for the %d committed campaign%s%s: the peers stand beside the "
                  "stages in each campaign's scaling sweep",
                  g->n, g->n > 1 ? "s" : "", fx);
        if (first) rb_printf(&lead, " (Section @sec:gpu-%s-scaling for the first)", first);
        rb_puts(&lead, ".\n");
        rb_printf(
            &res,
            "GPU measurements lead: Section @sec:gpu holds %d committed campaign%s%s, each full one opening "
            "with its scaling sweep (the mission shape is one point of it: a grid of a few CTAs per SM, "
            "latency-bound), the peers beside the stages, then the mission-shape stage history; a campaign "
            "of a few parts (`campaign.sh --part`) shows only those. The sections below are each "
            "experiment's latest run, on the backend its section names.",
            g->n, g->n > 1 ? "s" : "", fx);
        rb_puts(&res, gpu_data_runs(g)
                          ? " Section @sec:gpu-verdicts sets each experiment's verdicts from every campaign "
                            "side by side, under the original study's claim where it made one.\n"
                          : "\n");
    }
    int rc = rb_save(&lead, out, "gpu-lead.md", err, n);
    if (rc == 0) rc = rb_save(&res, out, "gpu-results.md", err, n);
    rb_free(&lead);
    rb_free(&res);
    return rc;
}

int gpu_tables_write(const gpu_data_t *g, const char *out, gpu_ratios_fn ratios, void *ctx, char *err,
                     size_t n) {
    rbuf_t b = {0}, list = {0};
    rb_puts(&list, "# <campaign tag> <figure script>: the GPU figures mk/report.mk draws\n");
    if (!g->n)
        rb_puts(&b, "**No GPU campaign has been committed yet**, so every GPU figure of this study (timings, "
                    "speedups against their gates, scaling, roofline, sanitizers, profile) is NOT EVALUATED. "
                    "A campaign is measured with `bundle/campaign.sh` on a GPU node and committed with `make "
                    "ingest RESULTS=...` (tools/campaign/README.md, \"Measuring on a GPU node\").\n\n");
    else {
        rb_printf(
            &b, "%d campaign%s committed: %sper device, the parts measured and each campaign's sections.\n\n",
            g->n, g->n > 1 ? "s are" : " is",
            gpu_data_runs(g) ? "first the experiments' verdicts from every campaign side by side, then, "
                             : "");
        gpu_verdicts_across(g, &b);
    }
    for (int i = 0; i < g->n; i++) {
        const gpu_campaign_t *c = g->c[i];
        unsigned figs = 0;
        if (gpu_figdata_write(c, out, &figs, err, n) < 0) goto fail;
        for (int k = 0; k < GPU_FIG_COUNT; k++)
            if (figs & (1u << k)) rb_printf(&list, "%s %s\n", c->tag, gpu_fig_name(k));
        gpu_parts_table(g, i, &b);
        rb_printf(&b, "## %s%s: campaign %s {#sec:gpu-%s}\n\n", jo_str(c->campaign, "device"),
                  c->emulated ? " (EMULATED)" : "", c->id, c->tag);
        banner(c, &b);
        device_line(c, &b);
        steps(c, &b);
        gpu_parts_only(c, &b); /* a campaign with --part: only its parts' sections */
        /* the scaling sweep leads: the mission shape is one sub-wave point of it */
        if (gpu_campaign_plans(c, "scaling") || gpu_campaign_plans(c, "ceilings") ||
            gpu_campaign_plans(c, "peers"))
            scaling(c, &b, figs);
        if (gpu_campaign_plans(c, "history")) {
            if (history(c, &b, figs) < 0) goto fail;
            warm(c, &b);
            aa_control(c, &b);
        }
        if (gpu_campaign_plans(c, "experiment:")) {
            verdicts(c, &b);
            rb_printf(&b, "### Published versus reproduced {#sec:gpu-%s-published}\n\n", c->tag);
            if (ratios(ctx, c, &b) < 0) goto fail;
        }
        if (gpu_campaign_plans(c, "matrix") || c->matrix[0]) gpu_matrix_section(c, &b);
        if (gpu_campaign_plans(c, "sanitizers")) sanitizers(c, &b);
        if (gpu_campaign_plans(c, "profiles")) profile(c, &b, figs, c->profile, "profile");
        if (c->profile_gate) profile(c, &b, 0, c->profile_gate, "profile-gate");
        if (gpu_campaign_plans(c, "probes") || c->probes) gpu_probes_section(c, &b);
    }
    sweeps(g, &b);
    if (rb_save(&list, out, "gpu-figures.txt", err, n) < 0) goto fail;
    if (leads(g, out, err, n) < 0) goto fail;
    if (gpu_stage7g_write(g, out, err, n) < 0) goto fail;
    return rb_save(&b, out, "gpu.md", err, n);
fail:
    if (!*err) snprintf(err, n, "gpu.md: a campaign's file could not be read");
    rb_free(&b);
    rb_free(&list);
    return -1;
}
