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

/* intrinsics.cu: n a multiple of 32 */
#define EMUT_INTRINSICS_OUT 16
int emut_intrinsics(const float *in, float *out, int n);

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

#ifdef __cplusplus
}
#endif

#endif
