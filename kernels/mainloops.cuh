// mainloops.cuh: the kernel body and its three main loops. The body does one CTA's setup (its
// (b, h) slice, its query rows, the per-head multipliers, Q into shared memory) and hands them
// to the loop its Config names: mainloop_smem (stages 0-3a: scores, P and U in shared memory,
// four block barriers per tile), mainloop_regs (stages 3b-4: scores, P and output in the computing
// warps' registers, two block barriers per tile) or mainloop_warp_spec (stages 5-6: the producer/
// consumer skeleton with the register-resident hooks). An FP8_MMA instance that can never run
// has an empty body.
#pragma once

#include <type_traits>

#include "tile_products.cuh"
#include "warp_spec.cuh"

namespace sdpa {

// ---- [stage 3b] the register-resident line's per-tile hooks -------------------------------------
// What the register-resident loops plug in: prepare (a producer's staging slot -> operand buffer:
// fp16 decode, or stage 6's code copy and V transpose) and compute (one tile for a warp's rows:
// m16n8k16 on halves, or stage 6's m16n8k32 on codes), with the rows' state that compute needs.
// [stage 7f] kLag: how many tiles a consumer's compute runs behind its operand buffers (1 with
// WG_OVERLAP: tile t's call finishes tile t-1's P.V, so buffer t-1 is released after it, and drain
// finishes the last tile); its Rows then carry the previous tile's P codes and alpha (OverlapRows).
template <class Cfg, sdpa_codec_t C> struct RegHooks {
    // The consumers' rows: stage 6's e4m3 state (with stage 7f's carry), else stage 3b's.
    using Rows = typename std::conditional<
        Cfg::kWgOverlap, OverlapRows<Cfg::kD, Cfg::kTN>,
        typename std::conditional<Cfg::kFp8Mma, Fp8Rows<Cfg::kD>, MmaRows<Cfg::kD>>::type>::type;
    static constexpr int kLag = Cfg::kWgOverlap ? 1 : 0;
    static __device__ __forceinline__ void prepare(Smem<Cfg> &sm, int slot, int buf, int valid) {
        if constexpr (Cfg::kFp8Mma)
            repack_kv_staged(sm, slot, buf, valid);
        else
            dequant_kv_staged<Cfg, C>(sm, slot, buf, valid);
    }
    // Tile `tile` of the CTA: its operand buffer is tile % kHalfBufs (one buffer without WARP_SPEC).
    // Mask: the tile's KeyMask, or [stage 7i] NoMask on a tile every row sees whole.
    template <class Mask>
    static __device__ __forceinline__ void compute(Smem<Cfg> &sm, int tile, int warp, int lane, Mask mask,
                                                   float qk_mult, Rows &st) {
        const int buf = Cfg::kHalfBufs > 1 ? tile & 1 : 0;
        if constexpr (Cfg::kWgOverlap) { // [stage 7f] S(t), P(t-1).V(t-1) and tile t's softmax overlapped
            // [stage 7j] with the warpgroups' turns at the tensor cores (empty hooks without WG_PINGPONG)
            wgmma_tile_overlapped<Turns<Cfg>>(sm, tile, warp / 4, lane, mask, qk_mult, st);
        } else if constexpr (Cfg::kWgmmaQk) { // [stage 7b] S by the warpgroup's wgmma, the rest as stage 6
            float s[Cfg::kTN / 8][4];
            wgmma_scores(sm, tile, Cfg::kWgSpec ? warp / 4 : 0, s);
            fp8_softmax_pv(sm, buf, lane, mask, qk_mult, st, s);
        } else if constexpr (Cfg::kFp8Mma) {
            fp8_tile(sm, buf, warp, lane, mask, qk_mult, st);
        } else {
            mma_tile(sm, buf, warp, lane, mask, qk_mult, st);
        }
    }
    // After the last tile (n_tiles - 1): what compute left in flight (kLag > 0 only).
    static __device__ __forceinline__ void drain(Smem<Cfg> &sm, int last, Rows &st) {
        if constexpr (kLag > 0) wgmma_pv_last(sm, last, st);
    }
};

// ---- [stage 0] mainloop_smem: scores, P and U in shared memory (stages 0-3a) --------------------
template <class Cfg, sdpa_codec_t C>
__device__ __forceinline__ void mainloop_smem(Smem<Cfg> &sm, int warp, int lane, int S, int n_tiles,
                                              int q_valid, float qk_mult, float v_step, const uint8_t *gk,
                                              const uint8_t *gv, __half *o_tile) {
    constexpr int TM = Cfg::kTM, TN = Cfg::kTN;
    for (int e = threadIdx.x; e < TM * Cfg::LDU; e += Cfg::kThreads) (&sm.u[0][0])[e] = 0.0f;
    const SoftmaxMap mp(warp, lane);
    RowState rs;

    kv_pipeline_start(sm, gk, gv, S);

    for (int t = 0; t < n_tiles; ++t) {
        const int kv_valid = imin(TN, S - t * TN);
        kv_tile_load<Cfg, C>(sm, t, n_tiles, gk, gv, S);
        __syncthreads(); // K, V (and, on the first tile, Q and U) complete

        qk_scores(sm, warp, lane, t, kv_valid, qk_mult);
        __syncthreads(); // the softmax reads rows assembled by two warps

        float p[8];
        const float alpha = softmax_update(sm, mp, kv_valid, rs, p);
        if constexpr (Cfg::kWmmaPV) {
            rescale_and_store_p(sm, mp, alpha, p);
            __syncthreads(); // P rows and rescaled U rows are read/updated by other warps
            pv_wmma(sm, warp, lane, t);
        } else {
            pv_scalar(sm, warp, t, mp, kv_valid, alpha, p);
        }
        __syncthreads(); // sS, sK, sV, U and the scratch are reused by the next tile
    }
    store_output(sm, mp, rs, v_step, o_tile, q_valid);
}

// ---- [stage 3b] mainloop_regs: Q.K^T, softmax and P.V in the computing warps' registers ----------
// Every warp loads (direct or the cp.async ring, as stages 1 and 4), the first kMmaWarps compute.
template <class Cfg, sdpa_codec_t C>
__device__ __forceinline__ void mainloop_regs(Smem<Cfg> &sm, int warp, int lane, int S, int n_tiles, int q0,
                                              int q_valid, float qk_mult, float v_step, const uint8_t *gk,
                                              const uint8_t *gv, __half *o_tile) {
    using Hooks = RegHooks<Cfg, C>;
    typename Hooks::Rows st;
    kv_pipeline_start(sm, gk, gv, S);
    for (int t = 0; t < n_tiles; ++t) {
        kv_tile_load<Cfg, C>(sm, t, n_tiles, gk, gv, S);
        __syncthreads(); // K, V (and, on the first tile, Q) complete
        if (warp < Cfg::kMmaWarps) {
            if (t == 0) rows_init(sm, warp, lane, st);
            Hooks::compute(sm, t, warp, lane, tile_mask<Cfg>(t, S, q0 + 16 * warp), qk_mult, st);
        }
        __syncthreads(); // sK, sV are overwritten by the next tile
    }
    if (warp < Cfg::kMmaWarps) mma_store_output(st, warp, lane, v_step, o_tile, q_valid);
}

// ---- [stage 5] mainloop_warp_spec: producer warps load, consumer warps compute -------------------
// The roles split here; each runs its loop of the skeleton (warp_spec.cuh) with the register-
// resident hooks; with TMA_KV (stage 7a) the producers' ring is fed by TMA through `maps`.
// [stage 7d] With WG_SPEC each role is whole warpgroups, and the split moves registers between them
// (config.cuh, kProducerRegs): the producers give theirs back first, and the consumers' .inc waits
// until the block's pool has them.
template <class Cfg, sdpa_codec_t C>
__device__ __forceinline__ void mainloop_warp_spec(Smem<Cfg> &sm, int warp, int lane, int S, int n_tiles,
                                                   int q0, int q_valid, float qk_mult, float v_step,
                                                   const float *v_scale_h, const uint8_t *gk,
                                                   const uint8_t *gv, __half *o_tile, const KvMaps &maps) {
    using Hooks = RegHooks<Cfg, C>;
    // V's step: v_step, read before the loop (cta_run), except on the TMA rows (7a on), which read it
    // from v_scale_h after the loop: kept across it, it cost stage 7h's D = 128 causal consumers their
    // last register (a spill).
    if constexpr (Cfg::kTmaKv) kv_barriers_init(sm);
    __syncthreads(); // Q (and the ring's mbarriers) complete; from here on the roles meet only at barriers
    if (warp < Cfg::kMmaWarps) {
        if constexpr (Cfg::kWgSpec) prims::setmaxnreg_inc<Cfg::kConsumerRegs>();
        typename Hooks::Rows st;
        ws_consumer<Cfg, Hooks>(sm, warp, lane, n_tiles, S, q0 + 16 * warp, qk_mult, st);
        mma_store_output(st, warp, lane, Cfg::kTmaKv ? Codec<C>::step(*v_scale_h) : v_step, o_tile, q_valid);
    } else if constexpr (Cfg::kTmaKv) {
        if constexpr (Cfg::kWgSpec) prims::setmaxnreg_dec<Cfg::kProducerRegs>();
        ws_producer_tma<Cfg, Hooks>(sm, n_tiles, maps, S);
    } else {
        ws_producer<Cfg, Hooks>(sm, n_tiles, gk, gv, S);
    }
}

// ---- [stage 0] the kernel body: one CTA's setup, then the main loop its Config names -------------
template <class Cfg, sdpa_codec_t C>
__device__ __forceinline__ void cta_run(Smem<Cfg> &sm, const uint8_t *__restrict__ Q,
                                        const uint8_t *__restrict__ K, const uint8_t *__restrict__ V,
                                        const float *__restrict__ q_scale, const float *__restrict__ k_scale,
                                        const float *__restrict__ v_scale, __half *__restrict__ O, int H,
                                        int S, float softmax_scale, const KvMaps &maps) {
    constexpr int TM = Cfg::kTM, D = Cfg::kD;
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const CtaCoords at = cta_coords<Cfg>(); // [stage 7m] which (query tile, b, h): cta_order.cuh
    const int h = at.h, b = at.b;
    const int q0 = at.q_tile * TM;
    const int q_valid = imin(TM, S - q0);
    const size_t head = ((size_t)b * H + h) * (size_t)S * D; // first element of this (b, h)
    const float qk_mult = Codec<C>::step(q_scale[h]) * Codec<C>::step(k_scale[h]) * softmax_scale;
    const float v_step = Cfg::kTmaKv ? 0.0f : Codec<C>::step(v_scale[h]); // TMA rows: after the loop
    const uint8_t *gk = K + head, *gv = V + head;
    __half *o_tile = O + head + (size_t)q0 * D;
    const int n_tiles = cta_tiles<Cfg>(S, q0);

    if constexpr (Cfg::kFp8Mma)
        load_q_codes(sm, Q + head + (size_t)q0 * D, q_valid);
    else
        load_tile_direct<Cfg, C, TM>(Q + head + (size_t)q0 * D, q_valid, sm.q);
    if constexpr (Cfg::kWarpSpec)
        mainloop_warp_spec<Cfg, C>(sm, warp, lane, S, n_tiles, q0, q_valid, qk_mult, v_step, v_scale + h, gk,
                                   gv, o_tile, maps);
    else if constexpr (Cfg::kRegMma)
        mainloop_regs<Cfg, C>(sm, warp, lane, S, n_tiles, q0, q_valid, qk_mult, v_step, gk, gv, o_tile);
    else
        mainloop_smem<Cfg, C>(sm, warp, lane, S, n_tiles, q_valid, qk_mult, v_step, gk, gv, o_tile);
}

// The CTA's shared memory: a static object up to 48 KiB (every variant at D = 64), else the launch's
// dynamic shared memory (kDynamicSmem: the launcher passes kSmemBytes and has opted the kernel in).
// Declared in the body, not returned from a helper: a reference returned from a function holding the
// static object lost its address space for nvcc (generic st.u8 instead of st.shared.u8, observed).
// A macro, so that the two bodies below share it: a TMA_KV kernel's has the tensor maps as one more
// parameter, a function of its own, so that every other kernel's static object keeps its name (the
// enclosing function's signature is part of it) and with it its PTX, byte for byte.
// [stage 7a] A TMA_KV kernel's dynamic shared memory is checked first against the strictest alignment
// of its tiles (prims::smem_check_aligned: the __align__ of the declaration is a request nvcc may
// ignore); stages 0-6 keep their PTX.
#define SDPA_CTA_ON_SMEM(maps)                                                                               \
    if constexpr (kVtAlign<Cfg> == 1024 || kTileAlign<Cfg> == 1024) {                                        \
        /* [stage 7e] V^T, or at D = 128 Q and K, on the 128-byte swizzle's 1024-byte repeat (one name */    \
        /* per alignment: nvcc warns when one extern array is declared with two) */                          \
        SMEM_DYNAMIC_ALIGNED(unsigned char, raw_vt, 1024);                                                   \
        prims::smem_check_aligned<alignof(Smem<Cfg>)>(raw_vt);                                               \
        cta_run<Cfg, C>(*reinterpret_cast<Smem<Cfg> *>(raw_vt), Q, K, V, q_scale, k_scale, v_scale, O, H, S, \
                        softmax_scale, maps);                                                                \
    } else if constexpr (Cfg::kWgmmaQk) {                                                                    \
        SMEM_DYNAMIC_ALIGNED(unsigned char, raw_wg, kTileAlign<Cfg>);                                        \
        prims::smem_check_aligned<alignof(Smem<Cfg>)>(raw_wg);                                               \
        cta_run<Cfg, C>(*reinterpret_cast<Smem<Cfg> *>(raw_wg), Q, K, V, q_scale, k_scale, v_scale, O, H, S, \
                        softmax_scale, maps);                                                                \
    } else if constexpr (kDynamicSmem<Cfg>) {                                                                \
        SMEM_DYNAMIC(unsigned char, raw);                                                                    \
        if constexpr (Cfg::kTmaKv) prims::smem_check_aligned<alignof(Smem<Cfg>)>(raw);                       \
        cta_run<Cfg, C>(*reinterpret_cast<Smem<Cfg> *>(raw), Q, K, V, q_scale, k_scale, v_scale, O, H, S,    \
                        softmax_scale, maps);                                                                \
    } else {                                                                                                 \
        __shared__ Smem<Cfg> sm;                                                                             \
        cta_run<Cfg, C>(sm, Q, K, V, q_scale, k_scale, v_scale, O, H, S, softmax_scale, maps);               \
    }
template <class Cfg, sdpa_codec_t C>
__device__ __forceinline__ void
sdpa_forward_body(const uint8_t *__restrict__ Q, const uint8_t *__restrict__ K, const uint8_t *__restrict__ V,
                  const float *__restrict__ q_scale, const float *__restrict__ k_scale,
                  const float *__restrict__ v_scale, __half *__restrict__ O, int H, int S,
                  float softmax_scale) {
    SDPA_CTA_ON_SMEM(KvMaps{})
}
// [stage 7a]
template <class Cfg, sdpa_codec_t C>
__device__ __forceinline__ void
sdpa_forward_body(const uint8_t *__restrict__ Q, const uint8_t *__restrict__ K, const uint8_t *__restrict__ V,
                  const float *__restrict__ q_scale, const float *__restrict__ k_scale,
                  const float *__restrict__ v_scale, __half *__restrict__ O, int H, int S,
                  float softmax_scale, const KvMaps &maps) {
    SDPA_CTA_ON_SMEM(maps)
}
#undef SDPA_CTA_ON_SMEM

// [stage 6] An FP8_MMA kernel computes on e4m3 codes with sm_89's FP8 mma.sync. Its seed-linear
// instance (codes u - 128: no e4m3 form) and its instance for an older architecture of the
// multi-arch build (no FP8 mma.sync) have an empty body: neither is ever launched (the launcher
// returns SDPA_ERR_UNSUPPORTED for seed-linear; sdpa-bench lists the variant as not supported on a
// device older than the switch's MIN_SM), and if one were, its output would stay unwritten, which
// the correctness check reports.
// [stage 7a] A TMA_KV kernel needs sm_90 (cp.async.bulk.tensor, mbarrier expect_tx and try_wait): its
// e4m3 instance for an older architecture traps instead (prims::arch_trap; never launched there
// either: the variant's MIN_SM is 90), so that a wrong binary stops loudly rather than computing
// nothing; its seed-linear instance is empty, as stage 6's.
// [stage 7b] A WGMMA_QK kernel needs sm_90a (wgmma with FP8 operands): it traps in any other code,
// as stage 7a's before sm_90 (stages.cu builds its CUDA kernels for sm_90a alone).
template <class Cfg, sdpa_codec_t C>
constexpr bool kRunnable = (!Cfg::kFp8Mma || (C == SDPA_CODEC_E4M3 && prims::has_fp8_mma)) &&
                           (!Cfg::kTmaKv || prims::has_sm90) && (!Cfg::kWgmmaQk || prims::has_sm90a);
template <class Cfg, sdpa_codec_t C>
constexpr bool kTrapsHere = C == SDPA_CODEC_E4M3 &&
                            ((Cfg::kTmaKv && !prims::has_sm90) || (Cfg::kWgmmaQk && !prims::has_sm90a));

template <class Cfg, sdpa_codec_t C>
__device__ __forceinline__ void sdpa_forward(const uint8_t *__restrict__ Q, const uint8_t *__restrict__ K,
                                             const uint8_t *__restrict__ V, const float *__restrict__ q_scale,
                                             const float *__restrict__ k_scale,
                                             const float *__restrict__ v_scale, __half *__restrict__ O, int H,
                                             int S, float softmax_scale, const KvMaps &maps = KvMaps{}) {
    if constexpr (kRunnable<Cfg, C> && Cfg::kTmaKv)
        sdpa_forward_body<Cfg, C>(Q, K, V, q_scale, k_scale, v_scale, O, H, S, softmax_scale, maps);
    else if constexpr (kRunnable<Cfg, C>)
        sdpa_forward_body<Cfg, C>(Q, K, V, q_scale, k_scale, v_scale, O, H, S, softmax_scale);
    else if constexpr (kTrapsHere<Cfg, C>)
        prims::arch_trap();
}

} // namespace sdpa
