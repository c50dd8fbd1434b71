/* Correctness, then timing (harness.h). */
#include "harness.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "sampling.h"
#include "check.h"
#include "dump.h"
#include "arch.h"
#include "run_json.h"
#include "variants.h"
#include "reference_fp8.h"
#include "stats.h"

/* What the signal handler says was in flight (file_signals_note): a step stopped for a hang (the
 * campaign's step guard) then names the kernel, which the campaign leaves out of later steps. */
static char check_note[256];
static char arm_note[BENCH_MAX_ARMS][256];

static void progress_check(const harness_t *h, const char *variant, const cli_shape_t *s, uint64_t seed) {
    file_signals_note(NULL);
    snprintf(check_note, sizeof check_note,
             "sdpa-bench: stopped by a signal while checking %s on %s, seed %" PRIu64 "\n", variant, s->name,
             seed);
    file_signals_note(check_note);
    if (!h->opt->quiet)
        fprintf(stderr, "sdpa-bench: checking %s on %s (%d,%d,%d,%d), seed %" PRIu64 "\n", variant, s->name,
                s->shape.B, s->shape.H, s->shape.S, s->shape.D, seed);
}

/* ---- correctness ---------------------------------------------------------------------------- */

static void print_check(const problem_t *p, const check_t *c) {
    printf("check   %-12s %-8s seed %-4" PRIu64
           " %s  kernel-only rel-L2 %.2e max|err| %.2e (%s atol %.2e..%.2e, "
           "%zu bad)  e2e rel-L2 %.2e cos %.6f%s%s\n",
           c->variant, p->shape_name, p->seed, c->pass ? "PASS" : "FAIL", c->kernel_only.rel_l2,
           c->kernel_only.max_abs, check_bar_name(p, c), c->kernel_only.atol_min, c->kernel_only.atol_max,
           c->kernel_only.n_bad, c->end_to_end.rel_l2, c->end_to_end.cosine,
           c->status == SDPA_OK ? "" : "  status: ", c->status == SDPA_OK ? "" : c->status_msg);
    if (problem_sampled(p))
        printf("        (metrics over a sampled reference: %zu of %d rows of every slice)\n", p->n_ref_rows,
               p->shape.S);
    if (c->has_mirror)
        printf("        mirror rel-L2 %.2e (bar %.0e, %s): %s\n", c->mirror_rel_l2, REFERENCE_FP8_MIRROR_BAR,
               c->mirror_gates ? "gating" : "recorded", c->gate_mirror ? "PASS" : "FAIL");
    if (!c->inputs_unmodified) printf("        %s modified its inputs\n", c->variant);
    if (!c->all_written) printf("        %s left output elements unwritten\n", c->variant);
}

static void cross_checks(harness_t *h, const problem_t *p, const check_t *checks) {
    for (size_t i = 0; i < h->n_run; i++)
        for (size_t j = i + 1; j < h->n_run; j++) {
            if (checks[i].status != SDPA_OK || checks[j].status != SDPA_OK) continue; /* nothing to compare */
            if (h->peer[i] || h->peer[j]) continue; /* a peer's arithmetic is its own: its bar decides */
            cross_t x;
            const bool emulated = strcmp(h->be->ops->name, "emu") == 0;
            cross_compare(p, &checks[i], &checks[j],
                          variants_expect_identical_on(h->run[i]->sw, h->run[j]->sw, emulated), &x);
            cJSON_AddItemToArray(h->cross, bj_cross(p, &x));
            h->any_failed |= !x.pass;
            printf("cross   %-12s vs %-12s %-8s seed %-4" PRIu64 " %s: %s (%zu elements differ, max %" PRIu32
                   " ulp)\n",
                   x.a, x.b, p->shape_name, p->seed, x.expect_identical ? "identical" : "bounded",
                   x.pass ? "PASS" : "FAIL", x.n_diff, x.max_ulp);
        }
}

