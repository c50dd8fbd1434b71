/* wgmma m64nNk32 e4m3 on the emulator against a scalar fp64 product: every N the prims have PTX
 * for, SS and RS, every shared-memory layout (no swizzle, 32, 64, 128 bytes), K of one to eight
 * chained k-blocks; exact small integers (every partial sum exact: D must be exact), random finite
 * codes (within the float summation bound) and special values (+-0, subnormals, +-448, NaN). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "emu_check.h"
#include "emu_tests.h"
#include "fp8.h"
#include "probes.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t next_u32(void) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

/* kind 0: integers in [-4, 4]; 1: any finite code; 2: special values. */
static uint8_t code(int kind) {
    static const uint8_t special[] = {0x00, 0x80, 0x01, 0x81, 0x07, 0x7e, 0xfe, 0x38, 0xb8, 0x08};
    if (kind == 0) return fp8_from_float((float)((int)(next_u32() % 9) - 4), FP8_E4M3, FP8_SATFINITE);
    if (kind == 2) return next_u32() % 97 == 0 ? 0x7f : special[next_u32() % 10];
    for (;;) {
        const uint8_t c = (uint8_t)next_u32();
        if ((c & 0x7f) != 0x7f) return c;
    }
}

static void check_gemm(int n, int k, int rs, int swizzle, int kind) {
    uint8_t *A = emu_alloc(64 * (size_t)k), *Bm = emu_alloc((size_t)n * k);
    float *C = emu_alloc(64 * (size_t)n * 4), *D = emu_alloc(64 * (size_t)n * 4);
    for (int i = 0; i < 64 * k; i++) A[i] = code(kind);
    for (int i = 0; i < n * k; i++) Bm[i] = code(kind);
    for (int i = 0; i < 64 * n; i++)
        C[i] = kind == 1 ? ldexpf((float)((int)(next_u32() % 64) - 32), -3) : 0.0f;
    if (emut_wgmma_gemm(A, Bm, C, D, n, k, rs, swizzle) != 0)
        fail_msg("N %d K %d %s swizzle %d: %s", n, k, rs ? "RS" : "SS", swizzle, simt_last_error());
    for (int r = 0; r < 64; r++)
        for (int j = 0; j < n; j++) {
            double ref = C[r * n + j], mag = fabs(ref);
            for (int x = 0; x < k; x++) {
                const double p =
                    (double)fp8_to_float(A[r * k + x], FP8_E4M3) * fp8_to_float(Bm[j * k + x], FP8_E4M3);
                ref += p;
                mag += fabs(p);
            }
            const double got = D[r * n + j];
            if (isnan(ref) || isnan(got)) {
                if (!(isnan(ref) && isnan(got)))
                    fail_msg("N %d K %d %s swizzle %d data %d: D[%d][%d] = %g, want %g", n, k,
                             rs ? "RS" : "SS", swizzle, kind, r, j, got, ref);
                continue;
            }
            if (fabs(got - ref) > k * ldexp(mag, -24))
                fail_msg("N %d K %d %s swizzle %d data %d: D[%d][%d] = %.9g, want %.9g", n, k,
                         rs ? "RS" : "SS", swizzle, kind, r, j, got, ref);
        }
    free(A), free(Bm), free(C), free(D);
}

static const int all_n[] = {16, 32, 64, 96, 128, 160, 192, 256};

/* Every N, SS and RS, two chained k-blocks, each layout in turn; exact and random data. */
static void test_every_n(void **state) {
    (void)state;
    for (int i = 0; i < 8; i++)
        for (int rs = 0; rs < 2; rs++) {
            const int swizzle = (int[]){0, 32, 64, 128}[(i + rs) % 4];
            const int k = swizzle > 64 ? 128 : 64;
            check_gemm(all_n[i], k, rs, swizzle, 0);
            check_gemm(all_n[i], k, rs, swizzle, 1);
        }
}

/* Every layout, SS and RS, one k-block and eight, all three kinds of data. */
static void test_every_layout(void **state) {
    (void)state;
    for (int swizzle = 0; swizzle <= 128; swizzle = swizzle ? 2 * swizzle : 32)
        for (int rs = 0; rs < 2; rs++)
            for (int kind = 0; kind < 3; kind++) {
                if (swizzle <= 32) check_gemm(64, 32, rs, swizzle, kind);
                check_gemm(64, 256, rs, swizzle, kind);
            }
}

/* The same bits under every schedule, no report (TSan included). */
typedef struct {
    uint8_t *A, *Bm;
    float *C, *D;
    int rs;
} sched_ctx;
static int run_sched(void *p) {
    const sched_ctx *c = p;
    return emut_wgmma_gemm(c->A, c->Bm, c->C, c->D, 64, 128, c->rs, 128);
}
static void test_every_schedule(void **state) {
    (void)state;
    sched_ctx c = {emu_alloc(64 * 128), emu_alloc(64 * 128), emu_alloc(64 * 64 * 4), emu_alloc(64 * 64 * 4),
                   0};
    for (int i = 0; i < 64 * 128; i++) c.A[i] = code(1), c.Bm[i] = code(1);
    for (c.rs = 0; c.rs < 2; c.rs++) emu_run_everywhere(run_sched, &c, c.D, 64 * 64 * 4);
    free(c.A), free(c.Bm), free(c.C), free(c.D);
}

