/* See gpu_stage7g.h. The rule and why the gate shape: paper/methods.md#prereg-stage7g. */
#include "gpu_stage7g.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fields.h"

/* The entry of array a whose field key is s, or NULL. */
static const cJSON *find(const cJSON *a, const char *key, const char *s) {
    const cJSON *e;
    cJSON_ArrayForEach(e, a) if (jo_eq(e, key, s)) return e;
    return NULL;
}

__attribute__((format(printf, 3, 4))) static stage7g_t open_why(char *why, size_t n, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
    return STAGE7G_OPEN;
}

/* Stage 7f's value of metric (called label in the reasons) in c's profile at the gate shape: 0 with
 * *x, or -1 with why it has none. One reading for the verdict and for gpu_stage7g_value. */
static int stage7f_metric(const gpu_campaign_t *c, const char *metric, const char *label, double *x,
                          char *why, size_t n) {
    const cJSON *p = c->gate_profile[GPU_GATE_7F];
    *x = NAN;
    if (!p)
        return open_why(why, n, "no profile at the gate shape in this campaign (no profile-gate.json)"), -1;
    if (cJSON_IsTrue(jo(c->campaign, "quick")))
        return open_why(why, n,
                        "a quick campaign: its profile is at the %s shape, smoke that decides nothing",
                        jo_str_or(p, "shape", "not recorded")),
               -1;
    if (!jo_eq(p, "status", "ok"))
        return open_why(why, n, "profile-gate.json is %s: %s", jo_str_or(p, "status", "not recorded"),
                        jo_str_or(p, "reason", "no reason recorded")),
               -1;
    const cJSON *m = find(jo(p, "metrics"), "name", metric);
    if (!m) return open_why(why, n, "the profile's metric set lacks %s", metric), -1;
    if (!cJSON_IsTrue(jo(m, "available")))
        return open_why(why, n, "%s is not available: %s", label,
                        jo_str_or(m, "reason", "no reason recorded")),
               -1;
    const cJSON *v = find(jo(p, "variants"), "variant", STAGE7G_VARIANT);
    if (!v)
        return open_why(why, n,
                        STAGE7G_VARIANT " was not profiled at the gate shape (not supported on this device, "
                                        "or it failed its own check)"),
               -1;
    if (!jo_eq(v, "status", "ok"))
        return open_why(why, n, STAGE7G_VARIANT " was not profiled: %s: %s",
                        jo_str_or(v, "status", "not recorded"), jo_str_or(v, "reason", "no reason recorded")),
               -1;
    const cJSON *y = jo(jo(v, "values"), metric);
    if (!cJSON_IsNumber(y) || !isfinite(y->valuedouble))
        return open_why(why, n, "ncu recorded no value of %s for " STAGE7G_VARIANT " (n/a)", label), -1;
    *x = y->valuedouble;
    return 0;
}

double gpu_stage7g_value(const gpu_campaign_t *c, const char *metric) {
    double x;
    char why[256];
    stage7f_metric(c, metric, metric, &x, why, sizeof why);
    return x;
}

stage7g_t gpu_stage7g_verdict(const gpu_campaign_t *c, double *pct, char *why, size_t n) {
    if (stage7f_metric(c, STAGE7G_METRIC, "the XU metric", pct, why, n) < 0) return STAGE7G_OPEN;
    return *pct >= STAGE7G_GO_PCT ? STAGE7G_GO : STAGE7G_NO_GO;
}

static const char *word(stage7g_t v) {
    return v == STAGE7G_GO ? "GO" : v == STAGE7G_NO_GO ? "NO-GO" : "OPEN";
}