static int dump_last(harness_t *h, const problem_t *p, const check_t *c) {
    const dump_meta_t m = {c->variant, p->shape_name, h->be->ops->name, p->softmax_scale};
    if (dump_write(h->opt->dump, &p->in, c->out, &m, h->err, sizeof h->err) != 0) return EXIT_RUNTIME;
    if (!h->opt->quiet)
        fprintf(stderr, "sdpa-bench: dumped %s on %s seed %" PRIu64 " to %s\n", c->variant, p->shape_name,
                p->seed, h->opt->dump);
    return 0;
}

/* A shape is "not supported" by a peer when its workspace would not fit the memory cap or it has no
 * causal mask (peers.h), by a variant when it has no kernel for the shape's head dimension or mask
 * (variants_shape_unsupported); recorded once per shape, on its first seed. */
static bool arm_skips(harness_t *h, size_t i, const cli_shape_t *s, bool record) {
    char why[256], reason[320];
    if (h->peer[i] ? peer_fits(h->peer[i], s->shape, why, sizeof why) == 0
                   : !variants_shape_unsupported(h->run[i], s->shape, h->opt->codec, why, sizeof why))
        return false;
    if (record) {
        snprintf(reason, sizeof reason, "%s: %s", s->name, why);
        cJSON_AddItemToArray(h->not_supported, bj_not_timed(h->run[i]->id, reason));
        printf("skip    %-12s %s %s\n", h->run[i]->id, s->name, why);
    }
    return true;
}

/* --dump-failed: the output of a variant's first failing check (check_problem calls it while
 * passed[] still says the variant had passed). A directory that already holds a dump is left as it
 * is, and a write that fails is reported; neither changes the run's result. */
static void dump_failed(const harness_t *h, const problem_t *p, const check_t *c) {
    char dir[4096], err[1024], shape[96];
    /* a shape given as B,H,S,D is named by its dimensions, not as "custom" (two would share a name) */
    if (named_shape_find(p->shape_name))
        snprintf(shape, sizeof shape, "%s", p->shape_name);
    else
        snprintf(shape, sizeof shape, "%d,%d,%d,%d%s", p->shape.B, p->shape.H, p->shape.S, p->shape.D,
                 p->shape.causal ? "-causal" : "");
    snprintf(dir, sizeof dir, "%s/%s-%s-s%" PRIu64, h->opt->dump_failed, c->variant, shape, p->seed);
    const dump_meta_t m = {c->variant, p->shape_name, h->be->ops->name, p->softmax_scale};
    if (dump_check_new(dir, err, sizeof err) != 0)
        fprintf(stderr, "sdpa-bench: --dump-failed: %s already holds a dump; left as it is\n", dir);
    else if (dump_write_output(dir, &p->in, c->out, &m, err, sizeof err) != 0)
        fprintf(stderr, "sdpa-bench: %s (the run goes on without it)\n", err);
    else if (!h->opt->quiet)
        fprintf(stderr,
                "sdpa-bench: dumped the output of %s's first failing check (%s, seed %" PRIu64 ") to %s\n",
                c->variant, p->shape_name, p->seed, dir);
}

/* A peer on problem p: opened (its fp16 inputs, workspace), run once, checked, closed. */
static int check_peer(harness_t *h, size_t i, problem_t *p, check_t *c, char *err, size_t errlen) {
    peer_run_t *r;
    if (peer_run_open(h->peer[i], p, &r, err, errlen) != 0) return -1;
    const int rc = peer_run_check(r, c, err, errlen);
    peer_run_close(r);
    return rc;
}

