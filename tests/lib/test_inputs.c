/* Seeded inputs and their quantisation (host/lib/inputs.c).
 * Golden checksums: produced by this implementation and reproduced by an independent Python
 * program (the generation order of inputs.c, float32 arithmetic through numpy, an E4M3 encoder by
 * nearest-value search with ties to even), which printed the same two values. */
#include "testutil.h"

#include <errno.h>

#include "fp8.h"
#include "inputs.h"
#include "rng.h"

#define GOLDEN_SMALL 0x578bfd5417c9cbafULL  /* (small, normal, e4m3, seed 0) */
#define GOLDEN_RAGGED 0xc24a43984682a96eULL /* (ragged, outliers, seed-linear, seed 1) */

static sdpa_shape_t shape_of(const char *name) {
    const named_shape_t *s = named_shape_find(name);
    assert_non_null(s);
    return s->shape;
}

static void test_golden_checksums(void **state) {
    (void)state;
    sdpa_inputs_t in;
    assert_int_equal(inputs_generate(&in, shape_of("small"), DIST_NORMAL, SDPA_CODEC_E4M3, 0), 0);
    assert_int_equal(inputs_checksum(&in), GOLDEN_SMALL);
    inputs_free(&in);
    assert_int_equal(inputs_generate(&in, shape_of("ragged"), DIST_OUTLIERS, SDPA_CODEC_SEED_LINEAR, 1), 0);
    assert_int_equal(inputs_checksum(&in), GOLDEN_RAGGED);
    inputs_free(&in);
}

static void test_deterministic(void **state) {
    (void)state;
    sdpa_inputs_t a, b, c;
    sdpa_shape_t sh = shape_of("partial");
    assert_int_equal(inputs_generate(&a, sh, DIST_UNIFORM, SDPA_CODEC_E4M3, 7), 0);
    assert_int_equal(inputs_generate(&b, sh, DIST_UNIFORM, SDPA_CODEC_E4M3, 7), 0);
    assert_int_equal(inputs_generate(&c, sh, DIST_UNIFORM, SDPA_CODEC_E4M3, 8), 0);
    assert_memory_equal(a.x_q, b.x_q, a.n * sizeof(float));
    assert_memory_equal(a.x_v, b.x_v, a.n * sizeof(float));
    assert_memory_equal(a.q, b.q, a.n);
    assert_memory_equal(a.k, b.k, a.n);
    assert_memory_equal(a.v_scale, b.v_scale, (size_t)sh.H * sizeof(float));
    assert_int_equal(inputs_checksum(&a), inputs_checksum(&b));
    assert_true(inputs_checksum(&a) != inputs_checksum(&c));
    assert_true(memcmp(a.x_q, c.x_q, a.n * sizeof(float)) != 0);
    /* Q, K and V are different streams. */
    assert_true(memcmp(a.x_q, a.x_k, a.n * sizeof(float)) != 0);
    for (size_t i = 0; i < a.n; i++) assert_true(a.x_q[i] >= -1.0f && a.x_q[i] < 1.0f);
    inputs_free(&a);
    inputs_free(&b);
    inputs_free(&c);
}

/* The documented order of draws: per element a normal, then (outliers only) a uniform for the
 * 0.1 % decision, from the tensor's stream (Q 0, K 1, V 2). */
static void test_draw_order(void **state) {
    (void)state;
    sdpa_inputs_t in;
    sdpa_shape_t sh = shape_of("ragged");
    assert_int_equal(inputs_generate(&in, sh, DIST_OUTLIERS, SDPA_CODEC_E4M3, 3), 0);
    rng_t r;
    rng_seed(&r, 3, 1);
    size_t outliers = 0;
    for (size_t i = 0; i < in.n; i++) {
        double x = rng_normal(&r);
        if (rng_uniform01(&r) < 0.001) {
            x *= 10.0;
            outliers++;
        }
        assert_true(in.x_k[i] == (float)x);
    }
    /* ~Bin(12672, 0.001): mean 12.7; a generous range. */
    assert_in_range(outliers, 1, 40);
    inputs_free(&in);
    /* Normal: one normal per element, nothing else. */
    assert_int_equal(inputs_generate(&in, sh, DIST_NORMAL, SDPA_CODEC_E4M3, 3), 0);
    rng_seed(&r, 3, 2);
    for (size_t i = 0; i < in.n; i++) assert_true(in.x_v[i] == (float)rng_normal(&r));
    inputs_free(&in);
}

/* Above the size where Q, K and V are made on three threads (2^20 elements each): every tensor is
 * still its own stream in the documented order, and its codes and scales are inputs_quantise's. */
