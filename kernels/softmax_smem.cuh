// softmax_smem.cuh: the online softmax of the score-buffer family (stages 0-3a). The scores of a
// tile are in shared memory (fp16, sS); a lane group of 4 owns a row, reads 8 of its scores, and
// keeps the running max m and sum l in registers for the whole CTA; the unnormalised output U is
// fp32 in shared memory, rescaled by alpha = exp(m_old - m_new) each tile (in pv_scalar, or here
// before WMMA P.V, which also writes fp16 P: into its own buffer or, fused, in place of the scores
// a lane alone has read). The epilogue divides by l once and rounds to fp16.
#pragma once

#include "config.cuh"
#include "codec.cuh"

namespace sdpa {

// ---- [stage 0] the per-warp scratch; [stage 1] in the consumed staging slot ---------------------
// Warp w's 16x16 floats (1 KiB) during tile t. With kScratchInStaging (config.cuh) they are bytes
// 1024 (w % 2) .. of K's (warps 0, 1) or V's (warps 2, 3) staging slot of tile t: tile t's copies
// have landed and been decoded before the block barrier that precedes the first use, and the slot
// is refilled (tile t + kKvStages) only after the barrier that closes tile t.
template <class Cfg> __device__ __forceinline__ float *scratch_of(Smem<Cfg> &sm, int warp, int t) {
    if constexpr (Cfg::kScratchInStaging) {
        static_assert(Cfg::kWarps * kScratchFloats * sizeof(float) <= 2 * Cfg::kTN * Cfg::kD &&
                          kScratchFloats * sizeof(float) * (Cfg::kWarps / 2) <= Cfg::kTN * Cfg::kD &&
                          Cfg::kWarps % 2 == 0,
                      "the scratch of all warps fits one K and one V staging slot");
        const int slot = t % Cfg::kKvStages, half = Cfg::kWarps / 2;
        uint8_t *base = warp < half ? &sm.k8[slot][0][0] : &sm.v8[slot][0][0];
        return prims::assume_shared(reinterpret_cast<float *>(base) + (warp % half) * kScratchFloats);
    } else {
        return prims::assume_shared(&sm.scratch[warp][0]);
    }
}

// ---- [stage 0] online softmax on the score buffer -----------------------------------------------
// Warp w serves rows r = w + 4*i (i = 0..7, the original's row-to-warp assignment); lane = 4*i + c
// holds row i's keys 8c..8c+7, so a row's max and sum take two xor-shuffles within 4 lanes. The
// running max m and sum l of row r stay in that lane group's registers for the whole CTA.
struct RowState {
    float l = 0.0f;      // running sum of exp(s - m), fp32 (also when P is rounded to fp16)
    float m = -INFINITY; // running max of the fp16 scores
};

struct SoftmaxMap {
    int i, c, row;
    __device__ __forceinline__ SoftmaxMap(int warp, int lane)
        : i(lane >> 2), c(lane & 3), row(warp + 4 * (lane >> 2)) {}
};

// Updates rs with keys [8c, 8c+8) of this tile; returns alpha = exp(m_old - m_new) and writes the
// 8 probabilities p (0 for keys past kv_valid).
template <class Cfg>
__device__ __forceinline__ float softmax_update(const Smem<Cfg> &sm, const SoftmaxMap &mp, int kv_valid,
                                                RowState &rs, float p[8]) {
    const uint4 raw = *reinterpret_cast<const uint4 *>(&sm.s[mp.row][mp.c * 8]);
    const uint32_t w[4] = {raw.x, raw.y, raw.z, raw.w};
    float s[8];
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        const float2 f = __half22float2(unpack(w[j]));
        s[2 * j] = f.x;
        s[2 * j + 1] = f.y;
    }
    float tmax = -INFINITY;
#pragma unroll
    for (int j = 0; j < 8; ++j) {
        if (mp.c * 8 + j >= kv_valid) s[j] = -INFINITY;
        tmax = fmaxf(tmax, s[j]);
    }
    tmax = fmaxf(tmax, __shfl_xor_sync(0xffffffffu, tmax, 1));
    tmax = fmaxf(tmax, __shfl_xor_sync(0xffffffffu, tmax, 2));
    const float m_new = fmaxf(rs.m, tmax);    // finite: every tile has >= 1 valid key
    const float alpha = __expf(rs.m - m_new); // exp(-inf) = 0 on the first tile
    float psum = 0.0f;
#pragma unroll
    for (int j = 0; j < 8; ++j) {
        p[j] = (mp.c * 8 + j < kv_valid) ? __expf(s[j] - m_new) : 0.0f;
        psum += p[j];
    }
    psum += __shfl_xor_sync(0xffffffffu, psum, 1);
    psum += __shfl_xor_sync(0xffffffffu, psum, 2);
    rs.l = rs.l * alpha + psum;
    rs.m = m_new;
    return alpha;
}

// ---- [stage 2] rescaled U and fp16 P for WMMA P.V; [stage 3a] P in place ------------------------
// The softmax step rescales its rows of U and writes fp16 P (into sP, or into sS in place when
// fused: each lane overwrites exactly the 8 scores it alone has read, so no other lane is racing).
template <class Cfg> __device__ __forceinline__ __half (*p_buffer(Smem<Cfg> &sm))[Cfg::LDS] {
    if constexpr (Cfg::kFusedSoftmaxPV)
        return prims::assume_shared(sm.s);
    else
        return prims::assume_shared(sm.p);
}

template <class Cfg>
__device__ __forceinline__ void rescale_and_store_p(Smem<Cfg> &sm, const SoftmaxMap &mp, float alpha,
                                                    const float p[8]) {
    float *u = &sm.u[mp.row][mp.c * 16];
#pragma unroll
    for (int d = 0; d < 16; ++d) u[d] *= alpha;
    *reinterpret_cast<uint4 *>(&p_buffer(sm)[mp.row][mp.c * 8]) =
        pack8(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]);
}

// ---- [stage 0] epilogue: O = U / l * step_v, rounded to fp16 once -------------------------------
template <class Cfg>
__device__ __forceinline__ void store_output(const Smem<Cfg> &sm, const SoftmaxMap &mp, const RowState &rs,
                                             float v_step, __half *__restrict__ o_tile, int q_valid) {
    if (mp.row >= q_valid) return;
    const float *u = &sm.u[mp.row][mp.c * 16];
    const float inv = v_step / rs.l;
    uint4 *dst = reinterpret_cast<uint4 *>(o_tile + mp.row * Cfg::kD + mp.c * 16);
    dst[0] =
        pack8(u[0] * inv, u[1] * inv, u[2] * inv, u[3] * inv, u[4] * inv, u[5] * inv, u[6] * inv, u[7] * inv);
    dst[1] = pack8(u[8] * inv, u[9] * inv, u[10] * inv, u[11] * inv, u[12] * inv, u[13] * inv, u[14] * inv,
                   u[15] * inv);
}

} // namespace sdpa
