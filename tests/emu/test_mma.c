/* mma.sync, ldmatrix, movmatrix, named barriers and FP8 packing on the emulator, against host
 * references: the f16 and FP8 products against a scalar fp64 product (exact where every partial
 * sum is a float, else within the float summation bound), FP8 packing bit-exact with host/fp8.c. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "emu_check.h"
#include "emu_tests.h"
#include "fp8.h"
#include "half.h"

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint32_t next_u32(void) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

/* Compares D (16x8, row-major) with C + A B computed in fp64 from the decoded operands: NaN where
 * the reference is NaN; otherwise |D - ref| <= K 2^-24 sum |terms| (ascending float summation),
 * which is 0 when the data keep every partial sum exact. */
static void check_product(const float *D, const double *a, const double *b, const float *C, int K,
                          const char *what) {
    for (int r = 0; r < 16; r++)
        for (int n = 0; n < 8; n++) {
            double ref = C[r * 8 + n], mag = fabs(ref);
            for (int k = 0; k < K; k++) {
                ref += a[r * K + k] * b[k * 8 + n];
                mag += fabs(a[r * K + k] * b[k * 8 + n]);
            }
            const double got = D[r * 8 + n];
            if (isnan(ref) || isnan(got)) {
                if (!(isnan(ref) && isnan(got)))
                    fail_msg("%s: D[%d][%d] = %g, want %g", what, r, n, got, ref);
                continue;
            }
            if (fabs(got - ref) > K * ldexp(mag, -24))
                fail_msg("%s: D[%d][%d] = %.9g, want %.9g (bound %.3g)", what, r, n, got, ref,
                         K * ldexp(mag, -24));
        }
}

/* ---- f16 -------------------------------------------------------------------------------------- */
/* kind 0: small integers (exact); 1: random halves in [-2, 2); 2: special values. */
static uint16_t f16_value(int kind, int i) {
    static const float special[] = {
        0.0f, -0.0f, 65504.0f, -65504.0f, 5.9604645e-8f /* 2^-24 */, -6.1035156e-5f /* 2^-14 */, 1.0f, 3.0f};
    if (kind == 0) return half_from_float((float)((int)(next_u32() % 9) - 4));
    if (kind == 1) return half_from_float(ldexpf((float)((int)(next_u32() % 4096) - 2048), -10));
    if (i == 37) return 0x7e00; /* NaN */
    return half_from_float(special[next_u32() % 8]);
}

static void run_f16(int kind, int mode) {
    uint16_t *A = emu_alloc(256 * 2), *Bkn = emu_alloc(128 * 2), *Bnk = emu_alloc(128 * 2);
    float *C = emu_alloc(128 * 4), *D = emu_alloc(128 * 4);
    double a[256], b[128];
    for (int i = 0; i < 256; i++) a[i] = half_to_float(A[i] = f16_value(kind, i));
    for (int k = 0; k < 16; k++)
        for (int n = 0; n < 8; n++) {
            Bkn[k * 8 + n] = Bnk[n * 16 + k] = f16_value(kind == 2 ? 0 : kind, 0);
            b[k * 8 + n] = half_to_float(Bkn[k * 8 + n]);
        }
    for (int i = 0; i < 128; i++) C[i] = kind == 1 ? ldexpf((float)((int)(next_u32() % 64) - 32), -3) : 0.0f;
    if (emut_mma_f16(A, Bkn, Bnk, C, D, mode) != 0) fail_msg("launch failed: %s", simt_last_error());
    char what[64];
    snprintf(what, sizeof what, "m16n8k16 f16 data %d load %d", kind, mode);
    check_product(D, a, b, C, 16, what);
    free(A), free(Bkn), free(Bnk), free(C), free(D);
}

static void test_mma_f16(void **state) {
    (void)state;
    for (int kind = 0; kind < 3; kind++)
        for (int mode = 0; mode < 3; mode++) run_f16(kind, mode);
}

static void test_movmatrix(void **state) {
    (void)state;
    uint16_t *M = emu_alloc(64 * 2);
    uint32_t *out = emu_alloc(64 * 4);
    for (int i = 0; i < 64; i++) M[i] = (uint16_t)(0x1000 + i);
    if (emut_movmatrix(M, out) != 0) fail_msg("launch failed: %s", simt_last_error());
    for (int l = 0; l < 32; l++) {
        const int r = l / 4, c = 2 * (l % 4); /* lane l holds elements (r, c), (r, c+1) of M^T */
        const uint32_t want = (uint32_t)M[c * 8 + r] | (uint32_t)M[(c + 1) * 8 + r] << 16;
        if (out[l] != want || out[32 + l] != want)
            fail_msg("lane %d: movmatrix 0x%08x, ldmatrix.trans 0x%08x, want 0x%08x", l, out[l], out[32 + l],
                     want);
    }
    free(M), free(out);
}

