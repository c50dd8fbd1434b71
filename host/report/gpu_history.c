/* See gpu_history.h. */
#include "gpu_history.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arm_order.h"
#include "gpu_figdata.h"
#include "gpu_section.h"
#include "stats.h"

#define N 96

/* The timer's step in µs as the history's samples show it: the smallest nonzero difference between
 * two samples of one entry, over all entries (0: none seen). Samples are stored to the nanosecond,
 * so a real difference is at least 1e-3 µs and anything under half of that is the float's noise: the
 * floor sits there, not at 1 ns itself, which a 1 ns step would straddle. CUDA events count whole ticks
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
        const double d = stats_min_step(v, (size_t)k, 0.5e-3);
        free(v);
        if (d > 0 && (step == 0.0 || d < step)) step = d;
    }
    return step;
}

/* Median with CI per variant and shape; the speedup ratio and the latency reduction vs the
 * history's baseline (stage0), named separately. */
int gpu_history_section(const gpu_campaign_t *c, rbuf_t *b, unsigned figs) {
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
        const cJSON *cmp = jo_run_comparison(c->history, v, shape);
        if (base && !strcmp(v, base))
            snprintf(sp, sizeof sp, "baseline");
        else if (cmp && c->emulated)
            snprintf(sp, sizeof sp, "not evaluated: emulated");
        else if (cmp) {
            const cJSON *sc = jo(cmp, "speedup_ci"), *lc = jo(cmp, "latency_reduction_ci");
            snprintf(sp, sizeof sp, "%s %s", fmt_num(x, N, "%.3f", jo_num(cmp, "speedup")),
                     fmt_ci(y, N, "%.3f", gpu_node_num(cJSON_GetArrayItem(sc, 0)),
                            gpu_node_num(cJSON_GetArrayItem(sc, 1))));
            snprintf(lr, sizeof lr, "%s %% %s", fmt_num(x, N, "%.1f", 100 * jo_num(cmp, "latency_reduction")),
                     fmt_ci(y, N, "%.1f %%", 100 * gpu_node_num(cJSON_GetArrayItem(lc, 0)),
                            100 * gpu_node_num(cJSON_GetArrayItem(lc, 1))));
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
    gpu_caption(c, b, id, cap);
    if (figs & GPU_FIG_ECDF)
        rb_printf(
            b,
            "![%sLatency ECDF of every variant of the history of campaign %s%s at its first shape, %s: "
            "fraction of samples at or below each latency.]({figdir}/gpu/%s/ecdf.png)"
            "{#fig:gpu-%s-ecdf width=100%%}\n\n",
            gpu_fig_mark(c), c->id, c->emulated ? " (EMULATED: CPU times)" : "",
            jo_str_or(cJSON_GetArrayItem(jo(jo(c->history, "config"), "shapes"), 0), "name", "not recorded"),
            c->tag, c->tag);
    return 0;
}

/* Warm-L2 timings (history-warm.json, no flush between samples) beside the cold ones of the
 * history, variant by variant at the shapes both have: the inputs fit in any L2. */
void gpu_warm_section(const gpu_campaign_t *c, rbuf_t *b) {
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
             gpu_fig_mark(c), gpu_timing_label(c), c->id);
    md_table_end(b, at, id, cap, "No variant of history-warm.json was timed.");
}

/* The order of the arms within a round (config.arm_order, schema 2.1.0): absent in older files, whose
 * rounds all ran the baseline first. In a fixed order an A/A control's ratio also holds whatever the
 * position in the round does to a sample. */
static const char *arm_order_text(const cJSON *run, char *buf, size_t n) {
    const char *o = jo_run_arm_order(run);
    const char *pos = "the baseline first in every round, so its ratio also measures what the position in "
                      "the round does";
    if (!jo_str(jo(run, "config"), "arm_order"))
        snprintf(buf, n, "fixed, %s (config.arm_order absent: written before schema 2.1.0)", pos);
    else if (!strcmp(o, "fixed"))
        snprintf(buf, n, "fixed (--arm-order fixed), %s", pos);
    else if (!strcmp(o, "rotated"))
        snprintf(buf, n, "rotated from round to round (A B, B A, ...: config.arm_order)");
    else
        snprintf(buf, n, "'%.40s', an order this report does not know (config.arm_order)", o);
    return buf;
}

/* With the arms rotating (schema 2.1.0), the A/A control's ratio no longer holds the position
 * effect, so it is read directly: each arm's samples split by the position they ran at in their
 * round (arm and arms of the entry, host/lib/arm_order.h), a median with its CI per position. In a
 * fixed order each arm has one position, and the control's ratio is that effect (the caption says). */
