// tile_products.cuh: the matrix products of one KV tile, one family per tensor-core path. WMMA
// (stages 0-3a): Q.K^T into the score buffer through an fp32 scratch, and P.V scalar (fp32 P) or
// on WMMA (fp16 P) into U. mma.sync m16n8k16 on halves (stages 3b-5, mma_tile) and m16n8k32 on
// e4m3 codes (stage 6, fp8_tile): Q.K^T, the register-row softmax and P.V of a warp's 16 rows,
// with scores and P never leaving registers. Each is the per-tile compute that a main loop (or the
// warp-specialised skeleton, as its hook) calls; none synchronises beyond its own warp.
#pragma once

#include "loads.cuh"
#include "softmax_smem.cuh"
#include "softmax_regs.cuh"

namespace sdpa {

using nvcuda::wmma::accumulator;
using nvcuda::wmma::col_major;
using nvcuda::wmma::fragment;
using nvcuda::wmma::matrix_a;
using nvcuda::wmma::matrix_b;
using nvcuda::wmma::row_major;

// ---- [stage 0] S = Q K^T on WMMA ----------------------------------------------------------------
// Warp w owns the 16x16 quadrant (rows (w/2)*16, keys (w%2)*16). The fp32 accumulator goes through
// the warp's scratch and is scaled by qk_mult = step_q*step_k*softmax_scale before rounding to
// fp16: rounding raw code products would overflow fp16 (|q.k| reaches 64*448^2). A quadrant wholly
// past the tile's valid keys is skipped; the softmax never reads it.
template <class Cfg>
__device__ __forceinline__ void qk_scores(Smem<Cfg> &sm, int warp, int lane, int t, int kv_valid,
                                          float qk_mult) {
    constexpr int D = Cfg::kD;
    const int wm = (warp >> 1) * 16, wn = (warp & 1) * 16;
    if (wn >= kv_valid) return;
    fragment<matrix_a, 16, 16, 16, __half, row_major> a;
    fragment<matrix_b, 16, 16, 16, __half, col_major> b;
    fragment<accumulator, 16, 16, 16, float> acc;
    nvcuda::wmma::fill_fragment(acc, 0.0f);
#pragma unroll
    for (int k = 0; k < D; k += 16) {
        nvcuda::wmma::load_matrix_sync(a, &sm.q[wm][k], Cfg::LD);
        nvcuda::wmma::load_matrix_sync(b, &sm.k[0][wn][k], Cfg::LD); // (k, n) at k[n][k]: col-major K^T
        nvcuda::wmma::mma_sync(acc, a, b, acc);
    }
    float *scr = scratch_of(sm, warp, t);
    nvcuda::wmma::store_matrix_sync(scr, acc, 16, nvcuda::wmma::mem_row_major);
    __syncwarp();
    // lane -> (row lane/2, 8 consecutive keys): one 16-byte store of 8 halves
    const int i = lane >> 1, j0 = (lane & 1) * 8;
    const float *f = &scr[i * 16 + j0];
    *reinterpret_cast<uint4 *>(&sm.s[wm + i][wn + j0]) =
        pack8(f[0] * qk_mult, f[1] * qk_mult, f[2] * qk_mult, f[3] * qk_mult, f[4] * qk_mult, f[5] * qk_mult,
              f[6] * qk_mult, f[7] * qk_mult);
}

// ---- [stage 0] P V, scalar (stages 0-1): P stays fp32 -------------------------------------------
// The lane group's 8 fp32 probabilities go to the warp's scratch (row i of the warp: 32 floats),
// then each lane accumulates U[r][16c .. 16c+15] += sum_n p[n] v[n][.] in registers.
template <class Cfg>
__device__ __forceinline__ void pv_scalar(Smem<Cfg> &sm, int warp, int t, const SoftmaxMap &mp, int kv_valid,
                                          float alpha, const float p[8]) {
    constexpr int TN = Cfg::kTN;
    float *prow = scratch_of(sm, warp, t) + mp.i * TN;
#pragma unroll
    for (int j = 0; j < 8; ++j) prow[mp.c * 8 + j] = p[j];
    __syncwarp();
    float *u = &sm.u[mp.row][mp.c * 16];
    float acc[16];
#pragma unroll
    for (int d = 0; d < 16; ++d) acc[d] = u[d] * alpha;
    for (int n = 0; n < kv_valid; ++n) {
        const float pn = prow[n];
        const __half2 *v = reinterpret_cast<const __half2 *>(&sm.v[0][n][mp.c * 16]); // smem, 4-byte aligned
#pragma unroll
        for (int d = 0; d < 8; ++d) {
            const float2 f = __half22float2(v[d]);
            acc[2 * d] += pn * f.x;
            acc[2 * d + 1] += pn * f.y;
        }
    }
#pragma unroll
    for (int d = 0; d < 16; ++d) u[d] = acc[d];
}

// ---- [stage 2] P V on WMMA: P in fp16 (its own buffer, or the score buffer in 3a) ---------------
// Warp w: rows (w/2)*16, output column tiles {w%2, w%2+2}; a fresh fp32 accumulator per tile is
// stored to the warp's scratch and added into U (as the original; the accumulator does not
// persist across KV tiles).
template <class Cfg> __device__ __forceinline__ void pv_wmma(Smem<Cfg> &sm, int warp, int lane, int t) {
    constexpr int TN = Cfg::kTN;
    const int pm = (warp >> 1) * 16;
    __half(*pb)[Cfg::LDS] = p_buffer(sm);
    float *scr = scratch_of(sm, warp, t);
    fragment<matrix_a, 16, 16, 16, __half, row_major> a;
    fragment<matrix_b, 16, 16, 16, __half, row_major> b;
    fragment<accumulator, 16, 16, 16, float> acc;
#pragma unroll
    for (int t = 0; t < 2; ++t) {
        const int d0 = ((warp & 1) + 2 * t) * 16;
        nvcuda::wmma::fill_fragment(acc, 0.0f);
#pragma unroll
        for (int k = 0; k < TN; k += 16) {
            nvcuda::wmma::load_matrix_sync(a, &pb[pm][k], Cfg::LDS);
            nvcuda::wmma::load_matrix_sync(b, &sm.v[0][k][d0], Cfg::LD);
            nvcuda::wmma::mma_sync(acc, a, b, acc);
        }
        nvcuda::wmma::store_matrix_sync(scr, acc, 16, nvcuda::wmma::mem_row_major);
        __syncwarp();
        // lane -> (row i, 8 columns): U += scratch as two explicit 16-byte accesses per operand,
        // so the code does not depend on whether nvcc's load/store vectorizer pairs them (it did
        // so in some compiles and not in others of the same source: tools/ptx-identity.sh).
        const int i = lane >> 1, j0 = (lane & 1) * 8;
        float4 *u = reinterpret_cast<float4 *>(&sm.u[pm + i][d0 + j0]);
        const float4 *f = reinterpret_cast<const float4 *>(&scr[i * 16 + j0]);
#pragma unroll
        for (int h = 0; h < 2; ++h) u[h] = add4(u[h], f[h]);
        __syncwarp(); // the scratch is overwritten by the next column tile
    }
}

// ---- [stage 3b] one tile on mma.sync m16n8k16: Q K^T, softmax and P V in registers --------------
// One KV tile (half tiles `buf`, the keys `mask` lets each row see) for warp `warp`'s 16 rows.
template <class Cfg, class Mask>
__device__ __forceinline__ void mma_tile(const Smem<Cfg> &sm, int buf, int warp, int lane, Mask mask,
                                         float qk_mult, MmaRows<Cfg::kD> &st) {
    constexpr int D = Cfg::kD, TN = Cfg::kTN;
    const int g = lane >> 2, t = lane & 3;
    // S = Q K^T: 4 tiles of 8 keys. B (k = d, n = key) is K's [key][d] rows read without .trans:
    // one x4 gives d 32h .. 32h+31 of keys 8j..8j+7, i.e. B of two k steps.
    float s[TN / 8][4];
#pragma unroll
    for (int j = 0; j < TN / 8; ++j) {
        s[j][0] = s[j][1] = s[j][2] = s[j][3] = 0.0f;
#pragma unroll
        for (int h = 0; h < D / 32; ++h) {
            uint32_t b[4];
            prims::ldmatrix<4>(b, &sm.k[buf][8 * j + (lane & 7)][32 * h + 8 * (lane >> 3)]);
            const uint32_t b0[2] = {b[0], b[1]}, b1[2] = {b[2], b[3]};
            uint32_t q0[4], q1[4];
            prims::mma_m16n8k16_f16(s[j], q_frag(sm, st, warp, lane, 2 * h, q0), b0, s[j]);
            prims::mma_m16n8k16_f16(s[j], q_frag(sm, st, warp, lane, 2 * h + 1, q1), b1, s[j]);
        }
    }
    // Online softmax on the accumulators (rows_rescale): s scaled and masked, m and l updated.
    float alpha[2];
    rows_rescale(s, g, t, mask, qk_mult, st.m, st.l, alpha);
#pragma unroll
    for (int j = 0; j < TN / 8; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            s[j][e] = mask(8 * j + 2 * t + (e & 1), g + 8 * (e >> 1)) ? __expf(s[j][e] - st.m[e >> 1]) : 0.0f;
            st.l[e >> 1] += s[j][e];
        }
#pragma unroll
    for (int j = 0; j < D / 8; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) st.o[j][e] *= alpha[e >> 1];
            // O += P V: P's two 8-key accumulator tiles are the A fragment of 16 keys (acc_to_a_f16, P
            // rounded to fp16); B (k = key, n = d) is V's [key][d] rows read with .trans, one x4 giving
            // two 8-column tiles.
#pragma unroll
    for (int kk = 0; kk < TN / 16; ++kk) {
        uint32_t pa[4];
        prims::acc_to_a_f16(pa, s[2 * kk], s[2 * kk + 1]);
#pragma unroll
        for (int np = 0; np < D / 16; ++np) {
            uint32_t b[4];
            prims::ldmatrix<4, true>(
                b, &sm.v[buf][16 * kk + (lane & 7) + 8 * ((lane >> 3) & 1)][16 * np + 8 * (lane >> 4)]);
            const uint32_t b0[2] = {b[0], b[1]}, b1[2] = {b[2], b[3]};
            prims::mma_m16n8k16_f16(st.o[2 * np], pa, b0, st.o[2 * np]);
            prims::mma_m16n8k16_f16(st.o[2 * np + 1], pa, b1, st.o[2 * np + 1]);
        }
    }
}

// ---- [stage 6] FP8 tensor cores: Q.K^T and P.V on mma.sync m16n8k32 e4m3 on the codes ----------
// The codes are multiplied as they are: no decode to fp16. A product of two e4m3 values has at most
// 8 significant bits and lies in fp32's normal range, so it is exact; the per-head steps are applied
// in fp32 to the accumulators (paper/methods.md#tolerances-fp8, the pre-registered numerics).
// Operand layouts (prims.cuh; lane = 4g + t):
//   Q.K^T  A = Q codes, k = d: one ldmatrix x4 on bytes per 32 d (an 8x8 b16 matrix is 8 rows x 16
//          bytes, lane l gets row l/4, bytes 4(l%4)..+3: the m16n8k32 A layout); B = K's [key][d]
//          rows as they are (col g = key g, bytes 4t..4t+3 and 16+4t..), one x4 per 8 keys for all
//          64 d. Two k steps of 32 per score, in one fp32 accumulator.
//   P.V    A = the P codes from the score accumulators by acc_to_a_e4m3, whose k position p stands
//          for key k32_col(p); B must use the same order, so V is stored transposed as
//          vt[vt_row(d)][p] = V[k32_col(p)][d] (vt_row: loads.cuh): a B register is 4 consecutive
//          bytes of a vt row, and an ldmatrix x4 gives two 8-d tiles.

// The P scale: P codes are e4m3(kPScale * p). With p <= 1 (the running max includes this tile),
// 448 p <= 448, the largest finite e4m3: no code saturates, and the largest weights keep e4m3's 3
// fraction bits down to p = 2^-6/448 (methods.md, "Why 448"). kPScale cancels (fp8_tile) and
// appears nowhere else.
constexpr float kPScale = 448.0f;

// A weight of P, exp(x) for x = s - m <= 0: __expf, or [stage 7h] FTZ_EXP its flushed form (a weight
// below 2^-126, whose code e4m3(448 p) is 0 either way, becomes +0 without __expf's subnormal path).
template <class Cfg> __device__ __forceinline__ float p_weight(float x) {
    if constexpr (Cfg::kFtzExp)
        return prims::expf_ftz(x);
    else
        return __expf(x);
}

// The sum of the four e4m3 codes of one A register, decoded exactly (e4m3 -> half is exact, and
// these sums of at most 4 values <= 448 with 4 significant bits each are exact in fp32).
__device__ __forceinline__ float e4m3x4_sum(uint32_t w) {
    const float2 lo = __half22float2(prims::e4m3x2_to_half2((uint16_t)(w & 0xffffu)));
    const float2 hi = __half22float2(prims::e4m3x2_to_half2((uint16_t)(w >> 16)));
    return (lo.x + lo.y) + (hi.x + hi.y);
}

// S = Q K^T on the codes for warp `warp`'s 16 rows (code buffers `buf`): 4 tiles of 8 keys, D/32
// k steps of 32 d into one fp32 accumulator (one ldmatrix x4 per 64 d).
template <class Cfg>
__device__ __forceinline__ void fp8_scores(const Smem<Cfg> &sm, int buf, int warp, int lane,
                                           const Fp8Rows<Cfg::kD> &st, float (&s)[Cfg::kTN / 8][4]) {
    constexpr int D = Cfg::kD, TN = Cfg::kTN;
#pragma unroll
    for (int j = 0; j < TN / 8; ++j) {
#pragma unroll
        for (int h = 0; h < D / 64; ++h) {
            uint32_t b[4]; // bytes 64h + 16m.. of keys 8j..8j+7: {b[0], b[1]} d 64h+0-31, {b[2], b[3]} +32-63
            prims::ldmatrix<4>(b, &sm.k[buf][8 * j + (lane & 7)][64 * h + 16 * (lane >> 3)]);
            const uint32_t b0[2] = {b[0], b[1]}, b1[2] = {b[2], b[3]};
            if (h == 0) s[j][0] = s[j][1] = s[j][2] = s[j][3] = 0.0f;
            uint32_t q0[4], q1[4];
            prims::mma_m16n8k32<prims::Fp8::e4m3>(s[j], q_frag(sm, st, warp, lane, 2 * h, q0), b0, s[j]);
            prims::mma_m16n8k32<prims::Fp8::e4m3>(s[j], q_frag(sm, st, warp, lane, 2 * h + 1, q1), b1, s[j]);
        }
    }
}

// ---- [stage 7c] P.V by wgmma: P's codes from registers (RS), V^T from shared memory ----------------
// The A operand of wgmma RS is, byte for byte, the m16n8k32 A fragment that acc_to_a_e4m3 builds
// (byte i of register i / 4: row 16 w + g + 8 ((i >> 2) & 1), k 4 q + (i & 3) + 16 (i >> 3);
// wgmma_layout.h), so P's codes feed it as they are, k permuted as before; B = V^T of buffer `buf`
// with the same key order (k32_pos), K-major in core matrices (VtTile). One m64nDk32 per tile into a
// zeroed accumulator, whose element i is stage 6's o[i / 4][i % 4]: the two-level accumulation and
// its fp32 sums in k order are stage 6's, so bit-identical to stage 7b. The wait retires the group
// before the accumulator is read and before the buffer is released (EMPTY, ws_consumer).
// [stage 7e] KEYS128: the tile's 128 keys are four k steps of 32 (A fragment kk: keys 32 kk .. 32 kk +
// 31, permuted within), chained in the one zeroed accumulator; B of step kk is V^T's 128-byte
// swizzled rows from byte 32 kk (descriptor SBO 1024 between 8-row groups; LBO unused when swizzled).
// The tile's sum is formed first and added to O in fp32 (two-level over 128 keys, methods.md#tolerances-7e).
// [stage 7f] In two halves, so that another product or the softmax can run between them:
// wgmma_pv_issue issues the product into pv (one commit group; the caller has fenced), wgmma_pv_finish
// waits for every group, holding the codes pa the product read live to there, and adds pv to O. Either may take a part of O's columns: pv of M = N / 2
// accumulators holds columns d0 .. d0 + N - 1 (d0 a multiple of 8: V^T's rows from d0 start d0 TN
// bytes in, on the layout's 8-row repeat, in both layouts), O's elements from M d0 / N on.
template <class Cfg, int M>
__device__ __forceinline__ void wgmma_pv_issue(const Smem<Cfg> &sm, int buf,
                                               const uint32_t (&pa)[Cfg::kTN / 32][4], float (&pv)[M],
                                               int d0 = 0) {
    constexpr int D = Cfg::kD, TN = Cfg::kTN;
    static_assert(sizeof(sm.vt[0]) == D * TN, "V^T: D rows of the tile's TN key positions");
    const uint8_t *const vt = reinterpret_cast<const uint8_t *>(&sm.vt[buf]) + d0 * TN;
    if constexpr (Cfg::kKeys128) {
#pragma unroll
        for (int kk = 0; kk < TN / 32; ++kk)
            prims::wgmma_rs(pv, pa[kk], prims::wgmma_desc(vt + 32 * kk, 16, 8 * TN, Cfg::kVtSwizzle), kk > 0);
    } else {
        prims::wgmma_rs(pv, pa[0], prims::wgmma_desc(vt, 128, 256, 0), false);
    }
    prims::wgmma_commit();
}
template <int D, int M>
__device__ __forceinline__ void wgmma_pv_add(const float (&pv)[M], const float (&alpha)[2], Fp8Rows<D> &st,
                                             int i0 = 0) {
#pragma unroll
    for (int i = 0; i < M; ++i)
        st.o[(i0 + i) / 4][i % 4] = st.o[(i0 + i) / 4][i % 4] * alpha[(i % 4) >> 1] + pv[i];
}
template <int D, int M, int R>
__device__ __forceinline__ void wgmma_pv_finish(float (&pv)[M], uint32_t (&pa)[R][4], const float (&alpha)[2],
                                                Fp8Rows<D> &st, int i0 = 0) {
    prims::wgmma_wait<0>(pv, pa); // pa: the P codes the product read, held until it has completed
    wgmma_pv_add(pv, alpha, st, i0);
}
template <class Cfg>
__device__ __forceinline__ void wgmma_pv(const Smem<Cfg> &sm, int buf, uint32_t (&pa)[Cfg::kTN / 32][4],
                                         const float (&alpha)[2], Fp8Rows<Cfg::kD> &st) {
    float pv[Cfg::kD / 2];
    prims::wgmma_fence();
    wgmma_pv_issue(sm, buf, pa, pv);
    wgmma_pv_finish(pv, pa, alpha, st);
}

// The online softmax of a tile on the scores s (m16n8 accumulators of the warp's 16 rows): m and l
// updated, alpha returned, P as e4m3 codes in pa (the A fragments of P.V), l summing them. In two
// halves, between which stage 7f runs a part of P.V: fp8_softmax_exp leaves 448 p in s, fp8_codes
// turns s into the codes and adds them to l.
template <class Cfg, class Mask>
__device__ __forceinline__ void fp8_softmax_exp(int lane, Mask mask, float qk_mult, Fp8Rows<Cfg::kD> &st,
                                                float (&s)[Cfg::kTN / 8][4], float (&alpha)[2]) {
    constexpr int TN = Cfg::kTN;
    const int g = lane >> 2, t = lane & 3;
    // Online softmax as stage 3b (rows_rescale): s scaled and masked, m and l updated.
    rows_rescale(s, g, t, mask, qk_mult, st.m, st.l, alpha);
    // 448 p, p = exp(s - m) <= 1 since m includes this tile; masked keys give 0 (code 0).
#pragma unroll
    for (int j = 0; j < TN / 8; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e)
            s[j][e] = mask(8 * j + 2 * t + (e & 1), g + 8 * (e >> 1))
                          ? kPScale * p_weight<Cfg>(s[j][e] - st.m[e >> 1])
                          : 0.0f;
}
template <class Cfg>
__device__ __forceinline__ void fp8_codes(Fp8Rows<Cfg::kD> &st, const float (&s)[Cfg::kTN / 8][4],
                                          uint32_t (&pa)[Cfg::kTN / 32][4]) {
#pragma unroll
    for (int kk = 0; kk < Cfg::kTN / 32; ++kk) {
        // P codes c = e4m3(448 p) (RN, satfinite), k permuted by k32_col. l sums the codes as decoded,
        // i.e. 448 p-hat, not the fp32 448 p: the weights that multiply V are the ones summed (methods,
        // "The row sum"). pa[kk][0], [2] hold this lane's 8 codes of row g, [1], [3] those of row g+8;
        // [stage 7e] one A fragment per 32 keys of the tile (score tiles 4 kk .. 4 kk + 3).
        prims::acc_to_a_e4m3(pa[kk], *reinterpret_cast<const float(*)[4][4]>(&s[4 * kk]));
        st.l[0] += e4m3x4_sum(pa[kk][0]) + e4m3x4_sum(pa[kk][2]);
        st.l[1] += e4m3x4_sum(pa[kk][1]) + e4m3x4_sum(pa[kk][3]);
    }
}
template <class Cfg, class Mask>
__device__ __forceinline__ void fp8_softmax_codes(int lane, Mask mask, float qk_mult, Fp8Rows<Cfg::kD> &st,
                                                  float (&s)[Cfg::kTN / 8][4],
                                                  uint32_t (&pa)[Cfg::kTN / 32][4], float (&alpha)[2]) {
    fp8_softmax_exp<Cfg>(lane, mask, qk_mult, st, s, alpha);
    fp8_codes<Cfg>(st, s, pa);
}

// The rest of a tile on the scores s: the softmax and its codes (fp8_softmax_codes), then O = alpha O +
// P V on mma.sync m16n8k32 with V^T of buffer `buf` ([stage 7c] or on the warpgroup's wgmma, wgmma_pv).
template <class Cfg, class Mask>
__device__ __forceinline__ void fp8_softmax_pv(const Smem<Cfg> &sm, int buf, int lane, Mask mask,
                                               float qk_mult, Fp8Rows<Cfg::kD> &st,
                                               float (&s)[Cfg::kTN / 8][4]) {
    constexpr int D = Cfg::kD, TN = Cfg::kTN;
    float alpha[2];
    uint32_t pa[TN / 32][4];
    fp8_softmax_codes<Cfg>(lane, mask, qk_mult, st, s, pa, alpha);
    // O = alpha O + P V, two-level: each 8-d tile's 32-key product goes into a zeroed fragment and
    // is added to the running output in fp32, so the FP8 mma's own accumulator never carries more
    // than one tile (methods.md, "Accumulation order and precision": reduced-precision fp32
    // accumulation on Ada/Hopper then costs about 2^-12 Vmax per tile, independent of S).
    if constexpr (Cfg::kWgmmaPv) {
        wgmma_pv(sm, buf, pa, alpha, st);
    } else {
#pragma unroll
        for (int np = 0; np < D / 16; ++np) {
            uint32_t b[4]; // rows d = 16np + 8(m/2) + .., bytes 16(m%2)..: {b[0], b[1]}, {b[2], b[3]}
            prims::ldmatrix<4>(
                b, &sm.vt[buf][vt_row(16 * np + (lane & 7) + 8 * (lane >> 4))][16 * ((lane >> 3) & 1)]);
            const uint32_t b0[2] = {b[0], b[1]}, b1[2] = {b[2], b[3]};
            const float zero[4] = {0.0f, 0.0f, 0.0f, 0.0f};
            float pv0[4], pv1[4];
            prims::mma_m16n8k32<prims::Fp8::e4m3>(pv0, pa[0], b0, zero);
            prims::mma_m16n8k32<prims::Fp8::e4m3>(pv1, pa[0], b1, zero);
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                st.o[2 * np][e] = st.o[2 * np][e] * alpha[e >> 1] + pv0[e];
                st.o[2 * np + 1][e] = st.o[2 * np + 1][e] * alpha[e >> 1] + pv1[e];
            }
        }
    }
}

