// The float and half intrinsics the kernels may use, one result each per thread (correct kernel).
// On the emulator the fast-math ones are libm in float; the test compares with a tolerance.
#include "emu_tests.h"
#include "prims.cuh"

__global__ void intrinsics(const float *__restrict__ in, float *__restrict__ out) {
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    const float x = __ldg(&in[t]);
    const __half h = __float2half_rn(x), quarter = __float2half_rn(0.25f);
    const __half2 h2 = __float22half2_rn(make_float2(x, -x));
    float *o = out + t * EMUT_INTRINSICS_OUT;
    o[0] = __expf(x);
    o[1] = exp2f(x);
    o[2] = expf(x);
    o[3] = __fdividef(x, 3.0f);
    o[4] = __frcp_rn(x);
    o[5] = fmaxf(x, 0.5f);
    o[6] = __half2float(hexp2(h));
    const __half2 e2 = h2exp2(h2);
    o[7] = __low2float(e2) + __high2float(e2);
    o[8] = __half2float(__hfma(h, __float2half_rn(2.0f), __float2half_rn(1.0f)));
    const __half2 f2 = __hfma2(h2, __floats2half2_rn(1.0f, 2.0f), __float2half2_rn(1.0f));
    o[9] = __low2float(f2) - __high2float(f2);
    o[10] = __half2float(__hmax(h, quarter));
    o[11] = __half2float(h);
    o[12] = __saturatef(x);
    o[13] = __int_as_float(__float_as_int(x) ^ (int)0x80000000u); // sign flip through the bits
    o[14] = rsqrtf(fabsf(x) + 1.0f);
    o[15] = (float)(__popc(__float_as_uint(x)) + __clz(t + 1));
}

extern "C" int emut_intrinsics(const float *in, float *out, int n) {
    return SDPA_LAUNCH(intrinsics, n / 32, 32, 0, 0, in, out);
}
