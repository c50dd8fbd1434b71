/* See gpu_parts.h. */
#include "gpu_parts.h"

#include <stdio.h>
#include <string.h>

#include "names.h"

#define MAX_PARTS 96

/* A list of part names, copied into its own buffer. */
typedef struct {
    const char *v[MAX_PARTS];
    int n;
    char buf[8192];
    size_t used;
} plist_t;

static int find(const plist_t *l, const char *s) {
    for (int i = 0; i < l->n; i++)
        if (!strcmp(l->v[i], s)) return i;
    return -1;
}

static void add(plist_t *l, const char *s) {
    size_t len = strlen(s) + 1;
    if (find(l, s) >= 0 || l->n == MAX_PARTS || l->used + len > sizeof l->buf) return;
    memcpy(l->buf + l->used, s, len);
    l->v[l->n++] = l->buf + l->used;
    l->used += len;
}

/* Every part of the campaign's bundle, in campaign.sh's order (bundle: "<name> <sha> <experiment>..."). */
static void all_parts(const gpu_campaign_t *c, plist_t *l) {
    add(l, "ceilings");
    const char *b = jo_str(c->campaign, "bundle");
    char part[NAME_MAX_LEN + 16];
    for (int word = 0; b && *b; word++) {
        b += strspn(b, " ");
        size_t k = strcspn(b, " ");
        if (word >= 2 && k && k <= NAME_MAX_LEN) {
            snprintf(part, sizeof part, "experiment:%.*s", (int)k, b);
            add(l, part);
        }
        b += k;
    }
    static const char *const rest[] = {"history", "scaling", "peers", "sanitizers", "profiles"};
    for (size_t i = 0; i < sizeof rest / sizeof rest[0]; i++) add(l, rest[i]);
}

static void strings(const cJSON *a, plist_t *l) {
    const cJSON *e;
    cJSON_ArrayForEach(e, a) {
        if (cJSON_IsString(e)) add(l, e->valuestring);
    }
}

/* What the campaign set out to run: parts_planned, else parts, else every part. */
static void planned(const gpu_campaign_t *c, plist_t *l) {
    const cJSON *a = jo(c->campaign, "parts_planned");
    if (!a) a = jo(c->campaign, "parts");
    if (cJSON_GetArraySize(a) > 0)
        strings(a, l);
    else
        all_parts(c, l);
}

/* What it completed: parts_completed, else (a campaign before that field) all it planned. */
static void completed(const gpu_campaign_t *c, plist_t *l) {
    const cJSON *a = jo(c->campaign, "parts_completed");
    if (a)
        strings(a, l);
    else
        planned(c, l);
}

static bool interrupted(const gpu_campaign_t *c) { return cJSON_IsTrue(jo(c->campaign, "interrupted")); }

bool gpu_campaign_plans(const gpu_campaign_t *c, const char *part) {
    const cJSON *a = jo(c->campaign, "parts_planned");
    if (!a) a = jo(c->campaign, "parts");
    if (cJSON_GetArraySize(a) == 0) return true; /* no plan recorded: every part */
    plist_t p = {0};
    planned(c, &p);
    const size_t k = strlen(part);
    for (int i = 0; i < p.n; i++) {
        if (!strcmp(p.v[i], part)) return true;
        if (part[k - 1] == ':' && !strncmp(p.v[i], part, k)) return true;              /* "experiment:" */
        if (!strncmp(p.v[i], part, k) && p.v[i][k] == ':' && !strcmp(part, "scaling")) /* a slice */
            return true;
    }
    return false;
}

void gpu_parts_only(const gpu_campaign_t *c, rbuf_t *b) {
    const cJSON *a = jo(c->campaign, "parts_planned");
    if (!a) a = jo(c->campaign, "parts");
    plist_t p = {0}, all = {0};
    planned(c, &p);
    all_parts(c, &all);
    int left_out = 0;
    for (int i = 0; i < all.n; i++) left_out += !gpu_campaign_plans(c, all.v[i]);
    if (cJSON_GetArraySize(a) == 0 || !left_out) return;
    rb_puts(b, "This campaign ran only ");
    for (int i = 0; i < p.n; i++) rb_printf(b, "%s`%s`", i == 0 ? "" : i + 1 < p.n ? ", " : " and ", p.v[i]);
    rb_puts(b, " (`campaign.sh --part`): the sections of the other parts are left out here; the device's "
               "parts table says which campaign measured them.\n\n");
}

