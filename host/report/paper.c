/* sdpa-report paper --published FILE --out DIR [--gpu-data DIR] [--stage NAME RUNDIR FIGDIR ...]
 *
 * The whole-study fragments, from the latest run of each experiment (RUNDIR "-" when it has none)
 * and the original's published figures. Every run directory must already hold its summary.json
 * (sdpa-report experiment). Writes into DIR:
 *   history.tsv, ratios.tsv, plot-vars.gp    inputs of figures/history.gp and figures/published.gp
 *   history.md, verdicts.md, published-vs-reproduced.md, published-timings.md,
 *   published-resources.md, published-correctness.md, banner.md
 *   stage-NAME.md                            per experiment: its run's fragments, or "not run"
 *   gpu.md, gpu-figures.txt, gpu/<tag>/      the GPU campaigns under --gpu-data DIR (GPU_DATA_DIR),
 *                                            or the statement that none is committed (gpu_tables.h) */
#include "paper.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "textbuf.h"
#include "published.h"
#include "run.h"
#include "tables.h"
#include "json_file.h"
#include "gpu_campaigns.h"
#include "gpu_tables.h"
#include "params.h"

#define N 96
#define MAX_STAGES 24 /* experiments in the paper: 20 with stage 7f at D = 128, 7j, 7k, 7l and 7m */

/* experiments/NAME/experiment.mk (the definition the build runs), read as data: false when it is
 * missing or does not parse (a paper rendered away from the checkout). */
static bool definition(const char *name, exp_def_t *d) {
    char path[512], err[256];
    snprintf(path, sizeof path, "experiments/%s/experiment.mk", name);
    return params_load_experiment(path, d, err, sizeof err) == 0;
}

typedef struct {
    const char *name, *rundir, *figdir;
    report_t r; /* loaded when rundir is not "-" */
    cJSON *summary;
    const char *verdict;
    bool loaded;
} stage_t;

typedef struct {
    const char *out, *published, *gpu_dir, *seed_linear_path;
    cJSON *seed_linear; /* --seed-linear: sdpa-bench --codec seed-linear on the published shapes */
    stage_t st[MAX_STAGES];
    gpu_data_t gpu; /* the campaigns under --gpu-data (none without it) */
    int n;
    report_t pub;     /* only the published figures loaded */
    const char *mark; /* before the timing cells of ratio_row: "SYNTHETIC " for a fixture campaign */
    char err[2048];
} paper_t;

static int usage(void) {
    fprintf(stderr,
            "usage: sdpa-report paper --published FILE --out DIR [--gpu-data DIR] [--seed-linear RUN.json] "
            "[--stage NAME RUNDIR|- FIGDIR ...]\n");
    return 2;
}

static int save(paper_t *p, rbuf_t *b, const char *name) {
    return rb_save(b, p->out, name, p->err, sizeof p->err);
}

static int load_stage(paper_t *p, stage_t *s) {
    if (!strcmp(s->rundir, "-")) return 0;
    TRY(report_load_summarised(&s->r, &s->summary, s->rundir, s->name, p->published, p->err, sizeof p->err));
    s->verdict = jo_str(s->summary, "verdict");
    s->loaded = true;
    return 0;
}

/* The cell of an experiment this build has no local run of (data/<experiment>/): "not run", or,
 * where a committed campaign ran it, that it did and where its verdict is, the campaign's kind
 * named (measured on a GPU before emulated, before the synthetic fixture). */
static const char *not_run_cell(const paper_t *p, const char *name) {
    int measured = 0, emu = 0, fixture = 0;
    for (int i = 0; i < p->gpu.n; i++) {
        const gpu_campaign_t *c = p->gpu.c[i];
        for (int k = 0; k < c->nruns; k++) {
            if (!c->runs[k].loaded || strcmp(c->runs[k].name, name)) continue;
            fixture += c->fixture;
            emu += !c->fixture && c->emulated;
            measured += !c->fixture && !c->emulated;
        }
    }
    return measured  ? "not run locally; measured on a GPU: Section @sec:gpu-verdicts"
           : emu     ? "not run locally; an EMULATED campaign: Section @sec:gpu-verdicts"
           : fixture ? "not run locally; SYNTHETIC fixture: Section @sec:gpu-verdicts"
                     : "not run";
}

/* The committed campaigns measured on a GPU (neither emulated nor the fixture) as "6 committed GPU
 * campaigns (NVIDIA H100 80GB HBM3)" into dst; their count. The device names come from the
 * campaigns and the phrase goes into a gnuplot script (plot-vars.gp): every character outside
 * letters, digits and " ._,()+-/:" becomes a space (no quote, backslash, backquote command, @ macro
 * or line break reaches gnuplot). */
static int gpu_campaigns_phrase(const paper_t *p, char *dst, size_t n) {
    int k = 0;
    char devs[512] = "";
    size_t l = 0;
    for (int i = 0; i < p->gpu.n; i++) {
        const gpu_campaign_t *c = p->gpu.c[i];
        if (c->fixture || c->emulated) continue;
        k++;
        const char *d = jo_str_or(c->campaign, "device", "device not recorded");
        bool seen = false;
        for (int j = 0; j < i && !seen; j++)
            seen = !p->gpu.c[j]->fixture && !p->gpu.c[j]->emulated &&
                   !strcmp(jo_str_or(p->gpu.c[j]->campaign, "device", "device not recorded"), d);
        if (!seen && l < sizeof devs)
            l += (size_t)snprintf(devs + l, sizeof devs - l, "%s%s", l ? ", " : "", d);
    }
    if (k)
        snprintf(dst, n, "%d committed GPU campaign%s (%s)", k, k == 1 ? "" : "s", devs);
    else
        snprintf(dst, n, "no committed GPU campaign");
    for (char *q = dst; *q; q++)
        if (!isalnum((unsigned char)*q) && !strchr(" ._,()+-/:", *q)) *q = ' ';
    return k;
}

