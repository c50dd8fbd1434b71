/* See gpu_coverage.h. A check counts where a correctness entry of an sdpa-bench document that ran on
 * the CUDA backend names the variant (the device step, the experiments' runs, the history, the A/A
 * control, the correctness matrix); a timing where such a document's timing entry is a GPU one with
 * a summary, or a scaling point of the variant is "ok". */
#include "gpu_coverage.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "bench/arch.h"
#include "bench/variants.h"
#include "gpu_section.h"

/* device step, history, warm history, A/A control; the matrix; each run's check and timing files */
#define MAX_DOCS (4 + GPU_MATRIX_FILES + 2 * GPU_MAX_RUNS)

/* One variant on one device, over that device's campaigns. */
typedef struct {
    int campaigns, timed; /* campaigns that checked or timed it; those that timed it */
    int checks, passed;
    bool d64, d128, d_other, causal;
    char trouble[256]; /* the checks step's verdicts other than ok: "fault (<campaign>)" */
} cover_t;

/* The documents of c that ran on the GPU. */
static int gpu_docs(const gpu_campaign_t *c, const cJSON **docs) {
    const cJSON *all[MAX_DOCS];
    int n = 0, k = 0;
    all[n++] = c->device_run, all[n++] = c->history, all[n++] = c->history_warm, all[n++] = c->aa_control;
    for (int i = 0; i < GPU_MATRIX_FILES; i++) all[n++] = c->matrix[i];
    for (int i = 0; i < c->nruns; i++)
        if (c->runs[i].loaded) {
            all[n++] = c->runs[i].r.run;
            if (c->runs[i].r.timing != c->runs[i].r.run) all[n++] = c->runs[i].r.timing;
        }
    for (int i = 0; i < n; i++)
        if (all[i] && jo_eq(jo(all[i], "meta"), "backend", "cuda")) docs[k++] = all[i];
    return k;
}

/* Adds campaign c's evidence on variant v to *cv. */
static void scan(const gpu_campaign_t *c, const char *v, cover_t *cv) {
    const cJSON *docs[MAX_DOCS], *e;
    const int nd = gpu_docs(c, docs);
    bool checked = false, timed = false;
    for (int i = 0; i < nd; i++) {
        cJSON_ArrayForEach(e, jo(docs[i], "correctness")) {
            if (!jo_eq(e, "variant", v)) continue;
            const cJSON *shape = jo_run_shape(docs[i], jo_str(e, "shape"));
            const double d = jo_num(e, "D");
            checked = true;
            cv->checks++;
            cv->passed += cJSON_IsTrue(jo(e, "pass"));
            cv->d64 |= d == 64, cv->d128 |= d == 128, cv->d_other |= d != 64 && d != 128;
            cv->causal |= cJSON_IsTrue(jo(shape, "causal"));
        }
        cJSON_ArrayForEach(e, jo(docs[i], "timing")) {
            timed |= jo_eq(e, "variant", v) && jo_eq(e, "timing", "gpu") && cJSON_IsObject(jo(e, "summary"));
        }
    }
    for (int i = 0; i < c->npts; i++)
        timed |= !c->pts[i].peer && !strcmp(c->pts[i].series, v) && !strcmp(c->pts[i].status, "ok");
    cJSON_ArrayForEach(e, jo(c->campaign, "variant_checks")) {
        const char *st = jo_str(e, "status");
        if (!jo_eq(e, "variant", v) || !st || !strcmp(st, "ok") || !strcmp(st, "not_supported")) continue;
        const size_t len = strlen(cv->trouble);
        /* a long list is cut at the cell's size (its return value read: a cut is intended) */
        if (snprintf(cv->trouble + len, sizeof cv->trouble - len, "%s%s (%s)", len ? ", " : "", st, c->id) <
            0)
            cv->trouble[len] = '\0';
    }
    cv->campaigns += checked || timed;
    cv->timed += timed;
}

static const char *dims_text(const cover_t *cv, char *dst, size_t n) {
    snprintf(dst, n, "%s%s%s%s%s", cv->d64 ? "64" : "", cv->d64 && cv->d128 ? ", " : "",
             cv->d128 ? "128" : "", cv->d_other ? (cv->d64 || cv->d128 ? ", other" : "other") : "",
             cv->causal ? "; causal too" : "");
    return dst;
}

/* Whether no measured device of g can run variant v (its switches need another architecture):
 * then its "never" says why, in why. */
static bool runs_nowhere(const gpu_data_t *g, const variant_info_t *v, char *why, size_t n) {
    const int min_sm = variants_min_sm(v->sw), exact_sm = variants_exact_sm(v->sw);
    int devices = 0;
    char one[160];
    for (int i = 0; i < g->n; i++) {
        const gpu_campaign_t *c = g->c[i];
        const int cc = arch_cc_from_string(jo_str(jo(jo(c->device_run, "meta"), "device"), "cc"));
        if (c->emulated) continue;
        devices++;
        if (cc <= 0 || !variants_arch_unsupported(min_sm, exact_sm, cc, one, sizeof one)) return false;
    }
    if (exact_sm)
        snprintf(why, n, "sm_%da code, and no committed campaign's device is sm_%d", exact_sm, exact_sm);
    else
        snprintf(why, n, "needs sm_%d or newer, which no committed campaign's device is", min_sm);
    return devices > 0;
}

