// Block reduction and warp collectives (correct kernels): shuffles of float, int, __half and
// __half2, non-full masks and widths, votes, __reduce_add_sync, __syncthreads_count, partial
// warps. Compiled unchanged by nvcc (sm_80/89/90) and by the CPU emulator.
#include "emu_tests.h"
#include "prims.cuh"

// Sum of n floats per block: warp sums (prims::warp_sum, butterfly), then one warp adds the
// per-warp sums with __shfl_down_sync. blockDim.x is a multiple of 32.
__global__ void __launch_bounds__(256)
    block_sum(const float *__restrict__ in, float *__restrict__ out, int n) {
    __shared__ float warp_sums[32];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, nwarps = blockDim.x / 32;
    float v = prims::warp_sum(i < n ? in[i] : 0.0f);
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < nwarps ? warp_sums[lane] : 0.0f;
        for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
        if (lane == 0) out[blockIdx.x] = v;
    }
}

// Per-thread results of the warp collectives, EMUT_WARP_OPS_OUT floats per thread; any
// blockDim.x (the last warp may be partial). The masks name exactly the lanes that exist.
__global__ void warp_ops(const float *__restrict__ in, float *__restrict__ out) {
    const int t = threadIdx.x, lane = t % 32;
    const int lanes = min(32, (int)blockDim.x - (t - lane));
    const unsigned mask = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
    const float x = in[blockIdx.x * blockDim.x + t];
    float *o = out + (blockIdx.x * blockDim.x + t) * EMUT_WARP_OPS_OUT;

    o[0] = __half2float(__shfl_sync(mask, __float2half(x), 0)); // broadcast of a __half
    const __half2 h2 = __shfl_xor_sync(mask, __floats2half2_rn(x, 2.0f * x), 1);
    o[1] = __low2float(h2) + __high2float(h2); // a __half2 from the neighbour
    float s = x;                               // inclusive prefix sum
    for (int d = 1; d < 32; d <<= 1) {
        const float y = __shfl_up_sync(mask, s, d);
        if (lane >= d) s += y;
    }
    o[2] = s;
    // Half-warp sums: the two halves are separate groups (masks, width 16).
    const unsigned half_mask = mask & (lane < 16 ? 0x0000ffffu : 0xffff0000u);
    float hs = x;
    for (int off = 8; off > 0; off >>= 1) hs += __shfl_xor_sync(half_mask, hs, off, 16);
    o[3] = hs;
    o[4] = (float)__popc(__ballot_sync(mask, x > 0.0f));
    o[5] = (float)(2 * __any_sync(mask, x > 3.0f) + __all_sync(mask, x > -100.0f));
    o[6] = (float)__reduce_add_sync(mask, (int)x);
    // Odd lanes only, rotating among themselves.
    const unsigned odd = mask & 0xaaaaaaaau;
    o[7] = (lane & 1) ? __shfl_sync(odd, x, (lane + 2) % lanes) : -1.0f;
    __syncwarp(mask);
    o[8] = (float)__syncthreads_count(x > 0.0f);
}

extern "C" int emut_block_sum(const float *in, float *out, int n, int threads) {
    return SDPA_LAUNCH(block_sum, (n + threads - 1) / threads, threads, 0, 0, in, out, n);
}

extern "C" int emut_warp_ops(const float *in, float *out, int blocks, int threads) {
    return SDPA_LAUNCH(warp_ops, blocks, threads, 0, 0, in, out);
}
