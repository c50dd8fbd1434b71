// NVCC-ARCHS: 90a
// Planted wgmma and setmaxnreg bugs (hopper-wgmma-notes W1, W3-W10, M1, R1, R3; a swizzled operand
// starting inside its swizzle's repeat). One warpgroup computes
// d = A B^T (A [64][32], B [16][32], e4m3) and d2 = A B2^T with B2 = B: SS, then RS; A in shared
// memory with the 32-byte swizzle (ordinary stores, or TMA in the TMA modes), B without swizzle.
#include "emu_tests.h"
#include "prims.cuh"

__device__ inline unsigned a_offset(int r, int k) { // 32-byte swizzle, rows of 32 bytes
    const unsigned a = (unsigned)(r * 32 + k);
    return a ^ (((a >> 7) & 1) << 4);
}
__device__ inline unsigned b_offset(int r, int k) {
    return (unsigned)((r % 8) * 16 + (r / 8) * 128 + (k / 16) * 256 + k % 16);
}

__global__ void wgmma_bugs(const __grid_constant__ CUtensorMap mapA, const uint8_t *__restrict__ A,
                           const uint8_t *__restrict__ Bm, float *__restrict__ D, int mode) {
    SMEM_DYNAMIC(uint8_t, sm);
    uint8_t *sA = sm, *sB = sm + 2048;
    __shared__ __align__(8) uint64_t bar;
    const int t = threadIdx.x, warp = t / 32;
    const bool tma =
        mode == EMUT_WG_W10 || mode == EMUT_WG_M1 || mode == EMUT_WG_W6_TMA || mode == EMUT_WG_TMA_OK;
    if (tma && t == 0) {
        prims::mbar_init(&bar, 1);
        prims::fence_mbarrier_init();
    }
    if (!tma)
        for (int i = t; i < 64 * 32; i += blockDim.x) sA[a_offset(i / 32, i % 32)] = A[i];
    for (int i = t; i < 16 * 32; i += blockDim.x) sB[b_offset(i / 32, i % 32)] = Bm[i];
    if (mode != EMUT_WG_W7) prims::fence_proxy_async();
    __syncthreads();
    if (tma && t == 0) {
        prims::mbar_arrive_expect_tx(&bar, 2048);
        prims::tma_load_2d(sA, &mapA, 0, 0, &bar);
    }
    if (tma && mode != EMUT_WG_M1) prims::mbar_wait(&bar, 0);
    // A's descriptor: 32-byte swizzle, 8-row groups 256 bytes apart (W10: 512, not how TMA laid it out).
    // SWZ_MID: the start 128 bytes in, inside the 32-byte swizzle's 256-byte repeat (base offset 0).
    const uint64_t da =
        prims::wgmma_desc(mode == EMUT_WG_SWZ_MID ? sA + 128 : sA, 16, mode == EMUT_WG_W10 ? 512 : 256, 32);
    uint64_t db = prims::wgmma_desc(sB, 256, 128, 0);
    if (mode == EMUT_WG_W9 && warp == 3) db = prims::wgmma_desc(sB + 16, 256, 128, 0);
    float d[8], d2[8];
    uint32_t a[4];
    const int w = t / 32, g = (t % 32) / 4, q = t % 4;
    for (int r = 0; r < 4; r++) {
        a[r] = 0;
        for (int b = 0; b < 4; b++) {
            const int i = 4 * r + b, row = 16 * w + g + 8 * ((i >> 2) & 1),
                      k = 4 * q + (i & 3) + 16 * (i >> 3);
            a[r] |= (uint32_t)A[row * 32 + k] << (8 * b);
        }
    }
    if (mode != EMUT_WG_W1) prims::wgmma_fence();
    if (mode == EMUT_WG_W8 && warp == 3) return;    // a warp leaves its warpgroup
    prims::wgmma_ss(d, da, db, false);              // EMU-BUG(wg-issue)
    if (mode == EMUT_WG_W4) d[1] = 1.0f;            // written in flight
    if (mode == EMUT_WG_W6 && t == 5) sA[3] = 0x40; // overwritten in flight
    prims::wgmma_commit();
    prims::wgmma_rs(d2, a, db, false);           // EMU-BUG(wg-issue-rs)
    if (mode == EMUT_WG_W5) a[2] ^= 0x01010101u; // A registers changed in flight
    if (mode == EMUT_WG_W6_TMA && t == 0) {
        prims::mbar_arrive_expect_tx(&bar, 2048);
        prims::tma_load_2d(sA, &mapA, 0, 0, &bar); // EMU-BUG(wg-refill)
    }
    prims::wgmma_commit();
    if (mode == EMUT_WG_W3)
        prims::wgmma_wait<1>(d2); // EMU-BUG(wg-wait1) the newest group (d2) is still in flight
    else
        prims::wgmma_wait<1>(d);
    prims::wgmma_wait<0>(d2);
    if (mode == EMUT_WG_W6_TMA) prims::mbar_wait(&bar, 1);
    for (int i = 0; i < 8; i++) {
        const int row = 16 * w + g + 8 * ((i >> 1) & 1), col = 8 * (i >> 2) + 2 * q + (i & 1);
        D[row * 16 + col] = d[i];
        D[1024 + row * 16 + col] = d2[i];
    }
}

// setmaxnreg as FlashAttention-3 uses it (384 threads: the producer warpgroup 2 drops to 24 registers,
// the consumers 0 and 1 take 240; the pool is 168 x 384), with R1 / R3 planted.
__global__ void __launch_bounds__(384, 1) regs_bugs(float *__restrict__ out, int mode) {
    const int wg = threadIdx.x / 128, warp = threadIdx.x / 32;
    if (wg == 2) {
        if (mode != EMUT_REG_NO_DEC) prims::setmaxnreg_dec<24>();
    } else if (mode == EMUT_REG_DIVERGENT && warp == 1) {
        __syncwarp(); // warp 1 skips its warpgroup's setmaxnreg
    } else {
        prims::setmaxnreg_inc<240>(); // EMU-BUG(reg-inc)
    }
    out[threadIdx.x] = (float)wg;
}

extern "C" int emut_bug_wgmma(const CUtensorMap *mapA, const uint8_t *A, const uint8_t *Bm, float *D,
                              int mode) {
    const unsigned threads = mode == EMUT_WG_W8_MISALIGNED ? 96 : 128;
    return SDPA_LAUNCH(wgmma_bugs, 1, threads, 3072, 0, *mapA, A, Bm, D, mode);
}
extern "C" int emut_bug_regs(float *out, int mode) { return SDPA_LAUNCH(regs_bugs, 1, 384, 0, 0, out, mode); }
