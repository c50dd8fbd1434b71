// mma.sync m16n8k16 (f16 -> f32), ldmatrix .x1/.x2/.x4 with and without .trans, movmatrix, and the
// accumulator -> A repack (correct kernels, one warp). Fragments follow the PTX ISA layouts as
// written in kernels/prims.cuh.
#include "emu_tests.h"
#include "prims.cuh"

// D = A B + C for A 16x16 (row-major), B 16x8 given as [k][n] (Bkn) and as [n][k] (Bnk), C 16x8.
// mode EMUT_LOAD_DIRECT: registers filled element by element from global memory by the layout;
// EMUT_LOAD_LDSM: A by ldmatrix.x4, B by ldmatrix.x2.trans from [k][n];
// EMUT_LOAD_LDSM_TRANS: A by ldmatrix.x4.trans from A^T, B by two ldmatrix.x1 from [n][k].
__global__ void mma_f16_tile(const __half *__restrict__ A, const __half *__restrict__ Bkn,
                             const __half *__restrict__ Bnk, const float *__restrict__ C,
                             float *__restrict__ D, int mode) {
    __shared__ __align__(16) __half sA[16][16], sAt[16][16], sBkn[16][8], sBnk[8][16];
    const int l = threadIdx.x, g = l / 4, t = l % 4;
    for (int i = l; i < 256; i += 32) {
        sA[i / 16][i % 16] = A[i];
        sAt[i % 16][i / 16] = A[i];
    }
    for (int i = l; i < 128; i += 32) {
        sBkn[i / 8][i % 8] = Bkn[i];
        sBnk[i / 16][i % 16] = Bnk[i];
    }
    __syncwarp();
    uint32_t a[4], b[2];
    if (mode == EMUT_LOAD_DIRECT) {
        for (int r = 0; r < 4; r++) {
            const int row = g + 8 * (r & 1), col = 2 * t + 8 * (r >> 1);
            a[r] = prims::pack_half2(__half2float(A[row * 16 + col]), __half2float(A[row * 16 + col + 1]));
        }
        for (int r = 0; r < 2; r++) {
            const int k = 2 * t + 8 * r;
            b[r] = prims::pack_half2(__half2float(Bkn[k * 8 + g]), __half2float(Bkn[(k + 1) * 8 + g]));
        }
    } else if (mode == EMUT_LOAD_LDSM) {
        const int m = l / 8, r = l % 8; // lane l addresses row r of matrix m
        prims::ldmatrix<4>(a, &sA[r + 8 * (m & 1)][8 * (m >> 1)]);
        prims::ldmatrix<2, true>(b, &sBkn[r + 8 * (m & 1)][0]);
    } else {
        const int m = l / 8, r = l % 8;
        prims::ldmatrix<4, true>(a, &sAt[r + 8 * (m >> 1)][8 * (m & 1)]);
        uint32_t b0[1], b1[1];
        prims::ldmatrix<1>(b0, &sBnk[r][0]);
        prims::ldmatrix<1>(b1, &sBnk[r][8]);
        b[0] = b0[0];
        b[1] = b1[0];
    }
    float c[4], d[4];
    for (int i = 0; i < 4; i++) c[i] = C[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)];
    prims::mma_m16n8k16_f16(d, a, b, c);
    for (int i = 0; i < 4; i++) D[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = d[i];
}

// out[l] = movmatrix of the 8x8 matrix M (row-major) loaded by ldmatrix.x1; out[32 + l] = the same
// matrix loaded by ldmatrix.x1.trans: the two must agree.
__global__ void movmatrix_check(const __half *__restrict__ M, uint32_t *__restrict__ out) {
    __shared__ __align__(16) __half sM[8][8];
    const int l = threadIdx.x;
    for (int i = l; i < 64; i += 32) sM[i / 8][i % 8] = M[i];
    __syncwarp();
    uint32_t r[1], rt[1];
    prims::ldmatrix<1>(r, &sM[l % 8][0]);
    prims::ldmatrix<1, true>(rt, &sM[l % 8][0]);
    out[l] = prims::movmatrix_trans(r[0]);
    out[32 + l] = rt[0];
}

// Two chained products kept in registers: S = Q K^T (16x16, two n-tiles), P = S rounded to f16 by
// acc_to_a_f16, O = P V (16x8). Q [16][16], K [16][16] (key-major: K^T's columns), V [16][8].
__global__ void mma_f16_chain(const __half *__restrict__ Q, const __half *__restrict__ K,
                              const __half *__restrict__ V, float *__restrict__ O) {
    const int l = threadIdx.x, g = l / 4, t = l % 4;
    uint32_t q[4];
    for (int r = 0; r < 4; r++) {
        const int row = g + 8 * (r & 1), col = 2 * t + 8 * (r >> 1);
        q[r] = prims::pack_half2(__half2float(Q[row * 16 + col]), __half2float(Q[row * 16 + col + 1]));
    }
    float s[2][4];
    for (int j = 0; j < 2; j++) { // keys 8j..8j+7: B[k][n] = K[8j + n][k]
        uint32_t b[2];
        for (int r = 0; r < 2; r++) {
            const int k = 2 * t + 8 * r, key = 8 * j + g;
            b[r] = prims::pack_half2(__half2float(K[key * 16 + k]), __half2float(K[key * 16 + k + 1]));
        }
        const float zero[4] = {0, 0, 0, 0};
        prims::mma_m16n8k16_f16(s[j], q, b, zero);
    }
    uint32_t p[4];
    prims::acc_to_a_f16(p, s[0], s[1]);
    uint32_t v[2];
    for (int r = 0; r < 2; r++) {
        const int k = 2 * t + 8 * r;
        v[r] = prims::pack_half2(__half2float(V[k * 8 + g]), __half2float(V[(k + 1) * 8 + g]));
    }
    float o[4] = {0, 0, 0, 0};
    prims::mma_m16n8k16_f16(o, p, v, o);
    for (int i = 0; i < 4; i++) O[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = o[i];
}

extern "C" int emut_mma_f16(const uint16_t *A, const uint16_t *Bkn, const uint16_t *Bnk, const float *C,
                            float *D, int mode) {
    return SDPA_LAUNCH(mma_f16_tile, 1, 32, 0, 0, (const __half *)A, (const __half *)Bkn, (const __half *)Bnk,
                       C, D, mode);
}
extern "C" int emut_movmatrix(const uint16_t *M, uint32_t *out) {
    return SDPA_LAUNCH(movmatrix_check, 1, 32, 0, 0, (const __half *)M, out);
}
extern "C" int emut_mma_f16_chain(const uint16_t *Q, const uint16_t *K, const uint16_t *V, float *O) {
    return SDPA_LAUNCH(mma_f16_chain, 1, 32, 0, 0, (const __half *)Q, (const __half *)K, (const __half *)V,
                       O);
}
