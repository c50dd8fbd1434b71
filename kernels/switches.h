/* The kernel switches: one X-macro list, expanded by everything that needs to know them
 * (variants.def's rows, stages.cu's Configs, sdpa-bench's variant table, ptxas-json, make's checks
 * in mk/switches.mk, and the tests). A new switch is one line here plus the building block it
 * selects in the header of its role (kernels/README.md, "How to add a stage").
 *
 *   X(NAME, key, CLASS, MIN_SM, ARCH, "meaning")
 *     NAME     make variable USE_<NAME>, and the bit SDPA_SW(NAME) of a variant's switch mask
 *     key      how the switch is printed (--list-variants: "key=0|1")
 *     CLASS    what flipping it does to the arithmetic, which decides bit-identity between two
 *              variants (host/bench/variants.c): ARITH changes it (never identical); LOAD moves
 *              the same data, or runs the same operations on it, another way; LAYOUT keeps it in
 *              another buffer or layout; FLUSH changes only values the kernel then rounds to zero
 *              anyway (paper/methods.md#prereg-stage7h). Variants that differ only in switches of
 *              one class, none ARITH, must be bit-identical.
 *     MIN_SM   the oldest architecture (major*10+minor) whose hardware the block needs, 0 for none
 *              beyond what the build targets; a variant needs the largest MIN_SM of its switches
 *              and is "not supported" on an older device (never run, never failed)
 *     ARCH     ANY: portable code (SASS for every architecture of CUDA_ARCHS, PTX of the newest);
 *              SM90A: the block uses architecture-specific instructions of sm_90a (wgmma with FP8,
 *              setmaxnreg), whose code runs only on compute capability 9.0 (H100, H200): a variant
 *              with such a switch is "not supported" on every other device, older or newer, and
 *              its body compiles only where prims::has_sm90a holds (elsewhere it traps)
 *     meaning  one line
 * mk/switches.mk reads the NAMEs from the lines that start with "X(": keep one switch per line. */
#ifndef SDPA_SWITCHES_H
#define SDPA_SWITCHES_H

