/* See gpu_tables.h. Table and section ids carry the campaign's tag ("c1") so that several
 * campaigns share one document; every number is read from the campaign's JSON. */
#include "gpu_tables.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpu_between.h"
#include "gpu_coverage.h"
#include "gpu_figdata.h"
#include "gpu_history.h"
#include "gpu_parts.h"
#include "gpu_peers.h"
#include "gpu_matrix.h"
#include "gpu_probes.h"
#include "gpu_profile.h"
#include "gpu_sanitizers.h"
#include "gpu_scaling.h"
#include "gpu_section.h"
#include "gpu_stage7g.h"
#include "issue_slots.h"
#include "gpu_verdicts.h"

#define N 96

static void banner(const gpu_campaign_t *c, rbuf_t *b) {
    gpu_parts_banner(c, b);
    if (c->fixture)
        rb_puts(
            b, "::: {.banner .emulated}\n**SYNTHETIC FIXTURE, NOT A MEASUREMENT.** This campaign is the test "
               "fixture of `tests/report/fixtures/gpu-campaign/`: every number in this section was made up "
               "to exercise the report, and says nothing about any GPU.\n:::\n\n");
    if (c->emulated)
        rb_puts(b,
                "::: {.banner .emulated}\n**EMULATED CAMPAIGN (CPU), NOT A GPU.** This campaign ran on the "
                "CPU SIMT emulator (ingested with `--allow-emulated`): its times are CPU wall-clock times, "
                "labelled EMULATED, and no GPU performance can be read from them.\n:::\n\n");
}

/* The device as recorded by the campaign's device step (meta.device of device-run.json). */
static void device_line(const gpu_campaign_t *c, rbuf_t *b) {
    const cJSON *d = jo(jo(c->device_run, "meta"), "device");
    char a[N], s[N], m[N], k[N];
    rb_printf(b, "Campaign `%s` (`%s`), backend %s%s. ", c->id, c->slug, jo_str(c->campaign, "backend"),
              jo(c->campaign, "quick") && cJSON_IsTrue(jo(c->campaign, "quick")) ? ", quick (smoke) run"
                                                                                 : "");
    if (!d || cJSON_IsNull(d)) {
        rb_printf(b, "Device: %s (no GPU device recorded).\n\n", jo_str(c->campaign, "device"));
        return;
    }
    const cJSON *locked = jo(d, "clocks_locked");
    /* The device step's one launch measures no clock; the history's timing does (history.json). */
    const double hm = jo_num(jo(jo(c->history, "meta"), "device"), "sm_clock_measured_mhz");
    if (!isfinite(jo_num(d, "sm_clock_measured_mhz")) && isfinite(hm))
        snprintf(m, N, "%.0f MHz during the stage history (history.json)", hm);
    else
        gpu_num_or(m, N, d, "sm_clock_measured_mhz", " MHz");
    rb_printf(b,
              "Device: **%s**, compute capability %s, %s SMs; SM clock: default %s, measured %s; memory "
              "clock %s; clocks locked: %s; driver %s (release %s), CUDA runtime %s.\n\n",
              jo_str_or(d, "name", "not recorded"), jo_str_or(d, "cc", "not recorded"),
              gpu_num_or(a, N, d, "sm_count", ""), gpu_num_or(s, N, d, "sm_clock_default_mhz", " MHz"), m,
              gpu_num_or(k, N, d, "mem_clock_mhz", " MHz"),
              cJSON_IsBool(locked) ? (cJSON_IsTrue(locked) ? "yes" : "no") : "not recorded",
              jo_str_or(d, "driver_version", "not recorded"), jo_str_or(d, "driver_release", "not recorded"),
              jo_str_or(d, "runtime_version", "not recorded"));
}

static void steps(const gpu_campaign_t *c, rbuf_t *b) {
    static const md_col_t cols[] = {
        {"step", 16, 'l'}, {"status", 14, 'l'}, {"seconds", 6, 'r'}, {"planned (s)", 6, 'r'}};
    md_table_head(b, cols, 4);
    const cJSON *e;
    cJSON_ArrayForEach(e, jo(c->campaign, "steps")) {
        char st[3 * N], x[N], y[N];
        double rc = jo_num(e, "exit_status");
        const cJSON *skip = jo(e, "skipped"); /* true, or the reason */
        if (cJSON_IsString(skip))
            snprintf(st, sizeof st, "skipped: %s", skip->valuestring);
        else if (cJSON_IsTrue(skip))
            snprintf(st, sizeof st, "skipped");
        else if (rc == 0)
            snprintf(st, sizeof st, "ok");
        else /* with the note that says how it ended (interrupted, stopped by the step guard) */
            snprintf(st, sizeof st, "FAILED (exit %s)%s%s", fmt_num(x, N, "%.0f", rc),
                     jo_str(e, "note") ? ": " : "", jo_str_or(e, "note", ""));
        md_row(b, 4, jo_str_or(e, "name", "not recorded"), st, fmt_num(x, N, "%.0f", jo_num(e, "seconds")),
               fmt_num(y, N, "%.0f", jo_num(e, "expected_seconds")));
    }
    char id[N];
    snprintf(id, N, "tbl:gpu-%s-steps", c->tag);
    gpu_caption(c, b, id,
                "Steps of the campaign as campaign.json records them, a failed step with its note where "
                "it has one (its log is in the campaign's logs/).");
}

