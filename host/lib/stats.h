/* Statistics for latency samples (paper/methods.md, "Timing"). Pure C, deterministic.
 * Quantiles use linear interpolation between order statistics (Hyndman & Fan type 7, numpy's
 * default). The 95% CI of the median is distribution-free, from order statistics: the largest j
 * with P[Bin(n,1/2) <= j-1] <= 0.025 gives [x(j), x(n+1-j)] (1-based), coverage
 * 1 - 2 P[Bin(n,1/2) <= j-1]; it needs n >= 6 (otherwise the CI is reported as unavailable).
 * A/B comparisons take paired rounds (base[i], cand[i] measured back to back, interleaved);
 * the CI of the ratio of medians is a percentile bootstrap resampling whole rounds with the
 * project RNG and a fixed seed. */
#ifndef STATS_H
#define STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    size_t n;
    double min, q1, median, q3, max, mean, std, p90, p99;
    double iqr, rel_iqr;              /* q3 - q1, and that over the median */
    bool ci_available;                /* n >= 6 */
    double ci_lo, ci_hi, ci_coverage; /* 95% CI of the median; actual coverage >= 0.95 */
} stats_summary_t;

/* x need not be sorted (a sorted copy is made). std is the sample standard deviation (n-1).
 * Returns 0, -1 if n == 0 or any sample is not finite. */
int stats_summarize(const double *x, size_t n, stats_summary_t *out);
double stats_quantile_sorted(const double *sorted, size_t n, double p); /* type 7, 0 <= p <= 1 */
/* The smallest difference above floor between two of the n values of x (unsorted; a sorted copy is
 * made): a timer's step as its samples show it. 0 when no two values differ by more than floor, NAN
 * when the copy cannot be made or a value is not finite. */
double stats_min_step(const double *x, size_t n, double floor);
/* Order-statistic CI of the median: 1-based indices j, k (k = n+1-j); -1 if n < 6. */
int stats_median_ci_ranks(size_t n, double level, size_t *j, size_t *k, double *coverage);

typedef enum { VERDICT_FASTER, VERDICT_SLOWER, VERDICT_SAME, VERDICT_AMBIGUOUS } verdict_t;
const char *verdict_name(verdict_t v); /* "FASTER", "SLOWER", "SAME", "AMBIGUOUS" */

typedef struct {
    size_t rounds;
    double base_median, cand_median;
    double ratio; /* t_new / t_base, ratio of medians */
    double ratio_ci_lo, ratio_ci_hi;
    double speedup; /* t_base / t_new = 1/ratio */
    double speedup_ci_lo, speedup_ci_hi;
    double latency_reduction; /* 1 - t_new/t_base = 1 - ratio */
    double latency_reduction_ci_lo, latency_reduction_ci_hi;
    double epsilon; /* equivalence band: SAME iff the ratio CI is inside [1-eps, 1+eps] */
    unsigned resamples;
    uint64_t seed;
    verdict_t verdict; /* SAME if CI in band; else FASTER if hi < 1; SLOWER if lo > 1; else AMBIGUOUS */
} ab_result_t;

#define AB_DEFAULT_RESAMPLES 10000u
#define AB_DEFAULT_SEED 0x5eedab5eedULL
#define AB_DEFAULT_EPSILON 0.02

/* Added: the verdict rule alone, for a ratio CI [lo, hi] and band epsilon (see ab_result_t). */
verdict_t stats_verdict(double lo, double hi, double epsilon);

/* rounds >= 2; all samples finite and > 0. Returns 0 or -1. */
int stats_ab_compare(const double *base, const double *cand, size_t rounds, double epsilon,
                     unsigned resamples, uint64_t seed, ab_result_t *out);

#endif
