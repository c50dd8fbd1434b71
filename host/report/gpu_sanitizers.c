/* See gpu_sanitizers.h. */
#include "gpu_sanitizers.h"

#include <stdio.h>
#include <string.h>

#include "gpu_section.h"

#define N 96

static const char *const TOOLS[] = {"memcheck", "racecheck", "synccheck", "initcheck"};

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

void gpu_sanitizers_section(const gpu_campaign_t *c, rbuf_t *b) {
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
    gpu_caption(c, b, id, cap);
}
