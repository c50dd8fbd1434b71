/* Double-precision reference attention (reference.h).
 *
 * Per (b, h) slice and query row i: the row's logits s_j = scale * (q_i . k_j) go into a row
 * buffer, then p_j = exp(s_j - max_j s_j), then o_i = (sum_j p_j v_j) / (sum_j p_j), accumulated
 * key by key so that the inner loops run along contiguous rows of K and V. The dot product keeps
 * four partial sums (elements d = 0, 1, 2, 3 mod 4, added as (a0 + a1) + (a2 + a3)): a fixed
 * order, so the result is the same with any compiler at -ffp-contract=off, and four independent
 * chains instead of one serial chain of additions (the long shape takes about a second).
 * softmax_scale <= 0, or not finite, means the default 1/sqrt(D). */
#include "reference.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double dot(const double *restrict x, const double *restrict y, size_t n) {
    double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0;
    size_t d = 0;
    for (; d + 4 <= n; d += 4) {
        a0 += x[d] * y[d];
        a1 += x[d + 1] * y[d + 1];
        a2 += x[d + 2] * y[d + 2];
        a3 += x[d + 3] * y[d + 3];
    }
    for (; d < n; d++) a0 += x[d] * y[d];
    return (a0 + a1) + (a2 + a3);
}

/* One query row: o = softmax(scale * q K^T) V over S keys; returns the row's largest |logit|. */
static double attend_row(const double *restrict qi, const double *restrict ks, const double *restrict vs,
                         size_t S, size_t D, double scale, double *restrict row, double *restrict o) {
    double m = -INFINITY, smax = 0.0;
    for (size_t j = 0; j < S; j++) {
        double s = scale * dot(qi, ks + j * D, D);
        row[j] = s;
        if (s > m) m = s;
        if (fabs(s) > smax) smax = fabs(s);
    }
    double l = 0.0;
    for (size_t j = 0; j < S; j++) {
        row[j] = exp(row[j] - m);
        l += row[j];
    }
    memset(o, 0, D * sizeof *o);
    for (size_t j = 0; j < S; j++) {
        const double p = row[j];
        const double *vj = vs + j * D;
        for (size_t d = 0; d < D; d++) o[d] += p * vj[d];
    }
    for (size_t d = 0; d < D; d++) o[d] /= l;
    return smax;
}

int reference_attention(const double *q, const double *k, const double *v, sdpa_shape_t shape,
                        double softmax_scale, double *out, reference_bounds_t *bounds) {
    if (shape_numel(shape) == 0 || !q || !k || !v || !out) {
        errno = EINVAL;
        return -1;
    }
    const size_t S = (size_t)shape.S, D = (size_t)shape.D;
    const size_t slices = (size_t)shape.B * (size_t)shape.H, slice = S * D;
    if (!(softmax_scale > 0.0) || !isfinite(softmax_scale)) softmax_scale = 1.0 / sqrt((double)D);
    double *row = malloc(S * sizeof *row);
    if (!row) return -1; /* errno = ENOMEM from malloc */
    for (size_t bh = 0; bh < slices; bh++) {
        const double *qs = q + bh * slice, *ks = k + bh * slice, *vs = v + bh * slice;
        double smax = 0.0, vmax = 0.0;
        for (size_t i = 0; i < slice; i++)
            if (fabs(vs[i]) > vmax) vmax = fabs(vs[i]);
        for (size_t i = 0; i < S; i++) {
            double s = attend_row(qs + i * D, ks, vs, S, D, softmax_scale, row, out + bh * slice + i * D);
            if (s > smax) smax = s;
        }
        if (bounds) {
            bounds->smax[bh] = smax;
            bounds->vmax[bh] = vmax;
        }
    }
    free(row);
    return 0;
}
