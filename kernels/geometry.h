/* A variant's geometry, from its switches: how many query rows a CTA computes, how many keys a KV
 * tile holds, how many warps a CTA has and how many of them compute. One definition, read by the
 * kernels' Config (config.cuh) and, through the kernel table (sdpa_api.h, sdpa_geometry_t), by the
 * host: the launchers' grid and block, sdpa-bench --list-variants, ptxas-json's occupancy, the
 * run JSON and the reports. Plain C macros, so that C11 host code and C++ constant expressions
 * share them.
 *   tile_m     query rows per CTA: 32 (the original's), 64 with ROWS64 (4 computing warps) or
 *              WGMMA_QK (the 4 warps of one wgmma warpgroup), 128 with WG_SPEC (two warpgroups)
 *   tile_n     keys per KV tile: 32, 128 with KEYS128 (stage 7e: wgmma m64n128 for Q.K^T)
 *   mma_warps  warps that own 16 query rows each (the register-resident line, REG_MMA); 0 when
 *              the 4 warps share the shared-memory softmax's rows (stages 0-3a)
 *   warps      per CTA: the computing warps plus the producers with WARP_SPEC (2 warps; 1 with
 *              WGMMA_QK, whose producers no longer copy K; a warpgroup of 4 with WG_SPEC), else 4
 * The head dimension is the kernel instance's (sdpa_geometry_t.head_dim), not a switch.
 *   wide       the row is also built for D = 128 and with a causal mask (E4M3 codec): the
 *              register-resident line (REG_MMA), whose warps own whole rows, the Hopper line's rows
 *              (TMA_KV, stages 7a on; kernels/stages.cu, SDPA_TMA_WIDE) included; stages 0-3a are
 *              the original's faithful kernels, D = 64 and non-causal only */
#ifndef SDPA_GEOMETRY_H
#define SDPA_GEOMETRY_H

#include "switches.h"

#define SDPA_TILE_M_OF(sw)                                                                                   \
    (((sw)&SDPA_SW(WG_SPEC)) ? 128 : ((sw) & (SDPA_SW(ROWS64) | SDPA_SW(WGMMA_QK))) ? 64 : 32)
#define SDPA_TILE_N_OF(sw) (((sw)&SDPA_SW(KEYS128)) ? 128 : 32)
#define SDPA_MMA_WARPS_OF(sw) (((sw)&SDPA_SW(REG_MMA)) ? SDPA_TILE_M_OF(sw) / 16 : 0)
#define SDPA_PRODUCER_WARPS_OF(sw) (((sw)&SDPA_SW(WG_SPEC)) ? 4 : ((sw)&SDPA_SW(WGMMA_QK)) ? 1 : 2)
#define SDPA_WARPS_OF(sw) (((sw)&SDPA_SW(WARP_SPEC)) ? SDPA_MMA_WARPS_OF(sw) + SDPA_PRODUCER_WARPS_OF(sw) : 4)
#define SDPA_WIDE_OF(sw) (((sw)&SDPA_SW(REG_MMA)) ? 1 : 0)
/* Launch bounds (kernels/config.cuh says why): a block of `threads` is declared as a multiple of 128,
 * with as many blocks per SM as 512 threads per SM allow at D = 64 (256 at D = 128, at least one);
 * ptxas then caps each thread at 65536 / (bounds x blocks) registers, rounded down to 8 (at most
 * 255): 128 at D = 64 for up to 256 threads, 168 for stage 7d's 384, 255 at D = 128. The host's
 * register gate (ptxas-json) is that cap. */
#define SDPA_BOUNDS_THREADS(threads) (((threads) + 127) / 128 * 128)
#define SDPA_SM_THREADS(head_dim) ((head_dim) == 64 ? 512 : 256)
#define SDPA_MIN_BLOCKS(threads, head_dim)                                                                   \
    (SDPA_SM_THREADS(head_dim) >= SDPA_BOUNDS_THREADS(threads)                                               \
         ? SDPA_SM_THREADS(head_dim) / SDPA_BOUNDS_THREADS(threads)                                          \
         : 1)
#define SDPA_REG_CAP_(r) ((r) > 255 ? 255 : (r))
#define SDPA_REG_CAP(threads, head_dim)                                                                      \
    SDPA_REG_CAP_(65536 / (SDPA_BOUNDS_THREADS(threads) * SDPA_MIN_BLOCKS(threads, head_dim)) / 8 * 8)
/* Static shared memory per block; above it a kernel's shared memory is dynamic and opted in. */
#define SDPA_STATIC_SMEM_MAX (48 * 1024)

#endif
