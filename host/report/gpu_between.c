/* See gpu_between.h. Every number is read from the campaigns' history.json. */
#include "gpu_between.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fields.h"
#include "gpu_section.h"
#include "tables.h"

#define N 96

/* The campaigns of one device measured on a GPU with a stage history, in load order. */
typedef struct {
    const char *device;
    const gpu_campaign_t *c[GPU_MAX_CAMPAIGNS];
    int n;
} device_t;

typedef struct {
    int rows, disjoint; /* variant-shape pairs two or more campaigns timed; their medians' CIs apart */
    int ratio_rows, ratio_disjoint; /* the same for the speedup ratios against the baseline */
    double spread, ratio_spread;    /* the largest max/min - 1 of the medians, of the ratios */
} tally_t;

static int devices(const gpu_data_t *g, device_t *d) {
    int nd = 0;
    for (int i = 0; i < g->n; i++) {
        const gpu_campaign_t *c = g->c[i];
        if (c->emulated || c->fixture || !c->history) continue;
        const char *dev = jo_str_or(c->campaign, "device", "device not recorded");
        int k = 0;
        while (k < nd && strcmp(d[k].device, dev)) k++;
        if (k == nd) d[nd++] = (device_t){.device = dev};
        d[k].c[d[k].n++] = c;
    }
    return nd;
}

/* Campaign c's timing of variant v at the problem `shape` with L2 state l2, with a summary; NULL. */
static const cJSON *entry_of(const gpu_campaign_t *c, const char *v, const cJSON *shape, const char *l2) {
    const cJSON *t;
    cJSON_ArrayForEach(t, jo(c->history, "timing")) {
        const cJSON *s = jo(t, "summary");
        if (!s || cJSON_IsNull(s) || !jo_eq(t, "variant", v)) continue;
        if (!jo_same_shape(jo_run_shape(c->history, jo_str(t, "shape")), shape)) continue;
        if (l2 ? !jo_eq(t, "l2", l2) : jo_str(t, "l2") != NULL) continue;
        return t;
    }
    return NULL;
}

/* Over k values with intervals: the largest over the smallest, minus 1; whether all intervals meet. */
static double spread(const double *x, const double *lo, const double *hi, int k, int *apart) {
    double mn = x[0], mx = x[0], top_lo = lo[0], low_hi = hi[0];
    for (int i = 1; i < k; i++) {
        mn = fmin(mn, x[i]), mx = fmax(mx, x[i]);
        top_lo = fmax(top_lo, lo[i]), low_hi = fmin(low_hi, hi[i]);
    }
    *apart = top_lo > low_hi;
    return mx / mn - 1.0;
}

/* One row per variant, shape and L2 state that two or more of d's campaigns timed (first met in
 * load order); into b when b is not NULL. */