// One KV tile (code buffers `buf`, the keys `mask` lets each row see) for warp `warp`'s 16 rows.
template <class Cfg, class Mask>
__device__ __forceinline__ void fp8_tile(const Smem<Cfg> &sm, int buf, int warp, int lane, Mask mask,
                                         float qk_mult, Fp8Rows<Cfg::kD> &st) {
    float s[Cfg::kTN / 8][4];
    fp8_scores(sm, buf, warp, lane, st, s);
    fp8_softmax_pv(sm, buf, lane, mask, qk_mult, st, s);
}

// ---- [stage 7b] Q.K^T by wgmma: one warpgroup, Q and K from swizzled shared memory ---------------
// The 4 computing warps are one warpgroup; S (64 rows x 32 keys) = Q K^T is one wgmma m64n32k32 per
// 32 d (SS: Q's tile and K's staging slot, both K-major with 64-byte swizzled rows of D codes, by
// descriptor: 8-row groups 8 D bytes apart, the k step 32 bytes further inside the row). Thread t's
// accumulator i is row 16 w + g + 8 ((i >> 1) & 1), key 8 (i >> 2) + 2 q + (i & 1) (wgmma_layout.h):
// warp w's rows, and exactly element e = i % 4 of stage 6's m16n8 tile j = i / 4, so the softmax and
// P.V that follow are stage 6's code. Both are exact products summed in k order in fp32 (the
// emulator's model of either instruction): bit-identical to stage 7a. K's slot was filled by TMA
// (tile t's phase of full[slot]: every consumer waits for it itself, as the async proxy's reads
// need) and is released (empty[slot]) only once the wgmma that reads it has completed.
// [stage 7d] Warpgroup wg's rows are Q's rows 64 wg .. 64 wg + 63: its A descriptor starts there (a
// multiple of the swizzle's 8-row repeat, so the same swizzle applies).
// [stage 7e] With KEYS128 the slot holds 128 keys and each k step is one m64n128k32: N = TN throughout.
template <class Cfg>
__device__ __forceinline__ void wgmma_scores_issue(Smem<Cfg> &sm, int tile, int wg,
                                                   float (&d)[Cfg::kTN / 2]) {
    constexpr int D = Cfg::kD;
    constexpr uint32_t kSbo = 8 * D; // bytes between 8-row groups of a D-byte-row tile
    const int slot = tile % Cfg::kKvStages;
#pragma unroll
    for (int kb = 0; kb < D / 32; ++kb)
        prims::wgmma_ss(d, prims::wgmma_desc(&sm.q[64 * wg][0] + 32 * kb, 16, kSbo, Cfg::kSwizzle),
                        prims::wgmma_desc(&sm.k8[slot][0][0] + 32 * kb, 16, kSbo, Cfg::kSwizzle), kb > 0);
    prims::wgmma_commit(); // S = Q K^T in flight: K's slot is read until the wait
}
template <class Cfg>
__device__ __forceinline__ void wgmma_scores(Smem<Cfg> &sm, int tile, int wg, float (&s)[Cfg::kTN / 8][4]) {
    constexpr int TN = Cfg::kTN;
    static_assert(TN / 8 * 4 == TN / 2, "m64nTNk32: TN/2 accumulators per thread, 4 per 8 keys");
    tma_kv_wait(sm, tile);
    float d[TN / 2];
    prims::wgmma_fence();
    wgmma_scores_issue(sm, tile, wg, d);
    prims::wgmma_wait<0>(d);
    tma_kv_release(sm, tile); // the wgmma has read K: the slot may be loaded again
#pragma unroll
    for (int i = 0; i < TN / 2; ++i) s[i / 4][i % 4] = d[i];
}

