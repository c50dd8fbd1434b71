/* Launchers of the emulator's test kernels (tests/emu/kernels/ *.cu). Plain C: the test driver
 * calls them as the harness calls the SDPA launchers. Each returns the launch status: 0, or
 * non-zero when the emulator (or CUDA) reported a fault. Pointers: 256-byte aligned host memory
 * on the emulator. Halves travel as uint16_t bits. */
#ifndef EMU_TESTS_H
#define EMU_TESTS_H

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
enum { EMUT_MMA_SWAPPED_REG = 0, EMUT_LDSM_WRONG_LANES = 1, EMUT_LDSM_MISALIGNED = 2, EMUT_LDSM_GLOBAL = 3 };
int emut_bug_mma(const uint16_t *A, const uint16_t *Bkn, float *D, int mode);
/* bug_named_barrier.cu */
enum {
    EMUT_BAR_NEVER_ARRIVES = 0,
    EMUT_BAR_WRONG_ID = 1,
    EMUT_BAR_COUNT_MISMATCH = 2,
    EMUT_BAR_DIVERGENT = 3
};
int emut_bug_named_barrier(float *out, int mode);
/* bug_tree_reduce.cu: 128-thread sum without the barrier between levels; out[block] */
int emut_bug_tree_reduce(const float *in, float *out, int blocks);

#ifdef __cplusplus
}
#endif

#endif