static void rows(const device_t *d, rbuf_t *b, tally_t *t) {
    for (int a = 0; a < d->n; a++) {
        const cJSON *e;
        cJSON_ArrayForEach(e, jo(d->c[a]->history, "timing")) {
            const char *v = jo_str(e, "variant"), *name = jo_str(e, "shape"), *l2 = jo_str(e, "l2");
            const cJSON *shape = jo_run_shape(d->c[a]->history, name), *s = jo(e, "summary");
            if (!v || !shape || !s || cJSON_IsNull(s)) continue;
            int seen = 0;
            for (int p = 0; p < a && !seen; p++) seen = entry_of(d->c[p], v, shape, l2) != NULL;
            if (seen) continue;
            double m[GPU_MAX_CAMPAIGNS], lo[GPU_MAX_CAMPAIGNS], hi[GPU_MAX_CAMPAIGNS];
            double r[GPU_MAX_CAMPAIGNS], rlo[GPU_MAX_CAMPAIGNS], rhi[GPU_MAX_CAMPAIGNS];
            char times[1024] = "", ratios[1024] = "";
            size_t lt = 0, lr = 0;
            int k = 0, kr = 0;
            for (int q = a; q < d->n; q++) {
                const cJSON *x = entry_of(d->c[q], v, shape, l2);
                if (!x) continue;
                const cJSON *xs = jo(x, "summary");
                char u[N], ci[N];
                m[k] = jo_num(xs, "median"), lo[k] = jo_num(xs, "ci_lo"), hi[k] = jo_num(xs, "ci_hi");
                if (lt < sizeof times)
                    lt += (size_t)snprintf(times + lt, sizeof times - lt, "%s%s %s %s", k ? "; " : "",
                                           d->c[q]->tag, fmt_us(u, N, m[k]),
                                           fmt_ci(ci, N, "%.2f", lo[k], hi[k]));
                k++;
                const cJSON *cmp = jo_run_comparison(d->c[q]->history, v, jo_str(x, "shape")),
                            *sc = jo(cmp, "speedup_ci");
                if (!cmp) continue;
                r[kr] = jo_num(cmp, "speedup");
                rlo[kr] = gpu_node_num(cJSON_GetArrayItem(sc, 0)),
                rhi[kr] = gpu_node_num(cJSON_GetArrayItem(sc, 1));
                if (lr < sizeof ratios)
                    lr += (size_t)snprintf(ratios + lr, sizeof ratios - lr, "%s%s %s %s", kr ? "; " : "",
                                           d->c[q]->tag, fmt_num(u, N, "%.4f", r[kr]),
                                           fmt_ci(ci, N, "%.4f", rlo[kr], rhi[kr]));
                kr++;
            }
            if (k < 2) continue;
            int apart, rapart = 0;
            const double sp = spread(m, lo, hi, k, &apart);
            const double rsp = kr >= 2 ? spread(r, rlo, rhi, kr, &rapart) : NAN;
            t->rows++, t->disjoint += apart;
            if (isfinite(sp)) t->spread = fmax(t->spread, sp);
            if (kr >= 2) {
                t->ratio_rows++, t->ratio_disjoint += rapart;
                if (isfinite(rsp)) t->ratio_spread = fmax(t->ratio_spread, rsp);
            }
            if (!b) continue;
            char x1[N], x2[N];
            snprintf(x1, N, "%s, %s", fmt_pct(x2, N, sp), apart ? "**apart**" : "overlap");
            const char *base = jo_str(jo(d->c[a]->history, "config"), "baseline");
            char y1[N];
            snprintf(y1, N, "%s", base && !strcmp(v, base) ? "baseline" : "not compared");
            if (kr >= 2)
                snprintf(y1, N, "%s, %s", fmt_pct(x2, N, rsp), rapart ? "**apart**" : "overlap");
            else if (kr == 1)
                snprintf(y1, N, "in one campaign only");
            md_row(b, 7, v, name, l2 ? l2 : "not recorded", times, x1, kr ? ratios : y1, y1);
        }
    }
}