/* Per sweep (data/gpu/sweeps/), the parts that are missing and why. */
static void sweeps(const gpu_data_t *g, rbuf_t *b) {
    if (!g->nsweeps) return;
    rb_puts(b, "## Cluster sweeps {#sec:gpu-sweeps}\n\n");
    static const md_col_t cols[] = {{"sweep", 12, 'l'},
                                    {"part", 18, 'l'},
                                    {"kind", 10, 'l'},
                                    {"Slurm state", 10, 'l'},
                                    {"why missing", 30, 'l'}};
    md_table_head(b, cols, 5);
    for (int i = 0; i < g->nsweeps; i++) {
        const cJSON *s = g->sweeps[i], *p;
        int missing = 0;
        cJSON_ArrayForEach(p, jo(s, "parts")) {
            if (jo_eq(p, "status", "complete")) continue;
            md_row(b, 5, jo_str_or(s, "sweep", "not recorded"), jo_str_or(p, "part", "not recorded"),
                   jo_str_or(p, "kind", "not recorded"), jo_str_or(p, "slurm_state", "not recorded"),
                   jo_str_or(p, "reason", "not recorded"));
            missing++;
        }
        if (!missing)
            md_row(b, 5, jo_str_or(s, "sweep", "not recorded"), "(none missing)", "", "",
                   "every part complete");
    }
    md_table_caption(b, "tbl:gpu-sweeps",
                     "Parts of each cluster sweep that are missing, and why "
                     "(data/gpu/sweeps/*.json, written by the sweep's collector).");
}

/* gpu-lead.md and gpu-results.md: the paper's sentences about the GPU part, which depend on whether
 * a campaign is committed (and whether it is only the test fixture). */
static int leads(const gpu_data_t *g, const char *out, char *err, size_t n) {
    rbuf_t lead = {0}, res = {0};
    int fixtures = 0;
    for (int i = 0; i < g->n; i++) fixtures += g->c[i]->fixture;
    if (!g->n) {
        rb_puts(&lead, "Until such a campaign is committed, nothing is compared.\n");
    } else {
        const char *fx =
            fixtures == g->n ? " (here only the SYNTHETIC FIXTURE of the tests: not a measurement)" : "";
        /* the campaigns with a peer timed in their sweep, at the mission shape, in either; the first ones */
        int swept = 0, np = 0, with = 0;
        const char *first = NULL, *fp = NULL;
        for (int i = 0; i < g->n; i++) {
            const gpu_campaign_t *c = g->c[i];
            bool peer = false, mission = gpu_peers_timed(c);
            for (int k = 0; k < c->npts && !peer; k++)
                peer = c->pts[k].peer && c->pts[k].status && !strcmp(c->pts[k].status, "ok");
            swept += peer;
            np += mission;
            with += peer || mission;
            if (peer && !first) first = c->tag;
            if (mission && !fp) fp = c->tag;
        }
        rb_printf(&lead, "Section @sec:gpu does so for the %d committed campaign%s%s: ", g->n,
                  g->n > 1 ? "s" : "", fx);
        if (!with)
            rb_printf(&lead, "%s the peers, so no library stands beside the stages yet",
                      g->n > 1 ? "none of them ran" : "it did not run");
        else {
            if (with == g->n)
                rb_puts(&lead, g->n > 1 ? "all of them ran" : "it ran");
            else
                rb_printf(&lead, "%d of them ran", with);
            rb_puts(&lead, " the peers, which stand beside the stages");
            if (np)
                rb_printf(&lead, " at the mission shape in %d (Section @sec:gpu-%s-peers for the first)", np,
                          fp);
            if (np && swept) rb_puts(&lead, " and");
            if (swept)
                rb_printf(&lead, " in the scaling sweep of %d (Section @sec:gpu-%s-scaling for the first)",
                          swept, first);
        }
        rb_puts(&lead, ".\n");
        rb_printf(
            &res,
            "GPU measurements lead: Section @sec:gpu holds %d committed campaign%s%s, each full one opening "
            "with its scaling sweep (the mission shape is one point of it: a grid of a few CTAs per SM, "
            "latency-bound), the peers beside the stages, then the mission-shape stage history; a campaign "
            "of a few parts (`campaign.sh --part`) shows only those. The sections below are each "
            "experiment's latest run, on the backend its section names.",
            g->n, g->n > 1 ? "s" : "", fx);
        rb_puts(&res, gpu_data_runs(g)
                          ? " Section @sec:gpu-verdicts sets each experiment's verdicts from every campaign "
                            "side by side, under the original study's claim where it made one.\n"
                          : "\n");
    }
    int rc = rb_save(&lead, out, "gpu-lead.md", err, n);
    if (rc == 0) rc = rb_save(&res, out, "gpu-results.md", err, n);
    rb_free(&lead);
    rb_free(&res);
    return rc;
}

