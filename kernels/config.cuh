// config.cuh: the Config of a variant and the geometry and shared-memory layout it implies (the
// kernel's traits). A variant is one switch mask (kernels/switches.h); Config turns it into
// compile-time flags that select building blocks (`if constexpr`) and into the parameters the
// blocks read: tile sizes, pipeline depth, warp roles, row strides and padding, and which
// shared-memory buffers exist (Smem: a buffer a variant does not use has size zero, so ptxas's
// figure is exactly the sum of those it declares). Everything else includes this header; it
// computes nothing.
#pragma once

#include <type_traits>

#include "prims.cuh"
#include "sdpa_api.h"

namespace sdpa {

constexpr int CHUNK = 16; // bytes per vector load / cp.async copy = 16 codes

__device__ __forceinline__ int imin(int a, int b) { return a < b ? a : b; }

// One variant = one Config: its switch mask (kernels/switches.h) decides which building blocks
// it uses, and with the head dimension HD its geometry (Causal<Config> below adds the mask). One
// line per switch here; the blocks test these flags with `if constexpr` and read the geometry from
// the k* members.
template <sdpa_switches_t SW, int HD = 64> struct Config {
    static constexpr sdpa_switches_t kSwitches = SW;
    static constexpr bool kCpAsync = SW & SDPA_SW(CP_ASYNC);
    static constexpr bool kWmmaPV = SW & SDPA_SW(WMMA_PV);
    static constexpr bool kFusedSoftmaxPV = SW & SDPA_SW(FUSED_SOFTMAX_PV);
    static constexpr bool kSmemPad = SW & SDPA_SW(SMEM_PAD);
    static constexpr bool kRegMma = SW & SDPA_SW(REG_MMA);
    static constexpr bool kKvRing3 = SW & SDPA_SW(KV_RING3);
    static constexpr bool kWarpSpec = SW & SDPA_SW(WARP_SPEC);
    static constexpr bool kFp8Mma = SW & SDPA_SW(FP8_MMA);
    static constexpr bool kRows64 = SW & SDPA_SW(ROWS64);
    static constexpr bool kTmaKv = SW & SDPA_SW(TMA_KV);
    static constexpr bool kWgmmaQk = SW & SDPA_SW(WGMMA_QK);
    static constexpr bool kWgmmaPv = SW & SDPA_SW(WGMMA_PV);
    static constexpr bool kWgSpec = SW & SDPA_SW(WG_SPEC);
    static constexpr bool kKeys128 = SW & SDPA_SW(KEYS128);
    static constexpr bool kWgOverlap = SW & SDPA_SW(WG_OVERLAP);
    static constexpr bool kFtzExp = SW & SDPA_SW(FTZ_EXP);
    static constexpr bool kMaskEdge = SW & SDPA_SW(MASK_EDGE);
    static constexpr bool kWgPingpong = SW & SDPA_SW(WG_PINGPONG);
    static constexpr bool kVtLdsm = SW & SDPA_SW(VT_LDSM);
    static constexpr bool kWarpRelease = SW & SDPA_SW(WARP_RELEASE);
    static constexpr bool kCausalLpt = SW & SDPA_SW(CAUSAL_LPT);
    static_assert(!kFusedSoftmaxPV || kWmmaPV,
                  "USE_FUSED_SOFTMAX_PV reuses the WMMA P buffer: needs USE_WMMA_PV=1");
    // REG_MMA keeps WMMA_PV's arithmetic choice (P rounded to fp16 before P.V) and replaces its
    // buffers: with it, WMMA_PV and FUSED_SOFTMAX_PV no longer select any code.
    static_assert(!kRegMma || kWmmaPV, "USE_REG_MMA keeps P in fp16: needs USE_WMMA_PV=1");
    static_assert(!kKvRing3 || kCpAsync, "USE_KV_RING3 deepens the cp.async ring: needs USE_CP_ASYNC=1");
    static_assert(!kWarpSpec || (kRegMma && kCpAsync),
                  "USE_WARP_SPEC splits the REG_MMA kernel's warps: needs USE_REG_MMA=1, USE_CP_ASYNC=1");
    // FP8_MMA replaces the m16n8k16 products of REG_MMA's register-resident softmax and moves the
    // operand preparation (K copy, V transpose) into WARP_SPEC's producer warps, off the consumers'
    // path: it needs both.
    static_assert(!kFp8Mma || (kRegMma && kWarpSpec),
                  "USE_FP8_MMA builds on the producer/consumer kernel: needs USE_REG_MMA=1, USE_WARP_SPEC=1");
    static_assert(!kRows64 || kRegMma,
                  "USE_ROWS64 gives 4 computing warps 16 rows each: needs USE_REG_MMA=1");
    // TMA_KV replaces the cp.async copies of stage 6's producer ring (same staging slots, same
    // repack): it needs that ring and the producers that own it.
    static_assert(!kTmaKv || kFp8Mma, "USE_TMA_KV feeds stage 6's producer ring: needs USE_FP8_MMA=1");
    // WGMMA_QK reads K where TMA put it (the staging slot, 64-byte swizzled): it needs TMA_KV's ring.
    static_assert(!kWgmmaQk || kTmaKv, "USE_WGMMA_QK reads K from the TMA ring: needs USE_TMA_KV=1");
    // WGMMA_PV's A operand is the P fragment of the warpgroup's rows: it needs WGMMA_QK's warpgroup.
    static_assert(!kWgmmaPv || kWgmmaQk, "USE_WGMMA_PV multiplies the warpgroup's P: needs USE_WGMMA_QK=1");
    // WG_SPEC makes stage 7c's warpgroup two and its producer warp a warpgroup: it needs both products
    // on wgmma (a consumer warpgroup's rows are one wgmma's M).
    static_assert(!kWgSpec || kWgmmaPv,
                  "USE_WG_SPEC splits the wgmma kernel's warpgroups: needs USE_WGMMA_PV=1");
    // KEYS128 widens the tile of the warpgroup-specialised kernel, whose consumers have the registers
    // for 64 scores per thread (the setmaxnreg split).
    static_assert(!kKeys128 || kWgSpec, "USE_KEYS128 widens stage 7d's tiles: needs USE_WG_SPEC=1");
    // WG_OVERLAP reorders the warpgroups' two wgmma products around their softmax (stage 7f): both
    // products on wgmma, each consumer warpgroup its own rows.
    static_assert(!kWgOverlap || kWgSpec,
                  "USE_WG_OVERLAP overlaps the warpgroups' products: needs USE_WG_SPEC=1");
    // FTZ_EXP flushes the FP8 softmax's weights (fp8_softmax_exp), whose codes make the flush invisible.
    static_assert(!kFtzExp || kFp8Mma, "USE_FTZ_EXP flushes the FP8 line's P weights: needs USE_FP8_MMA=1");
    // MASK_EDGE splits the consumers' tile loop of the producer/consumer skeleton (ws_consumer).
    static_assert(!kMaskEdge || kWarpSpec, "USE_MASK_EDGE splits the consumers' loop: needs USE_WARP_SPEC=1");
    // WG_PINGPONG orders the two consumer warpgroups' issue of stage 7f's overlapped tile.
    static_assert(!kWgPingpong || kWgOverlap,
                  "USE_WG_PINGPONG takes turns at 7f's products: needs USE_WG_OVERLAP=1");
    // VT_LDSM transposes 7e's 128-key V tile in the staging slot TMA fills (loads.cuh, repack_vt_ldsm).
    static_assert(!kVtLdsm || (kKeys128 && kTmaKv), "USE_VT_LDSM: needs USE_KEYS128=1 and USE_TMA_KV=1");
    // WARP_RELEASE changes how the TMA ring's readers release a slot (loads.cuh, tma_kv_release).
    static_assert(!kWarpRelease || kTmaKv, "USE_WARP_RELEASE: needs USE_TMA_KV=1");
    // CAUSAL_LPT reorders the TMA rows' causal CTAs (cta_order.cuh; their grid: stages.cu, launch_tma).
    static_assert(!kCausalLpt || kTmaKv,
                  "USE_CAUSAL_LPT orders the TMA rows' causal CTAs: needs USE_TMA_KV=1");
    // D = 128 and causal masking exist on the register-resident line only (geometry.h; the Hopper line's
    // rows are of it): the shared-memory softmax's warp-to-row maps are written for 32 rows of 64 columns.
    static constexpr bool kCausal = false;
    static_assert(HD == 64 || kRegMma, "D = 128 needs the register-resident line (USE_REG_MMA=1)");
    // Geometry (kernels/geometry.h: one definition for these and for the host, which reads it from
    // the kernel table): kTM query rows per CTA, kTN keys per KV tile, kD the head dimension,
    // kWarps per CTA, of which kMmaWarps compute in REG_MMA (16 query rows each). The grid is
    // (ceil(S / kTM), H, B), the block kThreads.
    static constexpr int kD = HD;
    static constexpr int kTM = SDPA_TILE_M_OF(SW);
    static constexpr int kTN = SDPA_TILE_N_OF(SW);
    static constexpr int kWarps = SDPA_WARPS_OF(SW);
    static constexpr int kThreads = 32 * kWarps;
    static constexpr int kMmaWarps = SDPA_MMA_WARPS_OF(SW);
    static_assert((kD == 64 || kD == 128) && (kTN == 32 || (kTN == 128 && kKeys128)) &&
                      (kTM == 32 || kTM == 64 || kTM == 128),
                  "geometry: D 64 or 128, TN 32 (128 with KEYS128)");
    // [stage 7b] wgmma's M is 64: the CTA's 64 rows are one warpgroup's (warps 0-3, 16 rows each, as
    // the m16n8 fragments of stage 6 give them). The swizzle of Q and K spans one row of codes: 64
    // bytes at D = 64, 128 at D = 128 (the widest swizzle: a row of 128 codes is one span, its four
    // k steps of 32 four 32-byte offsets inside it, as 7e's V^T rows).
    // [stage 7d] WG_SPEC: two such warpgroups (warps 0-3, 4-7: rows 0-63, 64-127), each reading its
    // half of Q's tile; the producers are the third warpgroup (warps 8-11).
    static constexpr int kConsumerWgs = kWgSpec ? 2 : 1;
    static_assert(!kWgmmaQk || (kTM == 64 * kConsumerWgs && SDPA_MMA_WARPS_OF(SW) == 4 * kConsumerWgs),
                  "USE_WGMMA_QK: warpgroups of 4 computing warps over 64 rows each");
    static_assert(!kWgSpec || SDPA_PRODUCER_WARPS_OF(SW) == 4,
                  "USE_WG_SPEC: the producers are one warpgroup");
    static constexpr unsigned kSwizzle = kWgmmaQk ? (unsigned)kD : 0u; // bytes; 0 = none
    // [stage 7e] KEYS128: a row of V^T (one d, the tile's key positions) is 128 bytes, one span of the
    // 128-byte swizzle: wgmma's B operand of P.V in the canonical swizzled K-major layout.
    static constexpr unsigned kVtSwizzle = kKeys128 ? 128u : 0u;
    static_assert(!kKeys128 || kTN == (int)kVtSwizzle, "KEYS128: one V^T row per swizzle span");
    // [stage 7k] VT_LDSM: V's tiles land in K's swizzle (a row of D codes), so that the eight keys an
    // ldmatrix phase reads in one column fall in eight different 16-byte bank groups.
    static constexpr unsigned kVSwizzle = kVtLdsm ? (unsigned)kD : 0u;
    // At D = 128 the computing warps read Q's fragments from shared memory for every tile instead
    // of holding them (D/16 x 4 registers more beside the D/2 of the output would exceed 128):
    // the same operands, moved, not another arithmetic (paper/methods.md, D = 128).
    static constexpr bool kQInRegs = kD == 64;
    static_assert(kRegMma || (kTM == 32 && kWarps == 4),
                  "the shared-memory softmax maps 4 warps onto 32 rows (SoftmaxMap, qk_scores, pv_wmma)");
    // 16-byte chunks of a row, of one K (or V) tile and of the Q tile.
    static constexpr int kRowChunks = kD / CHUNK;
    static constexpr int kKvChunks = kTN * kRowChunks;
    static constexpr int kQChunks = kTM * kRowChunks;
    // Launch bounds (kBoundsThreads, kMinBlocks): 512 threads per SM at D = 64, which caps registers
    // at 128 per thread (the original's (128, 4)). A block of 192 threads is declared as at most 256 (a
    // launch may use fewer): (192, 2) would allow 170 registers and (192, 3) 113, where ptxas
    // chose 96 and spilled (observed, sm_90).
    // At D = 128 the output accumulator alone takes 64 registers per thread of the computing warps
    // (twice D = 64's), and the line's 4-warp loaders then spill under 128 (observed, sm_89): the
    // budget becomes 256 threads per SM, a cap of 255 registers (FlashAttention-2's at D = 128).
    static constexpr int kBoundsThreads = SDPA_BOUNDS_THREADS(kThreads);
    static constexpr int kMinBlocks = SDPA_MIN_BLOCKS(kThreads, kD);
    // Pipeline parameters. kKvStages: uint8 staging slots of the cp.async ring (tiles in flight +
    // the one being read). kLoader0: the first thread that copies and decodes K/V (all threads,
    // or the producer warps of WARP_SPEC). kHalfBufs: fp16 K/V tiles (WARP_SPEC decodes tile t+1
    // while tile t is read).
    static constexpr int kKvStages = kKvRing3 ? 3 : 2;
    static constexpr int kLoader0 = kWarpSpec ? kMmaWarps * 32 : 0;
    static constexpr int kLoaders = kThreads - kLoader0;
    static constexpr int kHalfBufs = kWarpSpec ? 2 : 1;
    // [stage 7d] The register split. Bounded (384, 1), ptxas gives every thread floor(65536/384/8)*8 =
    // 168 registers at entry; the producer warpgroup, whose TMA issue and V^T repack hold a few
    // addresses and one 16-byte chunk, lowers its allocation (setmaxnreg.dec) and the consumers raise
    // theirs (setmaxnreg.inc) by what it frees: the block's pool exactly. The consumers of 7d need no
    // more than stage 7c's (93); 7e's and 7f's accumulators are what the registers are for.
    static constexpr int kEntryRegs = SDPA_REG_CAP(kThreads, kD);
    static constexpr int kProducerRegs = 40;
    static constexpr int kConsumerRegs =
        kWgSpec ? (kEntryRegs * kThreads - kProducerRegs * kLoaders) / (32 * kMmaWarps) / 8 * 8 : kEntryRegs;
    static_assert(!kWgSpec ||
                      (kThreads == 384 && kMinBlocks == 1 && kEntryRegs == 168 && kConsumerRegs == 232),
                  "USE_WG_SPEC: 384 threads bounded (384, 1): 168 registers at entry, split 40 / 232");
    // [stage 7b] Who reads a TMA staging slot before it may be loaded again: the producers (their
    // repack), and with WGMMA_QK also the consumer warpgroup (its wgmma reads K in the slot); [stage
    // 7d] both consumer warpgroups and the 128 producer threads: 384 arrivals. kSlotArrivals: what
    // the slot's empty mbarrier counts, a thread each, or [stage 7l] a warp each (12 from 7d on).
    static constexpr int kSlotReaders = kLoaders + (kWgmmaQk ? 32 * kMmaWarps : 0);
    static_assert(!kWarpRelease || kSlotReaders % 32 == 0,
                  "USE_WARP_RELEASE: the slot's readers are whole warps");
    static constexpr int kSlotArrivals = kWarpRelease ? kSlotReaders / 32 : kSlotReaders;
    static_assert(kKvChunks % kLoaders == 0, "every loader thread copies the same number of chunks");
    // Row strides. Unpadded rows are 128 B (Q/K/V, half), 64 B (scores, half) and 256 B (U, float):
    // every row starts on bank 0, so the 8-row phases of a WMMA load hit the same banks. Padding
    // by 16 B (8 halves, 4 floats) shifts consecutive rows by 4 banks and keeps every tile a plain
    // strided matrix, which WMMA requires (ldm must stay a multiple of 16 bytes).
    static constexpr int LD = kSmemPad ? kD + 8 : kD;    // halves per row of sQ, sK, sV
    static constexpr int LDS = kSmemPad ? kTN + 8 : kTN; // halves per row of sS / sP
    static constexpr int LDU = kSmemPad ? kD + 4 : kD;   // floats per row of U
    // FP8_MMA's code tiles (bytes per row): ldmatrix reads 8 rows of 16 bytes per phase; rows of
    // 80 (Q, K: D + 16) and 48 bytes (V^T: TN + 16) start 20 and 12 words apart, so the 8 rows of
    // a phase cover 8 distinct 4-bank groups, where unpadded 64- and 32-byte rows would conflict
    // 4- and 2-way. Both stay multiples of 16, as ldmatrix requires.
    static constexpr int LDC = kD + 16;   // bytes per row of the Q and K code tiles
    static constexpr int LDVT = kTN + 16; // bytes per row of V^T (one row per d)
    // The shared-memory softmax's per-warp fp32 scratch (ScoreBuffers) lives in the staging slot
    // that the current tile has consumed when there is one and no WMMA P.V. Why: the original
    // declared a fragment scratch (sPV_frag) only with WMMA P.V, and converted its Q.K^T fragment
    // element-wise, without one; this artifact needs the scratch for that conversion (README,
    // deliberate differences), and with its own 4 KiB stage 1 used 34,816 B where the original's
    // used 30,976 B: 2 CTAs per SM on an L4 instead of 3. In the consumed slot it costs nothing,
    // and stage 1 stays in the original's occupancy class (tests/kernels/static-gates.sh).
    static constexpr bool kScratchInStaging = kCpAsync && !kWmmaPV && !kRegMma;
};

// The same Config with every key after its query row masked (a row sees keys j <= i): the
// register-resident line's tiles wholly after a CTA's rows are skipped and its diagonal tiles
// masked (softmax_regs.cuh, KeyMask and cta_tiles). A type of its own, so that the Configs of
// the non-causal kernels, and with them their code, stay what they were.
template <class Cfg> struct Causal : Cfg {
    static constexpr bool kCausal = true;
    static_assert(Cfg::kRegMma, "the causal mask needs the register-resident line (USE_REG_MMA=1)");
};

// [stage 7a] The TMA ring's mbarriers, one pair per staging slot: full[s] completes when the elected
// producer thread has armed it (one arrival, with the slot's K and V bytes expected) and both TMA
// boxes have landed; empty[s] when every producer thread has read the slot (kLoaders arrivals).
template <class Cfg, bool HAS> struct KvBarriers {};
template <class Cfg> struct KvBarriers<Cfg, true> {
    alignas(8) uint64_t full[Cfg::kKvStages];
    alignas(8) uint64_t empty[Cfg::kKvStages];
};

// Static shared memory of one CTA. Optional buffers are empty base classes when a Config does not
// use them (the empty-base optimisation gives them size zero), so ptxas's smem figure is exactly
// the sum of the buffers a variant declares.
// [stage 1] uint8 staging of the cp.async pipeline; [stage 2] the fp16 P buffer of WMMA P.V.
template <class Cfg, bool HAS> struct Staging {}; // no cp.async: nothing
// [stage 7b] A swizzled tile starts on the swizzle's repeat (8 rows of its span), so that TMA's
// writes and wgmma's reads XOR the same address bits (hopper-wgmma-notes, section 3); each slot of
// 32 rows keeps that alignment.
template <class Cfg> constexpr int kTileAlign = Cfg::kSwizzle ? 8 * (int)Cfg::kSwizzle : 128;
// [stage 7k] V's slots likewise when V lands swizzled (VT_LDSM); 128 bytes otherwise, as before.
template <class Cfg> constexpr int kVStagingAlign = Cfg::kVSwizzle ? 8 * (int)Cfg::kVSwizzle : 128;
template <class Cfg> struct Staging<Cfg, true> {
    alignas(
        kTileAlign<Cfg>) uint8_t k8[Cfg::kKvStages][Cfg::kTN][Cfg::kD]; // uint8 K/V tiles as copied, a ring
    alignas(kVStagingAlign<Cfg>) uint8_t v8[Cfg::kKvStages][Cfg::kTN][Cfg::kD];
    static_assert(Cfg::kTN * Cfg::kD % kTileAlign<Cfg> == 0 && Cfg::kTN * Cfg::kD % kVStagingAlign<Cfg> == 0,
                  "every staging slot keeps the tile alignment");
};
template <class Cfg, bool HAS> struct PBuffer {};
template <class Cfg> struct PBuffer<Cfg, true> { alignas(128) __half p[Cfg::kTM][Cfg::LDS]; };
// [stage 0] the score and output buffers of the shared-memory softmax; [stage 3b] gone.
template <class Cfg, bool HAS> struct ScoreBuffers {};
template <class Cfg> struct ScoreBuffers<Cfg, true> {
    alignas(128) __half s[Cfg::kTM][Cfg::LDS]; // scores (fp16); P in place if fused
    alignas(128) float u[Cfg::kTM][Cfg::LDU];  // unnormalised output, fp32
};
// Per-warp fp32 scratch, 16x16: the Q.K^T accumulator on its way to fp16 (a float fragment cannot
// be converted to a half fragment element-wise without relying on the unspecified register
// layout), then fp32 P of the warp's 8 rows (scalar P.V), or the P.V accumulator. Its own buffer,
// or (kScratchInStaging) the consumed staging slot: scratch_of (softmax_smem.cuh).
constexpr int kScratchFloats = 16 * 16;
template <class Cfg, bool HAS> struct Scratch {};
template <class Cfg> struct Scratch<Cfg, true> { alignas(128) float scratch[Cfg::kWarps][kScratchFloats]; };

// [stage 0] the decoded half tiles every stage up to 5 computes on; [stage 6] codes instead.
template <class Cfg, bool HAS> struct HalfTiles {};
template <class Cfg> struct HalfTiles<Cfg, true> {
    alignas(128) __half q[Cfg::kTM][Cfg::LD];
    alignas(128) __half k[Cfg::kHalfBufs][Cfg::kTN][Cfg::LD]; // K stored [n][d]; read as col-major K^T
    alignas(128) __half v[Cfg::kHalfBufs][Cfg::kTN][Cfg::LD];
};
// The e4m3 codes as the m16n8k32 operands want them: Q and K row-major ([row][d], A and B of
// Q.K^T), V transposed ([d][key position], B of P.V) with key positions permuted by k32_pos.
template <class Cfg, bool HAS> struct CodeTiles {};
template <class Cfg> struct CodeTiles<Cfg, true> {
    alignas(128) uint8_t q[Cfg::kTM][Cfg::LDC];
    alignas(128) uint8_t k[Cfg::kHalfBufs][Cfg::kTN][Cfg::LDC];
    alignas(128) uint8_t vt[Cfg::kHalfBufs][Cfg::kD][Cfg::LDVT];
};

// [stage 7b] Q's codes as wgmma's A operand: K-major, 64-byte swizzled rows of D codes (written by
// the threads, then published to the async proxy); K is read in its staging slot, so no K buffer;
// V^T as stage 6's.
// [stage 7c] With WGMMA_PV, V^T is wgmma's B operand (N = D rows, K = the tile's 32 key positions):
// K-major in the canonical layout without swizzle, core matrices of 8 rows x 16 bytes, 128 bytes
// each: vt[buf][d / 8][p / 16][d % 8][p % 16] (descriptor: LBO 128 between the two k halves, SBO 256
// between 8-row groups; wgmma_layout.h's wg_kmajor_address).
// [stage 7e] With KEYS128, vt[buf][d][p] holds position p of row d at the 128-byte swizzle's place
// (wg_swizzle of its offset: the buffer starts on the swizzle's 1024-byte repeat); descriptor SBO
// 1024 between 8-row groups, a k step 32 bytes further inside the row.
template <class Cfg>
using VtTile = typename std::conditional<
    Cfg::kKeys128, uint8_t[Cfg::kD][Cfg::kTN],
    typename std::conditional<Cfg::kWgmmaPv, uint8_t[Cfg::kD / 8][Cfg::kTN / 16][8][16],
                              uint8_t[Cfg::kD][Cfg::LDVT]>::type>::type;
template <class Cfg> constexpr int kVtAlign = Cfg::kVtSwizzle ? 8 * (int)Cfg::kVtSwizzle : 128;
template <class Cfg, bool HAS> struct WgTiles {};
template <class Cfg> struct WgTiles<Cfg, true> {
    alignas(kTileAlign<Cfg>) uint8_t q[Cfg::kTM][Cfg::kD];
    alignas(kVtAlign<Cfg>) VtTile<Cfg> vt[Cfg::kHalfBufs];
};

template <class Cfg>
struct Smem : Staging<Cfg, Cfg::kCpAsync>,
              PBuffer<Cfg, Cfg::kWmmaPV && !Cfg::kFusedSoftmaxPV && !Cfg::kRegMma>,
              ScoreBuffers<Cfg, !Cfg::kRegMma>,
              Scratch<Cfg, !Cfg::kRegMma && !Cfg::kScratchInStaging>,
              HalfTiles<Cfg, !Cfg::kFp8Mma>,
              CodeTiles<Cfg, Cfg::kFp8Mma && !Cfg::kWgmmaQk>,
              WgTiles<Cfg, Cfg::kWgmmaQk>,
              KvBarriers<Cfg, Cfg::kTmaKv> {};

// Shared memory per CTA. Up to 48 KiB it is static (__shared__, as every variant before D = 128);
// above, it is dynamic: the launcher passes the size and opts the kernel in
// (cudaFuncAttributeMaxDynamicSharedMemorySize; the emulator enforces the same rule).
template <class Cfg> constexpr int kSmemBytes = (int)sizeof(Smem<Cfg>);
// [stage 7b] A wgmma kernel's shared memory is dynamic at any size: its descriptors and swizzles need
// the shared-window address of every tile, which the emulator gives dynamic shared memory in all of
// its builds (its ASan build keeps static shared memory in ordinary storage), and the kernel asks for
// the alignment its swizzled tiles need (SMEM_DYNAMIC_ALIGNED), as CUTLASS and FlashAttention-3 do,
// and checks that it got it (prims::smem_check_aligned): nvcc may ignore that request.
template <class Cfg> constexpr bool kDynamicSmem = kSmemBytes<Cfg> > SDPA_STATIC_SMEM_MAX || Cfg::kWgmmaQk;

} // namespace sdpa