/* A caption's closing sentence on where the GPU campaigns' own runs are: the tables of Section 4 read
 * this build's local runs only. Empty when no measured campaign ran an experiment. */
static const char *campaigns_note(const paper_t *p, char *dst, size_t n) {
    char camp[640];
    int runs = 0;
    for (int i = 0; i < p->gpu.n; i++)
        runs += !p->gpu.c[i]->fixture && !p->gpu.c[i]->emulated && p->gpu.c[i]->nruns;
    *dst = 0;
    if (gpu_campaigns_phrase(p, camp, sizeof camp) && runs)
        snprintf(
            dst, n,
            " These rows are this build's local runs (data/<experiment>/); the experiments the %s ran are "
            "judged in Section @sec:gpu-verdicts.",
            camp);
    return dst;
}

/* The first comparison of the run's pair: shape and index, or -1. */
/* banner.md of the paper: whether its timings come from a GPU. */
static int paper_banner(paper_t *p, int emulated, int gpu) {
    rbuf_t b = {0};
    if (emulated)
        rb_printf(
            &b,
            "::: {.banner .emulated}\n**EMULATED (CPU) RUNS: NO GPU TIMINGS%s.** Some experiments below ran "
            "on the CPU SIMT emulator: their correctness and static gates are real, their performance gates "
            "read "
            "NOT EVALUATED, and their wall-clock times appear only where labelled \"emulated (CPU), not "
            "GPU\".\n:::\n",
            gpu ? " FOR SOME STAGES" : "");
    else if (gpu)
        rb_puts(&b,
                "::: {.banner .gpu}\n**GPU runs.** Every timed experiment below ran on a GPU; devices are "
                "named in each stage's section.\n:::\n");
    /* the committed GPU campaigns: measured ones, emulated ones, test fixtures */
    int measured = 0, emu = 0, fixture = 0;
    for (int i = 0; i < p->gpu.n; i++) {
        const gpu_campaign_t *c = p->gpu.c[i];
        fixture += c->fixture;
        emu += !c->fixture && c->emulated;
        measured += !c->fixture && !c->emulated;
    }
    if (!emulated && !gpu && !measured)
        rb_puts(&b, "::: {.banner .emulated}\n**NO TIMINGS.** No experiment has timings yet; `make all` runs "
                    "them.\n:::\n");
    if (measured)
        rb_printf(
            &b,
            "\n::: {.banner .gpu}\n**GPU CAMPAIGNS.** %d committed campaign%s measured on a GPU: section "
            "\"Measured on GPUs\".\n:::\n",
            measured, measured > 1 ? "s" : "");
    if (emu)
        rb_puts(
            &b,
            "\n::: {.banner .emulated}\n**EMULATED CAMPAIGNS IN THE GPU PART.** Section \"Measured on "
            "GPUs\" includes campaigns run on the CPU emulator, labelled EMULATED: no GPU timing.\n:::\n");
    if (fixture)
        rb_puts(&b, "\n::: {.banner .emulated}\n**SYNTHETIC FIXTURE IN THE GPU PART.** Section \"Measured on "
                    "GPUs\" renders a test fixture (device \"FIXTURE GPU\"), not a measurement: its numbers "
                    "were made up to test this paper's tables and figures.\n:::\n");
    return save(p, &b, "banner.md");
}

