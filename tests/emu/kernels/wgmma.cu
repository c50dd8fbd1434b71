// NVCC-ARCHS: 90a
// wgmma m64nNk32 e4m3 (correct kernels): one warpgroup computes D [64][N] = C + A [64][K] B^T (B given
// as [N][K], K a multiple of 32) with K / 32 chained wgmmas, A from shared memory (SS) or from
// registers (RS), the shared tiles written by ordinary stores in the K-major layout of the chosen
// swizzle (published with fence.proxy.async), then read through descriptors; and the same with both
// tiles loaded by TMA (wgmma_tma_gemm), the descriptors then describing TMA's layout.
#include "emu_tests.h"
#include "prims.cuh"

// Byte offset of element (r, k) of a K-major operand of `rows` rows in its tiles, and the descriptor
// of k-block kb (k in [32 kb, 32 kb + 32)): swizzle S > 0: tiles of rows x S bytes (one per S bytes of
// k), 1024-byte aligned, each row S bytes, chunks XOR-swizzled; none: 8 x 16-byte core matrices, the
// 8-row groups 128 bytes apart (SBO), the 16-byte k-chunks rows x 16 bytes apart (LBO).
__device__ inline unsigned tile_bytes(int rows, int swizzle) {
    return ((unsigned)rows * swizzle + 1023) & ~1023u;
}
__device__ inline unsigned kmajor_offset(int r, int k, int rows, int swizzle) {
    if (!swizzle) return (unsigned)((r % 8) * 16 + (r / 8) * 128 + (k / 16) * rows * 16 + k % 16);
    const unsigned a = (unsigned)((k / swizzle) * tile_bytes(rows, swizzle) + r * swizzle + k % swizzle);
    return a ^ (((a >> 7) & (swizzle / 16 - 1)) << 4);
}
__device__ inline uint64_t kmajor_desc(const uint8_t *base, int kb, int rows, int swizzle) {
    if (!swizzle) return prims::wgmma_desc(base + kb * 2 * rows * 16, rows * 16, 128, 0);
    const int k = 32 * kb;
    return prims::wgmma_desc(base + (k / swizzle) * tile_bytes(rows, swizzle) + k % swizzle, 16, 8 * swizzle,
                             swizzle);
}

template <int M, bool RS>
__global__ void __launch_bounds__(128)
    wgmma_gemm(const uint8_t *__restrict__ A, const uint8_t *__restrict__ Bm, const float *__restrict__ C,
               float *__restrict__ D, int K, int swizzle) {
    constexpr int N = 2 * M;
    SMEM_DYNAMIC(uint8_t, sm);
    uint8_t *sA = sm, *sB = sm + 64 * K;
    if (swizzle) sB = sm + (K / swizzle) * tile_bytes(64, swizzle);
    const int t = threadIdx.x;
    for (int i = t; i < 64 * K; i += 128) sA[kmajor_offset(i / K, i % K, 64, swizzle)] = A[i];
    for (int i = t; i < N * K; i += 128) sB[kmajor_offset(i / K, i % K, N, swizzle)] = Bm[i];
    prims::fence_proxy_async(); // ordinary stores -> the async proxy that wgmma reads through
    __syncthreads();
    const int w = t / 32, g = (t % 32) / 4, q = t % 4;
    float d[M];
    for (int i = 0; i < M; i++)
        d[i] = C[(16 * w + g + 8 * ((i >> 1) & 1)) * N + 8 * (i >> 2) + 2 * q + (i & 1)];
    // Descriptors before the first fence: no branch between the fence and the wgmmas (ptxas would
    // serialise them, C7520).
    uint64_t da[8], db[8];
    for (int kb = 0; kb < K / 32; kb++)
        da[kb] = kmajor_desc(sA, kb, 64, swizzle), db[kb] = kmajor_desc(sB, kb, N, swizzle);
    uint32_t a[4];
    prims::wgmma_fence_operand(d);
    prims::wgmma_fence();
    for (int kb = 0; kb < K / 32; kb++) {
        if constexpr (RS) {
            for (int r = 0; r < 4; r++) {
                a[r] = 0;
                for (int b = 0; b < 4; b++) {
                    const int i = 4 * r + b, row = 16 * w + g + 8 * ((i >> 2) & 1),
                              k = 4 * q + (i & 3) + 16 * (i >> 3);
                    a[r] |= (uint32_t)A[row * K + 32 * kb + k] << (8 * b);
                }
            }
            prims::wgmma_rs(d, a, db[kb], true);
            prims::wgmma_commit();
            prims::wgmma_wait<0>(d); // a is rewritten for the next k-block: wait first
            prims::wgmma_fence();
        } else {
            prims::wgmma_ss(d, da[kb], db[kb], true);
        }
    }
    prims::wgmma_commit();
    prims::wgmma_wait<0>(d);
    for (int i = 0; i < M; i++)
        D[(16 * w + g + 8 * ((i >> 1) & 1)) * N + 8 * (i >> 2) + 2 * q + (i & 1)] = d[i];
}

template <int M>
static int launch_gemm(const uint8_t *A, const uint8_t *Bm, const float *C, float *D, int K, int rs,
                       int swizzle) {
    const size_t smem = swizzle ? (size_t)(K / swizzle) *
                                      (((64 * swizzle + 1023) & ~1023) + ((2 * M * swizzle + 1023) & ~1023))
                                : (size_t)(64 + 2 * M) * K;
    return rs ? SDPA_LAUNCH((wgmma_gemm<M, true>), 1, 128, smem, 0, A, Bm, C, D, K, swizzle)
              : SDPA_LAUNCH((wgmma_gemm<M, false>), 1, 128, smem, 0, A, Bm, C, D, K, swizzle);
}

extern "C" int emut_wgmma_gemm(const uint8_t *A, const uint8_t *Bm, const float *C, float *D, int N, int K,
                               int rs, int swizzle) {
    if (K % 32 || K > 256 || (swizzle && K % swizzle)) return -1;
    switch (N) {
    case 16: return launch_gemm<8>(A, Bm, C, D, K, rs, swizzle);
    case 32: return launch_gemm<16>(A, Bm, C, D, K, rs, swizzle);
    case 64: return launch_gemm<32>(A, Bm, C, D, K, rs, swizzle);
    case 96: return launch_gemm<48>(A, Bm, C, D, K, rs, swizzle);
    case 128: return launch_gemm<64>(A, Bm, C, D, K, rs, swizzle);
    case 160: return launch_gemm<80>(A, Bm, C, D, K, rs, swizzle);
    case 192: return launch_gemm<96>(A, Bm, C, D, K, rs, swizzle);
    case 256: return launch_gemm<128>(A, Bm, C, D, K, rs, swizzle);
    default: return -1;
    }
}