// ---- [stage 7f] one tile with the softmax overlapping the tensor cores --------------------------------
// The consumer rows' state with what one tile's call leaves for the next: the P codes and alpha of
// the tile whose P.V is still to be issued.
template <int D, int TN> struct OverlapRows : Fp8Rows<D> {
    uint32_t pa[TN / 32][4];
    float alpha[2];
};
// FlashAttention-3's intra-warpgroup order (hopper-wgmma-notes, section 8): S(t) is issued, then the
// previous tile's P(t-1).V(t-1) on the codes and alpha the previous call left in st (OverlapRows);
// wait_group 1 lands S(t) while P.V may still run; K's slot is released and tile t's exponentials
// run; wait_group 0 lands P.V, O = alpha(t-1) O + pv(t-1), and only then are tile t's codes formed,
// in the registers P(t-1) occupied. Every element sees stage 7e's operations on the same operands in
// the same order (only O's update for tile t-1 moves after tile t's exponentials): bit-identical to
// stage 7e. The caller releases V^T(t-1)'s buffer after this returns (ws_consumer, kLag) and issues
// the last tile's P.V itself (wgmma_pv_last).
// P(t-1)'s registers are read by the in-flight wgmma until wait_group 0 (PTX ISA, wgmma.wait_group),
// and the wait names them (prims::wgmma_wait's A fragments): to nvcc an asm's "r" input is dead once
// the asm has run. The first build formed the codes between the issue and the wait, in other
// registers, and copied them into st.pa after it: nvcc gave the copy's destination to the codes and
// moved P(t-1) aside, writing the new codes into the registers the P.V was reading (PTX: D = 64 and
// 128; SASS at D = 128; the emulator runs the source, where the two never alias). FlashAttention-3
// forms P after the wait too; the codes (a conversion and a row sum per 4 scores) no longer overlap
// the P.V. tools/wgmma-inflight.sh checks every sm_90a kernel's PTX and SASS for such writes.
// At D = 128 the P.V runs in parts of 64 columns (kPvParts; pv is one part's 32 accumulators): S, O,
// a whole P.V in flight and two P fragments were 224 of the consumers' 232 registers, and the
// causal instance spilled 28 bytes (ptxas, sm_90a). Part 0 runs under the exponentials, the others
// alone; per element nothing changes.
// [stage 7j] Turn: the warpgroups' turns at the tensor cores (warp_spec.cuh, Turns): the warpgroup
// issues S(t) and P(t-1).V (its first part) in its turn and gives the turn when both are issued; the
// hooks are empty without WG_PINGPONG.
template <class Turn, class Cfg, class Rows, class Mask>
__device__ __forceinline__ void wgmma_tile_overlapped(Smem<Cfg> &sm, int tile, int wg, int lane, Mask mask,
                                                      float qk_mult, Rows &st) {
    constexpr int D = Cfg::kD, TN = Cfg::kTN, kPvParts = D / 64, kPart = D / kPvParts;
    tma_kv_wait(sm, tile);
    float d[TN / 2], pv[kPart / 2];
    Turn::take(wg);
    prims::wgmma_fence();
    wgmma_scores_issue(sm, tile, wg, d);
    if (tile > 0) {
        prims::wgmma_fence(); // P(t-1)'s codes: registers the loop carried, read by this wgmma
        wgmma_pv_issue(sm, (tile - 1) & 1, st.pa, pv);
        Turn::give(wg);
        prims::wgmma_wait<1>(d); // S(t) has landed; P(t-1).V(t-1) may still run
    } else {
        Turn::give(wg);
        prims::wgmma_wait<0, TN / 2>(d); // tile 0: nothing else in flight
    }
    tma_kv_release(sm, tile);
    float s[TN / 8][4], alpha[2];
#pragma unroll
    for (int i = 0; i < TN / 2; ++i) s[i / 4][i % 4] = d[i];
    fp8_softmax_exp<Cfg>(lane, mask, qk_mult, st, s, alpha);
#pragma unroll
    for (int h = 1; h < kPvParts; ++h)
        if (tile > 0) {
            wgmma_pv_finish(pv, st.pa, st.alpha, st, (h - 1) * kPart / 2);
            prims::wgmma_fence(); // the O update read pv's registers, which the next part writes
            wgmma_pv_issue(sm, (tile - 1) & 1, st.pa, pv, h * kPart);
        }
    // Every tile waits, the first too (nothing in flight then; pv and st.pa unset, named only to the
    // compiler), so that the tile ends with no wgmma in flight on every path, as the PTX gate
    // (tools/wgmma-inflight.sh, path-insensitive) can see.
    prims::wgmma_wait<0>(pv, st.pa);
    if (tile > 0) wgmma_pv_add(pv, st.alpha, st, (kPvParts - 1) * kPart / 2);
    fp8_codes<Cfg>(st, s, st.pa);
    st.alpha[0] = alpha[0], st.alpha[1] = alpha[1];
}
// The last tile's P.V (tile `last`, V^T buffer last & 1), after the loop.
template <class Cfg, class Rows>
__device__ __forceinline__ void wgmma_pv_last(Smem<Cfg> &sm, int last, Rows &st) {
    float pv[Cfg::kD / 2];
    prims::wgmma_fence();
    wgmma_pv_issue(sm, last & 1, st.pa, pv);
    wgmma_pv_finish(pv, st.pa, st.alpha, st);
}

} // namespace sdpa