/* clang-format off */
#define SDPA_SWITCHES(X) \
    X(CP_ASYNC,         cp_async,         LOAD,   0, ANY, "cp.async double-buffered K/V staging") \
    X(WMMA_PV,          wmma_pv,          ARITH,  0, ANY, "P.V on WMMA with P in fp16") \
    X(FUSED_SOFTMAX_PV, fused_softmax_pv, LAYOUT, 0, ANY, "P written in place into the score buffer") \
    X(SMEM_PAD,         smem_pad,         LAYOUT, 0, ANY, "padded shared-memory rows against bank conflicts") \
    X(REG_MMA,          reg_mma,          ARITH, 80, ANY, "Q.K^T and P.V on mma.sync m16n8k16, scores and P in registers") \
    X(KV_RING3,         kv_ring3,         LOAD,   0, ANY, "a 3-deep cp.async ring for K/V instead of 2") \
    X(WARP_SPEC,        warp_spec,        LOAD,   0, ANY, "producer warps copy and decode K/V, consumer warps compute; named barriers") \
    X(FP8_MMA,          fp8_mma,          ARITH, 89, ANY, "Q.K^T and P.V on mma.sync m16n8k32 e4m3 on the codes, P quantised to e4m3 (scale 448)") \
    X(ROWS64,           rows64,           LAYOUT, 0, ANY, "64 query rows per CTA (4 computing warps) instead of 32") \
    X(TMA_KV,           tma_kv,           LOAD,  90, ANY, "K/V tiles by TMA (cp.async.bulk.tensor) into the staging ring, full/empty mbarriers, one issuing thread") \
    X(WGMMA_QK,         wgmma_qk,         LAYOUT, 90, SM90A, "Q.K^T by wgmma m64n32k32 (SS) for one 64-row consumer warpgroup and one producer warp; Q and K 64-byte swizzled") \
    X(WGMMA_PV,         wgmma_pv,         LAYOUT, 90, SM90A, "P.V by wgmma m64nDk32 (RS): P's codes from registers, V^T k-major in wgmma's core matrices, fenced to the async proxy") \
    X(WG_SPEC,          wg_spec,          LOAD,  90, SM90A, "warpgroup specialisation: two 64-row consumer warpgroups (128 rows) and a producer warpgroup, registers split by setmaxnreg") \
    X(KEYS128,          keys128,          ARITH, 90, SM90A, "128 keys per KV tile: Q.K^T by wgmma m64n128k32, P.V four chained m64n64k32 per tile, V^T rows 128-byte swizzled") \
    X(WG_OVERLAP,       wg_overlap,       LOAD,  90, SM90A, "intra-warpgroup overlap: S(t) and P(t-1).V(t-1) issued together, tile t's softmax while P.V runs (FlashAttention-3's order)") \
    X(FTZ_EXP,          ftz_exp,          FLUSH,  0, ANY, "P's weights by ex2.approx.ftz: a weight below 2^-126 is +0, an e4m3 code 0 either way; alpha by __expf as before") \
    X(MASK_EDGE,        mask_edge,        LOAD,   0, ANY, "the key mask only on the tiles that need it (the partial last tile, the causal diagonal); the others by a copy of the compute without the test") \
    X(WG_PINGPONG,      wg_pingpong,      LOAD,  90, SM90A, "FULL barriers per consumer warpgroup, and the two warpgroups in turn at the tensor cores (FlashAttention-3's scheduler barriers)") \
    X(VT_LDSM,          vt_ldsm,          LOAD,  90, SM90A, "V lands swizzled by TMA; V^T by ldmatrix.trans, byte permutes and stmatrix (FlashAttention-3's LDSM/STSM transpose) instead of single-byte stores") \
    X(WARP_RELEASE,     warp_release,     LOAD,  90, ANY, "the TMA ring's empty mbarriers count one arrival per reading warp, from lane 0 after __syncwarp, instead of one per thread") \
    X(CAUSAL_LPT,       causal_lpt,       LOAD,  90, ANY, "causal D = 64 CTAs on the grid (H, S / 128, B): heads fastest, query tiles longest first, batch entries in turn (FlashAttention-3's causal order, a section one batch entry's heads)")
/* clang-format on */

enum sdpa_switch_class { SDPA_SWCLASS_LOAD, SDPA_SWCLASS_ARITH, SDPA_SWCLASS_LAYOUT, SDPA_SWCLASS_FLUSH };
/* ARCH: the one compute capability (major*10+minor) architecture-specific code runs on; 0 for ANY. */
enum sdpa_switch_arch { SDPA_SWARCH_ANY = 0, SDPA_SWARCH_SM90A = 90 };

#define SDPA_SW_BIT_(NAME, key, cls, min_sm, arch, meaning) SDPA_SWBIT_##NAME,
enum sdpa_switch_bit { SDPA_SWITCHES(SDPA_SW_BIT_) SDPA_SWITCH_COUNT };
#undef SDPA_SW_BIT_

/* A variant's switches are a bit mask: SDPA_SW(CP_ASYNC) | SDPA_SW(WMMA_PV). */
#define SDPA_SW(NAME) (1u << SDPA_SWBIT_##NAME)
typedef unsigned sdpa_switches_t;

/* The custom variant's mask from make's USE_<NAME> 0/1 macros ($(GEN)/sdpa_custom.h). */
#define SDPA_SW_FROM_MAKE_(NAME, key, cls, min_sm, arch, meaning) | ((USE_##NAME) ? SDPA_SW(NAME) : 0u)
#define SDPA_SWITCHES_FROM_MAKE (0u SDPA_SWITCHES(SDPA_SW_FROM_MAKE_))

#endif
