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
 *
 * Stage 6 (e4m3 P with the fixed scale 448, l = sum of the quantised p) has its own kernel-only
 * bars, fixed in paper/methods.md#tolerances-fp8 before its kernel existed (the "fp8p" family):
 *       rtol    = 2u
 *       atol_bh = 4 * (u*Smax_bh + u8 + S*eps_sub) * Vmax_bh,  u8 = 2^-4, eps_sub = 2^-10/448,
 *     S the number of keys; rel-L2 <= 7e-2. Every other variant uses the fp16 family above.
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

#define TOL_U8 (1.0 / 16.0)                     /* e4m3 unit roundoff, normal range */
#define TOL_FP8P_SCALE 448.0                    /* P = 1 -> the largest finite e4m3 */
#define TOL_FP8P_EPS_SUB (1.0 / 1024.0 / 448.0) /* half the smallest subnormal, in units of p */
#define TOL_FP8P_RTOL (2.0 * TOL_U)
#define TOL_FP8P_REL_L2 7e-2

/* atol for one slice from the reference bounds (the fp16 family). */
double tol_kernel_atol(double smax, double vmax);

/* A family of kernel-only bars: atol_bh = (atol_smax*Smax + atol_const + atol_per_key*S)*Vmax,
 * the element-wise rtol, and the rel-L2 bar. Which variant uses which family is the registry's
 * business; the default, TOL_FAMILY_FP16, is the one every stage up to 5 uses. */
typedef struct {
    const char *name; /* "fp16", "fp8p" */
    double atol_smax, atol_const, atol_per_key;
    double rtol;
    double rel_l2;
} tol_family_t;

extern const tol_family_t TOL_FAMILY_FP16, TOL_FAMILY_FP8P;

/* atol of one slice of family f (NULL: the fp16 family) with n_keys keys. */
double tol_family_atol(const tol_family_t *f, double smax, double vmax, size_t n_keys);

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
    double rel_l1;      /* sum |o - ref| / sum |ref|: SageAttention's relative L1, information only */
    double rmse;        /* sqrt(mean (o - ref)^2) over finite outputs: FlashAttention-3's, information only */
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

/* gate_kernel_only with family f's rel-L2 bar (NULL: fp16); m must come from f's atol and rtol. */
bool gate_kernel_only_family(const err_metrics_t *m, const tol_family_t *f);

#endif
