/* See meta_yaml.h. */
#include "meta_yaml.h"

#include <stdio.h>
#include <string.h>

static void yaml_quoted(rbuf_t *b, const char *value) {
    rb_puts(b, "'");
    for (const char *c = value ? value : ""; *c; c++) {
        if (*c == '\'')
            rb_puts(b, "''");
        else if (*c == '\n')
            rb_puts(b, " ");
        else
            rb_printf(b, "%c", *c);
    }
    rb_puts(b, "'\n");
}

void yaml_str(rbuf_t *b, const char *key, const char *value) {
    rb_printf(b, "%s: ", key);
    yaml_quoted(b, value);
}

int meta_yaml(report_t *r, const gates_t *g) {
    const char *utc = rj_str(&r->R, "meta.utc_time");
    if (!utc) return -1;
    char date[16], dev[256], sub[512], trailer[512];
    snprintf(date, sizeof date, "%.10s", utc);
    report_device_label(r, dev, sizeof dev);
    const char *kind = report_timing_kind(r);
    snprintf(sub, sizeof sub, "Experiment %s, run %s. Backend %s (%s)%s.", r->experiment, r->run_id,
             rj_str(&r->T, "meta.backend"), dev,
             strcmp(kind, "gpu") == 0 ? "" : "; EMULATED (CPU), no GPU timings");
    snprintf(trailer, sizeof trailer, "fp8-sdpa-stages/%s/%s", r->experiment, r->run_id);
    rbuf_t b = {0};
    rb_puts(&b, "---\n# pandoc metadata of this report, written by sdpa-report from the run's JSON\n");
    yaml_str(&b, "title", r->title);
    yaml_str(&b, "subtitle", sub);
    yaml_str(&b, "date", date);
    yaml_str(&b, "experiment", r->experiment);
    yaml_str(&b, "run-id", r->run_id);
    yaml_str(&b, "baseline", r->baseline);
    yaml_str(&b, "candidate", r->candidate);
    yaml_str(&b, "verdict", verdict_kind_name(gates_verdict(g)));
    yaml_str(&b, "backend", rj_str(&r->T, "meta.backend"));
    yaml_str(&b, "timing", kind);
    yaml_str(&b, "device", dev);
    yaml_str(&b, "pdf-trailer-id", trailer); /* set by paper/filters/format.lua */
    rb_puts(&b, "...\n");
    return rb_save(&b, r->dir, "meta.yaml", r->err, sizeof r->err);
}
