/* Latency statistics (stats.h; paper/methods.md, "Timing"). Everything is deterministic: sorting,
 * exact binomial tail sums without transcendental functions, and the project RNG for the
 * bootstrap. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double stats_min_step(const double *x, size_t n, double floor) {
    if (n < 2) return 0.0;
    double *s = malloc(n * sizeof *s), step = 0.0;
    if (!s) return NAN;
    memcpy(s, x, n * sizeof *s);
    for (size_t i = 0; i < n; i++)
        if (!isfinite(s[i])) {
            free(s);
            return NAN;
        }
    qsort(s, n, sizeof *s, cmp_double);
    for (size_t i = 1; i < n; i++) {
        const double d = s[i] - s[i - 1];
        if (d > floor && (step == 0.0 || d < step)) step = d;
    }
    free(s);
    return step;
}

/* Linear interpolation between two neighbouring order statistics: lo + frac * (hi - lo). One
 * formula for quantiles of sorted data and bootstrap medians, so both give identical bits. */
static double interp(double lo, double hi, double frac) { return frac == 0.0 ? lo : lo + frac * (hi - lo); }

double stats_quantile_sorted(const double *sorted, size_t n, double p) {
    if (n == 0) return NAN;
    if (p <= 0.0) return sorted[0];
    if (p >= 1.0) return sorted[n - 1];
    double h = (double)(n - 1) * p;
    size_t lo = (size_t)h;
    if (lo >= n - 1) return sorted[n - 1];
    return interp(sorted[lo], sorted[lo + 1], h - (double)lo);
}

/* P[Bin(n, 1/2) <= t] for t = 0, 1, ... is a running sum of C(n, t) 2^-n. The terms C(n, t) grow
 * past any double for large n and 2^-n underflows, so the sum is kept scaled: the true CDF is
 * sum * 2^(off - n), with sum and the current term rescaled by 2^-600 whenever the term passes
 * 2^600 (a power-of-two scaling is exact). C(n, t+1) = C(n, t) (n - t)/(t + 1). The relative
 * error after t steps is about t ulps, far below any gap that could move a rank. */
int stats_median_ci_ranks(size_t n, double level, size_t *j, size_t *k, double *coverage) {
    if (n < 6 || !(level > 0.0 && level < 1.0)) return -1;
    const double tail = (1.0 - level) / 2.0;
    double term = 1.0, sum = 1.0;
    long off = 0;
    size_t best = 0; /* largest valid j so far; 0 = none */
    double best_cdf = 0.0;
    for (size_t t = 0; t < n / 2; t++) {
        double cdf = ldexp(sum, (int)(off - (long)n));
        if (cdf > tail) break;
        best = t + 1;
        best_cdf = cdf;
        term = term * (double)(n - t) / (double)(t + 1);
        sum += term;
        if (term > 0x1.0p600) {
            term *= 0x1.0p-600;
            sum *= 0x1.0p-600;
            off += 600;
        }
    }
    if (best == 0) return -1;
    *j = best;
    *k = n + 1 - best;
    *coverage = 1.0 - 2.0 * best_cdf;
    return 0;
}

int stats_summarize(const double *x, size_t n, stats_summary_t *out) {
    memset(out, 0, sizeof *out);
    if (n == 0) return -1;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i])) return -1;
    double *s = malloc(n * sizeof *s);
    if (!s) return -1;
    memcpy(s, x, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    out->n = n;
    out->min = s[0];
    out->max = s[n - 1];
    out->q1 = stats_quantile_sorted(s, n, 0.25);
    out->median = stats_quantile_sorted(s, n, 0.5);
    out->q3 = stats_quantile_sorted(s, n, 0.75);
    out->p90 = stats_quantile_sorted(s, n, 0.90);
    out->p99 = stats_quantile_sorted(s, n, 0.99);
    out->iqr = out->q3 - out->q1;
    out->rel_iqr = out->median != 0.0 ? out->iqr / out->median : NAN;
    /* Two passes: the mean, then squared deviations from it (no cancellation). */
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) sum += x[i];
    out->mean = sum / (double)n;
    double ss = 0.0;
    for (size_t i = 0; i < n; i++) ss += (x[i] - out->mean) * (x[i] - out->mean);
    out->std = n > 1 ? sqrt(ss / (double)(n - 1)) : NAN;
    size_t j, k;
    double cov;
    if (stats_median_ci_ranks(n, 0.95, &j, &k, &cov) == 0) {
        out->ci_available = true;
        out->ci_lo = s[j - 1];
        out->ci_hi = s[k - 1];
        out->ci_coverage = cov;
    } else {
        out->ci_lo = out->ci_hi = out->ci_coverage = NAN;
    }
    free(s);
    return 0;
}

static const char *const VERDICT_NAMES[] = {
    [VERDICT_FASTER] = "FASTER",
    [VERDICT_SLOWER] = "SLOWER",
    [VERDICT_SAME] = "SAME",
    [VERDICT_AMBIGUOUS] = "AMBIGUOUS",
};