static int history(paper_t *p) {
    rbuf_t tsv = {0}, md = {0};
    rb_puts(&tsv, "# median latency (us) with its 95 % CI per experiment and variant, at the compared shape\n"
                  "# x\tlabel\tmedian\tci_lo\tci_hi\ttiming\texperiment\n");
    /* each experiment's run and device are named in its own section (stage-NAME.md) */
    static const md_col_t cols[] = {
        {"experiment", 16, 'l'},        {"variant", 9, 'l'},       {"shape", 7, 'l'},
        {"median (µs)", 10, 'r'},       {"95 % CI (µs)", 16, 'r'}, {"n", 4, 'r'},
        {"noise (IQR/median)", 8, 'r'}, {"timing", 13, 'l'}};
    md_table_head(&md, cols, 8);
    int x = 0, emulated = 0, gpu = 0;
    for (int k = 0; k < p->n; k++) {
        stage_t *s = &p->st[k];
        if (!s->loaded) {
            md_row(&md, 8, s->name, NA_MARK, NA_MARK, NA_MARK, NA_MARK, NA_MARK, NA_MARK,
                   not_run_cell(p, s->name));
            continue;
        }
        int c = report_find_comparison(&s->r);
        const char *shape = c >= 0 ? rj_str(&s->r.T, "comparisons.%d.shape", c) : NULL;
        const char *vs[2] = {s->r.baseline, s->r.candidate};
        for (int v = 0; v < 2; v++) {
            int t = shape ? report_find_timing(&s->r, vs[v], shape) : -1;
            if (t >= 0 && !rj_present(&s->r.T, "timing.%d.summary", t)) t = -1; /* no sample kept */
            if (t < 0) {
                md_row(&md, 8, s->name, vs[v], NA_MARK, NA_MARK, NA_MARK, NA_MARK, NA_MARK, "not timed");
                continue;
            }
            double med, lo, hi, n, noise;
            const char *kind = rj_str(&s->r.T, "timing.%d.timing", t);
            if (!kind || rj_num(&s->r.T, &med, "timing.%d.summary.median", t) < 0 ||
                rj_num(&s->r.T, &lo, "timing.%d.summary.ci_lo", t) < 0 ||
                rj_num(&s->r.T, &hi, "timing.%d.summary.ci_hi", t) < 0 ||
                rj_num(&s->r.T, &n, "timing.%d.summary.n", t) < 0 ||
                rj_num(&s->r.T, &noise, "timing.%d.summary.rel_iqr", t) < 0) {
                snprintf(p->err, sizeof p->err, "%s", s->r.err);
                rb_free(&tsv);
                rb_free(&md);
                return -1;
            }
            bool gpu_t = strcmp(kind, "gpu") == 0;
            emulated |= !gpu_t;
            gpu |= gpu_t;
            rb_printf(&tsv, "%d\t%s\t%.15g\t%.15g\t%.15g\t%s\t%s\n", x++, vs[v], med, lo, hi, kind, s->name);
            char c1[N], c2[N], c3[N], c4[N];
            md_row(&md, 8, s->name, vs[v], shape, fmt_us(c1, N, med),
                   fmt_ci(c2, N, fabs(lo) >= 1e5 ? "%.0f" : "%.2f", lo, hi), fmt_num(c3, N, "%.0f", n),
                   fmt_pct(c4, N, noise), gpu_t ? "gpu" : "EMULATED");
        }
    }
    char note[1024], cap[2048];
    snprintf(
        cap, sizeof cap, "%s%s",
        emulated
            ? "Stage history, WITH EMULATED (CPU) TIMINGS, NOT GPU TIMINGS in the rows marked EMULATED: "
              "median latency with its 95 % CI, the samples kept (n) and their noise (interquartile range "
              "over the median) for baseline and candidate of each experiment's latest run, whose id and "
              "device its section names. Emulated rows are CPU wall-clock times of the emulator and say "
              "nothing about GPU performance."
            : "Stage history: median latency with its 95 % CI, the samples kept (n) and their noise "
              "(interquartile range over the median) for baseline and candidate of each experiment's "
              "latest run, whose id and device its section names. Rows from different runs (and devices) "
              "are not comparable in absolute terms.",
        campaigns_note(p, note, sizeof note));
    md_table_caption(&md, "tbl:history", cap);
    TRY(save(p, &tsv, "history.tsv"));
    TRY(save(p, &md, "history.md"));
    rbuf_t b = {0};
    char camp[640];
    const int ncamp = gpu_campaigns_phrase(p, camp, sizeof camp);
    rb_printf(&b,
              "# gnuplot variables of the paper figures, written by sdpa-report paper\n"
              "emulated = %d\ngpu = %d\nn_history = %d\nn_stages = %d\n"
              "# the committed campaigns measured on a GPU (the part \"Measured on GPUs\")\n"
              "gpu_campaigns = %d\ngpu_campaigns_text = \"%s\"\n",
              emulated, gpu, x, p->n, ncamp, camp);
    TRY(save(p, &b, "plot-vars.gp"));
    return paper_banner(p, emulated, gpu);
}

/* Head of a published-versus-reproduced table; each side names its device: published ratios
 * are the original's L4 ratios, reproduced ones come from each run's own device. */
static int ratio_head(paper_t *p, rbuf_t *md) {
    char pdev[N], h_sp[2 * N], h_lr[2 * N];
    if (!report_published_device(&p->pub, pdev, sizeof pdev)) {
        snprintf(p->err, sizeof p->err, "%s", p->pub.err);
        return -1;
    }
    snprintf(h_sp, sizeof h_sp, "published speedup ratio (original study, %s)", pdev);
    snprintf(h_lr, sizeof h_lr, "published latency reduction (original study, %s)", pdev);
    const md_col_t cols[] = {{"experiment", 12, 'l'},
                             {"published claim (as worded)", 16, 'l'},
                             {h_sp, 9, 'r'},
                             {h_lr, 9, 'r'},
                             {"reproduced speedup ratio [95 % CI]", 16, 'r'},
                             {"reproduced latency reduction [95 % CI]", 16, 'r'},
                             {"reproduced on", 12, 'l'},
                             {"timing", 14, 'l'}};
    md_table_head(md, cols, 8);
    return 0;
}

/* One row: the original's claim for experiment `name` (if it made one) beside the comparison of
 * run r (NULL: not run; its timing cell then reads `absent`). x: the reproduced numbers (NaN when
 * none); *pub: the published ratio (NaN when no claim); *kind: the comparison's timing, "not
 * timed", absent or "none". */
