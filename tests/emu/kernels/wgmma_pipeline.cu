// NVCC-ARCHS: 90a
// TMA -> mbarrier -> wgmma as a Hopper kernel uses them (correct kernel; also the SASS gate's subject:
// QGMMA, UTMALDG, SYNCS and no serialisation message from ptxas). One warpgroup; A and B [64][128]
// e4m3 codes arrive by TMA with the 128-byte swizzle; S = A B^T by four chained SS wgmmas (the k-block
// advances 32 bytes inside the swizzled row), R = A B^T again with A from registers (RS, the A
// fragment read from global memory).
#include "emu_tests.h"
#include "prims.cuh"

__global__ void __launch_bounds__(128)
    wgmma_tma_pipeline(const __grid_constant__ CUtensorMap mapA, const __grid_constant__ CUtensorMap mapB,
                       const uint8_t *__restrict__ A, float *__restrict__ S, float *__restrict__ R) {
    SMEM_DYNAMIC(uint8_t, sm); // A tile, B tile: 8 KB each, 1024-byte aligned
    __shared__ __align__(8) uint64_t full;
    const int t = threadIdx.x, w = t / 32, g = (t % 32) / 4, q = t % 4;
    if (t == 0) {
        prims::mbar_init(&full, 1);
        prims::fence_mbarrier_init();
    }
    __syncthreads();
    if (t == 0) {
        prims::mbar_arrive_expect_tx(&full, 2 * 64 * 128);
        prims::tma_load_2d(sm, &mapA, 0, 0, &full);
        prims::tma_load_2d(sm + 8192, &mapB, 0, 0, &full);
    }
    uint32_t a[4][4]; // RS: the A fragment of each k-block
#pragma unroll
    for (int kb = 0; kb < 4; kb++)
#pragma unroll
        for (int r = 0; r < 4; r++) {
            a[kb][r] = 0;
#pragma unroll
            for (int b = 0; b < 4; b++) {
                const int i = 4 * r + b, row = 16 * w + g + 8 * ((i >> 2) & 1),
                          k = 4 * q + (i & 3) + 16 * (i >> 3);
                a[kb][r] |= (uint32_t)A[row * 128 + 32 * kb + k] << (8 * b);
            }
        }
    prims::mbar_wait(&full, 0);
    float s[32], rr[32];
#pragma unroll
    for (int i = 0; i < 32; i++) s[i] = rr[i] = 0.0f;
    prims::wgmma_fence_operand(s);
    prims::wgmma_fence_operand(rr);
    prims::wgmma_fence();
#pragma unroll
    for (int kb = 0; kb < 4; kb++) // 128-byte rows: 8-row groups 1024 bytes apart
        prims::wgmma_ss(s, prims::wgmma_desc(sm + 32 * kb, 16, 1024, 128),
                        prims::wgmma_desc(sm + 8192 + 32 * kb, 16, 1024, 128), kb > 0);
    prims::wgmma_commit();
#pragma unroll
    for (int kb = 0; kb < 4; kb++)
        prims::wgmma_rs(rr, a[kb], prims::wgmma_desc(sm + 8192 + 32 * kb, 16, 1024, 128), kb > 0);
    prims::wgmma_commit();
    prims::wgmma_wait<1>(s);
#pragma unroll
    for (int i = 0; i < 32; i++)
        S[(16 * w + g + 8 * ((i >> 1) & 1)) * 64 + 8 * (i >> 2) + 2 * q + (i & 1)] = s[i];
    prims::wgmma_wait<0>(rr);
#pragma unroll
    for (int i = 0; i < 32; i++)
        R[(16 * w + g + 8 * ((i >> 1) & 1)) * 64 + 8 * (i >> 2) + 2 * q + (i & 1)] = rr[i];
}

extern "C" int emut_wgmma_tma_pipeline(const CUtensorMap *mapA, const CUtensorMap *mapB, const uint8_t *A,
                                       float *S, float *R) {
    return SDPA_LAUNCH(wgmma_tma_pipeline, 1, 128, 16384, 0, *mapA, *mapB, A, S, R);
}
