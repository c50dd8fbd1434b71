// Planted bug: a tree reduction without the barrier between its levels. A thread reads s[t + k]
// before (fwd, rand) or after (rev) its owner added into it: wrong sums under fwd and rand, right
// ones under rev, and a data race under every schedule in the TSan build. 128 threads: with 256,
// clang 14's TSan reports it under rand only (an open gap, kernels/emu/README.md).
#include "emu_tests.h"
#include "prims.cuh"

__global__ void tree_reduce(const float *__restrict__ in, float *__restrict__ out) {
    __shared__ float s[128];
    const int t = threadIdx.x;
    s[t] = in[blockIdx.x * 128 + t];
    __syncthreads();
    for (int k = 64; k > 0; k >>= 1)
        if (t < k) s[t] += s[t + k]; // EMU-BUG(tree-reduce): __syncthreads() missing after each level
    if (t == 0) out[blockIdx.x] = s[0];
}

extern "C" int emut_bug_tree_reduce(const float *in, float *out, int blocks) {
    return SDPA_LAUNCH(tree_reduce, blocks, 128, 0, 0, in, out);
}
