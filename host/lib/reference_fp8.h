/* The mirror reference of the FP8 line (paper/methods.md#fp8-mirror): attention as stage 6 computes
 * it, with its quantisation decisions made in double precision. Per query row, keys in the kernel's
 * tile order (tiles of tile_n keys from key 0, the kernel's own: 32, 128 for stage 7e; with
 * shape.causal the keys j <= i only):
 *   s_j = scale * q_i . k_j,  m_t = max(m_{t-1}, max_{j in t} s_j),  alpha_t = exp(m_{t-1} - m_t),
 *   c_j = e4m3(448 exp(s_j - m_t))  (round to nearest even, subnormals included),
 *   l_t = alpha_t l_{t-1} + sum_{j in t} c_j,  o_t = alpha_t o_{t-1} + (sum_{j in t} c_j v_j),
 *   O = o / l.
 * Nothing else is rounded: what separates a kernel from it is fp32 arithmetic and the fp16 output,
 * which is why its bar (REFERENCE_FP8_MIRROR_BAR, rel-L2) is 35 times tighter than the fp64 one. */
#ifndef REFERENCE_FP8_H
#define REFERENCE_FP8_H

#include <stddef.h>

#include "inputs.h"

#define REFERENCE_FP8_P_SCALE 448.0   /* P codes are e4m3(448 p): kernels/tile_products.cuh, kPScale */
#define REFERENCE_FP8_MIRROR_BAR 2e-3 /* rel-L2 against the mirror (paper/methods.md#fp8-mirror) */

/* x rounded to the nearest e4m3 value (ties to even; the subnormal spacing 2^-9 below 2^-6;
 * saturating at 448), for x >= 0. */
double reference_e4m3_round(double x);

/* rows[0 .. n_rows) (ascending query indices < S; NULL: all S rows) of every slice of the
 * dequantised inputs q, k, v ([B,H,S,D] doubles): out is [B*H][n][D] with n = n_rows (S with rows
 * NULL), as reference_attention_rows, on `threads` threads (0: every CPU this process may use; each
 * row alone, so the bits do not depend on it). scale: the softmax scale (> 0); tile_n: keys per KV
 * tile of the kernel it mirrors (> 0: the variant's geometry, kernels/geometry.h SDPA_TILE_N_OF;
 * the running maximum moves once per tile, paper/methods.md#tolerances-7e). Returns 0, or -1 on a
 * bad shape, row list, scale or tile, or a failed allocation (errno EINVAL or ENOMEM). */
int reference_fp8_mirror_rows(const double *q, const double *k, const double *v, sdpa_shape_t shape,
                              double scale, size_t tile_n, const size_t *rows, size_t n_rows,
                              unsigned threads, double *out);

#endif
