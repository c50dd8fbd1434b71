/* Launchers of the emulator's test kernels (tests/emu/kernels/ *.cu). Plain C: the test driver
 * calls them as the harness calls the SDPA launchers. Each returns the launch status: 0, or
 * non-zero when the emulator (or CUDA) reported a fault. Pointers: 256-byte aligned host memory
 * on the emulator. Halves travel as uint16_t bits. */
#ifndef EMU_TESTS_H
#define EMU_TESTS_H

#include <cuda.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* reduce.cu */
#define EMUT_WARP_OPS_OUT 9
int emut_block_sum(const float *in, float *out, int n, int threads);
int emut_warp_ops(const float *in, float *out, int blocks, int threads);

/* wmma_gemm.cu: C = alpha A B (halves as bits; C float, or half bits when acc_half) */
int emut_wmma_gemm(const uint16_t *A, const uint16_t *B, int b_col, int acc_half, void *C, int M, int N,
                   int K, float alpha);
int emut_wmma_transpose(const float *in, float *out, uint16_t *out_h);

/* cp_async.cu */
#define EMUT_CP_COLS 64
#define EMUT_CP_ROWS 32
int emut_fp8_stage(const uint8_t *codes, const float *scales, uint16_t *out, float *row_max, float *warp_max,
                   int n_rows, int drain_tail);

/* indexing.cu */
#define EMUT_INDEX_OUT 5
int emut_index3d(int *out, const int grid[3], const int block[3]);
/* out = {&overaligned % 128, &its second member % 128, &__align__(32) tile % 32, 1} */
int emut_smem_alignment(unsigned out[4]);
/* Dynamic shared memory of smem_bytes, after an opt-in of opt_in_bytes (0: none) for kernel 0 or 1;
 * out[i] = (words - 1 - i) * 3 + kernel. -1 when the opt-in itself is refused. */
int emut_big_dynamic_smem(int kernel, size_t opt_in_bytes, size_t smem_bytes, unsigned *out);

/* intrinsics.cu: n a multiple of 32 */
#define EMUT_INTRINSICS_OUT 16
int emut_intrinsics(const float *in, float *out, int n);

/* mma_f16.cu, mma_fp8.cu: one m16n8 tile. Fragment loads: */
enum { EMUT_LOAD_DIRECT = 0, EMUT_LOAD_LDSM = 1, EMUT_LOAD_LDSM_TRANS = 2 };
/* D = A B + C: A [16][16], B as [k][n] (Bkn) and as [n][k] (Bnk), C and D [16][8]. */
int emut_mma_f16(const uint16_t *A, const uint16_t *Bkn, const uint16_t *Bnk, const float *C, float *D,
                 int mode);
/* out[0..31]: movmatrix of M [8][8] loaded by ldmatrix.x1; out[32..63]: M loaded by ldmatrix.x1.trans. */
int emut_movmatrix(const uint16_t *M, uint32_t *out);
/* O [16][8] = half(Q K^T) V, Q and K [16][16], V [16][8]. */
int emut_mma_f16_chain(const uint16_t *Q, const uint16_t *K, const uint16_t *V, float *O);
/* D = A B + C with FP8 codes: A [16][32], B as [n][k] [8][32]; mode DIRECT or LDSM. */
int emut_mma_fp8(const uint8_t *A, const uint8_t *Bnk, const float *C, float *D, int e5m2, int mode);
/* O [16][8] = e4m3(scale Q K^T) V: Q [16][32], K [32][32], Vt [8][32] (V transposed). */
int emut_mma_fp8_chain(const uint8_t *Q, const uint8_t *K, const uint8_t *Vt, float scale, float *O);
int emut_pack_e4m3(const float *x, uint16_t *codes, int pairs);

/* named_barrier.cu: warp 0 produces `tiles` tiles of 32 floats through a 2-slot ring, warps 1-3
 * consume them (bar.sync / bar.arrive); out[c] = sum over tiles of tile[c % 32] * (1 + c / 32). */
int emut_producer_consumer(const float *in, float *out, int tiles, int blocks);

/* arch_gate.cu: out[i] = 90 for every thread of `blocks` blocks of 128 (the sm_90a body). */
int emut_arch_gate(int *out, int blocks);

/* mbarrier.cu: emut_producer_consumer's ring on mbarriers (FULL / EMPTY per slot); same out. */
int emut_mbar_ring(const float *in, float *out, int tiles, int blocks);

/* wgmma.cu: D [64][N] = C + A [64][K] B^T with B as [N][K] (e4m3 codes), K / 32 chained m64nNk32
 * wgmmas; rs: A from registers; swizzle 0, 32, 64, 128 (the shared tiles' layout; K a multiple of it);
 * N in 16, 32, 64, 96, 128, 160, 192, 256; K <= 256. */
int emut_wgmma_gemm(const uint8_t *A, const uint8_t *Bm, const float *C, float *D, int N, int K, int rs,
                    int swizzle);

/* wgmma_pipeline.cu: A, B [64][128] e4m3 by TMA (mapA, mapB: box 128 x 64, 128-byte swizzle); S and R
 * [64][64] = A B^T by SS and by RS (A's fragment from A in global memory). */
int emut_wgmma_tma_pipeline(const CUtensorMap *mapA, const CUtensorMap *mapB, const uint8_t *A, float *S,
                            float *R);
/* stmatrix.cu: out[64 n] = the shared tile of n 8x8 matrices after stmatrix.xn[.trans] of fragments
 * whose element (m, row, col) is 64 m + 8 row + col. */
int emut_stmatrix(uint16_t *out, int n, int trans);