const char *verdict_name(verdict_t v) {
    return (unsigned)v < sizeof VERDICT_NAMES / sizeof VERDICT_NAMES[0] ? VERDICT_NAMES[v] : "UNKNOWN";
}

verdict_t stats_verdict(double lo, double hi, double epsilon) {
    if (lo >= 1.0 - epsilon && hi <= 1.0 + epsilon) return VERDICT_SAME;
    if (hi < 1.0) return VERDICT_FASTER;
    if (lo > 1.0) return VERDICT_SLOWER;
    return VERDICT_AMBIGUOUS;
}

static void swap_d(double *a, double *b) {
    double t = *a;
    *a = *b;
    *b = t;
}

/* The k-th smallest of a[0..n) (0-based), reordering a so that everything before index k is <=
 * it and everything after is >= it: quickselect with a median-of-three pivot and a three-way
 * partition (timing samples repeat values at the timer's resolution, and equal keys then cost
 * nothing). Deterministic, O(n) on average. */
static double select_kth(double *a, size_t n, size_t k) {
    size_t lo = 0, hi = n; /* k lies in [lo, hi) */
    for (;;) {
        double x = a[lo], y = a[lo + (hi - lo) / 2], z = a[hi - 1];
        double pivot = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
        size_t lt = lo, i = lo, gt = hi; /* [lo,lt) < pivot, [lt,i) == pivot, [gt,hi) > pivot */
        while (i < gt) {
            if (a[i] < pivot)
                swap_d(&a[lt++], &a[i++]);
            else if (a[i] > pivot)
                swap_d(&a[i], &a[--gt]);
            else
                i++;
        }
        if (k < lt)
            hi = lt;
        else if (k >= gt)
            lo = gt;
        else
            return pivot;
    }
}

/* Type-7 median of a[0..n), reordering a; same interpolation as stats_quantile_sorted. */
static double median_inplace(double *a, size_t n) {
    size_t m = (n - 1) / 2;
    double lo = select_kth(a, n, m);
    if (n % 2) return lo;
    /* After selection every element above index m is >= lo; the next order statistic is the
     * smallest of them. */
    double hi = a[m + 1];
    for (size_t i = m + 2; i < n; i++)
        if (a[i] < hi) hi = a[i];
    return interp(lo, hi, 0.5);
}

#define AB_LEVEL 0.95

int stats_ab_compare(const double *base, const double *cand, size_t rounds, double epsilon,
                     unsigned resamples, uint64_t seed, ab_result_t *out) {
    memset(out, 0, sizeof *out);
    if (rounds < 2 || resamples == 0 || !(epsilon >= 0.0)) return -1;
    for (size_t i = 0; i < rounds; i++)
        if (!isfinite(base[i]) || !isfinite(cand[i]) || !(base[i] > 0.0) || !(cand[i] > 0.0)) return -1;
    double *b = malloc(rounds * sizeof *b), *c = malloc(rounds * sizeof *c);
    double *ratios = malloc(resamples * sizeof *ratios);
    if (!b || !c || !ratios) {
        free(b);
        free(c);
        free(ratios);
        return -1;
    }
    memcpy(b, base, rounds * sizeof *b);
    memcpy(c, cand, rounds * sizeof *c);
    out->base_median = median_inplace(b, rounds);
    out->cand_median = median_inplace(c, rounds);
    /* Percentile bootstrap: each resample draws `rounds` whole rounds with replacement (one index
     * per round, used for both variants, keeping the pairing of the interleaved measurement). */
    rng_t r;
    rng_seed(&r, seed, 0);
    for (unsigned s = 0; s < resamples; s++) {
        for (size_t i = 0; i < rounds; i++) {
            size_t idx = (size_t)rng_below(&r, rounds);
            b[i] = base[idx];
            c[i] = cand[idx];
        }
        ratios[s] = median_inplace(c, rounds) / median_inplace(b, rounds);
    }
    qsort(ratios, resamples, sizeof *ratios, cmp_double);
    out->rounds = rounds;
    out->epsilon = epsilon;
    out->resamples = resamples;
    out->seed = seed;
    out->ratio = out->cand_median / out->base_median;
    out->ratio_ci_lo = stats_quantile_sorted(ratios, resamples, (1.0 - AB_LEVEL) / 2.0);
    out->ratio_ci_hi = stats_quantile_sorted(ratios, resamples, 1.0 - (1.0 - AB_LEVEL) / 2.0);
    out->speedup = 1.0 / out->ratio;
    out->speedup_ci_lo = 1.0 / out->ratio_ci_hi;
    out->speedup_ci_hi = 1.0 / out->ratio_ci_lo;
    out->latency_reduction = 1.0 - out->ratio;
    out->latency_reduction_ci_lo = 1.0 - out->ratio_ci_hi;
    out->latency_reduction_ci_hi = 1.0 - out->ratio_ci_lo;
    out->verdict = stats_verdict(out->ratio_ci_lo, out->ratio_ci_hi, epsilon);
    free(b);
    free(c);
    free(ratios);
    return 0;
}
