/* See gpu_section.h. */
#include "gpu_section.h"

#include <math.h>
#include <stdio.h>

const char *gpu_mark(const gpu_campaign_t *c) { return c->fixture ? "SYNTHETIC " : ""; }

void gpu_caption(const gpu_campaign_t *c, rbuf_t *b, const char *id, const char *text) {
    rbuf_t t = {0};
    rb_printf(&t, "%s%s", c->fixture ? GPU_FIXTURE_MARK : "", text);
    md_table_caption(b, id, t.s ? t.s : text);
    rb_free(&t);
}

const char *gpu_fig_mark(const gpu_campaign_t *c) { return c->fixture ? GPU_FIXTURE_MARK : ""; }

const char *gpu_num_or(char *dst, size_t n, const cJSON *o, const char *key, const char *unit) {
    double x = jo_num(o, key);
    if (!isfinite(x)) return snprintf(dst, n, "not recorded"), dst;
    return snprintf(dst, n, "%.0f%s", x, unit), dst;
}

double gpu_node_num(const cJSON *x) { return cJSON_IsNumber(x) ? x->valuedouble : NAN; }

size_t gpu_library_text(const cJSON *lib, char *dst, size_t n) {
    const cJSON *e;
    size_t k = 0;
    if (n) *dst = 0;
    cJSON_ArrayForEach(e, lib) {
        if (cJSON_IsString(e) && k < n)
            k += (size_t)snprintf(dst + k, n - k, "%s%s %s", k ? ", " : "", e->string, e->valuestring);
    }
    return k;
}
