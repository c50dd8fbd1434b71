/* The launchers of every variant (emulator build) refuse bad arguments with the documented status
 * code and never run the kernel on them: the output buffer keeps its fill. A valid call on the
 * same buffers succeeds, so the refusals are not an artefact of the buffers. */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "sdpa_api.h"

enum { D64 = 64, S = 40, H = 2, N = 1 * H * S * D64 };

typedef struct {
    uint8_t *q, *k, *v;
    float scale[H];
    uint16_t *o;
} bufs_t;

static int setup(void **state) {
    bufs_t *b = calloc(1, sizeof *b);
    /* 256-byte aligned, as cudaMalloc; one spare byte for the misaligned case. */
    b->q = aligned_alloc(256, N + 256);
    b->k = aligned_alloc(256, N + 256);
    b->v = aligned_alloc(256, N + 256);
    b->o = aligned_alloc(256, 2 * N + 256);
    for (int i = 0; i < N; ++i) b->q[i] = b->k[i] = b->v[i] = (uint8_t)(i * 37 % 113); /* small E4M3 codes */
    for (int h = 0; h < H; ++h) b->scale[h] = 0.01f;
    *state = b;
    return 0;
}

static int teardown(void **state) {
    bufs_t *b = *state;
    free(b->q), free(b->k), free(b->v), free(b->o), free(b);
    return 0;
}

static sdpa_args_t valid_args(bufs_t *b) {
    sdpa_args_t a = {b->q, b->k, b->v, b->scale, b->scale,        b->scale, b->o, 1,
                     H,    S,    D64,  0.125f,   SDPA_CODEC_E4M3, NULL,     0};
    return a;
}

/* Runs every variant's launcher on a; all must return want and leave the output untouched
 * (when want != SDPA_OK). */
static void expect_all(bufs_t *b, sdpa_args_t a, sdpa_status_t want) {
    for (const sdpa_kernel_entry_t *e = sdpa_kernels_emu; e->id; ++e) {
        memset(b->o, 0xab, 2 * N);
        const sdpa_status_t got = e->launch(&a);
        if (got != want)
            fail_msg("%s: status %d (%s), expected %d (%s)", e->id, got, sdpa_status_str(got), want,
                     sdpa_status_str(want));
        if (want != SDPA_OK)
            for (int i = 0; i < N; ++i)
                if (b->o[i] != 0xabab) fail_msg("%s: wrote output element %d despite refusing", e->id, i);
    }
}

static void valid_call_runs(void **state) {
    bufs_t *b = *state;
    expect_all(b, valid_args(b), SDPA_OK);
    assert_int_not_equal(b->o[0], 0xabab); /* the kernel ran and wrote */
}

static void head_dim_other_than_64(void **state) {
    bufs_t *b = *state;
    sdpa_args_t a = valid_args(b);
    a.D = 32;
    expect_all(b, a, SDPA_ERR_HEAD_DIM);
    a.D = 96;
    expect_all(b, a, SDPA_ERR_HEAD_DIM);
}

/* Each launcher on (D, causal, codec): runs exactly where its entry has the kernel (a geometry for D;
 * geometry.causal for a mask; E4M3 beyond D = 64 non-causal; never seed-linear on FP8_MMA), refuses
 * with SDPA_ERR_HEAD_DIM (no geometry) or SDPA_ERR_UNSUPPORTED otherwise, and writes nothing then.
 * S * D stays within the buffers (S = 20 at D = 128). */
static void head_dims_and_masks(void **state) {
    bufs_t *b = *state;
    int wide = 0;
    for (int D = 64; D <= 128; D *= 2)
        for (int causal = 0; causal < 2; causal++)
            for (int codec = 0; codec < 2; codec++) {
                sdpa_args_t a = valid_args(b);
                a.D = D, a.S = S * D64 / D, a.causal = causal, a.codec = (sdpa_codec_t)codec;
                for (const sdpa_kernel_entry_t *e = sdpa_kernels_emu; e->id; ++e) {
                    const sdpa_geometry_t *g = sdpa_entry_geometry(e, D);
                    const bool e4m3 = codec == SDPA_CODEC_E4M3, fp8 = (e->sw & SDPA_SW(FP8_MMA)) != 0;
                    const sdpa_status_t want = !g                                      ? SDPA_ERR_HEAD_DIM
                                               : (causal && !g->causal)                ? SDPA_ERR_UNSUPPORTED
                                               : (!e4m3 && (fp8 || causal || D != 64)) ? SDPA_ERR_UNSUPPORTED
                                                                                       : SDPA_OK;
                    wide += D == 128 && causal && e4m3 && want == SDPA_OK;
                    memset(b->o, 0xab, 2 * N);
                    const sdpa_status_t got = e->launch(&a);
                    if (got != want)
                        fail_msg("%s at D = %d, causal %d, codec %d: status %d (%s), expected %d (%s)", e->id,
                                 D, causal, codec, got, sdpa_status_str(got), want, sdpa_status_str(want));
                    if ((want == SDPA_OK) != (b->o[0] != 0xabab))
                        fail_msg("%s at D = %d, causal %d, codec %d: %s", e->id, D, causal, codec,
                                 want == SDPA_OK ? "did not run" : "wrote its output despite refusing");
                }
            }
    assert_int_equal(wide, 18); /* stages 3b, 4, 5, 6, the two 64-row rows and stages 7a-7f, 7h-7m */
}

