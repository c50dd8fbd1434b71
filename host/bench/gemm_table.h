/* The GEMM calls of the unfused peer (peers.h) as a small function table, so that the peer's host
 * code is one code path whatever runs the products: cuBLAS, loaded at run time (gemm_cublas.c),
 * on the CUDA backend; a CPU implementation of exactly the same semantics (gemm_cpu.c) on the
 * emulator backend, which is how the peer's leading dimensions and transposes are tested here.
 *
 * The one operation is cublasGemmStridedBatchedEx as the peer calls it: column-major, fp16 A, B
 * and C, fp32 compute (CUBLAS_COMPUTE_32F) and fp32 alpha, beta; for every i < batch
 *   C_i = alpha op(A_i) op(B_i) + beta C_i,  X_i = X + i*stride_x,
 * op(A_i) m x k (A_i is lda x k for N, lda x m for T), op(B_i) k x n, C_i m x n with leading
 * dimension ldc. With beta == 0, C is not read (cuBLAS's rule: it may hold NaN). */
#ifndef GEMM_TABLE_H
#define GEMM_TABLE_H

#include <stddef.h>
#include <stdint.h>

typedef enum { GEMM_N = 0, GEMM_T = 1 } gemm_op_t;

typedef struct {
    gemm_op_t transa, transb;
    int m, n, k;
    float alpha, beta;
    const uint16_t *a; /* fp16 bits; device memory of the backend */
    int lda;
    long long stride_a;
    const uint16_t *b;
    int ldb;
    long long stride_b;
    uint16_t *c;
    int ldc;
    long long stride_c;
    int batch;
} gemm_args_t;

typedef struct gemm_table {
    /* "cuBLAS 13.1.0", or the CPU table's name; set once a handle exists. */
    const char *(*library)(void *handle);
    /* A handle (cuBLAS: cublasCreate); NULL with the reason in err, e.g. "libcublas.so.13 not
     * found" when the library is absent. */
    void *(*create)(char *err, size_t errlen);
    void (*destroy)(void *handle);
    /* Enqueues the batched product on stream (cudaStream_t; NULL on the CPU, which computes at
     * once). 0, or -1 with the failed call and its status name in err. */
    int (*gemm)(void *handle, void *stream, const gemm_args_t *g, char *err, size_t errlen);
} gemm_table_t;

/* 0 when g is a valid call (dimensions >= 1, leading dimensions at least the rows stored, batch
 * >= 1, pointers set), else -1 with the offending field in err (the checks cuBLAS makes). */
int gemm_args_check(const gemm_args_t *g, char *err, size_t errlen);

extern const gemm_table_t gemm_table_cpu;    /* gemm_cpu.c */
extern const gemm_table_t gemm_table_cublas; /* gemm_cublas.c */

#endif
