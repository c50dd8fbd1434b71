/* See gpu_verdicts.h. Every cell is read from a run's summary.json (sdpa-report experiment). */
#include "gpu_verdicts.h"

#include <stdio.h>
#include <string.h>

#include "fields.h"
#include "published.h"
#include "tables.h"

#define MAX_NAMES                                                                                            \
    (GPU_MAX_EXPERIMENTS + GPU_MAX_CAMPAIGNS * GPU_MAX_RUNS) /* room for every run: none dropped */

/* The experiments in order: this checkout's, then any other a campaign ran (an experiment since
 * renamed or removed still shows). */
static int experiment_order(const gpu_data_t *g, const char **names) {
    int n = 0;
    for (int i = 0; i < g->n_experiments && n < MAX_NAMES; i++) names[n++] = g->experiments[i];
    for (int i = 0; i < g->n; i++)
        for (int k = 0; k < g->c[i]->nruns && n < MAX_NAMES; k++) {
            const char *e = g->c[i]->runs[k].name;
            bool seen = false;
            for (int j = 0; j < n && !seen; j++) seen = !strcmp(names[j], e);
            if (!seen) names[n++] = e;
        }
    return n;
}

static void row(const gpu_campaign_t *c, const gpu_run_t *r, rbuf_t *b) {
    const char *mark = c->fixture ? "SYNTHETIC " : "";
    char device[300], gate[128], value[512], verdict[128];
    snprintf(device, sizeof device, "%s%s", jo_str_or(c->campaign, "device", "not recorded"),
             c->emulated ? " (EMULATED)" : "");
    if (!r->loaded) {
        md_row(b, 6, r->name, device, c->id, NA_MARK, r->note, NA_MARK);
        return;
    }
    const cJSON *perf = gpu_run_performance_gate(r);
    snprintf(gate, sizeof gate, "%s%s", mark, perf ? jo_str_or(perf, "status", "not recorded") : "none");
    snprintf(value, sizeof value, "%s%s", mark, perf ? jo_str_or(perf, "value", "not recorded") : NA_MARK);
    snprintf(verdict, sizeof verdict, "%s%s", mark, jo_str_or(r->summary, "verdict", "not recorded"));
    md_row(b, 6, r->name, device, c->id, gate, value, verdict);
}

/* The original study's claim for experiment e (data/published/seed-l4.json, as every loaded run's
 * report carries it), as the experiment's first row: its device and source named, its gate and
 * verdict as worded, and the ratio recomputed from its two published p50s. False when no loaded
 * run of e exists or the original made no claim for it. */
static bool published_row(const gpu_data_t *g, const char *e, rbuf_t *b) {
    const report_t *r = NULL;
    for (int i = 0; i < g->n && !r; i++)
        for (int k = 0; k < g->c[i]->nruns && !r; k++)
            if (g->c[i]->runs[k].loaded && !strcmp(g->c[i]->runs[k].name, e)) r = &g->c[i]->runs[k].r;
    if (!r) return false;
    const cJSON *c = cJSON_GetArrayItem(jo(r->PUB.root, "claims"), published_find_claim(r->PUB.root, e));
    if (!c) return false;
    char dev[160], device[200], src[300], gate[200], value[400], a[32], l[32];
    const double pb = jo_num(c, "baseline_p50_us"), pc = jo_num(c, "candidate_p50_us");
    snprintf(device, sizeof device, "%s (published)",
             report_published_device(r, dev, sizeof dev) ? dev : "not recorded");
    snprintf(src, sizeof src, "original study (%s)", jo_str_or(c, "source", "source not recorded"));
    snprintf(gate, sizeof gate, "its own: %s", jo_str_or(c, "published_gate", "not recorded"));
    snprintf(value, sizeof value, "as published: %s; from its p50s: ratio %s, latency reduction %s %%",
             jo_str_or(c, "as_published", "not recorded"), fmt_num(a, sizeof a, "%.3f", pb / pc),
             fmt_num(l, sizeof l, "%.1f", 100 * (1 - pc / pb)));
    md_row(b, 6, e, device, src, gate, value, jo_str_or(c, "published_verdict", "not recorded"));
    return true;
}

void gpu_verdicts_across(const gpu_data_t *g, rbuf_t *b) {
    if (!gpu_data_runs(g)) return;
    bool fixtures = false;
    for (int i = 0; i < g->n; i++) fixtures |= g->c[i]->fixture && g->c[i]->nruns;
    const char *names[MAX_NAMES];
    const int n = experiment_order(g, names);
    rb_puts(b, "## Verdicts across devices and campaigns {#sec:gpu-verdicts}\n\n");
    static const md_col_t cols[] = {{"experiment", 12, 'l'},
                                    {"device", 10, 'l'},
                                    {"campaign", 12, 'l'},
                                    {"performance gate", 8, 'l'},
                                    {"value (speedup, CI)", 24, 'l'},
                                    {"verdict", 10, 'l'}};
    md_table_head(b, cols, 6);
    bool published = false;
    for (int e = 0; e < n; e++) {
        published |= published_row(g, names[e], b);
        for (int i = 0; i < g->n; i++)
            for (int k = 0; k < g->c[i]->nruns; k++)
                if (!strcmp(g->c[i]->runs[k].name, names[e])) row(g->c[i], &g->c[i]->runs[k], b);
    }
    char cap[1280];
    snprintf(cap, sizeof cap,
             "%sEvery experiment that a committed campaign ran, in each campaign that ran it, device by "
             "device: its performance gate (judged on the lower end of the speedup's 95 %% CI) and its "
             "verdict over every gate, from the run's summary.json; each campaign's own section has the "
             "gates in full. A repeat on one device shows the spread between campaigns; devices are "
             "compared through their verdicts and ratios, never their absolute times.%s",
             fixtures ? "SYNTHETIC FIXTURE, NOT A MEASUREMENT (rows marked SYNTHETIC): " : "",
             published ? " Where the original study made a claim, its experiment's first row is that claim, "
                         "labelled published, with the source it is transcribed from: its own gate and "
                         "verdict as worded, and the ratio of its two published p50s (arms timed in "
                         "separate processes with warm L2 and host overhead, and no confidence interval)."
                       : "");
    md_table_caption(b, "tbl:gpu-verdicts", cap);
}
