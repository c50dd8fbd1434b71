/* The GEMM ceilings' CPU side (host/bench/ceilings.c) with stand-ins for the GPU and for cuBLAS:
 * a backend on host memory whose samples take 100 us, and tests/bench/fake_cublas.c installed as
 * <this binary>/../lib/libcublas{,Lt}.so.13, where host/bench/cublas_dl.c looks first. The fake
 * logs how each matmul descriptor was configured, so the test sees what a GPU run would ask
 * cuBLASLt for: the FP8 GEMM with fast accumulation on (CUBLASLT_MATMUL_DESC_FAST_ACCUM = 1) and
 * unit scales, the fp16 GEMM as before; and ceilings.json records it (details.fast_accum). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "bench/ceilings.h"
#include "bench/cublas_dl.h"
#include "fileio.h"

/* ---- a backend on host memory ---------------------------------------------------------------- */
static void *h_alloc(void *self, size_t bytes, char *err, size_t errlen) {
    (void)self;
    void *p = malloc(bytes);
    if (!p) snprintf(err, errlen, "out of memory");
    return p;
}
static void h_release(void *self, void *p) {
    (void)self;
    free(p);
}
static int h_copy(void *self, void *dst, const void *src, size_t bytes, char *err, size_t errlen) {
    (void)self, (void)err, (void)errlen;
    memcpy(dst, src, bytes);
    return 0;
}
static int h_fill(void *self, void *dev, uint8_t v, size_t bytes, char *err, size_t errlen) {
    (void)self, (void)err, (void)errlen;
    memset(dev, v, bytes);
    return 0;
}
static int h_sample_work(void *self, const backend_work_t *w, bool warmup, backend_sample_t *out, char *err,
                         size_t errlen) {
    (void)self, (void)warmup;
    out->elapsed_us = 100.0;
    out->sm_clock_mhz = 1500.0;
    return w->run(w->ctx, NULL, err, errlen);
}
static int h_copy_d2d(void *self, void *dst, const void *src, size_t bytes, void *stream, char *err,
                      size_t errlen) {
    (void)stream;
    return h_copy(self, dst, src, bytes, err, errlen);
}
static uint64_t h_mem(void *self) {
    (void)self;
    return 72ull << 20; /* small: GEMMs of 512 (fp16) and 1024 (fp8), a 16 MiB copy */
}

static const backend_ops_t host_ops = {
    .name = "fake",
    .timing = "gpu",
    .alloc = h_alloc,
    .release = h_release,
    .copy_to = h_copy,
    .copy_from = h_copy,
    .fill_bytes = h_fill,
    .sample_work = h_sample_work,
    .copy_d2d = h_copy_d2d,
    .mem_bytes = h_mem,
};

static char log_path[512];

static const cJSON *ceiling(const cJSON *arr, const char *name) {
    const cJSON *c;
    cJSON_ArrayForEach(c, arr) if (strcmp(cJSON_GetObjectItem(c, "name")->valuestring, name) == 0) return c;
    fail_msg("no ceiling %s", name);
    return NULL;
}

/* The value of attribute attr set on descriptor desc in the log, or -1 when it was never set. */
static long long attr_of(const char *log, int desc, int attr) {
    char key[64];
    snprintf(key, sizeof key, "desc %d attr %d = ", desc, attr);
    const char *p = strstr(log, key);
    return p ? atoll(p + strlen(key)) : -1;
}

static void test_gemm_configuration(void **state) {
    (void)state;
    char why[256];
    if (!cublas_dl_get(why, sizeof why)) fail_msg("the fake cuBLAS did not load: %s", why);
    backend_t be = {.ops = &host_ops};
    backend_device_t dev;
    memset(&dev, 0, sizeof dev);
    snprintf(dev.name, sizeof dev.name, "FAKE H100");
    snprintf(dev.cc, sizeof dev.cc, "9.0");
    cJSON *out = cJSON_CreateArray();
    ceilings_measure(&be, &dev, true, out);
    char *log = file_read_all(log_path, NULL);
    assert_non_null(log);
    /* gemm_fp16 is measured first: descriptor 1; gemm_fp8_e4m3: descriptor 2. */
    const cJSON *f16 = ceiling(out, "gemm_fp16"), *f8 = ceiling(out, "gemm_fp8_e4m3");
    assert_string_equal(cJSON_GetObjectItem(f16, "status")->valuestring, "ok");
    assert_string_equal(cJSON_GetObjectItem(f8, "status")->valuestring, "ok");
    assert_non_null(strstr(log, "matmul desc 1"));
    assert_non_null(strstr(log, "matmul desc 2"));
    assert_true(attr_of(log, 2, CUBLASLT_MATMUL_DESC_FAST_ACCUM) == 1);
    assert_true(attr_of(log, 1, CUBLASLT_MATMUL_DESC_FAST_ACCUM) == -1);     /* fp16: as before */
    assert_true(attr_of(log, 2, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER) == 0); /* a pointer, logged as 0 */
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(f8, "details"), "fast_accum")));
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetObjectItem(f16, "details"), "fast_accum")));
    /* 2 m n k over the median: 2 * 1024^3 / 100 us = 21.47 TFLOP/s */
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(f8, "details"), "m")->valueint, 1024);
    assert_true(fabs(cJSON_GetObjectItem(f8, "value")->valuedouble -
                     2.0 * 1024 * 1024 * 1024 / 100e-6 / 1e12) < 1e-9);
    assert_string_equal(cJSON_GetObjectItem(ceiling(out, "copy_d2d"), "status")->valuestring, "ok");
    free(log);
    cJSON_Delete(out);
}

/* On the emulator (no device) nothing is measured and nothing is asked of cuBLAS. */
static void test_emulated_skipped(void **state) {
    (void)state;
    backend_t be = {.ops = &host_ops};
    cJSON *out = cJSON_CreateArray();
    ceilings_measure(&be, NULL, true, out);
    const cJSON *c;
    cJSON_ArrayForEach(c, out) {
        assert_string_equal(cJSON_GetObjectItem(c, "status")->valuestring, "skipped");
        assert_string_equal(cJSON_GetObjectItem(c, "reason")->valuestring, CEILING_SKIP_EMULATED);
    }
    cJSON_Delete(out);
}

int main(void) {
    const char *tmp = getenv("TMPDIR");
    snprintf(log_path, sizeof log_path, "%s/fake-cublas-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    const int fd = mkstemp(log_path);
    if (fd < 0) return 1;
    close(fd);
    setenv("FAKE_CUBLAS_LOG", log_path, 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gemm_configuration),
        cmocka_unit_test(test_emulated_skipped),
    };
    const int rc = cmocka_run_group_tests(tests, NULL, NULL);
    unlink(log_path);
    return rc;
}