static void aa_position_table(const gpu_campaign_t *c, rbuf_t *b) {
    const cJSON *run = c->aa_control, *t;
    if (strcmp(jo_run_arm_order(run), "rotated") != 0) return;
    static const md_col_t cols[] = {{"arm", 10, 'l'}, {"first in the round: median (µs) [95 % CI]", 18, 'r'},
                                    {"n", 4, 'r'},    {"second: median (µs) [95 % CI]", 18, 'r'},
                                    {"n", 4, 'r'},    {"second / first", 7, 'r'}};
    const size_t at = b->len;
    md_table_head(b, cols, 6);
    cJSON_ArrayForEach(t, jo(run, "timing")) {
        const cJSON *s = jo(t, "samples_us"), *x;
        const double arm = jo_num(t, "arm"), arms = jo_num(t, "arms");
        const int n = cJSON_GetArraySize(s);
        if (!(arms == 2 && (arm == 0 || arm == 1)) || n < 2) continue;
        double *v = malloc(2 * (size_t)n * sizeof *v);
        if (!v) continue;
        size_t k[2] = {0, 0}, r = 0;
        cJSON_ArrayForEach(x, s) {
            const size_t p = arm_position(true, 2, r++, (size_t)arm);
            if (cJSON_IsNumber(x)) v[p * (size_t)n + k[p]++] = x->valuedouble;
        }
        stats_summary_t st[2];
        char cell[2][2][N], ratio[N], label[N];
        for (int p = 0; p < 2; p++) {
            const bool ok = stats_summarize(v + p * n, k[p], &st[p]) == 0;
            char m[N], ci[N];
            const bool ci_ok = ok && st[p].ci_available;
            snprintf(cell[p][0], N, "%s%s%s", ok ? fmt_us(m, N, st[p].median) : NA_MARK, ci_ok ? " " : "",
                     ci_ok ? fmt_ci(ci, N, "%.2f", st[p].ci_lo, st[p].ci_hi) : "");
            fmt_num(cell[p][1], N, "%.0f", ok ? (double)st[p].n : NAN);
            if (!ok) st[p].median = NAN;
        }
        free(v);
        snprintf(label, N, "%s (%s, %s)", jo_str_or(t, "aa_arm", arm == 0 ? "A" : "B"),
                 jo_str_or(t, "variant", "not recorded"), jo_str_or(t, "shape", "shape not recorded"));
        md_row(b, 6, label, cell[0][0], cell[0][1], cell[1][0], cell[1][1],
               fmt_num(ratio, N, "%.4f", st[1].median / st[0].median));
    }
    char id[N], cap[768];
    snprintf(id, N, "tbl:gpu-%s-aa-position", c->tag);
    snprintf(cap, sizeof cap,
             "%sThe position effect in the A/A control of campaign %s: the arms rotated from round to "
             "round, so each arm's kept samples split into those it ran first in its round and those it ran "
             "second (arm and arms of its aa-control.json entry); medians with their 95 %% CIs. A ratio "
             "away from 1 beyond the CIs is what running first or second does to a sample; the rotation "
             "gives it to both arms of every comparison alike.%s",
             gpu_fig_mark(c), c->id, c->emulated ? " EMULATED: CPU wall-clock times." : "");
    md_table_end(b, at, id, cap,
                 "The A/A control's arms rotated, but none of its entries can be split by position (an "
                 "entry needs its arm and the round's two arms recorded, and two samples).");
}

/* The A/A control (aa-control.json): one variant against itself in one interleaved process. Its
 * speedup CI is the noise floor of a comparison on this device; the SAME band (the comparison's
 * epsilon) is calibrated when it is wider than that floor. */
void gpu_aa_section(const gpu_campaign_t *c, rbuf_t *b) {
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
        double lo = gpu_node_num(cJSON_GetArrayItem(ci, 0)), hi = gpu_node_num(cJSON_GetArrayItem(ci, 1));
        double eps = jo_num(e, "epsilon"), floor = fmax(1 - lo, hi - 1);
        char pair[2 * N], sp[2 * N], x[N], y[N], fl[N], band[N], k[N], vd[N];
        snprintf(pair, sizeof pair, "%s against %s", jo_str_or(e, "candidate", "not recorded"),
                 jo_str_or(e, "baseline", "not recorded"));
        snprintf(sp, sizeof sp, "%s %s", fmt_num(x, N, "%.4f", jo_num(e, "speedup")),
                 fmt_ci(y, N, "%.4f", lo, hi));
        snprintf(fl, sizeof fl, "±%s", fmt_pct(x, N, floor));
        snprintf(band, sizeof band, "±%s", fmt_pct(y, N, eps));
        snprintf(vd, sizeof vd, "%s%s", gpu_mark(c),
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
    char id[N], cap[1024], order[256];
    snprintf(id, N, "tbl:gpu-%s-aa", c->tag);
    snprintf(cap, sizeof cap,
             "A/A control of campaign %s (aa-control.json): one variant against itself, interleaved in one "
             "process as every comparison; the arms' order within a round: %s. Noise floor: how far its "
             "speedup CI reaches "
             "from 1; SAME band: the verdicts' equivalence band on the latency ratio (the comparison's "
             "epsilon).%s",
             c->id, arm_order_text(c->aa_control, order, sizeof order),
             c->emulated ? " EMULATED: CPU wall-clock times, no verdict." : "");
    gpu_caption(c, b, id, cap);
    if (say.s && !c->emulated) rb_puts(b, say.s);
    rb_free(&say);
    aa_position_table(c, b);
}

/* Each experiment's verdict against its gates, from the run directory's summary.json. */
void gpu_campaign_verdicts(const gpu_campaign_t *c, rbuf_t *b) {
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
        snprintf(st, sizeof st, "%s%s%s%s", gpu_mark(c), status, why && *why ? ": " : "",
                 why && *why ? why : "");
        const cJSON *val = perf ? jo(perf, "value") : NULL;
        char vd[N];
        snprintf(vd, sizeof vd, "%s%s", gpu_mark(c), jo_str_or(r->summary, "verdict", "not recorded"));
        md_row(b, 6, r->name, pair, gate,
               cJSON_IsString(val) ? val->valuestring : fmt_num(v, N, "%.3f", jo_num(perf, "value")), st, vd);
    }
    char id[N];
    snprintf(id, N, "tbl:gpu-%s-verdicts", c->tag);
    gpu_caption(c, b, id,
                "Each experiment of the campaign: its performance gate (judged on the lower end "
                "of the speedup's 95 % CI) and its verdict over every gate, from the run "
                "directory's summary.json (sdpa-report experiment).");
}
