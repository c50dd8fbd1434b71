// Planted cp.async misuse, each a fault naming the line.
#include "emu_tests.h"
#include "prims.cuh"

// mode 0: copies committed but never waited for; 1: a 12-byte copy; 2: a global destination.
__global__ void misuse(const float *__restrict__ in, float *__restrict__ out, int mode) {
    __shared__ __align__(16) float s[128 * 4];
    const int t = threadIdx.x;
    if (mode == 0) {
        __pipeline_memcpy_async(&s[t * 4], in + t * 4, 16); // EMU-BUG(never-waited)
        __pipeline_commit();
    } else if (mode == 1) {
        __pipeline_memcpy_async(&s[t * 4], in + t * 4, 12); // EMU-BUG(cp-size)
    } else {
        __pipeline_memcpy_async(out + t * 4, in + t * 4, 16); // EMU-BUG(cp-direction)
    }
    out[t] = in[t];
}

extern "C" int emut_bug_cp_async_misuse(const float *in, float *out, int mode) {
    return SDPA_LAUNCH(misuse, 1, 128, 0, 0, in, out, mode);
}
