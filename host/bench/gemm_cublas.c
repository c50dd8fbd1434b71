/* The GEMM table on cuBLAS (gemm_table.h), loaded at run time (cublas_dl.h). One call of
 * cublasGemmStridedBatchedEx per product: fp16 A, B, C (CUDA_R_16F), CUBLAS_COMPUTE_32F with fp32
 * alpha and beta in host memory (the default pointer mode), CUBLAS_GEMM_DEFAULT. The handle's math
 * mode forbids reduced-precision reductions (split-K partial sums stay fp32), so the rounding model
 * of the peer (peers.c) holds: fp32 sums, one rounding to fp16 per output element.
 * Not run on this project's CI machines (no GPU); the symbols are resolved there (peers.sh). */
#include "gemm_table.h"

#include <stdio.h>
#include <stdlib.h>

#include "cublas_dl.h"

#ifdef CUBLAS_DL_HAVE_HEADERS

typedef struct {
    const cublas_dl_t *dl;
    cublasHandle_t h;
    char library[48];
} cublas_gemm_t;

static int fail(const cublas_dl_t *dl, char *err, size_t errlen, const char *call, cublasStatus_t st) {
    snprintf(err, errlen, "%s: %s", call, dl->cublasGetStatusName(st));
    return -1;
}

static void *cb_create(char *err, size_t errlen) {
    const cublas_dl_t *dl = cublas_dl_get(err, errlen);
    if (!dl) return NULL;
    cublas_gemm_t *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "cuBLAS: out of memory");
        return NULL;
    }
    g->dl = dl;
    snprintf(g->library, sizeof g->library, "cuBLAS %s", dl->cublas_version);
    cublasStatus_t st = dl->cublasCreate_v2(&g->h);
    if (st != CUBLAS_STATUS_SUCCESS) {
        fail(dl, err, errlen, "cublasCreate", st);
        free(g);
        return NULL;
    }
    st = dl->cublasSetMathMode(g->h, CUBLAS_DEFAULT_MATH | CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION);
    if (st != CUBLAS_STATUS_SUCCESS) {
        fail(dl, err, errlen, "cublasSetMathMode", st);
        dl->cublasDestroy_v2(g->h);
        free(g);
        return NULL;
    }
    return g;
}

static void cb_destroy(void *handle) {
    cublas_gemm_t *g = handle;
    if (!g) return;
    (void)g->dl->cublasDestroy_v2(g->h); /* teardown: nothing measured depends on it */
    free(g);
}

static const char *cb_library(void *handle) { return ((cublas_gemm_t *)handle)->library; }

static int cb_gemm(void *handle, void *stream, const gemm_args_t *a, char *err, size_t errlen) {
    cublas_gemm_t *g = handle;
    if (gemm_args_check(a, err, errlen) != 0) return -1;
    cublasStatus_t st = g->dl->cublasSetStream_v2(g->h, (cudaStream_t)stream);
    if (st != CUBLAS_STATUS_SUCCESS) return fail(g->dl, err, errlen, "cublasSetStream", st);
    const cublasOperation_t op[2] = {CUBLAS_OP_N, CUBLAS_OP_T};
    st = g->dl->cublasGemmStridedBatchedEx(g->h, op[a->transa], op[a->transb], a->m, a->n, a->k, &a->alpha,
                                           a->a, CUDA_R_16F, a->lda, a->stride_a, a->b, CUDA_R_16F, a->ldb,
                                           a->stride_b, &a->beta, a->c, CUDA_R_16F, a->ldc, a->stride_c,
                                           a->batch, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    return st == CUBLAS_STATUS_SUCCESS ? 0 : fail(g->dl, err, errlen, "cublasGemmStridedBatchedEx", st);
}

#else

static void *cb_create(char *err, size_t errlen) { return (void *)cublas_dl_get(err, errlen); }
static void cb_destroy(void *handle) { (void)handle; }
static const char *cb_library(void *handle) {
    (void)handle;
    return "cuBLAS (not available)";
}
static int cb_gemm(void *handle, void *stream, const gemm_args_t *a, char *err, size_t errlen) {
    (void)handle;
    (void)stream;
    (void)a;
    snprintf(err, errlen, "built without the cuBLAS headers");
    return -1;
}

#endif

const gemm_table_t gemm_table_cublas = {cb_library, cb_create, cb_destroy, cb_gemm};