static int ratio_row(paper_t *p, const char *name, report_t *r, const char *absent, rbuf_t *md, double x[6],
                     double *pub, const char **kind) {
    const rj_t *P = &p->pub.PUB;
    int c = published_find_claim(p->pub.PUB.root, name);
    char pr[N] = NA_MARK, pl[N] = NA_MARK, rr[2 * N] = NA_MARK, rl[2 * N] = NA_MARK, a[N];
    const char *as = NA_MARK;
    double pb = NAN, pc = NAN;
    *kind = r ? "not timed" : absent;
    for (int j = 0; j < 6; j++) x[j] = NAN;
    if (c >= 0) {
        as = rj_str(P, "claims.%d.as_published", c);
        if (!as || rj_num(P, &pb, "claims.%d.baseline_p50_us", c) < 0 ||
            rj_num(P, &pc, "claims.%d.candidate_p50_us", c) < 0) {
            snprintf(p->err, sizeof p->err, "%s", p->pub.err);
            return -1;
        }
        fmt_num(pr, N, "%.3f", pb / pc);
        snprintf(pl, N, "%s %%", fmt_num(a, N, "%.1f", 100 * (1 - pc / pb)));
    }
    *pub = pb / pc;
    int cmp = r ? report_find_comparison(r) : -1;
    if (cmp >= 0 && published_speedup_cells(r, cmp, rr, rl, sizeof rr, x, kind) < 0) {
        snprintf(p->err, sizeof p->err, "%s", r->err);
        return -1;
    }
    char timing[N];
    snprintf(timing, sizeof timing, "%s%s", p->mark ? p->mark : "",
             strcmp(*kind, "emulated") == 0 ? "EMULATED" : *kind);
    md_row(md, 8, name, as, pr, pl, rr, rl, r ? report_device_name(r) : NA_MARK, timing);
    if (r && cmp < 0) *kind = "none";
    return 0;
}

/* Published vs reproduced ratios (table and TSV), and the verdicts table. */
static int ratios(paper_t *p) {
    rbuf_t tsv = {0}, md = {0}, vd = {0};
    const rj_t *P = &p->pub.PUB;
    rb_puts(&tsv, "# speedup t_base/t_new: reproduced (with 95 % CI) and published (original study, L4)\n"
                  "# x\texperiment\treproduced\tci_lo\tci_hi\tpublished\ttiming\n");
    static const md_col_t vcols[] = {{"experiment", 12, 'l'},
                                     {"baseline -> candidate", 12, 'l'},
                                     {"verdict (this study)", 12, 'l'},
                                     {"verdict (original study)", 14, 'l'},
                                     {"run", 18, 'l'}};
    if (ratio_head(p, &md) < 0) goto fail;
    md_table_head(&vd, vcols, 5);
    for (int k = 0; k < p->n; k++) {
        stage_t *s = &p->st[k];
        int c = published_find_claim(p->pub.PUB.root, s->name);
        const char *pverdict = c >= 0 ? rj_str(P, "claims.%d.published_verdict", c) : NA_MARK, *kind;
        double x[6], pub;
        if (!pverdict) {
            snprintf(p->err, sizeof p->err, "%s", p->pub.err);
            goto fail;
        }
        if (ratio_row(p, s->name, s->loaded ? &s->r : NULL, not_run_cell(p, s->name), &md, x, &pub, &kind) <
            0)
            goto fail;
        rb_printf(&tsv, "%d\t%s\t%.15g\t%.15g\t%.15g\t%.15g\t%s\n", k, s->name, x[0], x[1], x[2], pub,
                  strcmp(kind, "gpu") && strcmp(kind, "emulated") ? "none" : kind);
        /* an experiment not run yet: the pair its definition names */
        static exp_def_t d;
        const bool def = !s->loaded && definition(s->name, &d);
        char pair[2 * N];
        snprintf(pair, sizeof pair, "%.90s -> %.90s",
                 s->loaded ? s->r.baseline
                 : def     ? d.value[P_BASELINE]
                           : NA_MARK,
                 s->loaded ? s->r.candidate
                 : def     ? d.value[P_CANDIDATE]
                           : NA_MARK);
        md_row(&vd, 5, s->name, pair, s->loaded ? s->verdict : not_run_cell(p, s->name), pverdict,
               s->loaded ? s->r.run_id : NA_MARK);
    }
    char note[1024], cap[2048];
    campaigns_note(p, note, sizeof note);
    snprintf(cap, sizeof cap,
             "Published versus reproduced speedups. The published "
             "ratios are computed from the published medians (data/published/seed-l4.json); the original "
             "called a latency reduction a speedup. Reproduced values are ratios of medians from interleaved "
             "runs with bootstrap CIs; EMULATED: the run had no GPU, so there is no reproduced ratio.%s",
             note);
    md_table_caption(&md, "tbl:published-vs-reproduced", cap);
    snprintf(cap, sizeof cap,
             "Verdicts of this study (latest run of each experiment, gates judged on "
             "the lower CI bound) beside the original study's.%s",
             note);
    md_table_caption(&vd, "tbl:verdicts", cap);
    TRY(save(p, &tsv, "ratios.tsv"));
    TRY(save(p, &md, "published-vs-reproduced.md"));
    return save(p, &vd, "verdicts.md");
fail:
    rb_free(&tsv);
    rb_free(&md);
    rb_free(&vd);
    return -1;
}

