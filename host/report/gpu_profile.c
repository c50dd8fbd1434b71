/* See gpu_profile.h. */
#include "gpu_profile.h"

#include <stdio.h>
#include <string.h>

#include "gpu_figdata.h"
#include "gpu_section.h"
#include "gpu_stage7g.h"
#include "issue_slots.h"

#define N 96
/* Columns of the profile table: more would not fit a page; the legend below it lists them all. */
#define MAX_METRICS 10

/* The profiles a campaign takes (campaign.sh, part profiles): its file's stem, the section's title,
 * what the caption adds, and what follows the table. */
typedef struct {
    const char *stem, *title, *what;
    void (*after)(const gpu_campaign_t *c, rbuf_t *b);
} kind_t;

/* After the D = 128 gate-shape table: what stage 7j's failure reading takes from it, no verdict. */
static void stage7j_reading(const gpu_campaign_t *c, rbuf_t *b) {
    const cJSON *v;
    int found = 0;
    cJSON_ArrayForEach(v, jo(c->profile_gate_d128, "variants")) {
        bool ours = jo_eq(v, "variant", "stage7i") || jo_eq(v, "variant", "stage7j") ||
                    jo_eq(v, "variant", "stage7k");
        found += ours && jo_eq(v, "status", "ok");
    }
    rb_printf(b,
              "Two failure readings read this table should their speedup gates be missed with the bits "
              "identical: stage 7j's (Methods, \"Stage 7j\"), whose stage 7i and 7j issue and XU shares say "
              "whether the turns moved what binds the loop, and stage 7k's (Methods, \"Stage 7k\"), whose XU "
              "share near its peak would say that the conversions share the XU. The pre-registrations set "
              "no threshold on them, so no verdict is drawn from them here; %s.\n\n",
              found == 3
                  ? "stages 7i, 7j and 7k were all profiled in this campaign"
                  : "this campaign did not profile all of stages 7i, 7j and 7k (the status column says why)");
}

static const kind_t KINDS[] = {
    {"profile", "Profile metrics", "", NULL},
    {"profile-gate", "Profile metrics at stage 7f's gate shape",
     ": the variants an experiment times at stage 7f's gate shape", gpu_stage7g_section},
    {"profile-gate-d128", "Profile metrics at stage 7j's gate shape (D = 128)",
     ": the variants an experiment times at stage 7j's gate shape", stage7j_reading},
};

/* A profile's table: doc is profile.json (every variant at the mission shape, its legend and
 * figure follow) or a gate shape's (no legend or figure; what KINDS names follows it). */
