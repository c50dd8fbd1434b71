// sdpa_fp8.cuh: the FP8 SDPA forward kernel, assembled from headers by role. kernels/stages.cu
// includes this file and instantiates one kernel per row of variants.def; the stages differ only
// by their switches (a Config), never by copied code.
//
// Geometry (as the original, f686304:cudadent42/bench/kernels/sdpa_fp8_stage_c_wmma.cu): one CTA
// of 4 warps (128 threads) per 32 query rows of one (batch, head); KV tiles of 32 keys; D = 64.
// Grid (ceil(S/32), H, B).
//
// Per CTA:  Q tile -> shared memory (once);  for each KV tile t:
//   load K/V (direct, or a cp.async ring of uint8 staging) -> fp16 tiles (or codes, stage 6)
//   S = Q K^T (WMMA into a score buffer, or mma.sync into registers), scaled in fp32
//   online softmax in fp32 (running max m and sum l per row)
//   O = alpha*O + P V (scalar with fp32 P, WMMA or mma.sync with fp16 P, mma.sync with e4m3 P)
// then O = O / l, once, rounded to fp16.
//
// Numerics (paper/methods.md, "Rounding budget"): codes decode exactly to fp16 (codec units);
// the per-head steps are applied in fp32 after Q K^T (and after P V), so no product is rounded
// before accumulation. The rounded quantities are the scores (stages 0-3a), P (every P.V except
// the scalar one) and O.
//
// The headers, by role (each opens with what it is for); included in dependency order:
//   config.cuh         Config (switch flags, tile sizes, pipeline depth, warp roles, strides) and
//                      the shared-memory layout Smem
//   codec.cuh          codes -> halves (E4M3, seed-linear), half2 packing, chunk decode
//   loads.cuh          loads and the K/V pipeline: direct, cp.async staging and ring, stage 6's
//                      code tiles and V transpose
//   softmax_smem.cuh   the score-buffer softmax family (stages 0-3a) and its epilogue
//   softmax_regs.cuh   the register-row softmax family (stages 3b-6) and its epilogue
//   tile_products.cuh  the products of one tile: WMMA, mma.sync m16n8k16 f16, m16n8k32 e4m3
//   warp_spec.cuh      the producer/consumer skeleton on named barriers, per-tile work as hooks
//   mainloops.cuh      the kernel body, mainloop_smem / mainloop_regs / mainloop_warp_spec, the
//                      register-resident hooks (RegHooks)
//
// Index: the stage history. A switch (kernels/switches.h) selects these building blocks; each
// section of the headers is labelled [stage N] with the stage that introduced it:
//   stage 0, no switch    codec.cuh; loads.cuh load_tile_direct; tile_products.cuh qk_scores,
//                         pv_scalar; softmax_smem.cuh softmax_update, store_output;
//                         mainloops.cuh mainloop_smem, sdpa_forward
//   CP_ASYNC (stage 1)    loads.cuh: Staging, issue_kv_copy, dequant_kv_staged, and the pipeline
//                         that orders them: kv_pipeline_start / kv_tile_load (prefetch, wait,
//                         drained tail); without it kv_tile_load is two direct loads
//   WMMA_PV (stage 2)     PBuffer (config.cuh), rescale_and_store_p (softmax_smem.cuh), pv_wmma
//                         (tile_products.cuh) instead of pv_scalar
//   FUSED_SOFTMAX_PV      p_buffer() returns the score buffer: no PBuffer
//     (stage 3a)
//   SMEM_PAD (3a-swz)     the padded strides LD, LDS, LDU of Config
//   REG_MMA (stage 3b)    softmax_regs.cuh (RegRows, rows_init, rows_rescale, mma_store_output),
//                         tile_products.cuh mma_tile, mainloops.cuh mainloop_regs and RegHooks;
//                         no ScoreBuffers (sS, U, scratch)
//   KV_RING3 (stage 4)    Config::kKvStages = 3: the ring of kv_pipeline_start / kv_prefetch /
//                         kv_wait_tile (their depth is a parameter since stage 1)
//   WARP_SPEC (stage 5)   warp_spec.cuh (ws_producer / ws_consumer on named barriers), two
//                         operand buffers, LoaderChunks over the producer warps only,
//                         mainloops.cuh mainloop_warp_spec
//   FP8_MMA (stage 6)     CodeTiles (config.cuh); loads.cuh load_q_codes, repack_kv_staged (the
//                         producers' decode becomes a copy and a transpose); tile_products.cuh
//                         fp8_tile (Q.K^T and P.V on mma.sync m16n8k32 e4m3, P as e4m3 codes of
//                         448 p); sdpa_forward's empty body where it cannot run
//   TMA_KV (stage 7a)     KvBarriers (config.cuh); loads.cuh KvMaps, encode_kv_map, kv_barriers_init,
//                         tma_kv_issue / tma_kv_wait / tma_kv_release (the ring by TMA and mbarriers);
//                         warp_spec.cuh ws_producer_tma; sdpa_forward's trap before sm_90;
//                         stages.cu's TMA rows (tensor-map parameters, launch_tma)
//   WGMMA_QK (stage 7b)   config.cuh WgTiles (Q swizzled), kTileAlign, kSlotReaders, dynamic shared
//                         memory; loads.cuh load_q_codes' swizzled stores + fence.proxy.async, the K
//                         map's swizzle; tile_products.cuh wgmma_scores (wgmma SS on Q and K's slot),
//                         fp8_tile split into fp8_scores / fp8_softmax_pv; mainloops.cuh RegHooks'
//                         wgmma path; stages.cu's sm_90a rows (their own compile)
//   WGMMA_PV (stage 7c)   config.cuh VtTile (V^T in wgmma's core matrices); loads.cuh
//                         repack_kv_staged's core-matrix stores + fence.proxy.async;
//                         tile_products.cuh wgmma_pv (wgmma RS on P's codes)
//   WG_SPEC (stage 7d)    geometry.h (128 rows, a producer warpgroup) and SDPA_REG_CAP; config.cuh
//                         kConsumerWgs, kEntryRegs / kProducerRegs / kConsumerRegs (the register
//                         split); tile_products.cuh wgmma_scores' warpgroup rows; mainloops.cuh
//                         mainloop_warp_spec's setmaxnreg.dec / .inc
//   KEYS128 (stage 7e)    geometry.h (128 keys per tile); config.cuh kVtSwizzle and VtTile (V^T rows
//                         in the 128-byte swizzle); loads.cuh repack_vt128 (vt128_offset);
//                         tile_products.cuh wgmma_pv's four chained k steps, fp8_softmax_pv's A
//                         fragment per 32 keys; mainloops.cuh's 1024-byte aligned shared memory
//   WG_OVERLAP (stage 7f) tile_products.cuh wgmma_tile_overlapped / wgmma_pv_last and OverlapRows
//                         (wgmma_scores and wgmma_pv split into issue and finish, fp8_softmax_codes
//                         into fp8_softmax_exp and fp8_codes; P.V in parts of 64 columns at
//                         D = 128); mainloops.cuh RegHooks' kLag and drain; warp_spec.cuh
//                         ws_consumer's lagged FULL and EMPTY
//   FTZ_EXP (stage 7h)    prims.cuh expf_ftz (ex2.approx.ftz; the emulator's twin flushes libm's expf);
//                         tile_products.cuh p_weight, which fp8_softmax_exp takes P's weights through;
//                         mainloops.cuh mainloop_warp_spec reads V's step after the loop (TMA rows)
//   MASK_EDGE (stage 7i)  softmax_regs.cuh NoMask and cta_whole_tiles; warp_spec.cuh ws_consumer's
//                         two bodies (ws_consumer_tile<..., true>: the whole tiles without the key test)
//   WG_PINGPONG           warp_spec.cuh full_sync / full_arrive (a FULL barrier per consumer warpgroup:
//     (stage 7j)          kFullThreads, kBarFullWg1) and Turns (take / give / start / finish on the
//                         TURN barriers, kBarTurn); tile_products.cuh wgmma_tile_overlapped's Turn
//                         parameter; mainloops.cuh RegHooks::compute passes Turns<Cfg>
//   VT_LDSM (stage 7k)    config.cuh kVSwizzle (V's TMA box in K's swizzle; the staging slots aligned
//                         to its repeat: kVStagingAlign); stages.cu TmaKernels::v_swizzle; loads.cuh
//                         repack_vt_ldsm (ldmatrix.x4.trans, byte permutes, stmatrix.x4)
//   WARP_RELEASE (7l)     config.cuh kSlotArrivals (a warp's one arrival); loads.cuh tma_kv_release
//   CAUSAL_LPT (7m)       cta_order.cuh cta_coords / cta_bh (the causal D = 64 CTAs' coordinates, taken
//                         by mainloops.cuh cta_run and warp_spec.cuh ws_producer_tma); stages.cu
//                         launch_tma's grid (H, S / 128, B) for them (TmaKernels::lpt_causal)
//   D = 128, stage 7      stages.cu SDPA_TMA_WIDE (the TMA rows' wide instances, launch_tma per head
//                         dimension); config.cuh kSwizzle = D (Q and K in the 128-byte swizzle);
//                         loads.cuh repack_vt128's 8 chunks per key; mainloops.cuh's 1024-byte
//                         aligned shared memory for any 128-byte swizzled tile
#pragma once

#include "config.cuh"
#include "codec.cuh"
#include "cta_order.cuh"
#include "loads.cuh"
#include "softmax_smem.cuh"
#include "softmax_regs.cuh"
#include "tile_products.cuh"
#include "warp_spec.cuh"
#include "mainloops.cuh"
