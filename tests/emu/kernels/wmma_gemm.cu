// WMMA m16n16k16 (correct kernels): a tiled matrix product through shared memory with float or
// __half accumulators and B row- or column-major, element-wise scaling of the accumulator, and
// accumulator loads/stores in both memory layouts.
#include "emu_tests.h"
#include "prims.cuh"

using namespace nvcuda;

template <bool COL> struct b_layout { typedef wmma::row_major type; };
template <> struct b_layout<true> { typedef wmma::col_major type; };

// C = alpha * A B: A [M][K] row-major; B [K][N] row-major, or [N][K] (column-major) when B_COL;
// C [M][N] row-major. M, N, K multiples of 32. A block of 4 warps computes a 32x32 tile of C,
// each warp a 16x16 quadrant, k in steps of 32 staged in shared memory with padded rows.
template <bool B_COL, class AccT>
__global__ void __launch_bounds__(128) wmma_gemm(const __half *__restrict__ A, const __half *__restrict__ B,
                                                 AccT *__restrict__ C, int N, int K, float alpha) {
    constexpr int LD = 40; // 32 + 8 halves: rows stay 16-byte multiples, as WMMA requires
    __shared__ __align__(32) __half sA[32][LD];
    __shared__ __align__(32) __half sB[32][LD]; // [k][n], or [n][k] when B_COL
    const int warp = threadIdx.x / 32, wm = (warp / 2) * 16, wn = (warp % 2) * 16;
    const int m0 = blockIdx.y * 32, n0 = blockIdx.x * 32;
    wmma::fragment<wmma::accumulator, 16, 16, 16, AccT> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k0 = 0; k0 < K; k0 += 32) {
        for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x) {
            const int r = i / 32, c = i % 32;
            sA[r][c] = A[(m0 + r) * K + k0 + c];
            sB[r][c] = B_COL ? B[(n0 + r) * K + k0 + c] : B[(k0 + r) * N + n0 + c];
        }
        __syncthreads();
        for (int kk = 0; kk < 32; kk += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
            wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, typename b_layout<B_COL>::type> b;
            wmma::load_matrix_sync(a, &sA[wm][kk], LD);
            wmma::load_matrix_sync(b, B_COL ? &sB[wn][kk] : &sB[kk][wn], LD);
            wmma::mma_sync(acc, a, b, acc); // d aliases c
        }
        __syncthreads();
    }
    for (int i = 0; i < acc.num_elements; i++) acc.x[i] = (AccT)((float)acc.x[i] * alpha); // element-wise
    wmma::store_matrix_sync(C + (m0 + wm) * N + n0 + wn, acc, N, wmma::mem_row_major);
}

// out = in^T for one 16x16 float tile: an accumulator loaded column-major, stored row-major,
// converted element-wise to a __half accumulator and stored column-major (out_h = in as half).
__global__ void wmma_transpose(const float *__restrict__ in, float *__restrict__ out,
                               __half *__restrict__ out_h) {
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> f;
    wmma::fragment<wmma::accumulator, 16, 16, 16, __half> h;
    wmma::load_matrix_sync(f, in, 16, wmma::mem_col_major);
    wmma::store_matrix_sync(out, f, 16, wmma::mem_row_major);
    for (int i = 0; i < f.num_elements; i++) h.x[i] = __float2half(f.x[i]);
    wmma::store_matrix_sync(out_h, h, 16, wmma::mem_col_major);
}

extern "C" int emut_wmma_gemm(const uint16_t *A, const uint16_t *B, int b_col, int acc_half, void *C, int M,
                              int N, int K, float alpha) {
    const dim3 grid(N / 32, M / 32);
    const __half *a = (const __half *)A, *b = (const __half *)B;
    if (acc_half)
        return b_col
                   ? SDPA_LAUNCH((wmma_gemm<true, __half>), grid, 128, 0, 0, a, b, (__half *)C, N, K, alpha)
                   : SDPA_LAUNCH((wmma_gemm<false, __half>), grid, 128, 0, 0, a, b, (__half *)C, N, K, alpha);
    return b_col ? SDPA_LAUNCH((wmma_gemm<true, float>), grid, 128, 0, 0, a, b, (float *)C, N, K, alpha)
                 : SDPA_LAUNCH((wmma_gemm<false, float>), grid, 128, 0, 0, a, b, (float *)C, N, K, alpha);
}

extern "C" int emut_wmma_transpose(const float *in, float *out, uint16_t *out_h) {
    return SDPA_LAUNCH(wmma_transpose, 1, 32, 0, 0, in, out, (__half *)out_h);
}
