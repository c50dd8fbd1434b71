/* The measured ceilings (ceilings.h). The GEMMs call cuBLASLt through cublas_dl.h; none of this
 * can run without a GPU: on this project's CI machines only the emulator's "skipped" path runs,
 * and the cuBLASLt calls are checked at compile time against the toolkit's prototypes. */
#include "ceilings.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "cublas_dl.h"
#include "fp8.h"
#include "half.h"
#include "json_file.h"
#include "rng.h"
#include "stats.h"

typedef struct {
    const char *name, *unit;
    const char *status; /* "ok", "skipped", "failed" */
    char reason[512];
    double work; /* bytes moved or FLOPs per call */
    double samples_us[CEILING_SAMPLES];
    size_t n;
    cJSON *details;
} ceiling_t;

static void set(ceiling_t *c, const char *status, const char *reason) {
    c->status = status;
    snprintf(c->reason, sizeof c->reason, "%s", reason);
}

/* Warm-ups, then the samples of w. 0, or -1 with the reason. */
static int time_work(backend_t *be, const backend_work_t *w, ceiling_t *c, char *err, size_t errlen) {
    backend_sample_t s;
    for (int i = 0; i < CEILING_WARMUPS; i++)
        if (be->ops->sample_work(be->self, w, true, &s, err, errlen) != 0) return -1;
    for (c->n = 0; c->n < CEILING_SAMPLES; c->n++) {
        if (be->ops->sample_work(be->self, w, false, &s, err, errlen) != 0) return -1;
        c->samples_us[c->n] = s.elapsed_us;
    }
    return 0;
}

/* ---- copy ------------------------------------------------------------------------------------- */
typedef struct {
    backend_t *be;
    void *dst, *src;
    size_t bytes;
} copy_ctx_t;

static int run_copy(void *ctx, void *stream, char *err, size_t errlen) {
    copy_ctx_t *c = ctx;
    return c->be->ops->copy_d2d(c->be->self, c->dst, c->src, c->bytes, stream, err, errlen);
}

static void measure_copy(backend_t *be, uint64_t mem, ceiling_t *c) {
    char err[512] = "";
    copy_ctx_t x = {be, NULL, NULL, CEILING_COPY_BYTES};
    while (mem && 2.0 * (double)x.bytes > 0.5 * (double)mem) x.bytes /= 2;
    c->work = 2.0 * (double)x.bytes; /* read once, written once */
    json_add_u64(c->details, "bytes", x.bytes);
    json_add_u64(c->details, "bytes_moved", 2 * (uint64_t)x.bytes);
    int rc = (x.src = be->ops->alloc(be->self, x.bytes, err, sizeof err)) &&
                     (x.dst = be->ops->alloc(be->self, x.bytes, err, sizeof err))
                 ? be->ops->fill_bytes(be->self, x.src, 0x5a, x.bytes, err, sizeof err)
                 : -1;
    const backend_work_t w = {run_copy, &x};
    if (rc == 0) rc = time_work(be, &w, c, err, sizeof err);
    set(c, rc == 0 ? "ok" : "failed", rc == 0 ? "" : err);
    if (x.src) be->ops->release(be->self, x.src);
    if (x.dst) be->ops->release(be->self, x.dst);
}

/* ---- GEMMs through cuBLASLt --------------------------------------------------------------------- */
#ifdef CUBLAS_DL_HAVE_HEADERS

#define LT_WORKSPACE (32u << 20)

typedef struct {
    const cublas_dl_t *dl;
    cublasLtHandle_t lt;
    cublasLtMatmulDesc_t desc;
    cublasLtMatrixLayout_t la, lb, lc;
    cublasLtMatmulAlgo_t algo;
    void *a, *b, *c, *ws, *one; /* device: operands, workspace, the unit scale */
    float alpha, beta;
} lt_ctx_t;