/* One campaign's verdict with its figure and shape, or OPEN with the reason. */
static void verdict_text(const gpu_campaign_t *c, rbuf_t *b) {
    double pct;
    char why[512];
    stage7g_t v = gpu_stage7g_verdict(c, &pct, why, sizeof why);
    if (v == STAGE7G_OPEN) {
        rb_printf(b, "**OPEN**: %s", why);
        return;
    }
    rb_printf(b, "stage 7f's XU (MUFU) pipe busy %.4g %% at %s, against the pre-registered %.0f %%: **%s**",
              pct, jo_str_or(c->gate_profile[GPU_GATE_7F], "shape", "not recorded"), STAGE7G_GO_PCT, word(v));
    rb_puts(b, v == STAGE7G_GO
                   ? " (the exponentials' unit binds: stage 7g is to be built and measured against its "
                     "gate)"
                   : " (the exponentials' unit does not bind: the predicted negative result; no "
                     "stage-7g kernel is built)");
}

void gpu_stage7g_section(const gpu_campaign_t *c, rbuf_t *b) {
    rb_printf(b, "%sStage 7g's go/no-go (Methods, \"Stage 7g's go/no-go\"): ",
              c->fixture ? "SYNTHETIC FIXTURE, NOT A MEASUREMENT, decides nothing. " : "");
    verdict_text(c, b);
    rb_puts(b, ".\n\n");
}

int gpu_stage7g_write(const gpu_data_t *g, const char *out, char *err, size_t n) {
    rbuf_t b = {0};
    const gpu_campaign_t *lead = NULL; /* the deciding campaign: the earliest id with a figure */
    stage7g_t lv = STAGE7G_OPEN;       /* its verdict */
    int figures = 0, fixtures = 0;
    double pct;
    char why[512];
    for (int i = 0; i < g->n; i++) {
        const gpu_campaign_t *c = g->c[i];
        const stage7g_t v = gpu_stage7g_verdict(c, &pct, why, sizeof why);
        if (v == STAGE7G_OPEN) continue;
        if (c->fixture) {
            fixtures++;
            continue;
        }
        figures++;
        if (!lead || strcmp(c->id, lead->id) < 0) lead = c, lv = v;
    }
    if (!lead) {
        int real = 0; /* campaigns that are measurements (not the synthetic fixture) */
        for (int i = 0; i < g->n; i++) real += !g->c[i]->fixture;
        if (real == 0)
            rb_puts(
                &b,
                "**Open.** No measured GPU campaign is committed, so none has profiled stage 7f at its gate "
                "shape");
        else if (real == 1)
            rb_puts(&b, "**Open.** The committed campaign has not profiled stage 7f at its gate shape on an "
                        "sm_90a device");
        else
            rb_printf(
                &b,
                "**Open.** None of the %d committed campaigns has profiled stage 7f at its gate shape on an "
                "sm_90a device",
                real);
        rb_puts(&b, ", so no stage-7g kernel exists and the decision waits for that profile.");
        if (fixtures)
            rb_puts(&b,
                    " (The SYNTHETIC test fixture's profile and the rule's reading of it are in its section; "
                    "it decides nothing.)");
        rb_puts(&b, "\n");
        return rb_save(&b, out, "gpu-stage7g.md", err, n);
    }
    rb_printf(&b, "Decided by campaign %s on %s (Section @sec:gpu-%s-profile-gate): ", lead->id,
              jo_str_or(lead->campaign, "device", "not recorded"), lead->tag);
    verdict_text(lead, &b);
    rb_puts(&b, ".");
    int disagree = 0;
    if (figures > 1) {
        rb_puts(&b, " Later campaigns:");
        for (int i = 0, k = 0; i < g->n; i++) {
            const gpu_campaign_t *c = g->c[i];
            if (c == lead || c->fixture) continue;
            stage7g_t v = gpu_stage7g_verdict(c, &pct, why, sizeof why);
            if (v == STAGE7G_OPEN) continue;
            disagree += v != lv;
            rb_printf(&b, "%s %s on %s, %.4g %%, %s", k++ ? ";" : "", c->id,
                      jo_str_or(c->campaign, "device", "not recorded"), pct, word(v));
        }
        rb_puts(&b, disagree ? ". They disagree with the deciding campaign: reported, not averaged." : ".");
    }
    rb_puts(&b, "\n");
    return rb_save(&b, out, "gpu-stage7g.md", err, n);
}