/* Every variant on one (shape, seed), sharing inputs and references. */
static int check_problem(harness_t *h, const cli_shape_t *s, uint64_t seed, bool last) {
    const cli_opts_t *o = h->opt;
    problem_t p;
    const check_ref_t ref = {o->ref_rows, (unsigned)o->ref_threads};
    int rc = problem_init(&p, h->be, s->name, s->shape, o->dist, o->codec, seed, &ref, h->err, sizeof h->err);
    if (rc != 0) {
        problem_free(&p);
        return rc == 2 ? EXIT_USAGE : EXIT_RUNTIME;
    }
    check_t checks[HARNESS_MAX_RUN];
    memset(checks, 0, sizeof checks);
    for (size_t i = 0; i < h->n_run && rc == 0; i++) {
        if (arm_skips(h, i, s, seed == o->seeds[0])) {
            checks[i].status = SDPA_ERR_EMPTY; /* not run: nothing to compare */
            continue;
        }
        progress_check(h, h->run[i]->id, s, seed);
        char err[sizeof h->err - 128];
        const int check_rc =
            h->peer[i] ? check_peer(h, i, &p, &checks[i], err, sizeof err)
                       : problem_check(&p, h->run[i]->id, check_family_of(h->run[i]->sw), h->run[i]->launch,
                                       SDPA_TILE_N_OF(h->run[i]->sw), &checks[i], err, sizeof err);
        if (check_rc != 0) {
            /* A device error around the launch (e.g. a sticky illegal address): name the culprit. */
            snprintf(h->err, sizeof h->err, "checking %s on %s, seed %" PRIu64 ": %s", h->run[i]->id, s->name,
                     seed, err);
            rc = EXIT_RUNTIME;
            break;
        }
        cJSON *entry = bj_correctness(&p, &checks[i]);
        if (h->peer[i]) bj_peer_fields(entry, peer_session_library(h->peer[i]));
        cJSON_AddItemToArray(h->correctness, entry);
        print_check(&p, &checks[i]);
        if (o->dump_failed && !h->peer[i] && h->passed[i] && !checks[i].pass) dump_failed(h, &p, &checks[i]);
        h->passed[i] &= checks[i].pass;
        h->any_failed |= !checks[i].pass;
    }
    file_signals_note(NULL);
    if (rc == 0) cross_checks(h, &p, checks);
    size_t dumped = h->n_run - 1; /* the last variant (peers come after the variants) */
    while (dumped > 0 && h->peer[dumped]) dumped--;
    if (rc == 0 && last && o->dump && !h->peer[dumped]) rc = dump_last(h, &p, &checks[dumped]);
    for (size_t i = 0; i < h->n_run; i++) check_free(&checks[i]);
    problem_free(&p);
    return rc;
}

int harness_correctness(harness_t *h) {
    const cli_opts_t *o = h->opt;
    for (size_t i = 0; i < h->n_run; i++) h->passed[i] = true;
    for (size_t s = 0; s < o->n_shapes; s++)
        for (size_t k = 0; k < o->n_seeds; k++) {
            const bool last = s + 1 == o->n_shapes && k + 1 == o->n_seeds;
            const int rc = check_problem(h, &o->shapes[s], o->seeds[k], last);
            if (rc != 0) return rc;
        }
    return 0;
}

/* ---- timing ---------------------------------------------------------------------------------- */

typedef struct {
    harness_t *h;
    const char *label;
    sdpa_launch_fn fns[BENCH_MAX_ARMS];
    const char *notes[BENCH_MAX_ARMS]; /* each arm's line for the signal handler */
    peer_run_t *peers[BENCH_MAX_ARMS]; /* the arm's peer on this problem; NULL for a variant */
    sdpa_args_t args;
    double last_report;
} sampler_t;

static double sampler_now(void *ctx) {
    (void)ctx;
    return backend_now_s();
}

static int sampler_sample(void *ctx, size_t arm, bool warmup, backend_sample_t *out, char *err,
                          size_t errlen) {
    sampler_t *s = ctx;
    const backend_t *be = s->h->be;
    /* Stands until the next sample: the host's work between two is microseconds, so a signal there
     * reports this launch "for 0 s" (no hang); a recovery pause clears it (sampler_pause). */
    file_signals_note(s->notes[arm]);
    if (s->peers[arm]) {
        const backend_work_t w = peer_run_work(s->peers[arm]);
        return be->ops->sample_work(be->self, &w, warmup, out, err, errlen);
    }
    return be->ops->sample(be->self, s->fns[arm], &s->args, warmup, out, err, errlen);
}

static void sampler_pause(void *ctx, double seconds) {
    (void)ctx;
    file_signals_note(NULL); /* a throttled device's pause (up to BENCH_MAX_RECOVERY_S): no kernel runs */
    backend_pause_s(seconds);
}

