// warp_spec.cuh: the producer/consumer skeleton of warp specialisation (stages 5-6). The producer
// warps run the cp.async K/V ring and prepare each landed tile into one of two operand buffers;
// the consumer warps compute on them; the two roles meet only at named barriers (FULL and EMPTY
// per buffer), never at flags in shared memory. What a producer does to a tile and what a consumer
// computes are hooks (ThunderKittens' load/compute split), so the skeleton's synchronisation is
// written once for every register-resident variant that specialises its warps.
#pragma once

#include "cta_order.cuh"
#include "loads.cuh"
#include "softmax_regs.cuh"

namespace sdpa {

// ---- [stage 5] warp specialisation: producer warps load, consumer warps compute ----------------
// Warps 0..kMmaWarps-1 (consumers) run mma_tile; the other warps (producers) run the cp.async ring
// and decode each landed tile into one of two half-tile buffers, so the decode leaves the
// consumers' path. Hand-over on named barriers, never on flags in shared memory: the original's
// Stage-5 spun on volatile ready/consumed flags with __nanosleep and __threadfence_block
// (b9c79d9), which the CUDA memory model does not make a synchronisation (volatile accesses are
// not acquire/release, and a fence orders nothing without an acquiring reader), and an emulator
// spin never yields. Here:
//   FULL(b)  (id 1+b): producers bar.arrive after decoding into buffer b; consumers bar.sync.
//   EMPTY(b) (id 3+b): consumers bar.arrive after their last read of buffer b; producers bar.sync
//                      before decoding into it again (tile t+2). arrive -> sync orders the writes
//                      before the barrier with the reads after it (PTX ISA, bar/barrier).
// Each phase counts all THREADS threads (the producers' and the consumers'). Buffer b carries
// tiles b, b+2, ...: a FULL phase cannot start before the previous one on b completed, since the
// producers first wait on EMPTY(b), which the consumers signal only after that FULL. The consumers
// signal EMPTY only for tiles u that a producer will wait for (u + 2 < n_tiles), so no phase is left
// open when the block ends. ([stage 7f] With a lag, the FULL and EMPTY of tile u come one step
// later on the consumers' side: ws_consumer_tile.)
// [stage 7j] WG_PINGPONG: each consumer warpgroup has FULL barriers of its own (ids 1+b and 5+b), which
// count the producers and that warpgroup; one FULL for all consumers released both warpgroups together
// at every tile. The EMPTY barriers, at which only the producers wait, stay as they are.
constexpr unsigned kBarFull = 1, kBarEmpty = 3, kBarFullWg1 = 5, kBarTurn = 7;

// bar.sync / bar.arrive on the barrier of `base` for buffer b (id base + b), counting N threads. The
// id must be an immediate (prims.cuh: ptxas then reserves ids 0 to the largest instead of all 16), so
// the buffer selects one of two instructions; b is the same for the whole warp.
template <class Cfg, unsigned BASE, unsigned N = Cfg::kThreads>
__device__ __forceinline__ void bar_sync_buf(int b) {
    if (b)
        prims::bar_sync<BASE + 1>(N);
    else
        prims::bar_sync<BASE>(N);
}
template <class Cfg, unsigned BASE, unsigned N = Cfg::kThreads>
__device__ __forceinline__ void bar_arrive_buf(int b) {
    if (b)
        prims::bar_arrive<BASE + 1>(N);
    else
        prims::bar_arrive<BASE>(N);
}

// FULL(b): the producers arrive (at both warpgroups' barriers with WG_PINGPONG), a consumer warp of
// warpgroup wg waits (at its own).
template <class Cfg> constexpr unsigned kFullThreads = Cfg::kWgPingpong ? Cfg::kLoaders + 128 : Cfg::kThreads;
template <class Cfg> __device__ __forceinline__ void full_arrive(int b) {
    bar_arrive_buf<Cfg, kBarFull, kFullThreads<Cfg>>(b);
    if constexpr (Cfg::kWgPingpong) bar_arrive_buf<Cfg, kBarFullWg1, kFullThreads<Cfg>>(b);
}
template <class Cfg> __device__ __forceinline__ void full_sync(int wg, int b) {
    if (Cfg::kWgPingpong && wg)
        bar_sync_buf<Cfg, kBarFullWg1, kFullThreads<Cfg>>(b);
    else
        bar_sync_buf<Cfg, kBarFull, kFullThreads<Cfg>>(b);
}

// ---- [stage 7j] the two consumer warpgroups in turn at the tensor cores ---------------------------
// FlashAttention-3's scheduler barriers: warpgroup w issues a tile's products (S(t) and P(t-1).V)
// after bar.sync on TURN(w) (id 7 + w), and then gives the turn to the other (bar.arrive on its TURN),
// so that one warpgroup's Q.K^T can run while the other issues its softmax. Each phase counts both warpgroups
// (256): one waits, the other arrives. Warpgroup 1 gives warpgroup 0 its first turn (start), and
// warpgroup 0 takes the turn warpgroup 1 gives after its last tile (finish): per TURN barrier as many
// arrivals as waits, no phase open when the block ends. An arrival never meets the next phase early:
// a warpgroup gives its turn only after taking its own, which needs the other's previous give.
// Without the switch every hook is empty (the tile compute takes Turns<Cfg> as a template parameter).
template <class Cfg> struct Turns {
    static __device__ __forceinline__ void take(int wg) {
        if constexpr (Cfg::kWgPingpong) bar_sync_buf<Cfg, kBarTurn, 256>(wg);
    }
    static __device__ __forceinline__ void give(int wg) {
        if constexpr (Cfg::kWgPingpong) bar_arrive_buf<Cfg, kBarTurn, 256>(!wg);
    }
    static __device__ __forceinline__ void start(int wg) {
        if constexpr (Cfg::kWgPingpong)
            if (wg) prims::bar_arrive<kBarTurn>(256);
    }
    static __device__ __forceinline__ void finish(int wg) {
        if constexpr (Cfg::kWgPingpong)
            if (!wg) prims::bar_sync<kBarTurn>(256);
    }
};

// The skeleton: Hooks supplies the per-tile work, the skeleton the roles, the ring and the
// hand-over. Hooks::prepare(sm, slot, buf, valid): a producer turns landed staging slot `slot` into
// operand buffer `buf` (its own chunks only); Hooks::compute(sm, t, warp, lane, mask, qk_mult,
// st): a consumer warp multiplies tile t (operand buffer t & 1, or [stage 7f] with Hooks::kLag = 1
// finishes tile t - 1 from buffer (t - 1) & 1; stage 7b on also reads K from its staging slot), the
// keys `mask` (softmax_regs.cuh, KeyMask) lets each row see, into its rows `st` (a typename
// Hooks::Rows). n_tiles is the CTA's (cta_tiles): with a causal mask both roles stop at
// the last tile the CTA's rows see.
template <class Cfg, class Hooks>
__device__ __forceinline__ void ws_producer(Smem<Cfg> &sm, int n_tiles, const uint8_t *__restrict__ gk,
                                            const uint8_t *__restrict__ gv, int S) {
    constexpr int TN = Cfg::kTN;
    kv_pipeline_start(sm, gk, gv, S);
    for (int t = 0; t < n_tiles; ++t) {
        kv_prefetch(sm, t, n_tiles, gk, gv, S);
        kv_wait_tile<Cfg>(t, n_tiles); // producer: tile t's copies have landed
        if (t >= 2) bar_sync_buf<Cfg, kBarEmpty>(t & 1);
        Hooks::prepare(sm, t % Cfg::kKvStages, t & 1, imin(TN, S - t * TN));
        full_arrive<Cfg>(t & 1);
    }
}

// [stage 7a] The same producer loop with the ring fed by TMA (loads.cuh): the issuer keeps R - 1
// tiles in flight as the cp.async ring does (tile t + R - 1 is issued when tile t is next), every
// producer waits on the slot's full barrier instead of its own cp.async group, and releases the
// slot once its repack has read it. The hand-over to the consumers is stage 6's.
template <class Cfg, class Hooks>
__device__ __forceinline__ void ws_producer_tma(Smem<Cfg> &sm, int n_tiles, const KvMaps &maps, int S) {
    constexpr int R = Cfg::kKvStages, TN = Cfg::kTN;
    const int bh = cta_bh<Cfg>(); // this CTA's (b, h): the maps' 3rd coordinate (cta_order.cuh)
    if (tma_issuer<Cfg>())
        for (int t = 0; t < imin(R - 1, n_tiles); ++t) tma_kv_issue(sm, maps, t, bh);
    for (int t = 0; t < n_tiles; ++t) {
        if (tma_issuer<Cfg>() && t + R - 1 < n_tiles) tma_kv_issue(sm, maps, t + R - 1, bh);
        tma_kv_wait(sm, t); // producer: tile t's boxes have landed
        if (t >= 2) bar_sync_buf<Cfg, kBarEmpty>(t & 1);
        Hooks::prepare(sm, t % R, t & 1, imin(TN, S - t * TN));
        tma_kv_release(sm, t); // this thread has read slot t % R
        full_arrive<Cfg>(t & 1);
    }
}

// One consumer step: wait for the operand buffer compute(t) reads (tile t - kLag's), compute tile t
// (WHOLE: [stage 7i] without the key test, NoMask; else with tile_mask for the warp's first row row0),
// release that buffer.
template <class Cfg, class Hooks, bool WHOLE = false>
__device__ __forceinline__ void ws_consumer_tile(Smem<Cfg> &sm, int t, int n_tiles, int warp, int lane, int S,
                                                 int row0, float qk_mult, typename Hooks::Rows &st) {
    // [stage 7f] Hooks::kLag: compute(t) reads buffer t - kLag only (with a lag of 1: P(t-1).V(t-1);
    // K(t) it takes from its TMA slot, behind the slot's own mbarrier), so it waits for that buffer's
    // FULL and releases it after, and drain finishes the lagging tile after the loop. Waiting for
    // FULL(t) instead, as the first build did, put every tile's V transpose on the consumers' path:
    // the producers may write tile t only once compute(t-1) released tile t-2's buffer, and compute(t)
    // waited for it (the synchronisation audit; no timing model sees it). Each buffer's phases stay
    // in order: the consumers sync FULL(b) for tile u at the start of compute(u + 1), before they
    // arrive EMPTY(b) for u after it, and the producers need that EMPTY before FULL(b) for u + 2.
    constexpr int kLag = Hooks::kLag;
    if (t >= kLag) full_sync<Cfg>(warp / 4, (t - kLag) & 1);
    if constexpr (WHOLE) {
        Hooks::compute(sm, t, warp, lane, NoMask{}, qk_mult, st);
    } else {
        Hooks::compute(sm, t, warp, lane, tile_mask<Cfg>(t, S, row0), qk_mult, st);
    }
    if (t >= kLag && t - kLag + 2 < n_tiles) bar_arrive_buf<Cfg, kBarEmpty>((t - kLag) & 1);
}

template <class Cfg, class Hooks>
__device__ __forceinline__ void ws_consumer(Smem<Cfg> &sm, int warp, int lane, int n_tiles, int S, int row0,
                                            float qk_mult, typename Hooks::Rows &st) {
    rows_init(sm, warp, lane, st); // Q: published by the block barrier before the split
    Turns<Cfg>::start(warp / 4);
    if constexpr (Cfg::kMaskEdge) {
        // [stage 7i] MASK_EDGE: the tiles every row of the CTA (first row row0 - 16 warp) sees whole
        // take the compute without the key test, the rest the one with it: the same operations on the
        // same operands either way, in the same order. One loop whose trip takes one of two bodies,
        // not two loops one after the other: with two, ptxas serialised every wgmma of the kernel
        // (C7513, nvcc 13.0; Methods, Stage 7i).
        const int whole = cta_whole_tiles<Cfg>(S, row0 - 16 * warp);
        for (int t = 0; t < n_tiles; ++t)
            if (t < whole)
                ws_consumer_tile<Cfg, Hooks, true>(sm, t, n_tiles, warp, lane, S, row0, qk_mult, st);
            else
                ws_consumer_tile<Cfg, Hooks>(sm, t, n_tiles, warp, lane, S, row0, qk_mult, st);
    } else {
        for (int t = 0; t < n_tiles; ++t)
            ws_consumer_tile<Cfg, Hooks>(sm, t, n_tiles, warp, lane, S, row0, qk_mult, st);
    }
    Turns<Cfg>::finish(warp / 4);
    if constexpr (Hooks::kLag > 0) {
        full_sync<Cfg>(warp / 4, (n_tiles - 1) & 1); // the last tile's operands, which drain reads
        Hooks::drain(sm, n_tiles - 1, st);
    }
}

} // namespace sdpa