void gpu_parts_banner(const gpu_campaign_t *c, rbuf_t *b) {
    if (!interrupted(c)) return;
    plist_t p = {0}, d = {0};
    planned(c, &p);
    completed(c, &d);
    const char *how = jo_str(c->campaign, "interruption");
    rb_printf(
        b,
        "::: {.banner .interrupted}\n**INTERRUPTED CAMPAIGN.** This campaign was stopped before the end "
        "of its plan (%s): %d of its %d planned parts completed. What it measured is shown; the parts it "
        "did not complete are listed as missing in the device's parts table, where a later campaign of "
        "the same device adds them.\n:::\n\n",
        how ? how : "the reason was not recorded", d.n, p.n);
}

void gpu_parts_table(const gpu_data_t *g, int i, rbuf_t *b) {
    const gpu_campaign_t *c = g->c[i];
    if (i > 0 && !strcmp(g->c[i - 1]->slug, c->slug)) return; /* once per device */
    plist_t all = {0};
    int last = i;
    for (int k = i; k < g->n && !strcmp(g->c[k]->slug, c->slug); k++) planned(g->c[k], &all), last = k;
    rb_printf(b, "## %s%s: parts measured {#sec:gpu-%s-parts}\n\n", jo_str(c->campaign, "device"),
              c->emulated ? " (EMULATED)" : "", c->tag);
    /* one id per line: a run of them in a sentence overflowed the PDF's text area (layout check) */
    rb_printf(b, "%d campaign%s of this device:\n\n", last - i + 1, last > i ? "s" : "");
    for (int k = i; k <= last; k++)
        rb_printf(b, "- `%s`%s\n", g->c[k]->id, interrupted(g->c[k]) ? " (INTERRUPTED)" : "");
    rb_puts(b, "\nEach part of the campaign plan, the campaign it comes from, or missing: a part a campaign "
               "planned and none completed (a later campaign with `campaign.sh --part` adds it).\n\n");
    static const md_col_t cols[] = {{"part", 24, 'l'}, {"status", 10, 'l'}, {"campaign", 40, 'l'}};
    md_table_head(b, cols, 3);
    int missing = 0;
    for (int p = 0; p < all.n; p++) {
        char from[1024] = "";
        size_t k = 0;
        for (int q = i; q <= last; q++) {
            plist_t d = {0};
            completed(g->c[q], &d);
            if (find(&d, all.v[p]) >= 0 && k < sizeof from)
                k += (size_t)snprintf(from + k, sizeof from - k, "%s%s", k ? ", " : "", g->c[q]->id);
        }
        if (k) {
            md_row(b, 3, all.v[p], "complete", from);
            continue;
        }
        for (int q = i; q <= last && !k; q++) {
            plist_t pl = {0};
            planned(g->c[q], &pl);
            if (find(&pl, all.v[p]) >= 0)
                k = (size_t)snprintf(from, sizeof from, "planned by %s%s", g->c[q]->id,
                                     interrupted(g->c[q]) ? ", which was interrupted" : ", not completed");
        }
        md_row(b, 3, all.v[p], "MISSING", from);
        missing++;
    }
    /* This checkout's experiments that no campaign of the device planned: added since they ran. */
    int unplanned = 0;
    for (int e = 0; e < g->n_experiments; e++) {
        char part[NAME_MAX_LEN + 16];
        snprintf(part, sizeof part, "experiment:%.*s", NAME_MAX_LEN, g->experiments[e]);
        bool any = find(&all, part) >= 0;
        for (int q = i; q <= last && !any; q++) any = gpu_campaign_plans(g->c[q], part); /* no plan: all */
        if (any) continue;
        md_row(b, 3, part, "NOT PLANNED", "added after this device's campaigns: none planned it");
        unplanned++;
    }
    char id[96], text[320];
    snprintf(id, sizeof id, "tbl:gpu-%s-parts", c->tag);
    snprintf(text, sizeof text, "Parts measured on %s: %d of %d complete%s%s.", jo_str(c->campaign, "device"),
             all.n - missing, all.n + unplanned, missing ? "; the missing ones are not measured yet" : "",
             unplanned
                 ? "; the experiments NOT PLANNED were added to this artifact after the device's campaigns"
                 : "");
    md_table_caption(b, id, text);
}