static int run_lt(void *ctx, void *stream, char *err, size_t errlen) {
    lt_ctx_t *x = ctx;
    const cublasStatus_t st =
        x->dl->cublasLtMatmul(x->lt, x->desc, &x->alpha, x->a, x->la, x->b, x->lb, &x->beta, x->c, x->lc,
                              x->c, x->lc, &x->algo, x->ws, LT_WORKSPACE, (cudaStream_t)stream);
    if (st == CUBLAS_STATUS_SUCCESS) return 0;
    snprintf(err, errlen, "cublasLtMatmul: %s", x->dl->cublasLtGetStatusName(st));
    return -1;
}

/* A status check that records the call and its cublasStatus name; "skipped" for the statuses that
 * mean "this configuration is not available here", "failed" for the others. */
#define LT_TRY(call)                                                                                         \
    do {                                                                                                     \
        const cublasStatus_t st_ = (call);                                                                   \
        if (st_ != CUBLAS_STATUS_SUCCESS) {                                                                  \
            snprintf(reason, sizeof reason, "%s: %s", #call, x.dl->cublasLtGetStatusName(st_));              \
            status = st_ == CUBLAS_STATUS_NOT_SUPPORTED || st_ == CUBLAS_STATUS_ARCH_MISMATCH ? "skipped"    \
                                                                                              : "failed";    \
            goto done;                                                                                       \
        }                                                                                                    \
    } while (0)

/* Random operands (uniform in [-1, 1)), so that the tensor cores toggle as with real data. */
static int upload_random(backend_t *be, void *dev, size_t n, bool fp8, char *err, size_t errlen) {
    const size_t bytes = n * (fp8 ? 1 : 2);
    unsigned char *h = malloc(bytes);
    if (!h) {
        snprintf(err, errlen, "out of memory (host operands)");
        return -1;
    }
    rng_t r;
    rng_seed(&r, 0x5eed, fp8);
    for (size_t i = 0; i < n; i++) {
        const float v = (float)rng_uniform(&r, -1.0, 1.0);
        if (fp8)
            h[i] = fp8_from_float(v, FP8_E4M3, FP8_SATFINITE);
        else {
            const uint16_t b16 = half_from_float(v);
            memcpy(h + 2 * i, &b16, 2);
        }
    }
    const int rc = be->ops->copy_to(be->self, dev, h, bytes, err, errlen);
    free(h);
    return rc;
}

static void measure_gemm(backend_t *be, uint64_t mem, bool fp8, ceiling_t *c) {
    char reason[512] = "", err[512];
    const char *status = "ok";
    lt_ctx_t x = {.alpha = 1.0f, .beta = 0.0f};
    int m = CEILING_GEMM_DIM;
    const size_t in_bytes = fp8 ? 1 : 2;
    while (mem && (double)m * m * (2 * in_bytes + 2) + LT_WORKSPACE > 0.5 * (double)mem) m /= 2;
    const int n = m, k = m;
    c->work = 2.0 * m * (double)n * k;
    cJSON_AddNumberToObject(c->details, "m", m);
    cJSON_AddNumberToObject(c->details, "n", n);
    cJSON_AddNumberToObject(c->details, "k", k);
    cJSON_AddNumberToObject(c->details, "batch", 1);
    cJSON_AddStringToObject(c->details, "layout", "TN");
    cJSON_AddStringToObject(c->details, "a_b_type", fp8 ? "e4m3" : "fp16");
    cJSON_AddStringToObject(c->details, "d_type", "fp16");
    cJSON_AddStringToObject(c->details, "compute", "32F");
    cJSON_AddBoolToObject(c->details, "fast_accum", fp8); /* ceilings.h */
    x.dl = cublas_dl_get(reason, sizeof reason);
    if (!x.dl) {
        cJSON_AddNullToObject(c->details, "library");
        set(c, "skipped", reason);
        return;
    }
    char lib[64];
    snprintf(lib, sizeof lib, "cublasLt %s", x.dl->cublaslt_version);
    cJSON_AddStringToObject(c->details, "library", lib);
    const cudaDataType ab = fp8 ? CUDA_R_8F_E4M3 : CUDA_R_16F;
    const cublasOperation_t opT = CUBLAS_OP_T, opN = CUBLAS_OP_N;
    const size_t elems = (size_t)m * (size_t)k;
    if (!(x.a = be->ops->alloc(be->self, elems * in_bytes, err, sizeof err)) ||
        !(x.b = be->ops->alloc(be->self, elems * in_bytes, err, sizeof err)) ||
        !(x.c = be->ops->alloc(be->self, (size_t)m * n * 2, err, sizeof err)) ||
        !(x.ws = be->ops->alloc(be->self, LT_WORKSPACE, err, sizeof err)) ||
        !(x.one = be->ops->alloc(be->self, sizeof(float), err, sizeof err)) ||
        upload_random(be, x.a, elems, fp8, err, sizeof err) != 0 ||
        upload_random(be, x.b, elems, fp8, err, sizeof err) != 0 ||
        be->ops->copy_to(be->self, x.one, &x.alpha, sizeof(float), err, sizeof err) != 0) {
        snprintf(reason, sizeof reason, "%s", err);
        status = "failed";
        goto done;
    }
    LT_TRY(x.dl->cublasLtCreate(&x.lt));
    LT_TRY(x.dl->cublasLtMatmulDescCreate(&x.desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    /* TN: A is stored k x m and transposed, B k x n, C and D m x n (column-major). */
    LT_TRY(x.dl->cublasLtMatmulDescSetAttribute(x.desc, CUBLASLT_MATMUL_DESC_TRANSA, &opT, sizeof opT));
    LT_TRY(x.dl->cublasLtMatmulDescSetAttribute(x.desc, CUBLASLT_MATMUL_DESC_TRANSB, &opN, sizeof opN));
    if (fp8) {
        LT_TRY(x.dl->cublasLtMatmulDescSetAttribute(x.desc, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &x.one,
                                                    sizeof x.one));
        LT_TRY(x.dl->cublasLtMatmulDescSetAttribute(x.desc, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &x.one,
                                                    sizeof x.one));
        const int8_t fast = 1;
        LT_TRY(x.dl->cublasLtMatmulDescSetAttribute(x.desc, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast,
                                                    sizeof fast));
    }
    LT_TRY(x.dl->cublasLtMatrixLayoutCreate(&x.la, ab, (uint64_t)k, (uint64_t)m, k));
    LT_TRY(x.dl->cublasLtMatrixLayoutCreate(&x.lb, ab, (uint64_t)k, (uint64_t)n, k));
    LT_TRY(x.dl->cublasLtMatrixLayoutCreate(&x.lc, CUDA_R_16F, (uint64_t)m, (uint64_t)n, m));
    cublasLtMatmulPreference_t pref = NULL;
    LT_TRY(x.dl->cublasLtMatmulPreferenceCreate(&pref));
    const size_t ws = LT_WORKSPACE;
    cublasLtMatmulHeuristicResult_t heur;
    int found = 0;
    cublasStatus_t st = x.dl->cublasLtMatmulPreferenceSetAttribute(
        pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = x.dl->cublasLtMatmulAlgoGetHeuristic(x.lt, x.desc, x.la, x.lb, x.lc, x.lc, pref, 1, &heur,
                                                  &found);
    x.dl->cublasLtMatmulPreferenceDestroy(pref);
    LT_TRY(st);
    if (found < 1) {
        snprintf(reason, sizeof reason,
                 "cublasLtMatmulAlgoGetHeuristic: no algorithm for this configuration");
        status = "skipped";
        goto done;
    }
    x.algo = heur.algo;
    const backend_work_t w = {run_lt, &x};
    if (time_work(be, &w, c, err, sizeof err) != 0) {
        snprintf(reason, sizeof reason, "%s", err);
        status = strstr(err, "NOT_SUPPORTED") ? "skipped" : "failed";
    }
done:
    set(c, status, reason);
    if (x.lc) x.dl->cublasLtMatrixLayoutDestroy(x.lc);
    if (x.lb) x.dl->cublasLtMatrixLayoutDestroy(x.lb);
    if (x.la) x.dl->cublasLtMatrixLayoutDestroy(x.la);
    if (x.desc) x.dl->cublasLtMatmulDescDestroy(x.desc);
    if (x.lt) x.dl->cublasLtDestroy(x.lt);
    void *dev[] = {x.a, x.b, x.c, x.ws, x.one};
    for (size_t i = 0; i < sizeof dev / sizeof dev[0]; i++)
        if (dev[i]) be->ops->release(be->self, dev[i]);
}

#else

static void measure_gemm(backend_t *be, uint64_t mem, bool fp8, ceiling_t *c) {
    (void)be;
    (void)mem;
    (void)fp8;
    char why[256];
    (void)cublas_dl_get(why, sizeof why);
    set(c, "skipped", why);
}

#endif

/* ---- the document ------------------------------------------------------------------------------ */
static cJSON *ceiling_json(const ceiling_t *c) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", c->name);
    cJSON_AddStringToObject(o, "unit", c->unit);
    cJSON_AddStringToObject(o, "status", c->status);
    const bool ok = strcmp(c->status, "ok") == 0;
    if (ok)
        cJSON_AddNullToObject(o, "reason");
    else
        cJSON_AddStringToObject(o, "reason", c->reason);
    stats_summary_t s;
    const bool have = ok && c->n && stats_summarize(c->samples_us, c->n, &s) == 0;
    /* us -> s, and GB/s or TFLOP/s: work / t / 1e9 or 1e12. */
    const double scale = strcmp(c->unit, "GB/s") == 0 ? 1e3 : 1e6;
    json_add_num(o, "value", have ? c->work / (s.median * scale) : NAN);
    if (have && s.ci_available) {
        cJSON *ci = cJSON_AddArrayToObject(o, "ci");
        cJSON_AddItemToArray(ci, cJSON_CreateNumber(c->work / (s.ci_hi * scale)));
        cJSON_AddItemToArray(ci, cJSON_CreateNumber(c->work / (s.ci_lo * scale)));
    } else {
        cJSON_AddNullToObject(o, "ci");
    }
    json_add_doubles(o, "samples_us", c->samples_us, ok ? c->n : 0);
    cJSON_AddItemToObject(o, "summary", have ? json_stats_summary(&s) : cJSON_CreateNull());
    cJSON_AddItemToObject(o, "details", c->details); /* ownership moves to the document */
    return o;
}

void ceilings_measure(backend_t *be, const backend_device_t *dev, bool quiet, cJSON *out) {
    ceiling_t c[3] = {{.name = "copy_d2d", .unit = "GB/s"},
                      {.name = "gemm_fp16", .unit = "TFLOP/s"},
                      {.name = "gemm_fp8_e4m3", .unit = "TFLOP/s"}};
    const bool emulated = dev == NULL;
    const uint64_t mem = emulated ? 0 : be->ops->mem_bytes(be->self);
    for (int i = 0; i < 3; i++) {
        c[i].details = cJSON_CreateObject();
        if (!quiet) fprintf(stderr, "sdpa-bench: ceiling %s\n", c[i].name);
        if (emulated) {
            set(&c[i], "skipped", CEILING_SKIP_EMULATED);
            continue;
        }
        if (i == 0) {
            measure_copy(be, mem, &c[i]);
        } else if (i == 2 && arch_cc_from_string(dev->cc) < 89) {
            char why[128];
            snprintf(why, sizeof why, "the device is sm_%d; FP8 (E4M3) GEMMs need sm_89 or newer",
                     arch_cc_from_string(dev->cc));
            set(&c[i], "skipped", why);
        } else {
            measure_gemm(be, mem, i == 2, &c[i]);
        }
    }
    for (int i = 0; i < 3; i++) cJSON_AddItemToArray(out, ceiling_json(&c[i]));
}