static void sampler_progress(void *ctx, size_t rounds, double elapsed) {
    sampler_t *s = ctx;
    if (s->h->opt->quiet || elapsed - s->last_report < 1.0) return;
    s->last_report = elapsed;
    fprintf(stderr, "sdpa-bench: timing %s: %zu samples, %.1f s\n", s->label, rounds, elapsed);
}

static int keep_clocks(harness_t *h, const double *c, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(c[i])) continue;
        if (h->n_clocks == h->cap_clocks) {
            const size_t cap = h->cap_clocks ? 2 * h->cap_clocks : 256;
            double *p = realloc(h->clocks, cap * sizeof *p);
            if (!p) return -1;
            h->clocks = p;
            h->cap_clocks = cap;
        }
        h->clocks[h->n_clocks++] = c[i];
    }
    return 0;
}

double harness_measured_clock(const harness_t *h) {
    stats_summary_t s;
    return h->n_clocks && stats_summarize(h->clocks, h->n_clocks, &s) == 0 ? s.median : NAN;
}

static void print_timing(const char *variant, const char *shape, const bench_result_t *r, size_t arm,
                         const char *timing, const char *l2) {
    stats_summary_t s;
    if (stats_summarize(r->samples_us[arm], r->rounds, &s) != 0) {
        printf("time    %-12s %-8s no sample kept (%zu rounds discarded for throttling)\n", variant, shape,
               r->discarded_rounds);
        return;
    }
    printf("time    %-12s %-8s median %.2f us", variant, shape, s.median);
    if (s.ci_available) printf(" [95%% CI %.2f, %.2f]", s.ci_lo, s.ci_hi);
    printf(" n=%zu rel-IQR %.3f, %s L2, stop: %s%s\n", s.n, s.rel_iqr, l2, bench_stop_name(r->stop),
           strcmp(timing, "gpu") == 0 ? "" : "  (EMULATED: CPU time of the emulator, not GPU time)");
}

static void record_arm(harness_t *h, const cli_shape_t *s, uint64_t seed, size_t run_index,
                       const bench_result_t *r, size_t arm) {
    const char *variant = h->run[run_index]->id;
    /* What was done, not what was asked: the emulator has no L2 to flush, so its samples are
     * back to back ("warm") whatever --l2 said (config.l2 keeps the request). */
    const char *timing = h->be->ops->timing, *l2 = h->opt->l2_cold && h->have_device ? "cold" : "warm";
    const int cc = h->have_device ? arch_cc_from_string(h->dev.cc) : -1;
    const timing_rec_t t = {variant,
                            s->name,
                            s->shape,
                            seed,
                            timing,
                            l2,
                            r->samples_us[arm],
                            h->have_device ? r->clock_mhz[arm] : NULL,
                            r->rounds,
                            r->discarded_rounds,
                            bench_stop_name(r->stop),
                            r->wall_s,
                            h->have_device ? &h->dev : NULL,
                            roof_products(h->run[run_index]->sw, cc)};
    cJSON *entry = bj_timing(&t);
    /* Its place among the round's arms (since 2.1.0): with config.arm_order, the position of every
     * kept sample in its round (host/lib/arm_order.h). */
    cJSON_AddNumberToObject(entry, "arm", (double)arm);
    cJSON_AddNumberToObject(entry, "arms", (double)r->arms);
    if (h->peer[run_index]) bj_peer_fields(entry, peer_session_library(h->peer[run_index]));
    if (h->opt->aa_control) cJSON_AddStringToObject(entry, "aa_arm", arm == 0 ? "A" : "B"); /* same variant */
    cJSON_AddItemToArray(h->timing, entry);
    print_timing(variant, s->name, r, arm, timing, l2);
    size_t unmeasured = 0;
    for (size_t i = 0; h->have_device && i < r->rounds; i++) unmeasured += !isfinite(r->clock_mhz[arm][i]);
    if (unmeasured && h->throttle > 0)
        fprintf(
            stderr,
            "sdpa-bench: %s on %s: SM clock detection unavailable for %zu of %zu samples (shorter than the "
            "20 us a clock estimate needs, or no timestamp block landed on SM 0): throttling could not "
            "be checked for those\n",
            variant, s->name, unmeasured, r->rounds);
    if (h->have_device) keep_clocks(h, r->clock_mhz[arm], r->rounds);
}

