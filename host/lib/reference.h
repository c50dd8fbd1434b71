/* Reference attention in double precision: SDPA (causal when shape.causal: row i sees keys 0 .. i),
 * softmax scale 1/sqrt(D) unless given.
 * Used twice per problem (methods section of paper/methods.md):
 *   kernel-only: on the dequantised inputs (isolates the kernel's own rounding),
 *   end-to-end:  on the original float inputs (adds the quantisation error).
 * Inputs are [B,H,S,D] row-major doubles. The softmax is computed with the row max subtracted, in
 * double, with libm exp (accurate to well below the fp16 tolerances).
 *
 * Three layers, each built on the one before:
 *   reference_slice_rows     query rows [r0, r1) of one (b,h) slice: the arithmetic, one row at a
 *                            time, always in the same order;
 *   reference_attention_rows the same list of query rows of every slice (all rows, or a sample:
 *                            reference_sample_rows), on several threads. Each output row is
 *                            computed by reference_slice_rows alone and the slice bounds are
 *                            maxima, so the bits are the same whatever the thread count;
 *   reference_attention      every row, on every CPU the process may use. */
#ifndef REFERENCE_H
#define REFERENCE_H

#include "inputs.h"

typedef struct {
    double *smax; /* [B*H]: max over the slice's computed rows of |q_i . k_j| * softmax_scale (the
                   * keys j each row sees: j <= i when causal) */
    double *vmax; /* [B*H]: max over the slice of |v| */
} reference_bounds_t;

/* Rows [r0, r1) of slice bh: out holds (r1 - r0) rows of D doubles; row is scratch of S doubles;
 * scale is the softmax scale (> 0). Returns the largest |logit| of those rows. No checks: the
 * drivers below check the shape. */
double reference_slice_rows(const double *q, const double *k, const double *v, sdpa_shape_t shape,
                            double scale, size_t bh, size_t r0, size_t r1, double *row, double *out);

/* The CPUs this process may run on (its affinity mask: taskset, cgroups, Slurm), at least 1. */
unsigned reference_cpus(void);

/* The deterministic sample of query rows: n_rows rows out of S, one in each of n_rows equal
 * strata, at a golden-ratio offset within it, with both ends:
 *   lo_k = floor(k S / N), w_k = floor((k + 1) S / N) - lo_k (>= 1),
 *   rows[k] = lo_k + floor(frac(k phi) w_k), frac(k phi) = (k * 2654435769 mod 2^32) / 2^32,
 *   k = 0 .. N - 1 (N = n_rows; rows[0] = 0), and rows[N - 1] = S - 1;
 * ascending and distinct. Even strata reach every 32-row tile of the kernels while S <= 32 N;
 * the offsets reach every position within a tile (where plain even spacing at S = 512 would hit
 * only even rows). A function of S and N alone: the same rows on every run and machine. Returns
 * how many rows were written: N, or S (every row, 0 .. S-1) when N is 0 or >= S; rows has room
 * for that many. N == 1 is refused (returns 0): one row cannot have both ends. */
size_t reference_sample_rows(size_t S, size_t n_rows, size_t *rows);

/* rows[0 .. n_rows) (ascending query indices < S; NULL: all S rows, n_rows ignored) of every
 * slice, on `threads` threads (0: reference_cpus()). out: [B*H][n][D] with n = n_rows (S with
 * rows NULL), slice by slice in the order of rows. bounds may be NULL; otherwise its arrays
 * (B*H each) are filled, smax over the computed rows. softmax_scale <= 0 (or not finite) selects
 * the default 1/sqrt(D). Returns 0, -1 on a bad shape or row list (errno EINVAL), or ENOMEM. */
int reference_attention_rows(const double *q, const double *k, const double *v, sdpa_shape_t shape,
                             double softmax_scale, const size_t *rows, size_t n_rows, unsigned threads,
                             double *out, reference_bounds_t *bounds);

/* Every row: out is [B,H,S,D]. */
int reference_attention(const double *q, const double *k, const double *v, sdpa_shape_t shape,
                        double softmax_scale, double *out, reference_bounds_t *bounds);

#endif
