/* cuBLAS and cuBLASLt loaded at run time (dlopen), so that sdpa-bench has no link-time dependency
 * on them and the bundle stays small. Used by the unfused peer's GEMM table (gemm_cublas.c) and
 * the GEMM ceilings (ceilings.c). Only the functions those call are resolved; their types come
 * from the toolkit's own headers (__typeof__ of each prototype), so a wrong signature does not
 * compile. Where the headers were not available at build time, cublas_dl_get always fails with
 * "built without the cuBLAS headers".
 *
 * Search order for each library (libcublas.so.13, then .so.12; libcublasLt likewise): the
 * bundle's lib/ folder next to the executable's bin/ (<exe>/../lib), then the dynamic loader's
 * own search (LD_LIBRARY_PATH, the executable's run path, the system's cache). None of this can
 * run without a GPU except the loading itself, which tests/bench/peers.sh checks where the
 * toolkit's libraries are installed. */
#ifndef CUBLAS_DL_H
#define CUBLAS_DL_H

#include <stddef.h>

#if defined(__has_include)
#if __has_include(<cublasLt.h>) && __has_include(<cublas_api.h>)
#define CUBLAS_DL_HAVE_HEADERS 1
#include <cublasLt.h>
#include <cublas_api.h>
#endif
#endif

#ifdef CUBLAS_DL_HAVE_HEADERS
/* X(name): every symbol resolved, from libcublas (CUBLAS_FNS) and libcublasLt (CUBLASLT_FNS). */
#define CUBLAS_FNS(X)                                                                                        \
    X(cublasCreate_v2)                                                                                       \
    X(cublasDestroy_v2)                                                                                      \
    X(cublasSetStream_v2)                                                                                    \
    X(cublasSetMathMode)                                                                                     \
    X(cublasGetProperty)                                                                                     \
    X(cublasGetStatusName)                                                                                   \
    X(cublasGemmStridedBatchedEx)
#define CUBLASLT_FNS(X)                                                                                      \
    X(cublasLtCreate)                                                                                        \
    X(cublasLtDestroy)                                                                                       \
    X(cublasLtGetVersion)                                                                                    \
    X(cublasLtGetStatusName)                                                                                 \
    X(cublasLtMatmulDescCreate)                                                                              \
    X(cublasLtMatmulDescDestroy)                                                                             \
    X(cublasLtMatmulDescSetAttribute)                                                                        \
    X(cublasLtMatrixLayoutCreate)                                                                            \
    X(cublasLtMatrixLayoutDestroy)                                                                           \
    X(cublasLtMatmulPreferenceCreate)                                                                        \
    X(cublasLtMatmulPreferenceDestroy)                                                                       \
    X(cublasLtMatmulPreferenceSetAttribute)                                                                  \
    X(cublasLtMatmulAlgoGetHeuristic)                                                                        \
    X(cublasLtMatmul)

typedef struct {
#define CUBLAS_DL_FIELD(name) __typeof__(&name) name;
    CUBLAS_FNS(CUBLAS_DL_FIELD)
    CUBLASLT_FNS(CUBLAS_DL_FIELD)
#undef CUBLAS_DL_FIELD
    char cublas_file[64], cublaslt_file[64]; /* the names that loaded: "libcublas.so.13" */
    char cublas_version[32];                 /* "13.1.0" (cublasGetProperty) */
    char cublaslt_version[32];               /* "13.1.0" (cublasLtGetVersion) */
} cublas_dl_t;
#else
typedef struct cublas_dl cublas_dl_t; /* never defined: cublas_dl_get always fails */
#endif

/* Loads both libraries once per process and resolves every symbol. Returns the table, or NULL
 * with the reason in why: "libcublas.so.13 not found (also tried libcublas.so.12; ...)", a
 * missing symbol, or "built without the cuBLAS headers". Later calls return the same answer. */
const cublas_dl_t *cublas_dl_get(char *why, size_t whylen);

#endif