/* O = half(Q K^T) V with small integers: every value exact, so O must be exact. */
static void test_mma_f16_chain(void **state) {
    (void)state;
    uint16_t *Q = emu_alloc(256 * 2), *K = emu_alloc(256 * 2), *V = emu_alloc(128 * 2);
    float *O = emu_alloc(128 * 4);
    double q[256], k[256], v[128];
    for (int i = 0; i < 256; i++) q[i] = half_to_float(Q[i] = f16_value(0, i));
    for (int i = 0; i < 256; i++) k[i] = half_to_float(K[i] = f16_value(0, i));
    for (int i = 0; i < 128; i++) v[i] = half_to_float(V[i] = f16_value(0, i));
    if (emut_mma_f16_chain(Q, K, V, O) != 0) fail_msg("launch failed: %s", simt_last_error());
    for (int r = 0; r < 16; r++)
        for (int n = 0; n < 8; n++) {
            double o = 0;
            for (int j = 0; j < 16; j++) {
                double s = 0;
                for (int d = 0; d < 16; d++) s += q[r * 16 + d] * k[j * 16 + d];
                o += half_to_float(half_from_float((float)s)) * v[j * 8 + n];
            }
            if (O[r * 8 + n] != o) fail_msg("O[%d][%d] = %g, want %g", r, n, O[r * 8 + n], o);
        }
    free(Q), free(K), free(V), free(O);
}

/* ---- FP8 ---------------------------------------------------------------------------------------- */
/* kind 0: small integers (exact); 1: random codes without NaN; 2: special codes. */
static uint8_t fp8_code(int kind, int e5m2, int i) {
    const fp8_format_t f = e5m2 ? FP8_E5M2 : FP8_E4M3;
    if (kind == 0) return fp8_from_float((float)((int)(next_u32() % 9) - 4), f, FP8_SATFINITE);
    if (kind == 1)
        for (;;) {
            uint8_t c = (uint8_t)next_u32();
            if (!isnan(fp8_to_float(c, f)) && !isinf(fp8_to_float(c, f)) && fabsf(fp8_to_float(c, f)) < 64)
                return c;
        }
    static const uint8_t e4[] = {0x00, 0x80, 0x7e, 0xfe,
                                 0x01, 0x81, 0x07, 0x38}; /* 0, -0, max, -max, subnormals, 1 */
    static const uint8_t e5[] = {0x00, 0x80, 0x7b, 0xfb, 0x01, 0x83, 0x3c, 0x40};
    if (i == 41) return e5m2 ? 0x7e : 0x7f; /* NaN */
    return (e5m2 ? e5 : e4)[next_u32() % 8];
}

static void run_fp8(int kind, int e5m2, int mode) {
    const fp8_format_t f = e5m2 ? FP8_E5M2 : FP8_E4M3;
    uint8_t *A = emu_alloc(512), *Bnk = emu_alloc(256);
    float *C = emu_alloc(128 * 4), *D = emu_alloc(128 * 4);
    double a[512], b[256];
    for (int i = 0; i < 512; i++) a[i] = fp8_to_float(A[i] = fp8_code(kind, e5m2, i), f);
    for (int n = 0; n < 8; n++)
        for (int k = 0; k < 32; k++)
            b[k * 8 + n] = fp8_to_float(Bnk[n * 32 + k] = fp8_code(kind == 2 ? 1 : kind, e5m2, 0), f);
    for (int i = 0; i < 128; i++) C[i] = kind == 1 ? ldexpf((float)((int)(next_u32() % 64) - 32), -3) : 0.0f;
    if (emut_mma_fp8(A, Bnk, C, D, e5m2, mode) != 0) fail_msg("launch failed: %s", simt_last_error());
    char what[64];
    snprintf(what, sizeof what, "m16n8k32 %s data %d load %d", e5m2 ? "e5m2" : "e4m3", kind, mode);
    check_product(D, a, b, C, 32, what);
    free(A), free(Bnk), free(C), free(D);
}

static void test_mma_fp8(void **state) {
    (void)state;
    for (int e5m2 = 0; e5m2 < 2; e5m2++)
        for (int kind = 0; kind < 3; kind++)
            for (int mode = 0; mode < 2; mode++) run_fp8(kind, e5m2, mode);
}

/* O = e4m3(scale Q K^T) V through the permuted k order: P's codes come from the host encoder. */
static void test_mma_fp8_chain(void **state) {
    (void)state;
    uint8_t *Q = emu_alloc(512), *K = emu_alloc(1024), *Vt = emu_alloc(256);
    float *O = emu_alloc(128 * 4);
    const float scale = 0.75f;
    for (int i = 0; i < 512; i++) Q[i] = fp8_code(0, 0, i);
    for (int i = 0; i < 1024; i++) K[i] = fp8_code(0, 0, i);
    for (int i = 0; i < 256; i++) Vt[i] = fp8_code(1, 0, i);
    if (emut_mma_fp8_chain(Q, K, Vt, scale, O) != 0) fail_msg("launch failed: %s", simt_last_error());
    double a[16 * 32], b[32 * 8];
    for (int r = 0; r < 16; r++)
        for (int j = 0; j < 32; j++) {
            double s = 0;
            for (int d = 0; d < 32; d++)
                s += fp8_to_float(Q[r * 32 + d], FP8_E4M3) * fp8_to_float(K[j * 32 + d], FP8_E4M3);
            a[r * 32 + j] = fp8_to_float(fp8_from_float((float)s * scale, FP8_E4M3, FP8_SATFINITE), FP8_E4M3);
        }
    for (int j = 0; j < 32; j++)
        for (int n = 0; n < 8; n++) b[j * 8 + n] = fp8_to_float(Vt[n * 32 + j], FP8_E4M3);
    float zero[128] = {0};
    check_product(O, a, b, zero, 32, "e4m3 chain");
    free(Q), free(K), free(Vt), free(O);
}