int gpu_tables_write(const gpu_data_t *g, const char *out, gpu_ratios_fn ratios, void *ctx, char *err,
                     size_t n) {
    rbuf_t b = {0}, list = {0};
    rb_puts(&list, "# <campaign tag> <figure script>: the GPU figures mk/report.mk draws\n");
    if (!g->n)
        rb_puts(&b, "**No GPU campaign has been committed yet**, so every GPU figure of this study (timings, "
                    "speedups against their gates, scaling, roofline, sanitizers, profile) is NOT EVALUATED. "
                    "A campaign is measured with `bundle/campaign.sh` on a GPU node and committed with `make "
                    "ingest RESULTS=...` (tools/campaign/README.md, \"Measuring on a GPU node\").\n\n");
    else {
        rb_printf(
            &b, "%d campaign%s committed: %sper device, the parts measured and each campaign's sections.\n\n",
            g->n, g->n > 1 ? "s are" : " is",
            gpu_data_runs(g) ? "first the experiments' verdicts from every campaign side by side, then, "
                             : "");
        gpu_verdicts_across(g, &b);
    }
    for (int i = 0; i < g->n; i++) {
        const gpu_campaign_t *c = g->c[i];
        unsigned figs = 0;
        if (gpu_figdata_write(c, out, &figs, err, n) < 0) goto fail;
        for (int k = 0; k < GPU_FIG_COUNT; k++)
            if (figs & (1u << k)) rb_printf(&list, "%s %s\n", c->tag, gpu_fig_name(k));
        gpu_parts_table(g, i, &b);
        rb_printf(&b, "## %s%s: campaign %s {#sec:gpu-%s}\n\n", jo_str(c->campaign, "device"),
                  c->emulated ? " (EMULATED)" : "", c->id, c->tag);
        banner(c, &b);
        device_line(c, &b);
        steps(c, &b);
        gpu_parts_only(c, &b); /* a campaign with --part: only its parts' sections */
        /* the scaling sweep leads: the mission shape is one sub-wave point of it */
        if (gpu_campaign_plans(c, "scaling") || gpu_campaign_plans(c, "ceilings") ||
            gpu_campaign_plans(c, "peers"))
            gpu_scaling_section(c, &b, figs);
        if (gpu_campaign_plans(c, "history")) {
            if (gpu_history_section(c, &b, figs) < 0) goto fail;
            gpu_warm_section(c, &b);
            gpu_aa_section(c, &b);
        }
        if ((gpu_campaign_plans(c, "peers") || c->npeers) && gpu_peers_section(c, &b) < 0) goto fail;
        if (gpu_campaign_plans(c, "experiment:")) {
            gpu_campaign_verdicts(c, &b);
            rb_printf(&b, "### Published versus reproduced {#sec:gpu-%s-published}\n\n", c->tag);
            if (ratios(ctx, c, &b) < 0) goto fail;
        }
        if (gpu_campaign_plans(c, "matrix") || c->matrix[0]) gpu_matrix_section(c, &b);
        if (gpu_campaign_plans(c, "sanitizers")) gpu_sanitizers_section(c, &b);
        if (gpu_campaign_plans(c, "profiles")) gpu_profile_section(c, &b, figs, c->profile, "profile");
        for (int k = 0; k < GPU_GATE_PROFILES; k++)
            if (c->gate_profile[k]) gpu_profile_section(c, &b, 0, c->gate_profile[k], gpu_gate_profiles[k]);
        if (gpu_campaign_plans(c, "probes") || c->probes) gpu_probes_section(c, &b);
    }
    if (g->n) gpu_between_section(g, &b);
    sweeps(g, &b);
    if (rb_save(&list, out, "gpu-figures.txt", err, n) < 0) goto fail;
    if (gpu_between_write(g, out, err, n) < 0) goto fail;
    if (leads(g, out, err, n) < 0) goto fail;
    if (gpu_stage7g_write(g, out, err, n) < 0) goto fail;
    if (gpu_probes_write(g, out, err, n) < 0) goto fail;
    if (gpu_coverage_write(g, out, err, n) < 0) goto fail;
    if (issue_slots_write(g, out, err, n) < 0) goto fail;
    return rb_save(&b, out, "gpu.md", err, n);
fail:
    if (!*err) snprintf(err, n, "gpu.md: a campaign's file could not be read");
    rb_free(&b);
    rb_free(&list);
    return -1;
}