static void record_comparison(harness_t *h, const cli_shape_t *s, uint64_t seed, const bench_result_t *r,
                              const char *candidate, size_t arm) {
    ab_result_t ab;
    const bool have = r->rounds >= 2 &&
                      stats_ab_compare(r->samples_us[0], r->samples_us[arm], r->rounds, AB_DEFAULT_EPSILON,
                                       AB_DEFAULT_RESAMPLES, AB_DEFAULT_SEED, &ab) == 0;
    const comparison_rec_t c = {h->run[0]->id,    candidate,          s->name,   h->be->ops->timing, seed,
                                r->samples_us[0], r->samples_us[arm], r->rounds, have ? &ab : NULL};
    cJSON *entry = bj_comparison(&c);
    if (h->opt->aa_control) cJSON_AddBoolToObject(entry, "aa_control", true);
    cJSON_AddItemToArray(h->comparisons, entry);
    const bool gpu = strcmp(h->be->ops->timing, "gpu") == 0; /* emulated: no verdict (run_json.c) */
    if (!have) {
        printf("compare %-12s vs %-12s %-8s too few rounds (%zu) for a comparison: %s\n", candidate,
               h->run[0]->id, s->name, r->rounds, gpu ? "AMBIGUOUS" : "no verdict (EMULATED timings)");
        return;
    }
    printf("compare %-12s vs %-12s %-8s ratio %.4f [%.4f, %.4f]  speedup %.3fx  latency reduction %.1f%%  "
           "%s\n",
           candidate, h->run[0]->id, s->name, ab.ratio, ab.ratio_ci_lo, ab.ratio_ci_hi, ab.speedup,
           100.0 * ab.latency_reduction, gpu ? verdict_name(ab.verdict) : "no verdict (EMULATED timings)");
}

/* One sampling run of the given arms (indices into h->run) on one shape. */
static int time_arms(harness_t *h, const cli_shape_t *s, const size_t *arms, size_t n_arms) {
    const cli_opts_t *o = h->opt;
    const uint64_t seed = o->seeds[0];
    problem_t p;
    if (problem_init(&p, h->be, s->name, s->shape, o->dist, o->codec, seed, NULL, h->err, sizeof h->err) !=
        0) {
        problem_free(&p);
        return EXIT_RUNTIME;
    }
    char label[256];
    snprintf(label, sizeof label, "%s%s on %s, seed %" PRIu64, h->run[arms[0]]->id,
             n_arms > 1 ? " (interleaved A/B)" : "", s->name, seed);
    sampler_t smp = {.h = h, .label = label};
    int rc = 0;
    file_signals_note(NULL);
    for (size_t a = 0; a < n_arms && rc == 0; a++) {
        smp.fns[a] = h->run[arms[a]]->launch;
        snprintf(arm_note[a], sizeof arm_note[a],
                 "sdpa-bench: stopped by a signal while timing %s on %s, seed %" PRIu64 "%s\n",
                 h->run[arms[a]]->id, s->name, seed, n_arms > 1 ? " (interleaved)" : "");
        smp.notes[a] = arm_note[a];
        if (h->peer[arms[a]]) rc = peer_run_open(h->peer[arms[a]], &p, &smp.peers[a], h->err, sizeof h->err);
    }
    if (rc != 0) { /* h->err says why a peer could not be opened */
        file_signals_note(NULL);
        for (size_t a = 0; a < n_arms; a++) peer_run_close(smp.peers[a]);
        problem_free(&p);
        return EXIT_RUNTIME;
    }
    problem_args(&p, &smp.args);
    const bench_clock_t clock = {&smp, sampler_now, sampler_sample, sampler_pause, sampler_progress};
    bench_plan_t plan;
    bench_plan_init(&plan, o->warmup, o->iters, o->min_time_s, o->max_time_s,
                    h->have_device ? h->dev.sm_clock_default_mhz : NAN);
    plan.throttle_threshold = h->throttle;
    plan.arm_order = o->arm_order;
    bench_result_t r;
    /* The first arm's note before the line that announces the timing, so that a signal after the
     * line finds one (its first sample sets it again, and the later samples theirs). */
    file_signals_note(smp.notes[0]);
    if (!o->quiet) fprintf(stderr, "sdpa-bench: timing %s\n", label);
    char err[sizeof h->err - 300];
    rc = bench_run(&plan, &clock, n_arms, &r, err, sizeof err);
    file_signals_note(NULL);
    for (size_t a = 0; a < n_arms; a++) peer_run_close(smp.peers[a]);
    problem_free(&p);
    if (rc != 0) {
        snprintf(h->err, sizeof h->err, "timing %s: %s", label, err);
        return EXIT_RUNTIME;
    }
    for (size_t a = 0; a < n_arms; a++) record_arm(h, s, seed, arms[a], &r, a);
    for (size_t a = 1; o->baseline && a < n_arms; a++)
        record_comparison(h, s, seed, &r, h->run[arms[a]]->id, a);
    bench_result_free(&r);
    return 0;
}