/* The GPU part's published-versus-reproduced table of one campaign: each of its experiments. */
static int gpu_ratios(void *ctx, const gpu_campaign_t *c, rbuf_t *b) {
    paper_t *p = ctx;
    if (!c->nruns) {
        rb_puts(b, "No experiment ran in this campaign: nothing to set beside the published ratios.\n\n");
        return 0;
    }
    TRY(ratio_head(p, b));
    p->mark = c->fixture ? "SYNTHETIC " : NULL;
    for (int k = 0; k < c->nruns; k++) {
        double x[6], pub;
        const char *kind;
        gpu_run_t *r = (gpu_run_t *)&c->runs[k];
        int rc = ratio_row(p, r->name, r->loaded ? &r->r : NULL, "not run", b, x, &pub, &kind);
        if (rc < 0) p->mark = NULL;
        TRY(rc);
    }
    p->mark = NULL;
    char id[64];
    snprintf(id, sizeof id, "tbl:gpu-%s-published-vs-reproduced", c->tag);
    char cap[768];
    snprintf(
        cap, sizeof cap,
        "%sPublished speedup ratios (computed from the original study's medians, measured on its device) "
        "beside this campaign's reproduced ratios with bootstrap 95 %% CIs, device named on each side; only "
        "ratios are compared, never absolute times across devices. Emulated ratios are not evaluated.",
        c->fixture ? "SYNTHETIC FIXTURE, NOT A MEASUREMENT: " : "");
    md_table_caption(b, id, cap);
    return 0;
}

/* The legacy end-to-end errors of this artifact at a published (shape, seed): the seed-linear run's
 * max and mean abs, and the E4M3 mean abs of the first experiment run (in study order) that has
 * that case, with its variant. n/a where there is none. means: the two mean abs (NaN: none). */
static void seed_linear_cells(paper_t *p, const char *shape, const char *seed, char *mx, char *mean,
                              char *e4m3, double means[2]) {
    snprintf(mx, N, "%s", NA_MARK);
    snprintf(mean, N, "%s", NA_MARK);
    snprintf(e4m3, N, "%s", NA_MARK);
    means[0] = means[1] = NAN;
    const cJSON *e;
    cJSON_ArrayForEach(e, jo(p->seed_linear, "correctness")) {
        if (!jo_eq(e, "shape", shape) || !jo_eq(e, "seed", seed)) continue;
        fmt_num(mx, N, "%.4f", jo_num(jo(e, "legacy"), "max_abs"));
        fmt_num(mean, N, "%.4f", means[0] = jo_num(jo(e, "legacy"), "mean_abs"));
        break;
    }
    for (int k = 0; k < p->n; k++) {
        const stage_t *s = &p->st[k];
        if (!s->loaded || !jo_eq(jo(s->r.R.root, "config"), "codec", "e4m3")) continue;
        cJSON_ArrayForEach(e, jo(s->r.R.root, "correctness")) {
            if (!jo_eq(e, "shape", shape) || !jo_eq(e, "seed", seed)) continue;
            char v[N];
            snprintf(e4m3, N, "%s (%s)",
                     fmt_num(v, N, "%.4f", means[1] = jo_num(jo(e, "legacy"), "mean_abs")),
                     jo_str(e, "variant") ? jo_str(e, "variant") : "?");
            return;
        }
    }
}

/* published-resources.md: the ptxas resources the original published. */
static int published_resources(paper_t *p, rbuf_t *b) {
    const rj_t *d = &p->pub.PUB;
    static const md_col_t rcols[] = {
        {"variant", 8, 'l'},   {"arch", 5, 'l'},    {"registers", 7, 'r'}, {"static smem (B)", 8, 'r'},
        {"stack (B)", 6, 'r'}, {"source", 22, 'l'}, {"caveats", 26, 'l'}};
    md_table_head(b, rcols, 7);
    int n = rj_len(d, "resources");
    for (int i = 0; i < n; i++) {
        double x[3];
        const char *v = rj_str(d, "resources.%d.variant", i), *arch = rj_str(d, "resources.%d.arch", i);
        const char *src = rj_str(d, "resources.%d.source", i), *cav = rj_str(d, "resources.%d.caveats", i);
        if (!v || !arch || !src || !cav || rj_num(d, &x[0], "resources.%d.registers", i) < 0 ||
            rj_num(d, &x[1], "resources.%d.static_smem_bytes", i) < 0 ||
            rj_num(d, &x[2], "resources.%d.stack_bytes", i) < 0)
            return -1;
        char c[3][N];
        md_row(b, 7, v, arch, fmt_num(c[0], N, "%.0f", x[0]), fmt_int(c[1], N, x[1]),
               fmt_num(c[2], N, "%.0f", x[2]), src, cav);
    }
    if (n < 0) return -1;
    md_table_end(b, 0, "tbl:published-resources",
                 "ptxas resources the original study published (original study, L4).", "None published.");
    return 0;
}

/* A range of values seen: lo, hi, how many (n). */
typedef struct {
    double lo, hi;
    int n;
} span_t;
static void span_add(span_t *s, double x) {
    if (!isfinite(x)) return;
    s->lo = s->n && s->lo < x ? s->lo : x;
    s->hi = s->n && s->hi > x ? s->hi : x;
    s->n++;
}

/* published-correctness-lead.md: the sentence on the table below, from what it holds: the published
 * mean errors' span, this artifact's with the original's codec (where make seed-linear ran) and
 * with E4M3, and how many times the published figure is ours at the same (shape, seed). */
