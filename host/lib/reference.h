/* Reference attention in double precision: non-causal SDPA, softmax scale 1/sqrt(D) unless given.
 * Used twice per problem (methods section of paper/methods.md):
 *   kernel-only: on the dequantised inputs (isolates the kernel's own rounding),
 *   end-to-end:  on the original float inputs (adds the quantisation error).
 * Inputs and output are [B,H,S,D] row-major doubles. The softmax is computed with the row max
 * subtracted, in double, with libm exp (accurate to well below the fp16 tolerances). */
#ifndef REFERENCE_H
#define REFERENCE_H

#include "inputs.h"

typedef struct {
    double *smax; /* [B*H]: max over the slice of |q_i . k_j| * softmax_scale (logit magnitude) */
    double *vmax; /* [B*H]: max over the slice of |v| */
} reference_bounds_t;

/* out: [B,H,S,D]. bounds may be NULL; otherwise its arrays (B*H each) are filled.
 * softmax_scale <= 0 (or not finite) selects the default 1/sqrt(D).
 * Returns 0, -1 on a bad shape (or, with errno ENOMEM, when the row buffer cannot be allocated). */
int reference_attention(const double *q, const double *k, const double *v, sdpa_shape_t shape,
                        double softmax_scale, double *out, reference_bounds_t *bounds);

#endif
