/* The sampling engine (see sampling.h for the rules it implements). */
#include "sampling.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arm_order.h"

void bench_plan_init(bench_plan_t *plan, size_t warmup, size_t min_samples, double min_time_s,
                     double max_time_s, double default_clock_mhz) {
    plan->warmup = warmup;
    plan->min_samples = min_samples;
    plan->max_samples = BENCH_DEFAULT_MAX_SAMPLES;
    plan->min_time_s = min_time_s;
    plan->max_time_s = max_time_s;
    plan->throttle_threshold = BENCH_DEFAULT_THROTTLE;
    plan->default_clock_mhz = default_clock_mhz;
    plan->recovery_s = BENCH_DEFAULT_RECOVERY_S;
    plan->min_clock_interval_us = BENCH_MIN_CLOCK_INTERVAL_US;
    plan->arm_order = BENCH_ARMS_ROTATED;
}

const char *bench_arm_order_name(bench_arm_order_t o) { return o == BENCH_ARMS_FIXED ? "fixed" : "rotated"; }

int bench_arm_order_from_name(const char *name, bench_arm_order_t *out) {
    if (strcmp(name, "rotated") == 0)
        *out = BENCH_ARMS_ROTATED;
    else if (strcmp(name, "fixed") == 0)
        *out = BENCH_ARMS_FIXED;
    else
        return -1;
    return 0;
}

const char *bench_stop_name(bench_stop_t s) {
    switch (s) {
    case BENCH_STOP_MIN_SAMPLES_AND_TIME: return "min_samples_and_min_time";
    case BENCH_STOP_MAX_SAMPLES: return "max_samples";
    case BENCH_STOP_MAX_TIME: return "max_time";
    }
    return "?";
}

bool bench_throttled(const bench_plan_t *plan, double clock_mhz) {
    if (!(plan->default_clock_mhz > 0) || !isfinite(clock_mhz)) return false;
    return clock_mhz < plan->throttle_threshold * plan->default_clock_mhz;
}

double bench_recovery_pause(const bench_plan_t *plan, size_t consecutive) {
    double s = plan->recovery_s;
    for (size_t i = 2; i < consecutive && s < BENCH_MAX_RECOVERY_S; i++) s *= 2.0;
    return s < BENCH_MAX_RECOVERY_S ? s : BENCH_MAX_RECOVERY_S;
}

void bench_result_free(bench_result_t *r) {
    for (size_t a = 0; a < BENCH_MAX_ARMS; a++) {
        free(r->samples_us[a]);
        free(r->clock_mhz[a]);
    }
    memset(r, 0, sizeof *r);
}

static int grow(bench_result_t *r, char *err, size_t errlen) {
    const size_t cap = r->capacity ? 2 * r->capacity : 64;
    for (size_t a = 0; a < r->arms; a++) {
        double *s = realloc(r->samples_us[a], cap * sizeof *s);
        if (s) r->samples_us[a] = s;
        double *c = realloc(r->clock_mhz[a], cap * sizeof *c);
        if (c) r->clock_mhz[a] = c;
        if (!s || !c) {
            snprintf(err, errlen, "out of memory after %zu samples", r->rounds);
            return -1;
        }
    }
    r->capacity = cap;
    return 0;
}

/* Which condition ends the run now, or -1 to go on. */
static int stop_now(const bench_plan_t *plan, size_t rounds, double elapsed) {
    if (rounds >= plan->min_samples && elapsed >= plan->min_time_s) return BENCH_STOP_MIN_SAMPLES_AND_TIME;
    if (rounds >= plan->max_samples) return BENCH_STOP_MAX_SAMPLES;
    if (elapsed >= plan->max_time_s) return BENCH_STOP_MAX_TIME;
    return -1;
}

/* One round: a sample of every arm, in the plan's order for the next kept round (a discarded round
 * is taken again in the same order, so the kept rounds stay balanced). Returns 1 if kept, 0 if
 * discarded, -1 on error. */
static int one_round(const bench_plan_t *plan, const bench_clock_t *clock, bench_result_t *r,
                     backend_sample_t *round, char *err, size_t errlen) {
    bool throttled = false;
    for (size_t pos = 0; pos < r->arms; pos++) {
        const size_t a = arm_at(plan->arm_order == BENCH_ARMS_ROTATED, r->arms, r->rounds, pos);
        if (clock->sample(clock->ctx, a, false, &round[a], err, errlen) != 0) return -1;
        if (!(round[a].elapsed_us >= plan->min_clock_interval_us)) round[a].sm_clock_mhz = NAN;
        if (bench_throttled(plan, round[a].sm_clock_mhz)) {
            r->throttled_samples[a]++;
            throttled = true;
        }
    }
    if (throttled) return 0;
    if (r->rounds == r->capacity && grow(r, err, errlen) != 0) return -1;
    for (size_t a = 0; a < r->arms; a++) {
        r->samples_us[a][r->rounds] = round[a].elapsed_us;
        r->clock_mhz[a][r->rounds] = round[a].sm_clock_mhz;
    }
    r->rounds++;
    return 1;
}

static int warm_up(const bench_plan_t *plan, const bench_clock_t *clock, size_t arms, char *err,
                   size_t errlen) {
    backend_sample_t ignored;
    for (size_t w = 0; w < plan->warmup; w++)
        for (size_t a = 0; a < arms; a++)
            if (clock->sample(clock->ctx, a, true, &ignored, err, errlen) != 0) return -1;
    return 0;
}

int bench_run(const bench_plan_t *plan, const bench_clock_t *clock, size_t arms, bench_result_t *out,
              char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    if (arms < 1 || arms > BENCH_MAX_ARMS) {
        snprintf(err, errlen, "bench_run: %zu arms (1 to %d)", arms, BENCH_MAX_ARMS);
        return -1;
    }
    out->arms = arms;
    backend_sample_t round[BENCH_MAX_ARMS];
    const double t0 = clock->now_s(clock->ctx);
    if (warm_up(plan, clock, arms, err, errlen) != 0) goto fail;
    size_t consecutive = 0;
    for (;;) {
        const double elapsed = clock->now_s(clock->ctx) - t0;
        const int stop = stop_now(plan, out->rounds, elapsed);
        if (stop >= 0) {
            out->stop = (bench_stop_t)stop;
            out->wall_s = elapsed;
            return 0;
        }
        const int kept = one_round(plan, clock, out, round, err, errlen);
        if (kept < 0) goto fail;
        if (kept) {
            consecutive = 0;
            if (clock->progress) clock->progress(clock->ctx, out->rounds, clock->now_s(clock->ctx) - t0);
        } else {
            out->discarded_rounds++;
            clock->pause_s(clock->ctx, bench_recovery_pause(plan, ++consecutive));
        }
    }
fail:
    bench_result_free(out);
    return -1;
}