static int correctness_lead(paper_t *p, const span_t *pub, const span_t *sl, int sl_in, const span_t *e4,
                            const span_t *ratio) {
    rbuf_t b = {0};
    if (!pub->n) {
        rb_puts(&b, "The original published no correctness figure (Table @tbl:published-correctness).\n");
        const int rc = save(p, &b, "published-correctness-lead.md");
        if (rc < 0) snprintf(p->pub.err, sizeof p->pub.err, "%s", p->err);
        return rc;
    }
    rb_printf(&b,
              "Table @tbl:published-correctness sets the original's published errors beside this artifact's "
              "at the same shapes. The published mean absolute errors span %.4f to %.4f. ",
              pub->lo, pub->hi);
    if (sl->n)
        rb_printf(
            &b,
            "With the original's codec and encoder this artifact's span %.4f to %.4f in %d of the table's "
            "%d rows, %d of them inside the published span; ",
            sl->lo, sl->hi, sl->n, pub->n, sl_in);
    else
        rb_puts(&b,
                "This build has not run the original's codec and encoder (`make seed-linear`), so the table "
                "holds none of their errors; ");
    if (e4->n)
        rb_printf(
            &b,
            "with E4M3 this artifact's span %.4f to %.4f in %d of the %d rows, the published figure %.1f to "
            "%.1f times ours row by row.\n",
            e4->lo, e4->hi, e4->n, pub->n, ratio->lo, ratio->hi);
    else
        rb_puts(&b, "no E4M3 run of this build holds those shapes yet.\n");
    const int rc = save(p, &b, "published-correctness-lead.md");
    if (rc < 0) snprintf(p->pub.err, sizeof p->pub.err, "%s", p->err); /* published_tables reports it */
    return rc;
}

/* published-correctness.md: the original's correctness, this artifact's errors at its shapes beside. */
static int published_correctness(paper_t *p, rbuf_t *b) {
    const rj_t *d = &p->pub.PUB;
    static const md_col_t ccols[] = {{"shape", 7, 'l'},
                                     {"seed", 4, 'r'},
                                     {"max abs", 6, 'r'},
                                     {"mean abs", 6, 'r'},
                                     {"%bad", 4, 'r'},
                                     {"source", 20, 'l'},
                                     {"seed-linear codec here: max abs", 7, 'r'},
                                     {"seed-linear codec here: mean abs", 7, 'r'},
                                     {"E4M3 here: mean abs (variant)", 10, 'r'}};
    md_table_head(b, ccols, 9);
    int n = rj_len(d, "correctness");
    span_t pub = {0};
    double rows[64][3]; /* per row: published, seed-linear and E4M3 mean abs */
    int nr = 0;
    for (int i = 0; i < n; i++) {
        double x[3], means[2];
        const char *sh = rj_str(d, "correctness.%d.shape", i), *seed = rj_str(d, "correctness.%d.seed", i);
        const char *src = rj_str(d, "correctness.%d.source", i);
        if (!sh || !seed || !src || rj_num(d, &x[0], "correctness.%d.max_abs", i) < 0 ||
            rj_num(d, &x[1], "correctness.%d.mean_abs", i) < 0 ||
            rj_num(d, &x[2], "correctness.%d.pct_bad", i) < 0)
            return -1;
        char c[6][N];
        seed_linear_cells(p, sh, seed, c[3], c[4], c[5], means);
        span_add(&pub, x[1]);
        if (nr < 64) rows[nr][0] = x[1], rows[nr][1] = means[0], rows[nr++][2] = means[1];
        md_row(b, 9, sh, seed, fmt_num(c[0], N, "%.4f", x[0]), fmt_num(c[1], N, "%.4f", x[1]),
               fmt_num(c[2], N, "%.1f", x[2]), src, c[3], c[4], c[5]);
    }
    const char *cav = rj_str(d, "correctness_caveats");
    if (n < 0 || !cav) return -1;
    char cap[1024];
    snprintf(
        cap, sizeof cap,
        "Correctness the original study published (original study, L4), identical for every stage; "
        "caveats: %s. Beside it, this artifact's end-to-end errors at the same shapes (its seeds, not the "
        "original's): with the original's seed-linear codec and biased encoder (%s), and with E4M3 (the "
        "experiments' own runs, variant named); n/a where not run (make all runs both).",
        cav, p->seed_linear ? "make seed-linear, stage1" : "make seed-linear: not run");
    md_table_caption(b, "tbl:published-correctness", cap);
    span_t sl = {0}, e4 = {0}, ratio = {0};
    int sl_in = 0;
    for (int i = 0; i < nr; i++) {
        span_add(&sl, rows[i][1]);
        sl_in += isfinite(rows[i][1]) && rows[i][1] >= pub.lo && rows[i][1] <= pub.hi;
        span_add(&e4, rows[i][2]);
        if (rows[i][2] > 0) span_add(&ratio, rows[i][0] / rows[i][2]);
    }
    return correctness_lead(p, &pub, &sl, sl_in, &e4, &ratio);
}

