/* The GEMM table on the CPU (gemm_table.h): cublasGemmStridedBatchedEx's semantics for fp16 in
 * and out with fp32 compute, for the emulator backend. Each element is one fp32 dot product in
 * order of k, then alpha*acc + beta*c in fp32, rounded once to fp16 (round to nearest even):
 * what cuBLAS computes up to the order of the fp32 sums. */
#include "gemm_table.h"

#include <stdio.h>

#include "half.h"

int gemm_args_check(const gemm_args_t *g, char *err, size_t errlen) {
    const int a_rows = g->transa == GEMM_N ? g->m : g->k, b_rows = g->transb == GEMM_N ? g->k : g->n;
    const char *bad = NULL;
    if (g->m < 1 || g->n < 1 || g->k < 1)
        bad = "m, n and k must be >= 1";
    else if (g->batch < 1)
        bad = "batch must be >= 1";
    else if (g->lda < a_rows)
        bad = "lda is smaller than the rows of A";
    else if (g->ldb < b_rows)
        bad = "ldb is smaller than the rows of B";
    else if (g->ldc < g->m)
        bad = "ldc is smaller than m";
    else if (!g->a || !g->b || !g->c)
        bad = "a NULL matrix";
    if (!bad) return 0;
    snprintf(err, errlen, "gemm (m %d, n %d, k %d, lda %d, ldb %d, ldc %d, batch %d): %s", g->m, g->n, g->k,
             g->lda, g->ldb, g->ldc, g->batch, bad);
    return -1;
}

/* Element (r, c) of op(X) for a column-major X with leading dimension ld. */
static float op_at(const uint16_t *x, int ld, gemm_op_t op, int r, int c) {
    return half_to_float(op == GEMM_N ? x[(size_t)c * (size_t)ld + (size_t)r]
                                      : x[(size_t)r * (size_t)ld + (size_t)c]);
}

static int cpu_gemm(void *handle, void *stream, const gemm_args_t *g, char *err, size_t errlen) {
    (void)handle;
    (void)stream;
    if (gemm_args_check(g, err, errlen) != 0) return -1;
    for (int i = 0; i < g->batch; i++) {
        const uint16_t *a = g->a + (size_t)i * (size_t)g->stride_a,
                       *b = g->b + (size_t)i * (size_t)g->stride_b;
        uint16_t *c = g->c + (size_t)i * (size_t)g->stride_c;
        for (int col = 0; col < g->n; col++)
            for (int row = 0; row < g->m; row++) {
                float acc = 0.0f;
                for (int p = 0; p < g->k; p++)
                    acc += op_at(a, g->lda, g->transa, row, p) * op_at(b, g->ldb, g->transb, p, col);
                uint16_t *dst = &c[(size_t)col * (size_t)g->ldc + (size_t)row];
                float v = g->alpha * acc;
                if (g->beta != 0.0f) v += g->beta * half_to_float(*dst); /* beta == 0: C is not read */
                *dst = half_from_float(v);
            }
    }
    return 0;
}

static const char *cpu_library(void *handle) {
    (void)handle;
    return "CPU reference of cublasGemmStridedBatchedEx (emulated)";
}

static void *cpu_create(char *err, size_t errlen) {
    (void)err;
    (void)errlen;
    static int token; /* stateless: any non-NULL handle */
    return &token;
}

static void cpu_destroy(void *handle) { (void)handle; }

const gemm_table_t gemm_table_cpu = {cpu_library, cpu_create, cpu_destroy, cpu_gemm};
