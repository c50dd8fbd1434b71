/* Error metrics and gates (metrics.h; bars derived in paper/methods.md#tolerances).
 *
 * Conventions for degenerate data, chosen so that a gate can never pass by accident:
 *   - an element whose output or reference is NaN or infinite counts in `nonfinite` and as bad,
 *     has ratio +inf (so worst_index points at the first such element) and is left out of every
 *     sum; if no element is finite, the sums-based metrics are NaN (JSON null);
 *   - rel_l2 and rel_l1 with an all-zero reference are 0 if the output is all zero too, else +inf;
 *   - cosine is 1 when both vectors are zero, 0 when exactly one is;
 *   - an element with a zero tolerance has ratio 0 when exact, +inf otherwise. */
#include "metrics.h"

#include <math.h>

double tol_kernel_atol(double smax, double vmax) { return 2.0 * TOL_U * (2.0 * smax + 1.0) * vmax; }

/* fp16: 2u(2 Smax + 1) Vmax = (4u Smax + 2u) Vmax. fp8p: the first-order bound (2u Smax for the
 * score accumulation, 2(u8 + S eps_sub) for P, u|ref| for the output) doubled. */
const tol_family_t TOL_FAMILY_FP16 = {.name = "fp16",
                                      .atol_smax = 4.0 * TOL_U,
                                      .atol_const = 2.0 * TOL_U,
                                      .atol_per_key = 0.0,
                                      .rtol = TOL_RTOL,
                                      .rel_l2 = TOL_KERNEL_REL_L2};
const tol_family_t TOL_FAMILY_FP8P = {.name = "fp8p",
                                      .atol_smax = 4.0 * TOL_U,
                                      .atol_const = 4.0 * TOL_U8,
                                      .atol_per_key = 4.0 * TOL_FP8P_EPS_SUB,
                                      .rtol = TOL_FP8P_RTOL,
                                      .rel_l2 = TOL_FP8P_REL_L2};

double tol_family_atol(const tol_family_t *f, double smax, double vmax, size_t n_keys) {
    if (!f) f = &TOL_FAMILY_FP16;
    return (f->atol_smax * smax + f->atol_const + f->atol_per_key * (double)n_keys) * vmax;
}

void metrics_compute(const double *out, const double *ref, size_t n, const double *atol, size_t block_len,
                     double atol_all, double rtol, err_metrics_t *m) {
    size_t finite = 0;
    double sum_abs = 0.0, sum_e2 = 0.0, sum_r2 = 0.0, sum_o2 = 0.0, sum_or = 0.0, sum_rabs = 0.0;
    *m = (err_metrics_t){.n = n, .worst_ratio = -INFINITY, .rtol = rtol};
    m->atol_min = atol ? INFINITY : atol_all;
    m->atol_max = atol ? -INFINITY : atol_all;
    for (size_t i = 0; i < n; i++) {
        double a = atol ? atol[block_len ? i / block_len : 0] : atol_all;
        if (a < m->atol_min) m->atol_min = a;
        if (a > m->atol_max) m->atol_max = a;
        double ratio;
        if (!isfinite(out[i]) || !isfinite(ref[i])) {
            m->nonfinite++;
            m->n_bad++;
            ratio = INFINITY;
        } else {
            double err = fabs(out[i] - ref[i]);
            double tol = a + rtol * fabs(ref[i]);
            ratio = err == 0.0 ? 0.0 : tol > 0.0 ? err / tol : INFINITY;
            if (err > tol) m->n_bad++;
            if (err > m->max_abs) m->max_abs = err;
            double rel = err / (fabs(ref[i]) + 1e-6);
            if (rel > m->max_rel) m->max_rel = rel;
            finite++;
            sum_abs += err;
            sum_e2 += err * err;
            sum_r2 += ref[i] * ref[i];
            sum_rabs += fabs(ref[i]);
            sum_o2 += out[i] * out[i];
            sum_or += out[i] * ref[i];
        }
        if (ratio > m->worst_ratio) {
            m->worst_ratio = ratio;
            m->worst_index = i;
        }
    }
    if (n == 0) {
        m->atol_min = m->atol_max = atol_all;
        m->worst_ratio = 0.0;
        m->cosine = 1.0;
        return;
    }
    m->pct_bad = 100.0 * (double)m->n_bad / (double)n;
    if (finite == 0) {
        m->max_abs = m->mean_abs = m->max_rel = m->rel_l2 = m->cosine = m->rel_l1 = m->rmse = NAN;
        return;
    }
    m->mean_abs = sum_abs / (double)finite;
    m->rel_l2 = sum_r2 > 0.0 ? sqrt(sum_e2) / sqrt(sum_r2) : (sum_e2 > 0.0 ? INFINITY : 0.0);
    m->rel_l1 = sum_rabs > 0.0 ? sum_abs / sum_rabs : (sum_abs > 0.0 ? INFINITY : 0.0);
    m->rmse = sqrt(sum_e2 / (double)finite);
    if (sum_o2 > 0.0 && sum_r2 > 0.0)
        m->cosine = sum_or / (sqrt(sum_o2) * sqrt(sum_r2));
    else
        m->cosine = (sum_o2 == 0.0 && sum_r2 == 0.0) ? 1.0 : 0.0;
}

bool gate_kernel_only(const err_metrics_t *m) { return gate_kernel_only_family(m, &TOL_FAMILY_FP16); }

bool gate_kernel_only_family(const err_metrics_t *m, const tol_family_t *f) {
    if (!f) f = &TOL_FAMILY_FP16;
    return m->nonfinite == 0 && m->n_bad == 0 && m->rel_l2 <= f->rel_l2;
}

bool gate_end_to_end(const err_metrics_t *m) {
    return m->nonfinite == 0 && m->rel_l2 <= TOL_E2E_REL_L2 && m->cosine >= TOL_E2E_COSINE;
}

/* The original's three checks (max <= 0.06, mean <= 0.02, %bad <= 1 with bad = |err| > 0.06);
 * a non-finite output fails it too (the original's comparisons with NaN were false). */
bool gate_legacy(const err_metrics_t *m) {
    return m->nonfinite == 0 && m->max_abs <= LEGACY_MAX_ABS && m->mean_abs <= LEGACY_MEAN_ABS &&
           m->pct_bad <= LEGACY_PCT_BAD;
}
