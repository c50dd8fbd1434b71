/* See gpu_profile.h. */
#include "gpu_profile.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpu_figdata.h"
#include "gpu_section.h"
#include "gpu_stage7g.h"
#include "issue_slots.h"
#include "ncu_csv.h"

#define N 96
/* Columns of the profile table: more would not fit a page; the legend below it lists them all. */
#define MAX_METRICS 10

/* The profiles a campaign takes (campaign.sh, part profiles): its file's stem, the section's title,
 * what the caption adds, the metrics put first in the table (a full set has more than
 * MAX_METRICS), and what follows the table. */
typedef struct {
    const char *stem, *title, *what;
    const char *first[4];
    void (*after)(const gpu_campaign_t *c, rbuf_t *b);
} kind_t;

/* The entry of variant v in a profile when its status is ok, else NULL. */
static const cJSON *profiled(const cJSON *doc, const char *v) {
    const cJSON *e;
    cJSON_ArrayForEach(e, jo(doc, "variants")) {
        if (jo_eq(e, "variant", v) && jo_eq(e, "status", "ok")) return e;
    }
    return NULL;
}

/* After the D = 128 gate-shape table: what stage 7j's failure reading takes from it, no verdict. */
static void stage7j_reading(const gpu_campaign_t *c, rbuf_t *b) {
    const cJSON *p = c->gate_profile[GPU_GATE_7J];
    const int found = !!profiled(p, "stage7i") + !!profiled(p, "stage7j") + !!profiled(p, "stage7k");
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

/* After the causal gate-shape table: stage 7m's failure reading, the tail (the SMs' busy shares)
 * against the memory (DRAM bytes, and what the difference takes at the campaign's measured copy
 * bandwidth), stage 7m against 7l; no verdict (no threshold was pre-registered). */
static void stage7m_reading(const gpu_campaign_t *c, rbuf_t *b) {
    const cJSON *p = c->gate_profile[GPU_GATE_7M], *l = profiled(p, "stage7l"), *m = profiled(p, "stage7m");
    rb_puts(b, "Stage 7m's failure reading (Methods, \"Stage 7m\") reads this table should its speedup gate "
               "be missed with the bits identical: whether the longest-first order shortened the launch's "
               "tail, and whether it cost DRAM traffic. ");
    if (!l || !m) {
        rb_puts(b,
                "This campaign did not profile both stage 7l and stage 7m at this shape (the status column "
                "says why).\n\n");
        return;
    }
    const cJSON *lv = jo(l, "values"), *mv = jo(m, "values");
    char a[N], am[N], z[N], zm[N], r[N], d[N], t[N], bw[N], l2[N], at[3 * N];
    const double dl = jo_num(lv, NCU_DRAM_READ), dm = jo_num(mv, NCU_DRAM_READ),
                 gbs = gpu_ceiling(c, "copy_d2d");
    if (isnan(gbs))
        snprintf(at, sizeof at, "no measured copy bandwidth in this campaign to put it in time");
    else
        snprintf(at, sizeof at,
                 "%s µs at the campaign's measured copy bandwidth of %s GB/s, ceilings.json copy_d2d",
                 fmt_num(t, N, "%.1f", (dm - dl) / (gbs * 1e3)), fmt_num(bw, N, "%.0f", gbs));
    rb_printf(b,
              "%sThe tail: the SMs were busy %s %% of the elapsed cycles on average under stage 7l (the "
              "busiest %s %%) and %s %% under stage 7m (the busiest %s %%); an order that shortens the tail "
              "raises the mean toward the busiest. The memory: stage 7m read %s times stage 7l's DRAM bytes "
              "(a difference of %s MB, %s) and moved %s times its L2 bytes. The pre-registration set no "
              "threshold on these, so no verdict is drawn from them here.\n\n",
              c->fixture ? GPU_FIXTURE_MARK : "", fmt_num(a, N, "%.1f", jo_num(lv, NCU_SM_BUSY)),
              fmt_num(am, N, "%.1f", jo_num(lv, NCU_SM_BUSY_MAX)),
              fmt_num(z, N, "%.1f", jo_num(mv, NCU_SM_BUSY)),
              fmt_num(zm, N, "%.1f", jo_num(mv, NCU_SM_BUSY_MAX)), fmt_num(r, N, "%.3f", dm / dl),
              fmt_num(d, N, "%.1f", (dm - dl) / 1e6), at,
              fmt_num(l2, N, "%.3f", jo_num(mv, NCU_L2_BYTES) / jo_num(lv, NCU_L2_BYTES)));
}

static const kind_t KINDS[] = {
    {"profile", "Profile metrics", "", {NULL}, NULL},
    /* At stage 7f's and 7j's gate shapes the XU share, which decides stage 7g, and the issue slots'
     * share, which the issue-slot model reads beside it, come first. */
    {"profile-gate",
     "Profile metrics at stage 7f's gate shape",
     ": the variants an experiment times at stage 7f's gate shape",
     {STAGE7G_METRIC, ISSUE_METRIC},
     gpu_stage7g_section},
    {"profile-gate-d128",
     "Profile metrics at stage 7j's gate shape (D = 128)",
     ": the variants an experiment times at stage 7j's gate shape",
     {STAGE7G_METRIC, ISSUE_METRIC},
     stage7j_reading},
    {"profile-gate-causal",
     "Profile metrics at stage 7m's gate shape (causal)",
     ": the variants an experiment times at stage 7m's gate shape",
     {NCU_SM_BUSY, NCU_SM_BUSY_MAX, NCU_DRAM_READ, NCU_L2_BYTES},
     stage7m_reading},
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
    for (size_t f = 0; f < sizeof kind->first / sizeof kind->first[0] && kind->first[f]; f++)
        cJSON_ArrayForEach(m, ms) if (k < MAX_METRICS && jo_eq(m, "name", kind->first[f])) shown[k++] = m;
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
