// Planted bug: no __syncthreads between writing shared memory and reading another thread's entry.
// Caught by ThreadSanitizer (a data race at the read) and, in the plain build, by poisoned shared
// memory (NaN) and results that differ between schedules.
#include "emu_tests.h"
#include "prims.cuh"

__global__ void missing_sync(const float *__restrict__ in, float *__restrict__ out) {
    __shared__ float s[128];
    const int t = threadIdx.x, i = blockIdx.x * 128 + t;
    s[t] = 2.0f * in[i];
    out[i] = s[(t + 1) % 128]; // EMU-BUG(missing-sync): __syncthreads() missing before this read
}

extern "C" int emut_bug_missing_sync(const float *in, float *out, int blocks) {
    return SDPA_LAUNCH(missing_sync, blocks, 128, 0, 0, in, out);
}