void gpu_between_section(const gpu_data_t *g, rbuf_t *b) {
    device_t d[GPU_MAX_CAMPAIGNS];
    const int nd = devices(g, d);
    rb_puts(b, "## Between campaigns {#sec:gpu-between}\n\n");
    int shown = 0;
    for (int i = 0; i < nd; i++) {
        if (d[i].n < 2) continue;
        static const md_col_t cols[] = {{"variant", 9, 'l'},
                                        {"shape", 7, 'l'},
                                        {"L2", 4, 'l'},
                                        {"median (µs) [95 % CI] by campaign", 30, 'l'},
                                        {"medians: max/min − 1, CIs", 12, 'r'},
                                        {"speedup ratio [95 % CI] by campaign", 30, 'l'},
                                        {"ratios: max/min − 1, CIs", 12, 'r'}};
        const size_t at = b->len;
        md_table_head(b, cols, 7);
        tally_t t = {0};
        rows(&d[i], b, &t);
        char cap[3072], who[1024] = "", id[N];
        size_t l = 0;
        for (int k = 0; k < d[i].n && l < sizeof who; k++)
            l += (size_t)snprintf(who + l, sizeof who - l, "%s%s = %s", k ? ", " : "", d[i].c[k]->tag,
                                  d[i].c[k]->id);
        /* The arms' order of each history (schema 2.1.0): a ratio of a fixed-order campaign may hold
         * the position effect that a rotated one spreads over both arms. */
        char orders[1024] = "";
        bool mixed = false;
        l = 0;
        for (int k = 0; k < d[i].n && l < sizeof orders; k++) {
            const char *o = jo_run_arm_order(d[i].c[k]->history);
            mixed |= strcmp(o, jo_run_arm_order(d[i].c[0]->history)) != 0;
            l += (size_t)snprintf(orders + l, sizeof orders - l, "%s%s %s", k ? ", " : "", d[i].c[k]->tag, o);
        }
        char order_text[1200];
        if (mixed)
            snprintf(order_text, sizeof order_text,
                     " The arms' order within a round differs between them (%s; config.arm_order, absent "
                     "before schema 2.1.0: fixed): a ratio of a fixed-order campaign may hold the position "
                     "effect that a rotated one spreads over both arms.",
                     orders);
        else
            snprintf(order_text, sizeof order_text, " The arms' order within a round: %s in every one.",
                     jo_run_arm_order(d[i].c[0]->history));
        snprintf(
            cap, sizeof cap,
            "The same stages timed by %d campaigns of the %s, each in its own process (history.json; %s): "
            "the medians with the 95 %% interval each process gives its own, how far the largest lies "
            "above the smallest and whether the intervals overlap; then the same for the speedup ratios "
            "against the history's baseline, each measured within its process.%s Measured on a GPU.",
            d[i].n, d[i].device, who, order_text);
        snprintf(id, N, "tbl:gpu-between-%d", ++shown);
        md_table_end(b, at, id, cap, "No variant and shape was timed by two of these campaigns.");
    }
    if (!shown)
        rb_puts(b,
                "No device has two campaigns measured on a GPU with a stage history yet: the spread between "
                "processes, which the interval of one process leaves out, is not measured.\n\n");
}

int gpu_between_write(const gpu_data_t *g, const char *out, char *err, size_t n) {
    device_t d[GPU_MAX_CAMPAIGNS];
    const int nd = devices(g, d);
    rbuf_t b = {0};
    int shown = 0;
    for (int i = 0; i < nd; i++) {
        tally_t t = {0};
        if (d[i].n < 2) continue;
        rows(&d[i], NULL, &t);
        if (!t.rows) continue;
        char a[N], r[N];
        rb_printf(
            &b,
            "**Between campaigns.** On the %s, %d campaigns timed %d of the same variant and shape pairs "
            "(Section @sec:gpu-between). Their medians differ by up to %s, and in %d of the %d pairs their "
            "95 %% intervals do not overlap: %s",
            d[i].device, d[i].n, t.rows, fmt_pct(a, N, t.spread), t.disjoint, t.rows,
            t.disjoint ? "an interval describes the samples of one process and leaves out the spread "
                         "between processes, so absolute times of two campaigns differ by more than "
                         "their intervals say, even on one device."
                       : "here the intervals covered the spread between processes.");
        if (t.ratio_rows)
            rb_printf(&b,
                      " The speedup ratios, each measured within one process, differ by up to %s (%d of %d "
                      "with intervals apart)%s.",
                      fmt_pct(r, N, t.ratio_spread), t.ratio_disjoint, t.ratio_rows,
                      t.ratio_spread < t.spread
                          ? ", less than the absolute times: the ratios are the comparable "
                            "quantity across campaigns"
                          : "");
        rb_puts(&b, "\n\n");
        shown++;
    }
    if (!shown)
        rb_puts(&b,
                "**Between campaigns.** No device has two campaigns measured on a GPU with a stage history "
                "yet: the spread between processes, which the interval of one process leaves out, is not "
                "measured.\n\n");
    return rb_save(&b, out, "gpu-between-lead.md", err, n);
}