void gpu_profile_section(const gpu_campaign_t *c, rbuf_t *b, unsigned figs, const cJSON *doc,
                         const char *stem) {
    const kind_t *kind = &KINDS[0];
    for (size_t i = 0; i < sizeof KINDS / sizeof KINDS[0]; i++)
        if (!strcmp(KINDS[i].stem, stem)) kind = &KINDS[i];
    bool gate = kind != &KINDS[0];
    rb_printf(b, "### %s {#sec:gpu-%s-%s}\n\n", kind->title, c->tag, stem);
    if (!doc) {
        rb_printf(b, "No profile in this campaign (no %s.json).\n\n", stem);
        return;
    }
    const cJSON *ms = jo(doc, "metrics"), *m, *v, *shown[MAX_METRICS];
    md_col_t cols[2 + MAX_METRICS];
    char heads[MAX_METRICS][2 * N];
    cols[0] = (md_col_t){"variant", 10, 'l'};
    int k = 0;
    /* At the gate shape the XU metric, which decides stage 7g, is the first column and the issue
     * slots' share, which the issue-slot model reads beside it, the second (a full metric set has
     * more than MAX_METRICS). */
    static const char *const first[] = {STAGE7G_METRIC, ISSUE_METRIC};
    for (size_t f = 0; gate && f < sizeof first / sizeof first[0]; f++)
        cJSON_ArrayForEach(m, ms) if (k < MAX_METRICS && jo_eq(m, "name", first[f])) shown[k++] = m;
    const int led = k; /* the columns put first; the rest follow in the profile's order */
    cJSON_ArrayForEach(m, ms) {
        if (k >= MAX_METRICS) break;
        int dup = 0;
        for (int j = 0; j < led; j++) dup |= shown[j] == m;
        if (!dup) shown[k++] = m;
    }
    for (int j = 0; j < k; j++) {
        snprintf(heads[j], sizeof heads[j], "%s (%s)", jo_str_or(shown[j], "label", "not recorded"),
                 jo_str_or(shown[j], "unit", "not recorded"));
        cols[1 + j] = (md_col_t){heads[j], 10, 'r'};
    }
    cols[1 + k] = (md_col_t){"status", 14, 'l'};
    md_table_head(b, cols, (size_t)k + 2);
    cJSON_ArrayForEach(v, jo(doc, "variants")) {
        rbuf_t row = {0};
        bool ok = jo_eq(v, "status", "ok");
        rb_puts(&row, "| ");
        rb_cell(&row, jo_str_or(v, "variant", "not recorded"));
        for (int j = 0; j < k; j++) {
            char x[N] = NA_MARK;
            if (ok) fmt_num(x, N, "%.4g", jo_num(jo(v, "values"), jo_str(shown[j], "name")));
            rb_printf(&row, " | %s", x);
        }
        char st[3 * N];
        snprintf(st, sizeof st, "%s%s%s", jo_str_or(v, "status", "not recorded"), ok ? "" : ": ",
                 ok ? "" : (jo_str(v, "reason") ? jo_str(v, "reason") : "no reason recorded"));
        rb_puts(&row, " | ");
        rb_cell(&row, st);
        rb_puts(&row, " |\n");
        rb_puts(b, row.s ? row.s : "");
        rb_free(&row);
    }
    char id[N], cap[1024];
    snprintf(id, N, "tbl:gpu-%s-%s", c->tag, stem);
    int all = cJSON_GetArraySize(ms);
    char more[2 * N] = "";
    if (all > k)
        snprintf(more, sizeof more, " The first %d of its %d metrics; %s.json holds them all.", k, all, stem);
    const char *tool = jo_str_or(doc, "tool", "not recorded");
    snprintf(cap, sizeof cap,
             "Profile metrics per variant at the %s shape (%s, %s.json%s); skipped "
             "variants with their reason. %s%s",
             jo_str_or(doc, "shape", "not recorded"), tool, stem, kind->what,
             !jo_eq(doc, "status", "ok") ? ""
             : strstr(tool, "--clock-control none")
                 ? "SM clocks as the device set them (ncu --clock-control none)."
                 : "SM clocks locked to base by ncu while it profiled (its "
                   "default; the tool line names no other).",
             more);
    gpu_caption(c, b, id, cap);
    if (gate) {
        kind->after(c, b);
        return;
    }
    static const md_col_t hc[] = {{"metric", 12, 'l'}, {"unit", 6, 'l'}, {"what it tests", 40, 'l'}};
    md_table_head(b, hc, 3);
    cJSON_ArrayForEach(m, ms)
        md_row(b, 3, jo_str_or(m, "label", "not recorded"), jo_str_or(m, "unit", "not recorded"),
               jo_str_or(m, "hypothesis", "not recorded"));
    snprintf(id, N, "tbl:gpu-%s-metrics", c->tag);
    gpu_caption(c, b, id, "The profile's metrics and the hypothesis each one tests.");
    if (figs & GPU_FIG_PROFILE)
        rb_printf(b,
                  "![%sProfile metrics per variant, campaign %s, each divided by its largest value over the "
                  "variants.]({figdir}/gpu/%s/profile.png){#fig:gpu-%s-profile width=100%%}\n\n",
                  gpu_fig_mark(c), c->id, c->tag, c->tag);
}
