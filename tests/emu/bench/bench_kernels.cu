// Kernels for the emulator's micro-benchmark (make emu-bench): a barrier loop, a shuffle loop,
// and a loop shaped like one CTA of the SDPA kernel per KV tile (128 threads; cp.async staging,
// 10 barriers, 4 warps x (2 loads + 1 mma) x 3 WMMA steps, 20 shuffles per warp).
#include "prims.cuh"

using namespace nvcuda;

__global__ void barrier_loop(int iters) {
    for (int i = 0; i < iters; i++) __syncthreads();
}

__global__ void shuffle_loop(float *out, int iters) {
    float v = (float)threadIdx.x;
    for (int i = 0; i < iters; i++) v = prims::warp_sum(v) * (1.0f / 32.0f);
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// One warp issuing m16n8k32 e4m3 mma.sync back to back: the cost of one FP8 collective.
__global__ void mma_fp8_loop(float *out, int iters) {
    const uint32_t a[4] = {0x38383838u, 0x30303030u, 0x38303830u, 0x30383038u}; // 1.0, 0.5 codes
    const uint32_t b[2] = {0x30383038u, 0x38303830u};
    float d[4] = {0, 0, 0, 0};
    for (int i = 0; i < iters; i++) prims::mma_m16n8k32<prims::Fp8::e4m3>(d, a, b, d);
    for (int j = 0; j < 4; j++) out[threadIdx.x * 4 + j] = d[j];
}

// One warpgroup issuing m64n64k32 e4m3 wgmma (SS) and waiting for each: the cost of one collective,
// fence, commit and wait included. A and B: 64 x 32 codes of 1.0 and 0.5 without swizzle.
__global__ void wgmma_fp8_loop(float *out, int iters) {
    SMEM_DYNAMIC(uint8_t, sm);
    for (int i = threadIdx.x; i < 2 * 64 * 32; i += 128) sm[i] = (uint8_t)(i & 1 ? 0x38 : 0x30);
    prims::fence_proxy_async();
    __syncthreads();
    const uint64_t da = prims::wgmma_desc(sm, 64 * 16, 128, 0),
                   db = prims::wgmma_desc(sm + 2048, 64 * 16, 128, 0);
    float d[32];
    for (int i = 0; i < 32; i++) d[i] = 0.0f;
    for (int i = 0; i < iters; i++) {
        prims::wgmma_fence();
        prims::wgmma_ss(d, da, db, true);
        prims::wgmma_commit();
        prims::wgmma_wait<0>(d);
    }
    for (int j = 0; j < 32; j++) out[threadIdx.x * 32 + j] = d[j];
}

__global__ void __launch_bounds__(128)
    tile_loop(const uint8_t *__restrict__ kv, float *__restrict__ out, int tiles) {
    __shared__ __align__(32) uint8_t stage[2][4096];
    __shared__ __align__(32) __half tile[32][64];
    __shared__ __align__(32) float acc_out[4][16][16];
    const int t = threadIdx.x, warp = t / 32;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int i = t; i < 32 * 64; i += 128) tile[i / 64][i % 64] = __float2half(0.01f * (float)(i % 7));
    prims::cp_async_16(&stage[0][t * 16], kv + t * 16);
    prims::cp_async_16(&stage[0][2048 + t * 16], kv + 2048 + t * 16);
    prims::cp_async_commit();
    float m = 0.0f;
    for (int k = 0; k < tiles; k++) {
        const int nb = (k + 1) & 1;
        prims::cp_async_16(&stage[nb][t * 16], kv + t * 16);
        prims::cp_async_16(&stage[nb][2048 + t * 16], kv + 2048 + t * 16);
        prims::cp_async_commit();
        prims::cp_async_wait<1>();
        for (int b = 0; b < 10; b++) __syncthreads();
        for (int s = 0; s < 3; s++) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
            wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> bf;
            wmma::load_matrix_sync(a, &tile[(warp / 2) * 16][s * 16], 64);
            wmma::load_matrix_sync(bf, &tile[(warp % 2) * 16][s * 16], 64);
            wmma::mma_sync(acc, a, bf, acc);
        }
        for (int r = 0; r < 2; r++) m += prims::warp_max(m + (float)stage[k & 1][t]) + prims::warp_sum(1.0f);
    }
    prims::cp_async_wait<0>();
    wmma::store_matrix_sync(&acc_out[warp][0][0], acc, 16, wmma::mem_row_major);
    __syncthreads();
    out[blockIdx.x * 128 + t] = m + acc_out[warp][t % 16][t / 16 % 16];
}

extern "C" int bench_barrier_loop(int blocks, int threads, int iters) {
    return SDPA_LAUNCH(barrier_loop, blocks, threads, 0, 0, iters);
}
extern "C" int bench_shuffle_loop(float *out, int blocks, int iters) {
    return SDPA_LAUNCH(shuffle_loop, blocks, 128, 0, 0, out, iters);
}
extern "C" int bench_tile_loop(const uint8_t *kv, float *out, int blocks, int tiles) {
    return SDPA_LAUNCH(tile_loop, blocks, 128, 0, 0, kv, out, tiles);
}
extern "C" int bench_mma_fp8_loop(float *out, int iters) {
    return SDPA_LAUNCH(mma_fp8_loop, 1, 32, 0, 0, out, iters);
}
extern "C" int bench_wgmma_fp8_loop(float *out, int iters) {
    return SDPA_LAUNCH(wgmma_fp8_loop, 1, 128, 4096, 0, out, iters);
}
