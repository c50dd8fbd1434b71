/* N(0, 1) doubles from the artifact's rng (stream 0 of `seed`), for the reference tests. Include
 * after testutil.h. */
#ifndef RANDOM_TENSOR_H
#define RANDOM_TENSOR_H

#include "rng.h"

static inline double *random_tensor(size_t n, uint64_t seed) {
    double *x = malloc(n * sizeof *x);
    assert_non_null(x);
    rng_t r;
    rng_seed(&r, seed, 0);
    for (size_t i = 0; i < n; i++) x[i] = rng_normal(&r);
    return x;
}

#endif