static int published_tables(paper_t *p) {
    report_t *r = &p->pub;
    rbuf_t b = {0};
    published_timings_head(&b);
    if (published_timings(r, &b, NULL) < 0) goto fail;
    md_table_end(&b, 0, "tbl:published-timings",
                 "Every timing the original study published (original study, "
                 "L4), as transcribed in data/published/seed-l4.json with its source commit:file.",
                 "None published.");
    TRY(save(p, &b, "published-timings.md"));
    if (published_resources(p, &b) < 0) goto fail;
    TRY(save(p, &b, "published-resources.md"));
    if (published_correctness(p, &b) < 0) goto fail;
    return save(p, &b, "published-correctness.md");
fail:
    rb_free(&b);
    snprintf(p->err, sizeof p->err, "%s", r->err);
    return -1;
}

/* One include of a run's fragment, bound to that run (placeholders) and prefixed (identifiers). Its
 * figures' directory, when relative to the checkout, goes from {root} (mk/report.mk's pandoc_all: the
 * checkout as the output sees it, so that the Markdown twin under paper/build/ finds them too). */
static void include(rbuf_t *b, const stage_t *s, const char *file, const char *extra) {
    rb_printf(b, "::: {.include src=\"%s/%s\" prefix=\"%s-\" run=\"%s\" figdir=\"%s%s\"%s}\n:::\n\n",
              s->rundir, file, s->name, s->rundir, s->figdir[0] == '/' ? "" : "{root}/", s->figdir, extra);
}

/* Where the committed GPU campaigns ran this experiment: one line per campaign, its device, its
 * verdict and the section of its gates (the stage's own section shows the latest local run, which
 * is emulated unless this machine has a GPU). Nothing when no campaign ran it. */
static void gpu_runs_of(const paper_t *p, const stage_t *s, rbuf_t *b) {
    int n = 0;
    for (int i = 0; i < p->gpu.n; i++) {
        const gpu_campaign_t *c = p->gpu.c[i];
        for (int k = 0; k < c->nruns; k++) {
            const gpu_run_t *r = &c->runs[k];
            if (!r->loaded || strcmp(r->name, s->name) != 0) continue;
            if (!n++) rb_puts(b, "Measured in the committed GPU campaigns:\n\n");
            const char *mark = c->fixture ? "SYNTHETIC " : "";
            rb_printf(b, "- %s%s, campaign `%s`: verdict **%s%s** (Section @sec:gpu-%s-verdicts)%s\n", mark,
                      jo_str_or(c->campaign, "device", "device not recorded"), c->id, mark,
                      c->emulated ? "n/a (emulated)" : jo_str_or(r->summary, "verdict", "not recorded"),
                      c->tag, c->emulated ? "; EMULATED campaign" : "");
        }
    }
    if (n) rb_puts(b, "\n");
}

/* stage-NAME.md: the run's fragments under level-3 headers (the paper gives each stage a
 * level-2 section), or "not run". Identifiers are prefixed with NAME- so that the stages'
 * tables and figures keep distinct numbers and references. */
static int stage_sections(paper_t *p) {
    for (int k = 0; k < p->n; k++) {
        stage_t *s = &p->st[k];
        rbuf_t b = {0};
        if (!s->loaded) {
            rb_printf(
                &b, "**Not run yet here.** There is no run of `%s` under `data/%s/`; `make all` runs it.\n\n",
                s->name, s->name);
            gpu_runs_of(p, s, &b);
        } else {
            char dev[256];
            rb_printf(&b, "Latest run: `%s` (backend %s, %s); verdict **%s**.\n\n", s->r.run_id,
                      rj_str(&s->r.T, "meta.backend"), report_device_label(&s->r, dev, sizeof dev),
                      s->verdict);
            include(&b, s, "tables/banner.md", "");
            gpu_runs_of(p, s, &b);
            rb_printf(&b, "### Hypothesis {#sec:%s-hypothesis}\n\n", s->name);
            include(&b, s, "hypothesis.md", " section=\"prediction\"");
            include(&b, s, "tables/occupancy.md", "");
            rb_printf(&b, "### Gates and verdict {#sec:%s-gates}\n\n", s->name);
            include(&b, s, "tables/gates.md", "");
            include(&b, s, "tables/verdict.md", " shift=\"1\"");
            rb_printf(&b, "### Correctness {#sec:%s-correctness}\n\n", s->name);
            include(&b, s, "tables/correctness-summary.md", "");
            rb_printf(&b, "### Performance {#sec:%s-performance}\n\n", s->name);
            include(&b, s, "tables/performance.md", " shift=\"1\"");
            include(&b, s, "tables/fig-speedup.md", "");
            rb_printf(&b, "### Static resources {#sec:%s-ptxas}\n\n", s->name);
            include(&b, s, "tables/ptxas.md", "");
        }
        char name[N + 16];
        snprintf(name, sizeof name, "stage-%s.md", s->name);
        TRY(save(p, &b, name));
    }
    return 0;
}

static void prereg_table_row(const prereg_row_t row, void *ctx) {
    char fixed[N], kernel[N];
    snprintf(fixed, sizeof fixed, "%s (%s)", *row[3] ? row[3] : NA_MARK, *row[4] ? row[4] : NA_MARK);
    snprintf(kernel, sizeof kernel, "%s (%s)", *row[5] ? row[5] : NA_MARK, *row[6] ? row[6] : NA_MARK);
    md_row(ctx, 6, row[0], row[1], fixed, kernel, row[7], row[2]);
}

/* prereg.md: every bar family and hypothesis with the commit that fixed it and the commit of the
 * first kernel it judged (paper/prereg.tsv, from git). */
