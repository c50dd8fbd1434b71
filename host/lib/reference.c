/* Double-precision reference attention (reference.h).
 *
 * Per (b, h) slice and query row i: the row's logits s_j = scale * (q_i . k_j) go into a row
 * buffer, then p_j = exp(s_j - max_j s_j), then o_i = (sum_j p_j v_j) / (sum_j p_j), accumulated
 * key by key so that the inner loops run along contiguous rows of K and V. The dot product keeps
 * four partial sums (elements d = 0, 1, 2, 3 mod 4, added as (a0 + a1) + (a2 + a3)): a fixed
 * order, so the result is the same with any compiler at -ffp-contract=off, and four independent
 * chains instead of one serial chain of additions.
 *
 * Threads (row_jobs.h): each item of (slice, consecutive entries of the row list) writes its own
 * output rows and its own entry of the per-item logit maxima, reduced per slice after the join.
 * No sum ever spans two items, so the bits do not depend on the thread count or on which thread
 * ran what. */
#include "reference.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "row_jobs.h"

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

/* A causal row i attends to keys 0 .. i only: the row over its first i + 1 keys is exactly the
 * masked row (a masked key's weight exp(-inf) is 0 and adds nothing), and its largest |logit| is
 * taken over the keys it sees (paper/methods.md, causal masking). */
double reference_slice_rows(const double *q, const double *k, const double *v, sdpa_shape_t shape,
                            double scale, size_t bh, size_t r0, size_t r1, double *row, double *out) {
    const size_t S = (size_t)shape.S, D = (size_t)shape.D, slice = S * D;
    const double *qs = q + bh * slice, *ks = k + bh * slice, *vs = v + bh * slice;
    double smax = 0.0;
    for (size_t i = r0; i < r1; i++)
        smax = fmax(smax, attend_row(qs + i * D, ks, vs, shape.causal ? i + 1 : S, D, scale, row,
                                     out + (i - r0) * D));
    return smax;
}

unsigned reference_cpus(void) { return row_jobs_cpus(); }

size_t reference_sample_rows(size_t S, size_t n_rows, size_t *rows) {
    if (n_rows == 1) return 0;
    if (n_rows == 0 || n_rows >= S) {
        for (size_t i = 0; i < S; i++) rows[i] = i;
        return S;
    }
    /* Integer arithmetic only (no rounding to depend on): k S < 2^64 for any S this program can
     * hold, and j w < 2^32 * 2^31. */
    for (size_t k = 0; k < n_rows; k++) {
        const uint64_t lo = (uint64_t)k * S / n_rows, w = (uint64_t)(k + 1) * S / n_rows - lo;
        const uint64_t j = ((uint64_t)k * 2654435769u) & 0xffffffffu; /* 2^32 (sqrt(5) - 1) / 2 */
        rows[k] = (size_t)(lo + ((j * w) >> 32));
    }
    rows[n_rows - 1] = S - 1;
    return n_rows;
}

typedef struct {
    const double *q, *k, *v;
    sdpa_shape_t shape;
    double scale;
    const size_t *rows; /* NULL: all */
    size_t n_rows;
    double *out, *item_smax;
} job_t;

/* One item. Rows of a list are contiguous runs where they are consecutive; each is computed alone
 * all the same (reference_slice_rows on [r, r + 1)), so a sampled row has the bits of the same
 * row of a full reference. scratch: one row of S logits. */
static void run_item(void *ctx, size_t item, size_t bh, size_t c0, size_t c1, void *scratch) {
    const job_t *j = ctx;
    const size_t D = (size_t)j->shape.D;
    double *o = j->out + (bh * j->n_rows + c0) * D, smax = 0.0;
    for (size_t c = c0; c < c1; c++) {
        const size_t r = j->rows ? j->rows[c] : c;
        smax = fmax(smax, reference_slice_rows(j->q, j->k, j->v, j->shape, j->scale, bh, r, r + 1, scratch,
                                               o + (c - c0) * D));
    }
    j->item_smax[item] = smax;
}

int reference_attention_rows(const double *q, const double *k, const double *v, sdpa_shape_t shape,
                             double softmax_scale, const size_t *rows, size_t n_rows, unsigned threads,
                             double *out, reference_bounds_t *bounds) {
    const size_t S = shape_numel(shape) ? (size_t)shape.S : 0;
    if (!S || !q || !k || !v || !out) {
        errno = EINVAL;
        return -1;
    }
    if (!rows) n_rows = S;
    if (!row_jobs_list_ok(rows, n_rows, S)) {
        errno = EINVAL;
        return -1;
    }
    const size_t D = (size_t)shape.D, slices = (size_t)shape.B * (size_t)shape.H;
    if (!(softmax_scale > 0.0) || !isfinite(softmax_scale)) softmax_scale = 1.0 / sqrt((double)D);
    job_t j = {.q = q,
               .k = k,
               .v = v,
               .shape = shape,
               .scale = softmax_scale,
               .rows = rows,
               .n_rows = n_rows,
               .out = out};
    const size_t items = row_jobs_items(slices, n_rows), chunks_per_slice = items / slices;
    if (!n_rows) goto bounds; /* no row asked: only vmax */
    if (!(j.item_smax = malloc(items * sizeof *j.item_smax))) return -1;
    if (row_jobs_run(slices, n_rows, threads, S * sizeof(double), run_item, &j) != 0) {
        free(j.item_smax);
        return -1;
    }
bounds:
    for (size_t bh = 0; bounds && bh < slices; bh++) {
        double smax = 0.0, vmax = 0.0;
        for (size_t c = 0; c < chunks_per_slice; c++)
            smax = fmax(smax, j.item_smax[bh * chunks_per_slice + c]);
        const double *vs = v + bh * S * D;
        for (size_t i = 0; i < S * D; i++) vmax = fmax(vmax, fabs(vs[i]));
        bounds->smax[bh] = smax;
        bounds->vmax[bh] = vmax;
    }
    free(j.item_smax);
    return 0;
}

int reference_attention(const double *q, const double *k, const double *v, sdpa_shape_t shape,
                        double softmax_scale, double *out, reference_bounds_t *bounds) {
    return reference_attention_rows(q, k, v, shape, softmax_scale, NULL, 0, 0, out, bounds);
}