static void empty_problem(void **state) {
    bufs_t *b = *state;
    sdpa_args_t a = valid_args(b);
    a.S = 0;
    expect_all(b, a, SDPA_ERR_EMPTY);
    a = valid_args(b);
    a.H = 0;
    expect_all(b, a, SDPA_ERR_EMPTY);
    a = valid_args(b);
    a.B = -1;
    expect_all(b, a, SDPA_ERR_EMPTY);
}

static void sizes_that_overflow(void **state) {
    bufs_t *b = *state;
    sdpa_args_t a = valid_args(b);
    a.B = 4096, a.H = 4096, a.S = 4096; /* 2^42 elements: overflows the 32-bit indexing */
    expect_all(b, a, SDPA_ERR_TOO_LARGE);
    a = valid_args(b);
    a.H = 65536; /* gridDim.y */
    expect_all(b, a, SDPA_ERR_TOO_LARGE);
    a = valid_args(b);
    a.S = INT32_MAX;
    expect_all(b, a, SDPA_ERR_TOO_LARGE);
}

static void null_misaligned_and_unknown_codec(void **state) {
    bufs_t *b = *state;
    sdpa_args_t a = valid_args(b);
    a.k = NULL;
    expect_all(b, a, SDPA_ERR_NULL);
    a = valid_args(b);
    a.v_scale = NULL;
    expect_all(b, a, SDPA_ERR_NULL);
    a = valid_args(b);
    a.q = b->q + 1;
    expect_all(b, a, SDPA_ERR_ALIGNMENT);
    a = valid_args(b);
    a.codec = (sdpa_codec_t)7;
    expect_all(b, a, SDPA_ERR_CODEC);
}

/* FP8_MMA variants multiply e4m3 codes as they are; the seed-linear codes have no FP8 form, so their
 * launchers refuse that codec (SDPA_ERR_UNSUPPORTED) without running, and the others run it. */
static void seed_linear_refused_by_fp8_variants(void **state) {
    bufs_t *b = *state;
    sdpa_args_t a = valid_args(b);
    a.codec = SDPA_CODEC_SEED_LINEAR;
    int fp8 = 0;
    for (const sdpa_kernel_entry_t *e = sdpa_kernels_emu; e->id; ++e) {
        memset(b->o, 0xab, 2 * N);
        const bool is_fp8 = (e->sw & SDPA_SW(FP8_MMA)) != 0;
        const sdpa_status_t got = e->launch(&a);
        fp8 += is_fp8;
        if (got != (is_fp8 ? SDPA_ERR_UNSUPPORTED : SDPA_OK))
            fail_msg("%s: status %d (%s) for seed-linear codes", e->id, got, sdpa_status_str(got));
        if (is_fp8 && b->o[0] != 0xabab) fail_msg("%s: wrote its output despite refusing", e->id);
        if (!is_fp8 && b->o[0] == 0xabab) fail_msg("%s: did not run", e->id);
    }
    assert_true(fp8 >= 1); /* stage6 at least */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(valid_call_runs, setup, teardown),
        cmocka_unit_test_setup_teardown(head_dim_other_than_64, setup, teardown),
        cmocka_unit_test_setup_teardown(head_dims_and_masks, setup, teardown),
        cmocka_unit_test_setup_teardown(empty_problem, setup, teardown),
        cmocka_unit_test_setup_teardown(sizes_that_overflow, setup, teardown),
        cmocka_unit_test_setup_teardown(null_misaligned_and_unknown_codec, setup, teardown),
        cmocka_unit_test_setup_teardown(seed_linear_refused_by_fp8_variants, setup, teardown),
    };
    return cmocka_run_group_tests_name("launch arguments", tests, NULL, NULL);
}
