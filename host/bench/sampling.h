/* The sampling engine: warm-up, interleaved rounds, throttle discard and the stopping rule
 * (paper/methods.md, "Timing"; NVBench's cold measurement). Pure logic over an injected clock and sampler, so the tests drive it
 * with a fake clock and scripted samples, and no test sleeps.
 *
 * Arms and rounds: with k arms (1 for a plain timing, 1 + candidates for --vs), one round samples
 * every arm once. In the default order ("rotated") kept round r starts at arm r mod k and goes on
 * cyclically (A B, B A, A B, ... for one candidate: A B B A A B B A), so each arm is first, second,
 * ... in the same number of rounds (to within one) and whatever a position carries (the clock's
 * ramp after a recovery pause, the state the previous launch leaves) is spread over the arms
 * instead of landing on one (host/lib/arm_order.h); "fixed" samples arm 0, 1, ..., k-1 every round
 * (A B A B ..., the order of the campaigns written before schema 2.1.0). Warm-up rounds are in arm
 * order. Rounds are the unit of pairing for the A/B bootstrap, so a round in which any sample ran under the throttle
 * threshold is discarded whole (every arm loses that round's sample), followed by a recovery
 * pause: recovery_s for the first two consecutive discarded rounds, doubling after that (capped
 * at 1 s), as NVBench lengthens its pause after more than two consecutive throttled samples.
 *
 * The SM clock of a sample is judged only when its interval is at least min_clock_interval_us
 * (20 us): the clock is estimated from %globaltimer, which ticks every 32 ns to 1 us depending on
 * the GPU, over a window that also holds the launch gaps of the timestamp kernels around the
 * work; on a shorter sample one tick or one gap is a sizeable part of the window and a busy SM
 * can read as throttled. Such a sample is kept, with its clock recorded as unmeasured (NaN, counted
 * in TIMING.clock_unmeasured), never discarded for a clock it could not measure.
 *
 * Stopping rule, checked before every round: stop when at least min_samples rounds are kept and
 * min_time_s has elapsed ("min_samples_and_min_time"); else when max_samples rounds are kept
 * ("max_samples", a memory bound); else when max_time_s has elapsed ("max_time"). Time is
 * measured from the first warm-up launch and includes recovery pauses. */
#ifndef SAMPLING_H
#define SAMPLING_H

#include <stdbool.h>
#include <stddef.h>

#include "backend.h"

#define BENCH_MAX_ARMS 64
#define BENCH_DEFAULT_THROTTLE 0.75   /* NVBench's default threshold */
#define BENCH_DEFAULT_RECOVERY_S 0.05 /* NVBench's default recovery delay */
#define BENCH_MAX_RECOVERY_S 1.0
#define BENCH_DEFAULT_MAX_SAMPLES 1000000
#define BENCH_MIN_CLOCK_INTERVAL_US 20.0 /* shorter samples: clock unmeasured (see above) */

typedef struct {
    void *ctx;
    double (*now_s)(void *ctx); /* monotonic seconds */
    /* One timed launch of arm (warmup: a warm-up launch, whose result is ignored and which the
     * backend runs without blocking the stream); 0, or -1 with a message (aborts the run). */
    int (*sample)(void *ctx, size_t arm, bool warmup, backend_sample_t *out, char *err, size_t errlen);
    void (*pause_s)(void *ctx, double seconds);
    /* Optional progress report, called after each kept round. */
    void (*progress)(void *ctx, size_t rounds, double elapsed_s);
} bench_clock_t;

typedef enum { BENCH_ARMS_ROTATED, BENCH_ARMS_FIXED } bench_arm_order_t;

typedef struct {
    size_t warmup;      /* rounds before sampling, results ignored */
    size_t min_samples; /* --iters */
    size_t max_samples;
    double min_time_s, max_time_s;
    double throttle_threshold;    /* fraction of default_clock_mhz */
    double default_clock_mhz;     /* NaN or <= 0: no throttle detection (emulator) */
    double min_clock_interval_us; /* a shorter sample's clock is unmeasured (NaN), never judged */
    double recovery_s;
    bench_arm_order_t arm_order; /* --arm-order (default rotated) */
} bench_plan_t;

typedef enum { BENCH_STOP_MIN_SAMPLES_AND_TIME, BENCH_STOP_MAX_SAMPLES, BENCH_STOP_MAX_TIME } bench_stop_t;

typedef struct {
    size_t arms;
    size_t rounds; /* kept rounds = samples per arm */
    size_t capacity;
    double *samples_us[BENCH_MAX_ARMS];
    double *clock_mhz[BENCH_MAX_ARMS];
    size_t discarded_rounds;                  /* rounds dropped for a throttled sample */
    size_t throttled_samples[BENCH_MAX_ARMS]; /* this arm's own samples under the threshold */
    bench_stop_t stop;
    double wall_s; /* warm-up + sampling, pauses included */
} bench_result_t;

/* Fills plan with the defaults above and the given options. */
void bench_plan_init(bench_plan_t *plan, size_t warmup, size_t min_samples, double min_time_s,
                     double max_time_s, double default_clock_mhz);
/* Runs warm-up and sampling for arms (1..BENCH_MAX_ARMS). Returns 0 with *out filled (free it
 * with bench_result_free), or -1 with the sampler's message (out is freed). */
int bench_run(const bench_plan_t *plan, const bench_clock_t *clock, size_t arms, bench_result_t *out,
              char *err, size_t errlen);
void bench_result_free(bench_result_t *r);
const char *bench_stop_name(bench_stop_t s);           /* data/SCHEMA.md TIMING.stop_reason */
const char *bench_arm_order_name(bench_arm_order_t o); /* data/SCHEMA.md config.arm_order */
int bench_arm_order_from_name(const char *name, bench_arm_order_t *out); /* 0, or -1: unknown */
/* Whether a sample's clock is under the threshold (false when either clock is unknown). */
bool bench_throttled(const bench_plan_t *plan, double clock_mhz);
/* The pause after the given number of consecutive discarded rounds (>= 1). */
double bench_recovery_pause(const bench_plan_t *plan, size_t consecutive);

#endif