static void not_timed(harness_t *h, const char *variant, const char *reason) {
    cJSON_AddItemToArray(h->not_timed, bj_not_timed(variant, reason));
    printf("time    %-12s not timed: %s\n", variant, reason);
}

#define FAILED_REASON "failed correctness (not timed; --force times it anyway)"

/* time_arms over the arms that support this shape (the others are in not_supported already). */
static int time_fitting(harness_t *h, const cli_shape_t *s, const size_t *arms, size_t n_arms) {
    size_t kept[HARNESS_MAX_RUN], n = 0;
    for (size_t a = 0; a < n_arms; a++)
        if (!arm_skips(h, arms[a], s, false)) kept[n++] = arms[a];
    if (n == 0) return 0;
    if (h->opt->baseline && kept[0] != arms[0]) {
        char why[96];
        snprintf(why, sizeof why, "its baseline is not supported at shape %s", s->name);
        for (size_t a = 0; a < n; a++) not_timed(h, h->run[kept[a]]->id, why);
        return 0;
    }
    return time_arms(h, s, kept, n);
}

int harness_timing(harness_t *h) {
    const cli_opts_t *o = h->opt;
    if (o->check_only) return 0;
    size_t arms[HARNESS_MAX_RUN], n = 0;
    const size_t first = o->baseline ? 1 : 0;
    for (size_t i = first; i < h->n_run; i++) {
        if (h->passed[i] || o->force)
            arms[n++] = i;
        else
            not_timed(h, h->run[i]->id, FAILED_REASON);
    }
    if (o->baseline) {
        if (!h->passed[0] && !o->force) {
            not_timed(h, h->run[0]->id, "baseline " FAILED_REASON);
            for (size_t a = 0; a < n; a++)
                not_timed(h, h->run[arms[a]]->id, "its baseline failed correctness");
            return 0;
        }
        if (n == 0) {
            not_timed(h, h->run[0]->id, "no candidate passed correctness");
            return 0;
        }
        /* One interleaved run per shape: baseline, then every candidate, round after round. */
        memmove(arms + 1, arms, n * sizeof arms[0]);
        arms[0] = 0;
        for (size_t s = 0; s < o->n_shapes; s++) {
            const int rc = time_fitting(h, &o->shapes[s], arms, n + 1);
            if (rc != 0) return rc;
        }
        return 0;
    }
    for (size_t a = 0; a < n; a++)
        for (size_t s = 0; s < o->n_shapes; s++) {
            const int rc = time_fitting(h, &o->shapes[s], &arms[a], 1);
            if (rc != 0) return rc;
        }
    return 0;
}

void harness_free(harness_t *h) {
    free(h->clocks);
    h->clocks = NULL;
    h->n_clocks = h->cap_clocks = 0;
}