static void test_threaded_is_the_definition(void **state) {
    (void)state;
    sdpa_inputs_t in;
    const sdpa_shape_t sh = {1, 4, 4096, 64, 0};
    assert_int_equal(inputs_generate(&in, sh, DIST_OUTLIERS, SDPA_CODEC_E4M3, 5), 0);
    const float *xs[3] = {in.x_q, in.x_k, in.x_v};
    const uint8_t *cs[3] = {in.q, in.k, in.v};
    const float *ss[3] = {in.q_scale, in.k_scale, in.v_scale};
    uint8_t *codes = malloc(in.n);
    float scales[4];
    assert_non_null(codes);
    for (uint64_t t = 0; t < 3; t++) {
        rng_t r;
        rng_seed(&r, 5, t);
        size_t bad = 0;
        for (size_t i = 0; i < in.n; i++) {
            double x = rng_normal(&r);
            if (rng_uniform01(&r) < 0.001) x *= 10.0;
            bad += xs[t][i] != (float)x;
        }
        assert_int_equal(bad, 0);
        inputs_quantise(xs[t], sh, SDPA_CODEC_E4M3, codes, scales);
        assert_memory_equal(codes, cs[t], in.n);
        assert_memory_equal(scales, ss[t], sizeof scales);
    }
    free(codes);
    inputs_free(&in);
}

/* Per head, the element of largest magnitude encodes to +-448 (0x7e/0xfe): x/scale = 448 up to
 * float rounding, which E4M3 absorbs. No NaN code ever appears. */
static void test_amax_maps_to_448(void **state) {
    (void)state;
    sdpa_inputs_t in;
    sdpa_shape_t sh = shape_of("ragged");
    assert_int_equal(inputs_generate(&in, sh, DIST_OUTLIERS, SDPA_CODEC_E4M3, 11), 0);
    size_t slice = (size_t)sh.S * (size_t)sh.D;
    for (int32_t h = 0; h < sh.H; h++) {
        float amax = 0.0f;
        size_t at = 0;
        for (int32_t b = 0; b < sh.B; b++)
            for (size_t i = 0; i < slice; i++) {
                size_t idx = ((size_t)b * (size_t)sh.H + (size_t)h) * slice + i;
                if (fabsf(in.x_v[idx]) > amax) {
                    amax = fabsf(in.x_v[idx]);
                    at = idx;
                }
            }
        assert_true(in.v_scale[h] == amax / 448.0f);
        assert_int_equal(in.v[at], in.x_v[at] > 0 ? 0x7e : 0xfe);
    }
    for (size_t i = 0; i < in.n; i++) assert_true((in.q[i] & 0x7f) != 0x7f);
    /* Kernel-visible values are within half an E4M3 step of the originals: relative 2^-4 for
     * normals, plus half the smallest subnormal step (2^-10 scale) near zero. */
    double *deq = malloc(in.n * sizeof *deq);
    assert_non_null(deq);
    inputs_dequantised(&in, 'q', deq);
    for (size_t i = 0; i < in.n; i++) {
        size_t h = (i / slice) % (size_t)sh.H;
        assert_same_double(deq[i], codec_decode(SDPA_CODEC_E4M3, in.q[i], in.q_scale[h]));
        assert_true(fabs(deq[i] - in.x_q[i]) <= fabs(in.x_q[i]) * 0x1p-4 + in.q_scale[h] * 0x1p-10);
    }
    inputs_original(&in, 'k', deq);
    for (size_t i = 0; i < in.n; i++) assert_same_double(deq[i], (double)in.x_k[i]);
    inputs_dequantised(&in, 'x', deq); /* not a tensor: reported, and NaN, never data */
    for (size_t i = 0; i < in.n; i++) assert_true(isnan(deq[i]));
    free(deq);
    inputs_free(&in);
}

