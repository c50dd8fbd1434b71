/* See gpu_peers.h. Every number is read from the campaign's files. */
#include "gpu_peers.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fields.h"
#include "gpu_section.h"
#include "tables.h"

#define N 96

/* The fastest variant of the campaign's history (no peer) timed at shape with the same L2 state:
 * its timing entry, or NULL. */
static const cJSON *best_stage(const gpu_campaign_t *c, const cJSON *shape, const char *l2) {
    const cJSON *t, *best = NULL;
    cJSON_ArrayForEach(t, jo(c->history, "timing")) {
        const double m = jo_num(jo(t, "summary"), "median");
        if (cJSON_IsTrue(jo(t, "peer")) || !isfinite(m)) continue;
        if (!jo_same_shape(jo_run_shape(c->history, jo_str(t, "shape")), shape)) continue;
        if (l2 && jo_str(t, "l2") && strcmp(l2, jo_str(t, "l2"))) continue;
        if (!best || m < jo_num(jo(best, "summary"), "median")) best = t;
    }
    return best;
}

/* The peer's libraries as its entry (else its file) records them: a string ("cuBLAS 13.1.0") or
 * an object of versions ("torch 2.11.0, cuda 13.0, cudnn 91900", in the file's order). */
static const char *library(const cJSON *doc, const cJSON *e, char *dst, size_t n) {
    const cJSON *lib = jo(e, "library");
    if (!lib) lib = jo(doc, "library");
    if (cJSON_IsString(lib))
        snprintf(dst, n, "%s", lib->valuestring);
    else if (!gpu_library_text(lib, dst, n))
        snprintf(dst, n, "not recorded");
    return dst;
}

static const char *shape_text(const cJSON *s, char *dst, size_t n) {
    char x[4][N];
    snprintf(dst, n, "%s × %s × %s × %s%s", fmt_num(x[0], N, "%.0f", jo_num(s, "B")),
             fmt_num(x[1], N, "%.0f", jo_num(s, "H")), fmt_num(x[2], N, "%.0f", jo_num(s, "S")),
             fmt_num(x[3], N, "%.0f", jo_num(s, "D")), cJSON_IsTrue(jo(s, "causal")) ? ", causal" : "");
    return dst;
}

/* One timed peer: its row, beside the history's fastest stage at its shape. */
static int timed_row(const gpu_campaign_t *c, int k, int ti, const cJSON *t, rbuf_t *b) {
    const rj_t *d = &c->PE[k];
    const char *v = rj_str(d, "timing.%d.variant", ti), *sh = rj_str(d, "timing.%d.shape", ti);
    double med;
    if (!v || !sh || rj_num(d, &med, "timing.%d.summary.median", ti) < 0) return -1;
    const cJSON *shape = jo_run_shape(c->peers[k], sh), *s = jo(t, "summary");
    if (!shape) {
        snprintf(d->err, d->errlen, "%s: timing.%d.shape '%s' is not in config.shapes", d->file, ti, sh);
        return -1;
    }
    const cJSON *best = best_stage(c, shape, jo_str(t, "l2"));
    const double bm = best ? jo_num(jo(best, "summary"), "median") : NAN;
    char lib[256], st[N], m[N], ci[N], n[N], bs[2 * N], r[N], x[N];
    if (best)
        snprintf(bs, sizeof bs, "%s: %s", jo_str_or(best, "variant", "not recorded"), fmt_us(x, N, bm));
    else
        snprintf(bs, sizeof bs, "%s", c->history ? "none at this shape" : "no history.json");
    if (c->emulated) {
        snprintf(r, N, "not evaluated: emulated");
    } else {
        /* The interval from the two medians' own CIs, end against end: conservative within each
         * process, blind to the spread between processes (the caption says so). */
        const cJSON *bsum = best ? jo(best, "summary") : NULL;
        char pt[N], iv[N];
        snprintf(r, N, "%s %s", fmt_num(pt, N, "%.3f", bm / med),
                 fmt_ci(iv, N, "%.3f", jo_num(bsum, "ci_lo") / jo_num(s, "ci_hi"),
                        jo_num(bsum, "ci_hi") / jo_num(s, "ci_lo")));
    }
    md_row(b, 9, v, library(c->peers[k], t, lib, sizeof lib), shape_text(shape, st, sizeof st),
           fmt_us(m, N, med), fmt_ci(ci, N, "%.2f", jo_num(s, "ci_lo"), jo_num(s, "ci_hi")),
           fmt_num(n, N, "%.0f", jo_num(s, "n")), bs, r, gpu_timing_label(c));
    return 0;
}

