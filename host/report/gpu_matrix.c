/* See gpu_matrix.h. Every number is counted from the files. */
#include "gpu_matrix.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fields.h"
#include "gpu_section.h"
#include "tables.h"

typedef struct {
    int checks, passed, pairs, pairs_passed, identical, identical_held, unsupported;
    double worst; /* the largest kernel_only.worst_ratio: error over its bar (below 1 passes) */
} tally_t;

static tally_t tally(const cJSON *doc) {
    tally_t t = {0};
    const cJSON *e;
    cJSON_ArrayForEach(e, jo(doc, "correctness")) {
        t.checks++;
        t.passed += cJSON_IsTrue(jo(e, "pass"));
        const double w = jo_num(jo(e, "kernel_only"), "worst_ratio");
        if (isfinite(w) && w > t.worst) t.worst = w;
    }
    cJSON_ArrayForEach(e, jo(doc, "cross_variant")) {
        t.pairs++;
        t.pairs_passed += cJSON_IsTrue(jo(e, "pass"));
        if (jo_eq(e, "expected", "identical")) {
            t.identical++;
            t.identical_held += jo_num(e, "n_diff") == 0;
        }
    }
    t.unsupported = cJSON_GetArraySize(jo(doc, "not_supported"));
    return t;
}

/* Whether the file's shapes go beyond the original's D = 64 non-causal problems. */
static int wide_shapes(const cJSON *cfg) {
    const cJSON *s;
    cJSON_ArrayForEach(s, jo(cfg, "shapes")) {
        const double d = jo_num(s, "D"); /* not recorded: a file from before D was a parameter */
        if ((isfinite(d) && d != 64) || cJSON_IsTrue(jo(s, "causal"))) return 1;
    }
    return 0;
}

/* The entries a file marks not supported, grouped by their reason: "matrix/F.json: stage6, stage6-r64
 * (REASON)", joined with "; " after those of the files before it (*k counts the groups). */
#define MAX_REASONS 16
static void not_supported(const cJSON *doc, const char *file, rbuf_t *b, int *k) {
    const char *why[MAX_REASONS];
    int nw = 0;
    const cJSON *e, *f;
    cJSON_ArrayForEach(e, jo(doc, "not_supported")) {
        const char *r = jo_str_or(e, "reason", "no reason recorded");
        bool seen = false;
        for (int i = 0; i < nw && !seen; i++) seen = !strcmp(why[i], r);
        if (seen) continue;
        if (nw == MAX_REASONS) {
            rb_puts(b, "; and more (the file names them)");
            break;
        }
        why[nw++] = r;
        rb_printf(b, "%s%s: ", (*k)++ ? "; " : "", file);
        int v = 0;
        cJSON_ArrayForEach(f, jo(doc, "not_supported")) {
            if (strcmp(jo_str_or(f, "reason", "no reason recorded"), r)) continue;
            rb_printf(b, "%s%s", v++ ? ", " : "", jo_str_or(f, "variant", "variant not recorded"));
        }
        rb_printf(b, " (%s)", r);
    }
}

void gpu_matrix_section(const gpu_campaign_t *c, rbuf_t *b) {
    rb_printf(b, "### Correctness matrix {#sec:gpu-%s-matrix}\n\n", c->tag);
    int present = 0;
    for (int k = 0; k < GPU_MATRIX_FILES; k++) present += c->matrix[k] != NULL;
    if (!present) {
        rb_puts(b, "No correctness matrix in this campaign (no matrix/*.json).\n\n");
        return;
    }
    static const md_col_t cols[] = {{"file", 16, 'l'},          {"inputs", 18, 'l'},
                                    {"checks passed", 14, 'r'}, {"worst error / bar", 12, 'r'},
                                    {"pairs passed", 12, 'r'},  {"bit-identical as promised", 14, 'r'},
                                    {"not supported", 8, 'r'}};
    md_table_head(b, cols, 7);
    int all_ok = 1, wide = 0, groups = 0;
    rbuf_t ns_list = {0};
    for (int k = 0; k < GPU_MATRIX_FILES; k++) {
        const cJSON *d = c->matrix[k];
        if (!d) continue;
        const tally_t t = tally(d);
        const cJSON *cfg = jo(d, "config");
        char file[64], in[96], ck[32], w[32], pr[32], id[32], ns[16];
        snprintf(file, sizeof file, "matrix/%s.json", gpu_matrix_files[k]);
        snprintf(in, sizeof in, "%s, %s; seeds %d%s", jo_str_or(cfg, "codec", "?"),
                 jo_str_or(cfg, "dist", "?"), cJSON_GetArraySize(jo(cfg, "seeds")),
                 wide_shapes(cfg) ? "; D = 128, causal" : "");
        snprintf(ck, sizeof ck, "%d of %d", t.passed, t.checks);
        snprintf(w, sizeof w, "%.3f", t.worst);
        snprintf(pr, sizeof pr, "%d of %d", t.pairs_passed, t.pairs);
        snprintf(id, sizeof id, "%d of %d", t.identical_held, t.identical);
        snprintf(ns, sizeof ns, "%d", t.unsupported);
        md_row(b, 7, file, in, ck, w, pr, id, ns);
        wide |= wide_shapes(cfg);
        not_supported(d, file, &ns_list, &groups);
        all_ok &= t.passed == t.checks && t.pairs_passed == t.pairs && t.identical_held == t.identical;
    }
    char tid[64];
    rbuf_t cap = {0};
    snprintf(tid, sizeof tid, "tbl:gpu-%s-matrix", c->tag);
    rb_printf(&cap,
              "Correctness matrix of campaign %s on the device: every (variant, shape, seed) checked against "
              "the fp64 reference with the bars fixed before measuring (Methods); worst error / bar is the "
              "largest ratio of an element's error to its bar (below 1 passes); pairs are the cross-variant "
              "claims, bit-identical where the stages promise it",
              c->id);
    if (wide)
        rb_puts(&cap, "; at D = 128 and with a causal mask only the register-resident rows run, the others "
                      "count as not supported");
    if (groups)
        rb_printf(&cap, "; not supported: %s", ns_list.s);
    else
        rb_puts(&cap, "; no entry is marked not supported");
    rb_printf(&cap, ". %s",
              all_ok ? "Every check and claim held." : "SOME CHECKS OR CLAIMS FAILED: the files name them.");
    gpu_caption(c, b, tid, cap.oom ? "Correctness matrix (out of memory while writing its caption)." : cap.s);
    rb_free(&cap);
    rb_free(&ns_list);
}
