// Stage 7g's exponential alone in a kernel (kernels/exp2_poly.h), for its SASS: tests/kernels/exp2-poly-sass.sh.
#include "exp2_poly.h"

extern "C" __global__ void exp2_poly_kernel(const float *x, float *y) {
    y[threadIdx.x] = exp2_poly(x[threadIdx.x]);
}
