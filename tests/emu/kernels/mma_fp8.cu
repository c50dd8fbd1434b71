// NVCC-ARCHS: 89 90 90a
// mma.sync m16n8k32 with e4m3 and e5m2 operands (sm_89+), fragments by the documented layout or by
// ldmatrix; the e4m3 accumulator -> A repack with its k permutation; FP8 packing (correct kernels).
#include "emu_tests.h"
#include "prims.cuh"

template <prims::Fp8 T>
__global__ void mma_fp8_tile(const uint8_t *__restrict__ A, const uint8_t *__restrict__ Bnk,
                             const float *__restrict__ C, float *__restrict__ D, int mode) {
    __shared__ __align__(16) uint8_t sA[16][32], sB[8][32];
    const int l = threadIdx.x, g = l / 4, t = l % 4;
    uint32_t a[4], b[2];
    if (mode == EMUT_LOAD_DIRECT) {
        for (int r = 0; r < 4; r++) // four consecutive codes, low byte first
            memcpy(&a[r], &A[(g + 8 * (r & 1)) * 32 + 4 * t + 16 * (r >> 1)], 4);
        for (int r = 0; r < 2; r++) memcpy(&b[r], &Bnk[g * 32 + 4 * t + 16 * r], 4);
    } else {
        // An 8x8 b16 matrix is 8 rows of 16 bytes: A is four of them, B (as [n][k]) two.
        for (int i = l; i < 512; i += 32) sA[i / 32][i % 32] = A[i];
        for (int i = l; i < 256; i += 32) sB[i / 32][i % 32] = Bnk[i];
        __syncwarp();
        const int m = l / 8, r = l % 8;
        prims::ldmatrix<4>(a, &sA[r + 8 * (m & 1)][16 * (m >> 1)]);
        prims::ldmatrix<2>(b, &sB[r][16 * (m & 1)]);
    }
    float c[4], d[4];
    for (int i = 0; i < 4; i++) c[i] = C[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)];
    prims::mma_m16n8k32<T>(d, a, b, c);
    for (int i = 0; i < 4; i++) D[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = d[i];
}

// S = Q K^T (Q [16][32], K [32 keys][32], e4m3), P = e4m3(S * scale) in registers (acc_to_a_e4m3),
// O = P V with V given transposed, Vt [8][32 keys], read in the permuted k order (k32_col).
__global__ void mma_fp8_chain(const uint8_t *__restrict__ Q, const uint8_t *__restrict__ K,
                              const uint8_t *__restrict__ Vt, float scale, float *__restrict__ O) {
    const int l = threadIdx.x, g = l / 4, t = l % 4;
    uint32_t q[4];
    for (int r = 0; r < 4; r++) memcpy(&q[r], &Q[(g + 8 * (r & 1)) * 32 + 4 * t + 16 * (r >> 1)], 4);
    float s[4][4];
    for (int j = 0; j < 4; j++) { // keys 8j..8j+7
        uint32_t b[2];
        for (int r = 0; r < 2; r++) memcpy(&b[r], &K[(8 * j + g) * 32 + 4 * t + 16 * r], 4);
        const float zero[4] = {0, 0, 0, 0};
        prims::mma_m16n8k32<prims::Fp8::e4m3>(s[j], q, b, zero);
        for (int i = 0; i < 4; i++) s[j][i] *= scale;
    }
    uint32_t p[4];
    prims::acc_to_a_e4m3(p, s);
    uint32_t v[2];
    for (int r = 0; r < 2; r++) {
        uint8_t bytes[4];
        for (int i = 0; i < 4; i++) bytes[i] = Vt[g * 32 + prims::k32_col(16 * r + 4 * t + i)];
        memcpy(&v[r], bytes, 4);
    }
    float o[4] = {0, 0, 0, 0};
    prims::mma_m16n8k32<prims::Fp8::e4m3>(o, p, v, o);
    for (int i = 0; i < 4; i++) O[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = o[i];
}

// codes[i] = the two E4M3 codes of (x[2i], x[2i+1]) packed by prims::pack_e4m3x2.
__global__ void pack_e4m3(const float *__restrict__ x, uint16_t *__restrict__ codes, int pairs) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < pairs; i += gridDim.x * blockDim.x)
        codes[i] = prims::pack_e4m3x2(x[2 * i], x[2 * i + 1]);
}

extern "C" int emut_mma_fp8(const uint8_t *A, const uint8_t *Bnk, const float *C, float *D, int e5m2,
                            int mode) {
    return e5m2 ? SDPA_LAUNCH(mma_fp8_tile<prims::Fp8::e5m2>, 1, 32, 0, 0, A, Bnk, C, D, mode)
                : SDPA_LAUNCH(mma_fp8_tile<prims::Fp8::e4m3>, 1, 32, 0, 0, A, Bnk, C, D, mode);
}
extern "C" int emut_mma_fp8_chain(const uint8_t *Q, const uint8_t *K, const uint8_t *Vt, float scale,
                                  float *O) {
    return SDPA_LAUNCH(mma_fp8_chain, 1, 32, 0, 0, Q, K, Vt, scale, O);
}
extern "C" int emut_pack_e4m3(const float *x, uint16_t *codes, int pairs) {
    return SDPA_LAUNCH(pack_e4m3, 8, 256, 0, 0, x, codes, pairs);
}