static int prereg(paper_t *p) {
    rbuf_t b = {0};
    static const md_col_t cols[] = {{"kind", 7, 'l'},      {"item", 14, 'l'},
                                    {"fixed in", 12, 'l'}, {"first kernel judged", 12, 'l'},
                                    {"order", 12, 'l'},    {"where", 24, 'l'}};
    md_table_head(&b, cols, 6);
    char why[512];
    if (prereg_each("", prereg_table_row, &b, why, sizeof why) < 0) {
        rb_free(&b);
        rb_printf(&b, "**Not shown: %s.**\n", why);
        return save(p, &b, "prereg.md");
    }
    md_table_end(
        &b, 0, "tbl:prereg",
        "Pre-registration, from git (paper/prereg.sh, committed as paper/prereg.tsv): each bar family of the "
        "Methods and each experiment's hypothesis, the commit that first fixed it, the commit that brought "
        "the first kernel it judged, and their order (an ancestor is before; commits of parallel branches "
        "are ordered by commit time). Short hashes of this repository.",
        "paper/prereg.tsv lists nothing.");
    return save(p, &b, "prereg.md");
}

/* The make target of an experiment: its definition's MAKE_TARGET, else its name. */
static void make_target(const char *name, char *dst, size_t n) {
    static exp_def_t d;
    snprintf(dst, n, "%.127s", definition(name, &d) ? d.value[P_MAKE_TARGET] : name);
}

/* reproduce.md: the commands of the section "Reproducing this paper", one target per experiment. */
static int reproduce(paper_t *p) {
    rbuf_t b = {0};
    rb_puts(&b, "    make all     # every experiment (a new run directory each), then this paper\n"
                "    make paper   # this paper again from the latest runs; nothing is measured\n\n"
                "Each experiment's report is built by its own target (");
    for (int k = 0; k < p->n; k++) {
        char t[128];
        make_target(p->st[k].name, t, sizeof t);
        rb_printf(&b, "%s`make %s`", k == 0 ? "" : k + 1 == p->n ? " and " : ", ", t);
    }
    rb_puts(
        &b,
        "), and rebuilt from its data by `make report RUN=data/<experiment>/<run-id>`. Timings need a GPU; "
        "without one, everything else runs and the performance gates read NOT EVALUATED.\n");
    return save(p, &b, "reproduce.md");
}

int report_paper_main(int argc, char **argv) {
    static paper_t p;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--published") && i + 1 < argc)
            p.published = argv[++i];
        else if (!strcmp(argv[i], "--gpu-data") && i + 1 < argc)
            p.gpu_dir = argv[++i];
        else if (!strcmp(argv[i], "--seed-linear") && i + 1 < argc)
            p.seed_linear_path = argv[++i];
        else if (!strcmp(argv[i], "--out") && i + 1 < argc)
            p.out = argv[++i];
        else if (!strcmp(argv[i], "--stage") && i + 3 < argc) {
            if (p.n == MAX_STAGES) {
                fprintf(stderr, "sdpa-report paper: --stage %s: more than %d stages (MAX_STAGES, paper.c)\n",
                        argv[i + 1], MAX_STAGES);
                return 2;
            }
            p.st[p.n++] = (stage_t){.name = argv[i + 1], .rundir = argv[i + 2], .figdir = argv[i + 3]};
            i += 3;
        } else
            return usage();
    }
    if (!p.published || !p.out) return usage();
    snprintf(p.pub.pub_path, sizeof p.pub.pub_path, "%s", p.published);
    p.pub.pub = results_load(p.published, "published-figures", p.pub.err, sizeof p.pub.err);
    p.pub.PUB = (rj_t){p.pub.pub, p.pub.pub_path, p.pub.err, sizeof p.pub.err};
    int rc = p.pub.pub ? 0 : -1;
    if (rc) snprintf(p.err, sizeof p.err, "%s", p.pub.err);
    for (int k = 0; rc == 0 && k < p.n; k++) rc = load_stage(&p, &p.st[k]);
    if (rc == 0 && p.seed_linear_path &&
        !(p.seed_linear = results_load(p.seed_linear_path, "sdpa-bench-run", p.err, sizeof p.err)))
        rc = -1;
    if (rc == 0 && p.gpu_dir) rc = gpu_data_load(&p.gpu, p.gpu_dir, p.published, p.err, sizeof p.err);
    if (rc == 0) rc = history(&p);
    if (rc == 0) rc = ratios(&p);
    if (rc == 0) rc = published_tables(&p);
    if (rc == 0) rc = stage_sections(&p);
    if (rc == 0) rc = reproduce(&p);
    if (rc == 0) rc = prereg(&p);
    for (int k = 0; k < p.n && k < GPU_MAX_EXPERIMENTS; k++)
        p.gpu.experiments[p.gpu.n_experiments++] = p.st[k].name;
    if (rc == 0) rc = gpu_tables_write(&p.gpu, p.out, gpu_ratios, &p, p.err, sizeof p.err);
    gpu_data_free(&p.gpu);
    if (rc) fprintf(stderr, "sdpa-report: %s\n", p.err);
    for (int k = 0; k < p.n; k++) {
        report_free(&p.st[k].r);
        cJSON_Delete(p.st[k].summary);
    }
    cJSON_Delete(p.pub.pub);
    cJSON_Delete(p.seed_linear);
    return rc ? 1 : 0;
}