/* TMA -> mbarrier -> four chained wgmmas (SS and RS) over 128-byte swizzled tiles: the path a
 * Hopper kernel takes, and the kernel the SASS gate checks. */
static void test_tma_pipeline(void **state) {
    (void)state;
    uint8_t *A = emu_alloc(64 * 128), *Bm = emu_alloc(64 * 128);
    float *S = emu_alloc(64 * 64 * 4), *R = emu_alloc(64 * 64 * 4);
    for (int i = 0; i < 64 * 128; i++) A[i] = code(0), Bm[i] = code(0);
    CUtensorMap ma, mb;
    const cuuint64_t dims[2] = {128, 64}, strides[1] = {128};
    const cuuint32_t box[2] = {128, 64};
    char err[256];
    if (probe_encode_tiled(&ma, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, A, dims, strides, box,
                           CU_TENSOR_MAP_SWIZZLE_128B, err, sizeof err) ||
        probe_encode_tiled(&mb, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, Bm, dims, strides, box,
                           CU_TENSOR_MAP_SWIZZLE_128B, err, sizeof err))
        fail_msg("encode: %s", err);
    for (int s = 0; s < EMU_N_SCHEDULES; s++) {
        emu_use_schedule(s);
        memset(S, 0, 64 * 64 * 4), memset(R, 0, 64 * 64 * 4);
        if (emut_wgmma_tma_pipeline(&ma, &mb, A, S, R) != 0)
            fail_msg("%s: %s", emu_schedule_desc(s), simt_last_error());
        for (int r = 0; r < 64; r++)
            for (int n = 0; n < 64; n++) {
                double ref = 0;
                for (int k = 0; k < 128; k++)
                    ref += (double)fp8_to_float(A[r * 128 + k], FP8_E4M3) *
                           fp8_to_float(Bm[n * 128 + k], FP8_E4M3);
                if (S[r * 64 + n] != ref || R[r * 64 + n] != ref)
                    fail_msg("%s: [%d][%d]: SS %g, RS %g, want %g", emu_schedule_desc(s), r, n, S[r * 64 + n],
                             R[r * 64 + n], ref);
            }
    }
    free(A), free(Bm), free(S), free(R);
}

/* stmatrix puts fragment element (m, row, col) - lane 4 row + col / 2, half col % 2 of register m -
 * at row `row`, column `col` of matrix m (.trans: at row col, column row). */
static void test_stmatrix(void **state) {
    (void)state;
    uint16_t *out = emu_alloc(256 * 2);
    for (int n = 1; n <= 4; n *= 2)
        for (int trans = 0; trans < 2; trans++) {
            if (emut_stmatrix(out, n, trans) != 0) fail_msg("x%d trans %d: %s", n, trans, simt_last_error());
            for (int m = 0; m < n; m++)
                for (int r = 0; r < 8; r++)
                    for (int c = 0; c < 8; c++) {
                        const int want = trans ? 64 * m + 8 * c + r : 64 * m + 8 * r + c;
                        if (out[64 * m + 8 * r + c] != want)
                            fail_msg("x%d trans %d: matrix %d (%d, %d) = %d, want %d", n, trans, m, r, c,
                                     out[64 * m + 8 * r + c], want);
                    }
        }
    free(out);
}

/* The controls of bug_wgmma.cu's plants (test_bugs.c runs them): the correct kernel, with A written
 * by ordinary stores and by TMA, and the correct setmaxnreg sequence pass under every schedule. */
int emu_bug_wgmma_control(int tma);
int emu_bug_regs_control(void);
static void test_bug_controls(void **state) {
    (void)state;
    for (int tma = 0; tma < 2; tma++)
        if (emu_bug_wgmma_control(tma) != 0)
            fail_msg("wgmma control (tma %d) faulted or was wrong: %s", tma, simt_last_error());
    if (emu_bug_regs_control() != 0)
        fail_msg("setmaxnreg control faulted or was wrong: %s", simt_last_error());
}

int emu_run_wgmma_tests(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_n),        cmocka_unit_test(test_every_layout),
        cmocka_unit_test(test_every_schedule), cmocka_unit_test(test_bug_controls),
        cmocka_unit_test(test_tma_pipeline),   cmocka_unit_test(test_stmatrix),
    };
    return cmocka_run_group_tests_name("emulator: wgmma m64nNk32 e4m3 (SS, RS, every N and layout)", tests,
                                       NULL, NULL);
}