void gpu_coverage(const gpu_data_t *g, rbuf_t *b) {
    int measured = 0, emulated = 0, fixtures = 0, checked = 0, timed = 0;
    for (int i = 0; i < g->n; i++) {
        emulated += g->c[i]->emulated;
        fixtures += g->c[i]->fixture && !g->c[i]->emulated;
        measured += !g->c[i]->emulated;
    }
    const int nv = (int)variants_registry_count;
    if (!measured) {
        rb_printf(
            b,
            "No GPU campaign is committed%s, so none of the %d variants of this checkout's registry has "
            "run on a GPU: every claim about them rests on the CPU emulator and the static gates.\n\n",
            emulated ? " (the emulated ones do not count)" : "", nv);
        return;
    }
    static const md_col_t cols[] = {{"variant", 10, 'l'},          {"device", 18, 'l'},
                                    {"campaigns", 6, 'r'},         {"checks passed", 16, 'l'},
                                    {"head dims, masks", 10, 'l'}, {"timed", 10, 'l'}};
    rbuf_t t = {0}, never = {0};
    md_table_head(&t, cols, 6);
    for (int k = 0; k < nv; k++) {
        const char *v = variants_registry[k].id;
        bool any = false, any_timed = false, rows = false;
        for (int i = 0; i < g->n; i++) {
            /* a device: the campaigns of one slug, which the loader keeps together; the first
             * measured one names it */
            if (i > 0 && !strcmp(g->c[i - 1]->slug, g->c[i]->slug)) continue;
            const gpu_campaign_t *c = NULL;
            cover_t cv = {0};
            for (int j = i; j < g->n && !strcmp(g->c[j]->slug, g->c[i]->slug); j++)
                if (!g->c[j]->emulated) {
                    if (!c) c = g->c[j];
                    scan(g->c[j], v, &cv);
                }
            if (!c || (!cv.campaigns && !cv.trouble[0])) continue;
            char dev[300], nc[32], ck[400], dims[64], tm[64];
            snprintf(dev, sizeof dev, "%s%s", gpu_mark(c), jo_str_or(c->campaign, "device", c->slug));
            snprintf(nc, sizeof nc, "%d", cv.campaigns);
            snprintf(ck, sizeof ck, "%s%d of %d%s%s", cv.passed < cv.checks ? "FAILED: " : "", cv.passed,
                     cv.checks, cv.trouble[0] ? "; checks step: " : "", cv.trouble);
            snprintf(tm, sizeof tm, cv.timed ? "in %d campaign%s" : "never", cv.timed,
                     cv.timed > 1 ? "s" : "");
            md_row(&t, 6, v, dev, nc, ck, cv.checks ? dims_text(&cv, dims, sizeof dims) : "-", tm);
            any = any || cv.checks, any_timed = any_timed || cv.timed, rows = true;
        }
        checked += any, timed += any_timed;
        if (!rows) {
            char why[160];
            rb_printf(&never, "%s`%s`", never.len ? ", " : "", v);
            if (runs_nowhere(g, &variants_registry[k], why, sizeof why)) rb_printf(&never, " (%s)", why);
        }
    }
    rb_printf(b,
              "Of the %d variants of this checkout's registry, %d %s been checked on a GPU and %d timed on "
              "one, over %d committed campaign%s%s%s.",
              nv, checked, checked == 1 ? "has" : "have", timed, measured, measured > 1 ? "s" : "",
              fixtures ? " (of which the SYNTHETIC test fixture is no measurement)" : "",
              emulated ? "; emulated campaigns do not count" : "");
    if (never.len) rb_printf(b, " Never run on a GPU: %s.", never.s);
    rb_puts(b, "\n\n");
    md_table_end(&t, 0, "tbl:gpu-coverage",
                 "What ran on a GPU, variant by variant and device by device: the campaigns that checked or "
                 "timed it; of its correctness checks on the GPU (device step, experiment runs, history, A/A "
                 "control, correctness matrix: one per shape and seed), those that passed (launch ok, inputs "
                 "unmodified, every output written, the kernel-only bars met), and a campaign's checks step "
                 "where it ended other than ok (a wrong result, a fault, a hang); the head dimensions and "
                 "masks the checks covered; the campaigns that timed it. A variant no campaign ran has no "
                 "row.",
                 "");
    rb_puts(b, t.s ? t.s : "");
    rb_free(&t);
    rb_free(&never);
}

int gpu_coverage_write(const gpu_data_t *g, const char *out, char *err, size_t n) {
    rbuf_t b = {0};
    gpu_coverage(g, &b);
    return rb_save(&b, out, "gpu-coverage.md", err, n);
}