static void test_zero_head_scale_one(void **state) {
    (void)state;
    sdpa_shape_t sh = {2, 3, 4, 8, 0};
    size_t n = shape_numel(sh), slice = 32;
    float *x = calloc(n, sizeof *x);
    uint8_t *codes = malloc(n);
    float scales[3];
    assert_non_null(x);
    assert_non_null(codes);
    /* Head 0 zero, head 1 amax 2 (in batch 1), head 2 amax 0.5 (negative). */
    x[(1 * 3 + 1) * slice + 5] = 2.0f;
    x[(0 * 3 + 1) * slice + 6] = 1.0f;
    x[(0 * 3 + 2) * slice + 7] = -0.5f;
    for (int c = 0; c < 2; c++) {
        sdpa_codec_t codec = c ? SDPA_CODEC_SEED_LINEAR : SDPA_CODEC_E4M3;
        inputs_quantise(x, sh, codec, codes, scales);
        assert_true(scales[0] == 1.0f);
        assert_true(scales[1] == 2.0f / 448.0f);
        assert_true(scales[2] == 0.5f / 448.0f);
        for (size_t i = 0; i < n; i++) {
            size_t h = (i / slice) % 3;
            /* within one seed-linear step (the biased encoder's offset included) */
            assert_close(codec_decode(codec, codes[i], scales[h]), x[i], 448.0 / 127.0 * scales[h] * 1.0001);
        }
        assert_same_double(codec_decode(codec, codes[0], scales[0]), 0.0);
    }
    inputs_quantise(x, sh, SDPA_CODEC_E4M3, codes, scales);
    assert_int_equal(codes[(1 * 3 + 1) * slice + 5], 0x7e);
    assert_int_equal(codes[(0 * 3 + 2) * slice + 7], 0xfe);
    assert_int_equal(codes[(0 * 3 + 1) * slice + 6], fp8_from_float(224.0f, FP8_E4M3, FP8_SATFINITE));
    free(x);
    free(codes);
}

static void test_shapes_and_names(void **state) {
    (void)state;
    assert_int_equal(named_shapes_count, 14);
    const struct {
        const char *name;
        int32_t B, H, S, D, causal;
    } want[] = {
        {"small", 1, 1, 32, 64, 0},
        {"mission", 1, 8, 512, 64, 0},
        {"long", 1, 8, 2048, 64, 0},
        {"ragged", 2, 3, 33, 64, 0},
        {"partial", 1, 2, 200, 64, 0},
        {"single", 1, 1, 1, 64, 0},
        {"label-a", 2, 8, 256, 64, 0},
        {"stage5", 2, 8, 512, 64, 0},
        {"mission-d128", 1, 8, 512, 128, 0},
        {"mission-causal", 1, 8, 512, 64, 1},
        {"mission-d128-causal", 1, 8, 512, 128, 1},
        {"ragged-d128", 2, 3, 33, 128, 0},
        {"ragged-causal", 2, 3, 33, 64, 1},
        {"ragged-d128-causal", 2, 3, 33, 128, 1},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const named_shape_t *s = named_shape_find(want[i].name);
        assert_non_null(s);
        assert_int_equal(s->shape.B, want[i].B);
        assert_int_equal(s->shape.H, want[i].H);
        assert_int_equal(s->shape.S, want[i].S);
        assert_int_equal(s->shape.D, want[i].D);
        assert_int_equal(s->shape.causal, want[i].causal);
        assert_non_null(s->note);
    }
    assert_string_equal(named_shape_find("label-a")->note,
                        "the (2,8,256,64) label of the original's reports; its code never ran it");
    assert_string_equal(named_shape_find("stage5")->note, "shape of the original's Stage-5 harness");
    assert_null(named_shape_find("Mission"));
    assert_null(named_shape_find(NULL));
    assert_int_equal(shape_numel((sdpa_shape_t){1, 8, 512, 64, 0}), 262144);
    assert_int_equal(shape_numel((sdpa_shape_t){0, 8, 512, 64, 0}), 0);
    assert_int_equal(shape_numel((sdpa_shape_t){1, -1, 512, 64, 0}), 0);
    assert_int_equal(shape_numel((sdpa_shape_t){INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX, 0}), 0);
    dist_t d = DIST_NORMAL;
    for (int i = 0; i < 3; i++) {
        assert_int_equal(dist_from_name(dist_name((dist_t)i), &d), 0);
        assert_int_equal(d, i);
    }
    assert_string_equal(dist_name(DIST_OUTLIERS), "outliers");
    assert_int_equal(dist_from_name("gauss", &d), -1);
    sdpa_inputs_t in;
    errno = 0;
    assert_int_equal(inputs_generate(&in, (sdpa_shape_t){1, 0, 4, 64, 0}, DIST_NORMAL, SDPA_CODEC_E4M3, 0),
                     -1);
    assert_int_equal(errno, EINVAL);
    assert_int_equal(inputs_generate(&in, (sdpa_shape_t){1, 1, 4, 64, 0}, (dist_t)9, SDPA_CODEC_E4M3, 0), -1);
    assert_int_equal(inputs_generate(&in, (sdpa_shape_t){1, 1, 4, 64, 0}, DIST_NORMAL, (sdpa_codec_t)9, 0),
                     -1);
    inputs_free(&in); /* harmless after a failure */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_checksums),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_draw_order),
        cmocka_unit_test(test_amax_maps_to_448),
        cmocka_unit_test(test_zero_head_scale_one),
        cmocka_unit_test(test_shapes_and_names),
        cmocka_unit_test(test_threaded_is_the_definition),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
