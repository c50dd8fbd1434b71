// Planted bugs: collectives reached by only part of the threads that must take part. Each is a
// fault naming the line, in every build.
#include "emu_tests.h"
#include "prims.cuh"

// mode 0: lanes 16-31 skip a full-mask shuffle (they exit); mode 1: they call another shuffle.
__global__ void shfl_divergent(const float *__restrict__ in, float *__restrict__ out, int mode) {
    float v = in[threadIdx.x];
    if (threadIdx.x % 32 < 16)
        v = __shfl_xor_sync(0xffffffffu, v, 1); // EMU-BUG(shfl-divergent)
    else if (mode == 1)
        v = __shfl_xor_sync(0xffffffffu, v, 2); // EMU-BUG(shfl-other)
    out[threadIdx.x] = v;
}

// __syncthreads inside a branch that only the first warp takes.
__global__ void sync_divergent(float *__restrict__ out) {
    __shared__ float s[128];
    s[threadIdx.x] = (float)threadIdx.x;
    if (threadIdx.x < 32) {
        __syncthreads(); // EMU-BUG(sync-divergent)
        s[threadIdx.x] += 1.0f;
    }
    __syncthreads();
    out[threadIdx.x] = s[127 - threadIdx.x];
}

// Threads past n return early, the others wait at a barrier they will never all reach.
__global__ void sync_after_exit(float *__restrict__ out, int n) {
    __shared__ float s[128];
    if ((int)threadIdx.x >= n) return;
    s[threadIdx.x] = 1.0f;
    __syncthreads(); // EMU-BUG(sync-after-exit)
    out[threadIdx.x] = s[(threadIdx.x + 1) % n];
}

extern "C" int emut_bug_shfl_divergent(const float *in, float *out, int mode) {
    return SDPA_LAUNCH(shfl_divergent, 1, 64, 0, 0, in, out, mode);
}
extern "C" int emut_bug_sync_divergent(float *out) { return SDPA_LAUNCH(sync_divergent, 1, 128, 0, 0, out); }
extern "C" int emut_bug_sync_after_exit(float *out, int n) {
    return SDPA_LAUNCH(sync_after_exit, 1, 128, 0, 0, out, n);
}
