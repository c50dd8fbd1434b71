/* A stand-in for libcublas and libcublasLt (tests/bench/test_ceilings.c), installed as
 * <test>/../lib/libcublas{,Lt}.so.13 where host/bench/cublas_dl.c looks first, with the toolkit's
 * own prototypes (a wrong signature does not compile). It computes nothing: it records what the
 * caller configured, one line per call, in the file FAKE_CUBLAS_LOG names:
 *   desc D create compute=C scale=S | desc D attr A = V (integers of 1, 4 or 8 bytes; pointers
 *   "ptr") | matmul desc D | heuristic desc D
 * so that a test can check each GEMM's configuration without a GPU. */
#include <cublasLt.h>
#include <cublas_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int next_desc = 1;

static void logf_(const char *fmt, long long a, long long b, long long c) {
    const char *path = getenv("FAKE_CUBLAS_LOG");
    FILE *f = path && *path ? fopen(path, "a") : NULL;
    if (!f) return;
    fprintf(f, fmt, a, b, c);
    fputc('\n', f);
    fclose(f);
}

/* The opaque descriptor's first bytes hold its number. */
static int desc_id(const void *d) {
    int id;
    memcpy(&id, d, sizeof id);
    return id;
}

cublasStatus_t cublasCreate_v2(cublasHandle_t *h) {
    *h = (cublasHandle_t)malloc(16);
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasDestroy_v2(cublasHandle_t h) {
    free(h);
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetStream_v2(cublasHandle_t h, cudaStream_t s) {
    (void)h;
    (void)s;
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetMathMode(cublasHandle_t h, cublasMath_t m) {
    (void)h;
    (void)m;
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetProperty(libraryPropertyType type, int *value) {
    *value = type == MAJOR_VERSION ? 13 : 0;
    return CUBLAS_STATUS_SUCCESS;
}
const char *cublasGetStatusName(cublasStatus_t s) { return s == CUBLAS_STATUS_SUCCESS ? "OK" : "FAKE_ERROR"; }
cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t handle, cublasOperation_t transa,
                                          cublasOperation_t transb, int m, int n, int k, const void *alpha,
                                          const void *A, cudaDataType Atype, int lda, long long int strideA,
                                          const void *B, cudaDataType Btype, int ldb, long long int strideB,
                                          const void *beta, void *C, cudaDataType Ctype, int ldc,
                                          long long int strideC, int batchCount,
                                          cublasComputeType_t computeType, cublasGemmAlgo_t algo) {
    (void)handle, (void)transa, (void)transb, (void)m, (void)n, (void)k, (void)alpha, (void)A, (void)Atype;
    (void)lda, (void)strideA, (void)B, (void)Btype, (void)ldb, (void)strideB, (void)beta, (void)C;
    (void)Ctype, (void)ldc, (void)strideC, (void)batchCount, (void)computeType, (void)algo;
    return CUBLAS_STATUS_NOT_SUPPORTED;
}

cublasStatus_t cublasLtCreate(cublasLtHandle_t *h) {
    *h = (cublasLtHandle_t)malloc(16);
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtDestroy(cublasLtHandle_t h) {
    free(h);
    return CUBLAS_STATUS_SUCCESS;
}
size_t cublasLtGetVersion(void) { return 130000; }
const char *cublasLtGetStatusName(cublasStatus_t s) { return cublasGetStatusName(s); }
cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *d, cublasComputeType_t compute,
                                        cudaDataType_t scale) {
    *d = calloc(1, sizeof **d);
    const int id = next_desc++;
    memcpy(*d, &id, sizeof id);
    logf_("desc %lld create compute=%lld scale=%lld", id, compute, scale);
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t d) {
    free(d);
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t d, cublasLtMatmulDescAttributes_t attr,
                                              const void *buf, size_t size) {
    long long v = 0;
    if (size == 1) v = *(const int8_t *)buf;
    if (size == 4) v = *(const int32_t *)buf;
    if (size == 8 && attr != CUBLASLT_MATMUL_DESC_A_SCALE_POINTER &&
        attr != CUBLASLT_MATMUL_DESC_B_SCALE_POINTER)
        v = *(const int64_t *)buf;
    logf_("desc %lld attr %lld = %lld", desc_id(d), attr, v);
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *l, cudaDataType type, uint64_t rows,
                                          uint64_t cols, int64_t ld) {
    (void)type, (void)rows, (void)cols, (void)ld;
    *l = calloc(1, sizeof **l);
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t l) {
    free(l);
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t *p) {
    *p = calloc(1, sizeof **p);
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t p) {
    free(p);
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t p,
                                                    cublasLtMatmulPreferenceAttributes_t attr,
                                                    const void *buf, size_t size) {
    (void)p, (void)attr, (void)buf, (void)size;
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulAlgoGetHeuristic(cublasLtHandle_t h, cublasLtMatmulDesc_t d,
                                              cublasLtMatrixLayout_t a, cublasLtMatrixLayout_t b,
                                              cublasLtMatrixLayout_t c, cublasLtMatrixLayout_t dd,
                                              cublasLtMatmulPreference_t p, int requested,
                                              cublasLtMatmulHeuristicResult_t results[], int *count) {
    (void)h, (void)a, (void)b, (void)c, (void)dd, (void)p, (void)requested;
    memset(&results[0], 0, sizeof results[0]);
    *count = 1;
    logf_("heuristic desc %lld", desc_id(d), 0, 0);
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmul(cublasLtHandle_t h, cublasLtMatmulDesc_t d, const void *alpha, const void *A,
                              cublasLtMatrixLayout_t Ad, const void *B, cublasLtMatrixLayout_t Bd,
                              const void *beta, const void *C, cublasLtMatrixLayout_t Cd, void *D,
                              cublasLtMatrixLayout_t Dd, const cublasLtMatmulAlgo_t *algo, void *ws,
                              size_t wsize, cudaStream_t stream) {
    (void)h, (void)alpha, (void)A, (void)Ad, (void)B, (void)Bd, (void)beta, (void)C, (void)Cd, (void)D,
        (void)Dd;
    (void)algo, (void)ws, (void)wsize, (void)stream;
    logf_("matmul desc %lld", desc_id(d), 0, 0);
    return CUBLAS_STATUS_SUCCESS;
}