/* Planted bugs (bug_*.cu; the marker comments EMU-BUG(name) name the lines faults must cite). */
int emut_bug_missing_sync(const float *in, float *out, int blocks);
enum { EMUT_CP_OK = 0, EMUT_CP_NO_WAIT = 1, EMUT_CP_NO_SYNC = 2, EMUT_CP_TAIL = 3 };
int emut_bug_tiled_copy(const float *in, float *out, int tiles, int mode);
int emut_bug_shfl_divergent(const float *in, float *out, int mode);
int emut_bug_sync_divergent(float *out);
int emut_bug_sync_after_exit(float *out, int n);
int emut_bug_smem_oob(float *out);
int emut_bug_misaligned(const float *in, float *out);
int emut_bug_wmma_layout(const uint16_t *A, const uint16_t *B, float *row_max);
int emut_bug_wmma_args(const uint16_t *A, float *out, int mode);
int emut_bug_cp_async_misuse(const float *in, float *out, int mode);
/* bug_mma.cu: the f16 tile of emut_mma_f16 (direct loads, ldmatrix) with a bug per mode. */
enum {
    EMUT_MMA_SWAPPED_REG = 0,
    EMUT_LDSM_WRONG_LANES = 1,
    EMUT_LDSM_MISALIGNED = 2,
    EMUT_LDSM_GLOBAL = 3,
    EMUT_LDSM_NO_SYNCWARP = 4 /* the rows stored by other lanes read without __syncwarp (a race under TSan) */
};
int emut_bug_mma(const uint16_t *A, const uint16_t *Bkn, float *D, int mode);
/* bug_named_barrier.cu */
enum {
    EMUT_BAR_NEVER_ARRIVES = 0,
    EMUT_BAR_WRONG_ID = 1,
    EMUT_BAR_COUNT_MISMATCH = 2,
    EMUT_BAR_DIVERGENT = 3
};
int emut_bug_named_barrier(float *out, int mode);
/* bug_mbarrier.cu: a 64-thread ring of 4 tiles; out[lane] = sum over tiles of i * 32 + lane when correct */
enum {
    EMUT_MBAR_OK = 0,
    EMUT_MBAR_PARITY_NOT_FLIPPED = 1,
    EMUT_MBAR_PRODUCER_PARITY0 = 2,
    EMUT_MBAR_REINIT = 3,
    EMUT_MBAR_NO_SYNC_AFTER_INIT = 4,
    EMUT_MBAR_DOUBLE_RELEASE = 5
};
int emut_bug_mbarrier(float *out, int mode);
/* bug_tma.cu: map is a 2-D uint8 map with a 64 x 64-byte box, map3 a 3-D one (or anything that is not a
 * rank-2 map); out gets the 4096 box bytes (and out[8192] in EMUT_TMA_READ_EARLY). */
enum {
    EMUT_TMA_OK = 0,
    EMUT_TMA_EXPECT_SMALL = 1,
    EMUT_TMA_EXPECT_LARGE = 2,
    EMUT_TMA_NO_INIT_FENCE = 3,
    EMUT_TMA_MISALIGNED = 4,
    EMUT_TMA_BAD_MAP = 5,
    EMUT_TMA_NO_WAIT = 6,
    EMUT_TMA_OVERLAP = 7,
    EMUT_TMA_READ_EARLY = 8,
    EMUT_TMA_UNALIGNED_COORD = 9
};
int emut_bug_tma(const CUtensorMap *map, const CUtensorMap *map3, uint8_t *out, int mode);
/* bug_wgmma.cu: mapA a 2-D uint8 map of A [64][32] (box 32 x 64, 32-byte swizzle); D gets d = A B^T
 * ([64][16]) and at D + 1024 the same from the RS wgmma. emut_bug_regs: out[t] = warpgroup of t. */
enum {
    EMUT_WG_OK = 0,
    EMUT_WG_W1 = 1,
    EMUT_WG_W3 = 2,
    EMUT_WG_W4 = 3,
    EMUT_WG_W5 = 4,
    EMUT_WG_W6 = 5,
    EMUT_WG_W6_TMA = 6,
    EMUT_WG_W7 = 7,
    EMUT_WG_W8 = 8,
    EMUT_WG_W8_MISALIGNED = 9,
    EMUT_WG_W9 = 10,
    EMUT_WG_W10 = 11,
    EMUT_WG_M1 = 12,
    EMUT_WG_TMA_OK = 13,
    EMUT_WG_SWZ_MID = 14
};
int emut_bug_wgmma(const CUtensorMap *mapA, const uint8_t *A, const uint8_t *Bm, float *D, int mode);
enum { EMUT_REG_OK = 0, EMUT_REG_DIVERGENT = 1, EMUT_REG_NO_DEC = 2 };
int emut_bug_regs(float *out, int mode);
/* bug_handover.cu: 4 tiles of 32 floats through a one-slot ring; out[lane] = sum of in[32 i + lane]. */
enum { EMUT_HANDOVER_OK = 0, EMUT_HANDOVER_RELEASE_EARLY = 1, EMUT_HANDOVER_SIGNAL_EARLY = 2 };
int emut_bug_handover(const float *in, float *out, int mode);
/* bug_uninit.cu: D [16][8] = A [16][16] B [16][8] (halves; B as [k][n]) + an accumulator never zeroed. */
int emut_bug_uninit(const uint16_t *A, const uint16_t *Bkn, float *D);
/* bug_tree_reduce.cu: 128-thread sum without the barrier between levels; out[block] */
int emut_bug_tree_reduce(const float *in, float *out, int blocks);

#ifdef __cplusplus
}
#endif

#endif
