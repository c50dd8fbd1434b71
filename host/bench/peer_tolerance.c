/* The unfused peer's bar (peer_tolerance.h: derivation). */
#include "peer_tolerance.h"

#include <math.h>

#include "metrics.h"

void peer_bounds(const double *q, const double *k, const double *v, sdpa_shape_t s, double softmax_scale,
                 const size_t *rows, size_t n_rows, peer_bound_t *out) {
    const size_t S = (size_t)s.S, D = (size_t)s.D, slice = S * D, slices = (size_t)s.B * (size_t)s.H;
    for (size_t bh = 0; bh < slices; bh++) {
        const double *qs = q + bh * slice, *ks = k + bh * slice, *vs = v + bh * slice;
        peer_bound_t b = {0.0, 0.0, 0.0};
        for (size_t r = 0; r < n_rows; r++)
            for (size_t j = 0, i = rows[r]; j < S; j++) {
                double dot = 0.0, abs_dot = 0.0;
                for (size_t d = 0; d < D; d++) {
                    const double x = qs[i * D + d] * ks[j * D + d];
                    dot += x;
                    abs_dot += fabs(x);
                }
                b.smax = fmax(b.smax, fabs(dot) * softmax_scale);
                b.amax = fmax(b.amax, abs_dot * softmax_scale);
            }
        for (size_t i = 0; i < slice; i++) b.vmax = fmax(b.vmax, fabs(vs[i]));
        out[bh] = b;
    }
}

double peer_atol(const peer_bound_t *b) {
    return 2.0 * TOL_U * (2.0 * b->smax + 4.0 * b->amax + 2.0) * b->vmax;
}