int gpu_peers_section(const gpu_campaign_t *c, rbuf_t *b) {
    rb_printf(b, "### Peers at the mission shape {#sec:gpu-%s-peers}\n\n", c->tag);
    if (!c->npeers) {
        rb_puts(b, "No peer ran at the mission shape in this campaign (no peers/*.json).\n\n");
        return 0;
    }
    static const md_col_t cols[] = {{"peer", 12, 'l'},
                                    {"library", 12, 'l'},
                                    {"B × H × S × D", 9, 'l'},
                                    {"median (µs)", 7, 'r'},
                                    {"95 % CI (µs)", 11, 'r'},
                                    {"n", 4, 'r'},
                                    {"fastest stage of the history: median (µs)", 10, 'l'},
                                    {"t(stage) / t(peer) [interval]", 16, 'r'},
                                    {"timing", 13, 'l'}};
    md_table_head(b, cols, 9);
    for (int k = 0; k < c->npeers; k++) {
        const cJSON *doc = c->peers[k], *e;
        int ti = 0;
        cJSON_ArrayForEach(e, jo(doc, "timing")) {
            if (cJSON_IsTrue(jo(e, "peer")) && timed_row(c, k, ti, e, b) < 0) return -1;
            ti++; /* the variants timed beside the cuBLAS peer are the history's business */
        }
        static const char *const untimed[2][2] = {{"not_timed", "failed"},
                                                  {"not_supported", "not supported"}};
        for (int u = 0; u < 2; u++) cJSON_ArrayForEach(e, jo(doc, untimed[u][0])) {
                if (!cJSON_IsTrue(jo(e, "peer")) && strncmp(jo_str_or(e, "variant", ""), "peer-", 5))
                    continue;
                char lib[256], why[512];
                snprintf(why, sizeof why, "%s: %s", untimed[u][1],
                         jo_str_or(e, "reason", "no reason recorded"));
                md_row(b, 9, jo_str_or(e, "variant", "not recorded"), library(doc, e, lib, sizeof lib),
                       NA_MARK, NA_MARK, NA_MARK, NA_MARK, NA_MARK, NA_MARK, why);
            }
    }
    char id[N], cap[1536];
    snprintf(id, N, "tbl:gpu-%s-peers", c->tag);
    snprintf(cap, sizeof cap,
             "Peers of campaign %s at the mission shape, %s %s (peers/*.json: the cuBLAS peer timed "
             "in one process beside the variants, each PyTorch SDPA backend in its own): medians with "
             "their 95 %% CIs as the files record them, n samples kept. Beside each, the fastest stage of "
             "this campaign's stage history at the same shape (history.json, another process) and the ratio "
             "of its median to the peer's: above 1 the peer is faster. Its interval divides the ends of the "
             "two medians' 95 %% CIs (lowest stage over highest peer, and the reverse): the ratio spans two "
             "processes, so this interval leaves out how medians move between processes, and the smallest "
             "of several medians leans toward the stages; a ratio as near 1 as medians of one kernel move "
             "between processes (Between campaigns) is a tie.",
             c->id, c->emulated ? "EMULATED (CPU wall-clock times, not GPU timings) on" : "measured on",
             jo_str_or(c->campaign, "device", "a device not recorded"));
    gpu_caption(c, b, id, cap);
    return 0;
}

bool gpu_peers_timed(const gpu_campaign_t *c) {
    const cJSON *e;
    for (int k = 0; k < c->npeers; k++) cJSON_ArrayForEach(e, jo(c->peers[k], "timing")) {
            if (cJSON_IsTrue(jo(e, "peer")) && isfinite(jo_num(jo(e, "summary"), "median"))) return true;
        }
    return false;
}
