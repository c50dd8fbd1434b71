// cta_order.cuh: which (query tile, b, h) a CTA computes. The block scheduler starts a grid's CTAs in
// the order of their linear index, blockIdx.x fastest (an observed order, not a promised one); the
// launch's grid is (ceil(S / kTM), H, B), so each (b, h) runs its query tiles in turn. Every kernel
// takes its coordinates here; without [stage 7m] CAUSAL_LPT they are blockIdx's, the expressions the
// kernels always used.
#pragma once

#include "config.cuh"

namespace sdpa {

struct CtaCoords {
    int q_tile, h, b;
};

// [stage 7m] CAUSAL_LPT (paper/methods.md#prereg-stage7m): with the causal mask query tile i computes
// i + 1 key tiles (cta_tiles), so in the launch's order each (b, h) runs its tiles shortest first and
// the grid's longest CTAs start last, to run alone at the end. A causal D = 64 instance is launched on
// the grid (H, ceil(S / kTM), B) instead (stages.cu, launch_tma) and reads it as the heads fastest,
// the query tiles longest first (the reversal from gridDim), the batch entries in turn:
// FlashAttention-3's causal order (hopper/tile_scheduler.hpp: longest first within sections of heads
// whose K and V share the L2), without its persistent CTAs, a section one batch entry's heads. Not at
// D = 128: there stage 7l's causal consumers have no register to spare (ptxas recomputes their CTA's
// coordinates from blockIdx rather than keep them across the tile loop), and every longest-first
// formulation compiled, this one included, spilled 4 to 80 bytes (nvcc 13.0; the methods list them).
template <class Cfg> constexpr bool kLptOrder = (Cfg::kCausal && Cfg::kCausalLpt && Cfg::kD == 64);

template <class Cfg> __device__ __forceinline__ CtaCoords cta_coords() {
    if constexpr (kLptOrder<Cfg>)
        return {(int)gridDim.y - 1 - (int)blockIdx.y, (int)blockIdx.x, (int)blockIdx.z};
    else
        return {(int)blockIdx.x, (int)blockIdx.y, (int)blockIdx.z};
}
// The (b, h) index alone, the TMA maps' third coordinate (warp_spec.cuh, ws_producer_tma); written out
// rather than taken from cta_coords so that, without the switch, it is the kernels' own unsigned
// expression and their PTX stays as it was.
template <class Cfg> __device__ __forceinline__ int cta_bh() {
    if constexpr (kLptOrder<Cfg>)
        return (int)(blockIdx.z * gridDim.x + blockIdx.x);
    else
        return (int)(blockIdx.z * gridDim.y + blockIdx.y);
}

} // namespace sdpa