/* Every tie between adjacent E4M3 values (and beyond the largest: 448 < x < 480 saturates), the
 * special inputs, and random floats of every magnitude: codes identical to host/fp8.c's. */
static void test_pack_e4m3(void **state) {
    (void)state;
#if defined(EMU_FLAVOUR_TSAN) || defined(EMU_FLAVOUR_ASAN)
    enum { RANDOM = 1 << 16 }; /* the sanitizers run the kernel ~20 times slower */
#else
    enum { RANDOM = 2 << 20 };
#endif
    enum { N = 2 * 126 * 2 + 16 + RANDOM };
    float *x = emu_alloc((size_t)N * 4);
    int n = 0;
    for (int s = 0; s < 2; s++)
        for (int c = 0; c < 126; c++) { /* ties between codes c and c + 1, and just off them */
            const float lo = fp8_to_float((uint8_t)c, FP8_E4M3),
                        hi = fp8_to_float((uint8_t)(c + 1), FP8_E4M3);
            const float mid = (lo + hi) / 2 * (s ? -1.0f : 1.0f);
            x[n++] = mid;
            x[n++] = nextafterf(mid, 0.0f);
        }
    const float special[16] = {
        0.0f,     -0.0f,     448.0f, 449.0f,  464.0f,         479.9f,           480.0f,  1e6f,
        INFINITY, -INFINITY, NAN,    -500.0f, ldexpf(1, -10), ldexpf(1.5f, -9), 1.0625f, 1.1875f};
    for (int i = 0; i < 16; i++) x[n++] = special[i];
    for (int i = 0; i < RANDOM; i++) {
        uint32_t u = next_u32();
        u = (u & 0x807fffffu) | (uint32_t)(100 + next_u32() % 50) << 23; /* magnitudes 2^-27 .. 2^22 */
        memcpy(&x[n++], &u, 4);
    }
    const int pairs = n / 2;
    uint16_t *codes = emu_alloc((size_t)pairs * 2);
    if (emut_pack_e4m3(x, codes, pairs) != 0) fail_msg("launch failed: %s", simt_last_error());
    for (int i = 0; i < 2 * pairs; i++) {
        const uint8_t got = (uint8_t)(codes[i / 2] >> (8 * (i % 2)));
        const uint8_t want = fp8_from_float(x[i], FP8_E4M3, FP8_SATFINITE);
        if (got != want) fail_msg("pack_e4m3x2(%a) = 0x%02x, host codec 0x%02x", (double)x[i], got, want);
    }
    free(x), free(codes);
}

/* ---- named barriers ------------------------------------------------------------------------------ */
typedef struct {
    float *in, *out;
    int tiles, blocks;
} pc_ctx;
static int run_pc(void *p) {
    pc_ctx *c = p;
    return emut_producer_consumer(c->in, c->out, c->tiles, c->blocks);
}

static void test_producer_consumer(void **state) {
    (void)state;
    pc_ctx c = {emu_alloc(3 * 7 * 32 * 4), emu_alloc(3 * 96 * 4), 7, 3};
    for (int i = 0; i < 3 * 7 * 32; i++) c.in[i] = (float)((i * 5) % 23);
    for (int s = 0; s < EMU_N_SCHEDULES; s++) {
        emu_use_schedule(s);
        memset(c.out, 0, 3 * 96 * 4);
        emu_capture_begin();
        const int rc = run_pc(&c);
        char *err = emu_capture_end();
        if (rc != 0 || strstr(err, "ThreadSanitizer") || strstr(err, "simt:"))
            fail_msg("under %s: %s", emu_schedule_desc(s), simt_last_error());
        free(err);
        for (int b = 0; b < 3; b++)
            for (int t = 0; t < 96; t++) {
                float want = 0;
                for (int i = 0; i < 7; i++) want += c.in[(b * 7 + i) * 32 + t % 32] * (float)(1 + t / 32);
                if (c.out[b * 96 + t] != want)
                    fail_msg("under %s: out[%d][%d] = %g, want %g", emu_schedule_desc(s), b, t,
                             c.out[b * 96 + t], want);
            }
    }
    free(c.in), free(c.out);
}

int emu_run_mma_tests(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mma_f16),           cmocka_unit_test(test_movmatrix),
        cmocka_unit_test(test_mma_f16_chain),     cmocka_unit_test(test_mma_fp8),
        cmocka_unit_test(test_mma_fp8_chain),     cmocka_unit_test(test_pack_e4m3),
        cmocka_unit_test(test_producer_consumer),
    };
    return cmocka_run_group_tests_name("emulator: mma.sync, ldmatrix, FP8 packing, named barriers", tests,
                                       NULL, NULL);
}
