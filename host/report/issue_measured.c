/* The issue-slot model against what the GPUs measured (issue_slots.h): each counted kernel's fastest
 * GPU timing in each campaign, set against its ceiling on that campaign's own device record. The
 * methods (paper/methods.md#prereg-stage7g-slots) say a timing beyond the ceiling refutes the model;
 * this is where the paper says whether one did. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_section.h"
#include "issue_slots.h"

/* A kernel's fastest timing: the throughput at the slow end of its median's 95 % CI (flops over the
 * interval's upper time), the throughput at the median, and where it was measured. */
typedef struct {
    double lo_tf, med_tf;
    char where[160];
} fastest_t;

static void consider(fastest_t *f, double lo_tf, double med_tf, const char *src, const char *shape) {
    if (!isfinite(lo_tf) || (isfinite(f->lo_tf) && lo_tf <= f->lo_tf)) return;
    f->lo_tf = lo_tf, f->med_tf = med_tf;
    snprintf(f->where, sizeof f->where, "%s, %s", src, shape);
}

/* "(B, H, S, D)" with ", causal" when masked; the shape's head dimension in *d. */
static void shape_text(const cJSON *s, char *dst, size_t n, double *d) {
    *d = jo_num(s, "D");
    snprintf(dst, n, "(%.0f, %.0f, %.0f, %.0f%s)", jo_num(s, "B"), jo_num(s, "H"), jo_num(s, "S"), *d,
             cJSON_IsTrue(jo(s, "causal")) ? ", causal" : "");
}

/* Every GPU timing of r's variant at r's head dimension in one sdpa-bench run document (src names it). */
static void scan_bench(const cJSON *doc, const char *src, const issue_row_t *r, fastest_t *f) {
    const cJSON *t;
    cJSON_ArrayForEach(t, jo(doc, "timing")) {
        if (!jo_eq(t, "variant", r->variant) || !jo_eq(t, "timing", "gpu") || !jo_str(t, "flops")) continue;
        const cJSON *shape = jo_run_shape(doc, jo_str(t, "shape"));
        char text[96];
        double d;
        if (!shape) continue;
        shape_text(shape, text, sizeof text, &d);
        if (d != r->head_dim) continue;
        /* FLOP over microseconds, 1e6 of them per TFLOP/s */
        const double tflop = strtod(jo_str(t, "flops"), NULL) / 1e6;
        const cJSON *sum = jo(t, "summary");
        consider(f, tflop / jo_num(sum, "ci_hi"), tflop / jo_num(sum, "median"), src, text);
    }
}

/* r's fastest GPU timing in campaign c: its experiment runs, the history (cold and warm L2) and the
 * scaling sweep. */
static fastest_t fastest(const gpu_campaign_t *c, const issue_row_t *r) {
    fastest_t f = {NAN, NAN, ""};
    char src[300];
    for (int i = 0; i < c->nruns; i++)
        if (c->runs[i].loaded) {
            snprintf(src, sizeof src, "run of %s", c->runs[i].name);
            scan_bench(c->runs[i].r.T.root, src, r, &f);
        }
    scan_bench(c->history, "history", r, &f);
    scan_bench(c->history_warm, "history, warm L2", r, &f);
    for (int i = 0; i < c->npts; i++) {
        const gpu_point_t *p = &c->pts[i];
        if (p->peer || strcmp(p->status, "ok") != 0 || strcmp(p->series, r->variant) != 0 ||
            p->D != r->head_dim)
            continue;
        char shape[96];
        snprintf(shape, sizeof shape, "(%.0f, %.0f, %ld, %.0f)", p->B, p->H, p->S, p->D);
        consider(&f, p->tflops * p->median_us / p->ci_hi, p->tflops, "scaling", shape);
    }
    return f;
}

void issue_slots_measured(const gpu_data_t *g, const issue_row_t *rows, int k, rbuf_t *b) {
    static const md_col_t cols[] = {{"campaign", 14, 'l'},
                                    {"device", 12, 'l'},
                                    {"stage", 7, 'l'},
                                    {"D", 3, 'r'},
                                    {"fastest timing at", 18, 'l'},
                                    {"TFLOP/s measured", 12, 'r'},
                                    {"ceiling", 10, 'r'},
                                    {"against the ceiling", 20, 'l'}};
    size_t at = b->len;
    bool fixture = false;
    md_table_head(b, cols, 8);
    for (int i = 0; i < g->n; i++) {
        const gpu_campaign_t *c = g->c[i];
        const cJSON *d = jo(jo(c->device_run, "meta"), "device");
        double sms = gpu_node_num(jo(d, "sm_count")), mhz = gpu_node_num(jo(d, "sm_clock_default_mhz"));
        for (int j = 0; j < k; j++) {
            const issue_row_t *r = &rows[j];
            fastest_t f = fastest(c, r);
            if (!isfinite(f.lo_tf)) continue;
            fixture |= c->fixture;
            double tf = issue_tflops(issue_flop_per_sm_cycle(r), sms, mhz),
                   tfx = issue_tflops(issue_flop_per_sm_cycle_xu(r), sms, mhz);
            char dd[16], meas[64], ceil[64], verdict[192];
            snprintf(dd, sizeof dd, "%d", r->head_dim);
            snprintf(meas, sizeof meas, "%.4g (median %.4g)", f.lo_tf, f.med_tf);
            if (!(sms > 0 && mhz > 0)) {
                snprintf(ceil, sizeof ceil, "%s", NA_MARK);
                snprintf(verdict, sizeof verdict, "%sno ceiling: the device record has no SM count or clock",
                         gpu_mark(c));
            } else {
                if (tfx < tf)
                    snprintf(ceil, sizeof ceil, "%.0f (%.0f)", tf, tfx);
                else
                    snprintf(ceil, sizeof ceil, "%.0f", tf);
                snprintf(verdict, sizeof verdict, "%s%s", gpu_mark(c),
                         f.lo_tf > tf ? "BEYOND the ceiling: the model is refuted"
                         : f.lo_tf > tfx
                             ? "within; above the bracketed ceiling, so the conversions do not share the XU"
                         : f.med_tf > tf ? "within at the interval's end; its median beyond"
                                         : "within");
                if (f.lo_tf <= tf) {
                    size_t l = strlen(verdict);
                    snprintf(verdict + l, sizeof verdict - l, " (%.3g %% of it)", 100 * f.lo_tf / tf);
                }
            }
            md_row(b, 8, c->id, jo_str_or(c->campaign, "device", "not recorded"), r->variant, dd, f.where,
                   meas, ceil, verdict);
        }
    }
    char cap[1024];
    snprintf(cap, sizeof cap,
             "%sEach counted kernel's fastest GPU timing in each campaign (its experiment runs, history and "
             "scaling sweep, at the kernel's head dimension), set against its ceiling in the table above "
             "on that campaign's own device record (its SM count and clock; in brackets, the ceiling if the "
             "conversions share the XU). TFLOP/s measured: the FLOP over the upper end of the median's 95 %% "
             "CI (in brackets, over the median); a kernel beyond its ceiling at that end refutes the model "
             "(Methods, \"Stage 7g and stage 7f's ceiling: the issue-slot model\").",
             fixture ? GPU_FIXTURE_MARK : "");
    md_table_end(b, at, "tbl:issue-slots-measured", cap,
                 "No campaign has timed a counted kernel on a GPU: nothing is measured against the ceilings "
                 "yet.");
}
