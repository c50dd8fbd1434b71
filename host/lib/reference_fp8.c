/* The mirror reference of the FP8 line (reference_fp8.h; paper/methods.md#fp8-mirror). */
#include "reference_fp8.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "row_jobs.h"

double reference_e4m3_round(double x) {
    if (x < 0x1p-6) return nearbyint(x * 0x1p9) * 0x1p-9; /* subnormal range: spacing 2^-9 */
    int e;
    frexp(x, &e); /* x = f 2^e, f in [0.5, 1): 4 significant bits leave a spacing of 2^(e-4) */
    const double step = ldexp(1.0, e - 4), r = nearbyint(x / step) * step;
    return r > 448.0 ? 448.0 : r;
}

/* One query row (qi) against the keys 0 .. n_keys-1 of its slice. */
static void mirror_row(const double *qi, const double *ks, const double *vs, size_t n_keys, size_t D,
                       double scale, size_t tile_n, double *s, double *tile, double *o) {
    double m = -INFINITY, l = 0.0;
    memset(o, 0, D * sizeof *o);
    for (size_t t0 = 0; t0 < n_keys; t0 += tile_n) {
        const size_t t1 = t0 + tile_n < n_keys ? t0 + tile_n : n_keys;
        double m_new = m;
        for (size_t j = t0; j < t1; j++) {
            double dot = 0.0;
            for (size_t d = 0; d < D; d++) dot += qi[d] * ks[j * D + d];
            s[j - t0] = scale * dot;
            m_new = fmax(m_new, s[j - t0]);
        }
        const double alpha = exp(m - m_new); /* 0 on the first tile */
        double tl = 0.0;
        memset(tile, 0, D * sizeof *tile);
        for (size_t j = t0; j < t1; j++) {
            const double c = reference_e4m3_round(REFERENCE_FP8_P_SCALE * exp(s[j - t0] - m_new));
            tl += c;
            for (size_t d = 0; d < D; d++) tile[d] += c * vs[j * D + d];
        }
        l = alpha * l + tl;
        for (size_t d = 0; d < D; d++) o[d] = alpha * o[d] + tile[d];
        m = m_new;
    }
    for (size_t d = 0; d < D; d++) o[d] /= l;
}

typedef struct {
    const double *q, *k, *v;
    sdpa_shape_t shape;
    double scale;
    size_t tile_n;
    const size_t *rows; /* NULL: all */
    size_t n_rows;
    double *out;
} job_t;

/* One item (row_jobs.h): each row alone, so the bits do not depend on the thread count. scratch:
 * tile_n logits, then D partial sums. */
static void run_item(void *ctx, size_t item, size_t bh, size_t c0, size_t c1, void *scratch) {
    (void)item;
    const job_t *j = ctx;
    const size_t S = (size_t)j->shape.S, D = (size_t)j->shape.D;
    double *s = scratch, *tile = s + j->tile_n;
    for (size_t c = c0; c < c1; c++) {
        const size_t i = j->rows ? j->rows[c] : c;
        mirror_row(j->q + (bh * S + i) * D, j->k + bh * S * D, j->v + bh * S * D, j->shape.causal ? i + 1 : S,
                   D, j->scale, j->tile_n, s, tile, j->out + (bh * j->n_rows + c) * D);
    }
}

int reference_fp8_mirror_rows(const double *q, const double *k, const double *v, sdpa_shape_t shape,
                              double scale, size_t tile_n, const size_t *rows, size_t n_rows,
                              unsigned threads, double *out) {
    const size_t S = shape_numel(shape) ? (size_t)shape.S : 0;
    if (!S || !q || !k || !v || !out || !(scale > 0) || tile_n == 0) {
        errno = EINVAL;
        return -1;
    }
    if (!rows) n_rows = S;
    if (!row_jobs_list_ok(rows, n_rows, S)) {
        errno = EINVAL;
        return -1;
    }
    const job_t j = {.q = q,
                     .k = k,
                     .v = v,
                     .shape = shape,
                     .scale = scale,
                     .tile_n = tile_n,
                     .rows = rows,
                     .n_rows = n_rows,
                     .out = out};
    const size_t slices = (size_t)shape.B * (size_t)shape.H;
    return row_jobs_run(slices, n_rows, threads, (tile_n + (size_t)shape.D) * sizeof(double), run_item,
                        (void *)&j);
}
