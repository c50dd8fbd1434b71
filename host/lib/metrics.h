/* Error metrics and correctness gates. The tolerances are derived in paper/methods.md
 * ("Rounding budget and tolerances"), fixed there before any kernel was measured:
 *
 *   u = 2^-11 (fp16 unit roundoff)
 *   kernel-only, per (b,h) slice:   |o - ref| <= atol_bh + rtol*|ref|
 *       rtol    = 2u
 *       atol_bh = 2u * (2*Smax_bh + 1) * Vmax_bh
 *     with Smax_bh the largest |logit| and Vmax_bh the largest |v| of the slice (reference.h);
 *   kernel-only gate: no non-finite output, every element within tolerance, rel-L2 <= 1e-3;
 *   end-to-end gate (information for non-normal data): rel-L2 <= 6e-2 and cosine >= 0.998;
 *   legacy gate of the original study (labelled as such): max_abs <= 0.06, mean_abs <= 0.02,
 *     %bad <= 1 with bad = |err| > 0.06, against the end-to-end reference.
 */
#ifndef METRICS_H
#define METRICS_H

#include <stdbool.h>
#include <stddef.h>

#define TOL_U (1.0 / 2048.0)
#define TOL_RTOL (2.0 * TOL_U)
#define TOL_KERNEL_REL_L2 1e-3
#define TOL_E2E_REL_L2 6e-2
#define TOL_E2E_COSINE 0.998
#define LEGACY_MAX_ABS 0.06
#define LEGACY_MEAN_ABS 0.02
#define LEGACY_PCT_BAD 1.0
#define LEGACY_ATOL 0.06

/* atol for one slice from the reference bounds. */
double tol_kernel_atol(double smax, double vmax);

typedef struct {
    size_t n;         /* elements compared */
    size_t nonfinite; /* outputs that are NaN or +-inf (excluded from the sums below); an element
                           whose reference is non-finite counts here too */
    size_t n_bad;     /* elements with |err| > atol + rtol*|ref| (non-finite outputs count as bad) */
    double pct_bad;   /* 100 * n_bad / n */
    double max_abs;   /* max |o - ref| over finite outputs */
    double mean_abs;
    double max_rel;     /* max |o - ref| / (|ref| + 1e-6), information only */
    double rel_l2;      /* ||o - ref||_2 / ||ref||_2 */
    double cosine;      /* <o, ref> / (||o|| ||ref||) */
    size_t worst_index; /* index of the element with the largest |err| / (atol + rtol*|ref|) */
    double worst_ratio; /* that ratio (<= 1 means within tolerance) */
    /* Added: the tolerances the comparison used (data/SCHEMA.md METRICS), so that a result file
     * carries them: smallest and largest atol over the blocks, and rtol. */
    double atol_min, atol_max, rtol;
} err_metrics_t;

/* Compare out (n values, converted to double) with ref. Elements are grouped in blocks of
 * block_len consecutive values (a [b,h] slice is S*D values); atol[i / block_len] is the absolute
 * tolerance of element i. Pass atol = NULL and a single atol_all instead for one tolerance. */
void metrics_compute(const double *out, const double *ref, size_t n, const double *atol, size_t block_len,
                     double atol_all, double rtol, err_metrics_t *m);

bool gate_kernel_only(const err_metrics_t *m); /* nonfinite == 0, n_bad == 0, rel_l2 <= 1e-3 */
bool gate_end_to_end(const err_metrics_t *m);  /* nonfinite == 0, rel_l2 <= 6e-2, cosine >= 0.998 */
bool gate_legacy(const err_metrics_t *m);      /* computed with atol 0.06, rtol 0 */

#endif
