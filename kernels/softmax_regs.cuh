// softmax_regs.cuh: the online softmax of the register-row family (stages 3b-6). Each computing
// warp owns 16 query rows for every key: their Q fragments, running max and sum and unnormalised
// output live in the registers of the lanes that the mma fragment layout gives them (rows g and
// g+8 of lane 4g+t), so every row's state has exactly one owner (the fix of the original's
// Stage-3B). rows_init loads Q and clears the state, rows_rescale is the first half of a tile's
// softmax on the score accumulators (scale, mask, quad max, alpha), and the epilogue sums l over
// the quad and writes O = o / l once.
#pragma once

#include "config.cuh"

namespace sdpa {

// ---- [stage 3b] row state in registers: one owner per row ---------------------------------------
// Warp w < kMmaWarps owns query rows 16w..16w+15 for every key of every tile and every output
// column: it computes their whole score rows, so their running max and sum have exactly one
// owner. That is the fix of the original's Stage-3B (cc04a53..a16f199): there two warps shared 16
// rows, each saw half of the keys, and both read-modify-wrote the same m/l entries and rescaled
// the same U rows (a race plus a double rescale, P taken against the wrong max). Here no row state
// is in shared memory at all: lane 4g+t (prims.cuh's fragment layout) holds rows g and g+8 of the
// warp's 16, the row max is a max over its registers and the other 3 lanes of its quad (two
// __shfl_xor_sync), and the output rows live in the same lanes' accumulators.
// With TM = 32, 2 of the 4 warps compute and all 4 copy and decode K/V: the grid and the CTA stay
// those of the parent (128 CTAs at the mission shape, more than 2 per SM of an L4's 58; 64-row CTAs
// would leave one wave of 64 CTAs).
// Numerics: the scores stay fp32 (one rounding fewer than stages 0-3a); P is rounded to fp16 as
// in stage 2 (the A operand of P.V); the output once. Accumulation is in k order per mma (the
// emulator; a tensor core has its own order).
// One computing warp's rows; K, the k extent of its mma (16 for f16 operands, 32 for e4m3), sets
// how many A fragments cover Q's D columns. Stage 6 keeps o and l in P-code units (448 p): both
// carry the same factor, which cancels in o/l.
// At D = 128 (kQInRegs false) Q's fragments stay in shared memory and q_frag loads each when it is
// used: qa is then a single unused entry.
template <int K, int D> struct RegRows {
    static constexpr int kK = K, kD = D;
    static constexpr bool kQInRegs = D == 64;
    uint32_t qa[kQInRegs ? D / K : 1][4]; // Q A fragments of the warp's 16 rows, k = K kk .. K kk + K-1
    float o[D / 8][4]; // unnormalised output, D/8 column tiles of 8 (C layout: rows g, g+8)
    float m[2];        // running max of rows g, g+8 (identical in the 4 lanes of a quad)
    float l[2];        // running sum over this lane's keys only; the quad's sum at the end
};
template <int D> using MmaRows = RegRows<16, D>; // stages 3b-5: m16n8k16 on halves
template <int D> using Fp8Rows = RegRows<32, D>; // stage 6: m16n8k32 on e4m3 codes

// Loads Q's A fragments and clears the state. Either way an A fragment covers 32 bytes of a Q row
// (16 halves or 32 codes), so one ldmatrix x4 per 32 bytes: matrix j = rows 8(j%2).., bytes
// 16(j/2).. of the 16-row block (an 8x8 b16 matrix is 8 rows x 16 bytes), giving a[0..3] in order;
// lane l's register holds row l/4, bytes 4(l%4)..+3, the A layout of both mma shapes.
template <class Cfg, int K, int D>
__device__ __forceinline__ void rows_init(const Smem<Cfg> &sm, int warp, int lane, RegRows<K, D> &st) {
    static_assert(D == Cfg::kD && sizeof(sm.q[0][0]) * D == 32 * (D / K),
                  "one A fragment per 32 bytes of a Q row");
    if constexpr (RegRows<K, D>::kQInRegs && !Cfg::kWgmmaQk) { // [stage 7b] wgmma reads Q in shared memory
        const int r = 16 * warp + (lane & 7) + 8 * ((lane >> 3) & 1);
        const char *row = reinterpret_cast<const char *>(&sm.q[r][0]) + 16 * (lane >> 4);
#pragma unroll
        for (int kk = 0; kk < D / K; ++kk) prims::ldmatrix<4>(st.qa[kk], row + 32 * kk);
    }
#pragma unroll
    for (int j = 0; j < D / 8; ++j) st.o[j][0] = st.o[j][1] = st.o[j][2] = st.o[j][3] = 0.0f;
    st.m[0] = st.m[1] = -INFINITY;
    st.l[0] = st.l[1] = 0.0f;
}

// Q's A fragment kk of the warp's 16 rows: the registers rows_init filled (D = 64), or one
// ldmatrix x4 from shared memory into `tmp` (D = 128), with rows_init's addressing.
template <class Cfg, int K, int D>
__device__ __forceinline__ const uint32_t (&q_frag(const Smem<Cfg> &sm, const RegRows<K, D> &st, int warp,
                                                   int lane, int kk, uint32_t (&tmp)[4]))[4] {
    if constexpr (RegRows<K, D>::kQInRegs) {
        return st.qa[kk];
    } else {
        const int r = 16 * warp + (lane & 7) + 8 * ((lane >> 3) & 1);
        prims::ldmatrix<4>(tmp, reinterpret_cast<const char *>(&sm.q[r][0]) + 16 * (lane >> 4) + 32 * kk);
        return tmp;
    }
}

// ---- which keys of a tile a row sees ------------------------------------------------------------
// Key k of the tile (0 .. kTN-1) and row r of the warp (0 .. 15): a key past the sequence's end
// (k >= kv_valid) never counts; with CAUSAL, neither does a key after the row's own position,
// k + diag > r, where diag = (the tile's first key) - (the warp's first row). Without CAUSAL the
// predicate is the plain k < kv_valid of the non-causal kernels.
template <bool CAUSAL> struct KeyMask {
    int kv_valid;
    int diag;
    __device__ __forceinline__ bool operator()(int k, int r) const {
        return k < kv_valid && (!CAUSAL || k + diag <= r);
    }
};

// [stage 7i] MASK_EDGE: the mask of a tile that every row of the CTA sees whole, where KeyMask's test
// would pass for every score; without it the softmax has no test and no select.
struct NoMask {
    __device__ __forceinline__ bool operator()(int, int) const { return true; }
};

// [stage 7i] How many leading tiles every row of the CTA (first row q0) sees whole: the tiles before
// the sequence's partial last one and, with CAUSAL, wholly before q0 (their last key t TN + TN - 1 <=
// q0). The same for every warp of the CTA: a warpgroup issues its wgmma together, so its warps must
// take the same body of the loop; a warp whose rows start later masks a tile it could have taken
// whole, never the reverse.
template <class Cfg> __device__ __forceinline__ int cta_whole_tiles(int S, int q0) {
    constexpr int TN = Cfg::kTN;
    return Cfg::kCausal ? imin(S / TN, (q0 + 1) / TN) : S / TN;
}

// Tile t's mask for a warp whose first query row (in the sequence) is row0.
template <class Cfg> __device__ __forceinline__ KeyMask<Cfg::kCausal> tile_mask(int t, int S, int row0) {
    return {imin(Cfg::kTN, S - t * Cfg::kTN), t * Cfg::kTN - row0};
}

// The KV tiles a CTA computes: every tile, or with CAUSAL the tiles up to the one holding its last
// row's position (tiles wholly after every row of the CTA are skipped; the diagonal tiles are
// masked by KeyMask). q0 is the CTA's first row.
template <class Cfg> __device__ __forceinline__ int cta_tiles(int S, int q0) {
    constexpr int TN = Cfg::kTN;
    if constexpr (Cfg::kCausal)
        return (imin(S, q0 + Cfg::kTM) + TN - 1) / TN;
    else
        return (S + TN - 1) / TN;
}

// [stage 3b] The first half of the online softmax on m16n8 score accumulators (4 tiles of 8 keys):
// element e of tile j is row g + 8(e/2), key 8j + 2t + e%2. Scales the scores by qk_mult, masks
// the keys the row does not see (KeyMask) to -inf, takes each row's max over the quad (the 4 lanes
// holding the row), updates the running max m and rescales the running sum l; returns alpha =
// exp(m_old - m_new) per row for the caller's output. Shared by stages 3b-5 (fp16 P) and 6 (e4m3
// P). A causal row may see no key of a tile (the diagonal tile of a 64-row CTA): its tile max is
// -inf, m stays finite (key 0 of tile 0 is seen by every row), alpha = 1 and its weights are 0.
template <int NT, class Mask>
__device__ __forceinline__ void rows_rescale(float (&s)[NT][4], int g, int t, Mask mask, float qk_mult,
                                             float (&m)[2], float (&l)[2], float (&alpha)[2]) {
    float tmax[2] = {-INFINITY, -INFINITY};
#pragma unroll
    for (int j = 0; j < NT; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            s[j][e] = mask(8 * j + 2 * t + (e & 1), g + 8 * (e >> 1)) ? s[j][e] * qk_mult : -INFINITY;
            tmax[e >> 1] = fmaxf(tmax[e >> 1], s[j][e]);
        }
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        tmax[h] = fmaxf(tmax[h], __shfl_xor_sync(0xffffffffu, tmax[h], 1));
        tmax[h] = fmaxf(tmax[h], __shfl_xor_sync(0xffffffffu, tmax[h], 2));
        const float m_new = fmaxf(m[h], tmax[h]); // finite: every tile has >= 1 valid key
        alpha[h] = __expf(m[h] - m_new);          // exp(-inf) = 0 on the first tile
        m[h] = m_new;
        l[h] *= alpha[h];
    }
}

// ---- [stage 3b] epilogue: O = o / l * step_v, rounded to fp16 once ------------------------------
// O = o / l * step_v, rounded to fp16 once; rows past q_valid are not stored. Rows: MmaRows or
// Fp8Rows (stage 6: o and l both in P-code units, so their ratio is the same).
template <class Rows>
__device__ __forceinline__ void mma_store_output(Rows &st, int warp, int lane, float v_step,
                                                 __half *__restrict__ o_tile, int q_valid) {
    const int g = lane >> 2, t = lane & 3;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        float l = st.l[h];
        l += __shfl_xor_sync(0xffffffffu, l, 1);
        l += __shfl_xor_sync(0xffffffffu, l, 2);
        const int row = 16 * warp + g + 8 * h;
        if (row >= q_valid) continue;
        const float inv = v_step / l;
#pragma unroll
        for (int j = 0; j < Rows::kD / 8; ++j)
            *reinterpret_cast<__half2 *>(o_tile + row * Rows::kD + 8 * j + 2 * t) =
                __floats2half2_rn(st.o[j][2 * h] * inv, st.o[j][2 * h + 1] * inv);
    }
}

} // namespace sdpa
