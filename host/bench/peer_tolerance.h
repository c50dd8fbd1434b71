/* The kernel-only bar of the unfused cuBLAS peer, fixed before the peer was first run. The fp16
 * family's (metrics.h) does not cover the peer: its dequantisation rounds Q', K' and V' to fp16,
 * three roundings the kernels never make. Derivation (the paper's argument, paper/methods.md
 * #tolerances, with the peer's steps; u = 2^-11):
 *
 *   Q' = fp16(q*scale_q*softmax_scale), K' = fp16(k*scale_k), V' = fp16(v*scale_v): |rel| <= u each
 *     (the products in fp32, one rounding to fp16). A logit s_j = sum_d q_d k_jd then moves by at
 *     most 2u*A_j, A_j = sum_d |q_d k_jd| (scaled as s), which costs |do| <= 4u*Amax*Vmax;
 *   scores rounded to fp16 by the GEMM (fp32 sums): |ds_j| <= u|s_j|, |do| <= 2u*Smax*Vmax;
 *   P rounded to fp16 by the softmax: u*Vmax;  V' rounded: u*Vmax;  O rounded: u*|o| (rtol).
 *   fp32 sums and expf: at most (S-1)*2^-24*Vmax for P V' (2.4e-4*Vmax at S = 4096, far less in
 *     practice), inside what the doubling below leaves spare (at least 2u*Vmax = 9.8e-4*Vmax).
 *
 * First order: (2u*Smax + 4u*Amax + 2u)*Vmax + u|ref|. Doubled, as the paper doubles the kernels':
 *
 *   atol_bh = 2u*(2*Smax_bh + 4*Amax_bh + 2)*Vmax_bh,  rtol = 2u,  rel-L2 <= 1e-3,
 *
 * Smax_bh, Amax_bh, Vmax_bh over slice (b, h) of the dequantised inputs (with a sampled reference,
 * Smax and Amax over the sampled query rows: the bar of the rows judged, each of which it bounds). A >= |s| always, so this
 * exceeds the fp16 family's atol 2u*(2*Smax + 1)*Vmax by 8u*Amax*Vmax + 2u*Vmax or more. The rel-L2
 * bar stays the fp16 family's 1e-3: five roundings of RMS u/sqrt(3) each (Q', K', scores, P, V'; O
 * is in both) add up to about sqrt(5/3)*u = 6.3e-4, and the input roundings are averaged over 64
 * products or S keys before they reach the output. (Observed afterwards, bar unchanged: with
 * outliers that averaging fails, and at S = 2048 the peer exceeds the rel-L2 bar; host/bench/README.md.) */
#ifndef PEER_TOLERANCE_H
#define PEER_TOLERANCE_H

#include "inputs.h"

typedef struct {
    double smax; /* largest |logit| = softmax_scale*|q.k| */
    double amax; /* largest softmax_scale * sum_d |q_d k_d| */
    double vmax; /* largest |v| */
} peer_bound_t;

/* Per slice (b, h) of dequantised q, k, v ([B,H,S,D] doubles), over the query rows rows[0 ..
 * n_rows) (every key): out has B*H entries. */
void peer_bounds(const double *q, const double *k, const double *v, sdpa_shape_t s, double softmax_scale,
                 const size_t *rows, size_t n_rows, peer_bound_t *out);
double peer_atol(const peer_bound_t *b);

#endif
