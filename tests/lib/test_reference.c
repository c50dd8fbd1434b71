/* fp64 reference attention (host/lib/reference.c): properties that pin the definition, and the bounds
 * on a case small enough to do by hand. */
#include "testutil.h"

#include <errno.h>

#include "reference.h"
#include "random_tensor.h"

/* Q = 0: all logits 0, uniform weights, every output row is the mean of V's rows. */
static void test_zero_q_gives_mean(void **state) {
    (void)state;
    sdpa_shape_t sh = {2, 2, 5, 8, 0};
    size_t n = shape_numel(sh), S = 5, D = 8;
    double *q = calloc(n, sizeof *q), *k = random_tensor(n, 1), *v = random_tensor(n, 2);
    double *o = malloc(n * sizeof *o);
    assert_int_equal(reference_attention(q, k, v, sh, 0.0, o, NULL), 0);
    for (size_t bh = 0; bh < 4; bh++)
        for (size_t d = 0; d < D; d++) {
            double mean = 0.0;
            for (size_t j = 0; j < S; j++) mean += v[bh * S * D + j * D + d];
            mean /= (double)S;
            for (size_t i = 0; i < S; i++) assert_close(o[bh * S * D + i * D + d], mean, 1e-14);
        }
    free(q);
    free(k);
    free(v);
    free(o);
}

/* A key far larger than the others along q takes all the weight: o = its value row. */
static void test_dominant_key_selects_value(void **state) {
    (void)state;
    sdpa_shape_t sh = {1, 1, 6, 4, 0};
    size_t n = shape_numel(sh);
    double *q = calloc(n, sizeof *q), *k = random_tensor(n, 3), *v = random_tensor(n, 4);
    double *o = malloc(n * sizeof *o);
    for (size_t i = 0; i < 6; i++) q[i * 4] = 1.0; /* every query along e1 */
    for (size_t d = 0; d < 4; d++) k[3 * 4 + d] = d == 0 ? 500.0 : 0.0;
    assert_int_equal(reference_attention(q, k, v, sh, 1.0, o, NULL), 0);
    for (size_t i = 0; i < 6; i++)
        for (size_t d = 0; d < 4; d++) assert_close(o[i * 4 + d], v[3 * 4 + d], 1e-12);
    free(q);
    free(k);
    free(v);
    free(o);
}

/* Permuting keys and values together leaves the output unchanged (up to summation order). */
static void test_key_permutation_invariance(void **state) {
    (void)state;
    sdpa_shape_t sh = {1, 2, 37, 64, 0};
    size_t n = shape_numel(sh), S = 37, D = 64;
    double *q = random_tensor(n, 5), *k = random_tensor(n, 6), *v = random_tensor(n, 7);
    double *kp = malloc(n * sizeof *kp), *vp = malloc(n * sizeof *vp);
    double *o = malloc(n * sizeof *o), *op = malloc(n * sizeof *op);
    rng_t r;
    rng_seed(&r, 8, 0);
    size_t perm[37];
    for (size_t j = 0; j < S; j++) perm[j] = j;
    for (size_t j = S - 1; j > 0; j--) { /* Fisher-Yates */
        size_t t = (size_t)rng_below(&r, j + 1), tmp = perm[j];
        perm[j] = perm[t];
        perm[t] = tmp;
    }
    for (size_t bh = 0; bh < 2; bh++)
        for (size_t j = 0; j < S; j++) {
            memcpy(kp + bh * S * D + j * D, k + bh * S * D + perm[j] * D, D * sizeof *kp);
            memcpy(vp + bh * S * D + j * D, v + bh * S * D + perm[j] * D, D * sizeof *vp);
        }
    reference_bounds_t b1, b2;
    double sm1[2], vm1[2], sm2[2], vm2[2];
    b1 = (reference_bounds_t){sm1, vm1};
    b2 = (reference_bounds_t){sm2, vm2};
    assert_int_equal(reference_attention(q, k, v, sh, 0.125, o, &b1), 0);
    assert_int_equal(reference_attention(q, kp, vp, sh, 0.125, op, &b2), 0);
    for (size_t i = 0; i < n; i++) assert_close(op[i], o[i], 1e-12);
    for (int i = 0; i < 2; i++) {
        assert_same_double(sm1[i], sm2[i]);
        assert_same_double(vm1[i], vm2[i]);
    }
    free(q);
    free(k);
    free(v);
    free(kp);
    free(vp);
    free(o);
    free(op);
}

/* One key: the weight is exp(0)/exp(0) = 1 exactly, so O = V bit for bit. */
static void test_single_key_gives_v(void **state) {
    (void)state;
    sdpa_shape_t sh = {2, 3, 1, 64, 0};
    size_t n = shape_numel(sh);
    double *q = random_tensor(n, 9), *k = random_tensor(n, 10), *v = random_tensor(n, 11);
    double *o = malloc(n * sizeof *o);
    assert_int_equal(reference_attention(q, k, v, sh, 0.0, o, NULL), 0);
    assert_memory_equal(o, v, n * sizeof *o);
    free(q);
    free(k);
    free(v);
    free(o);
}

/* S = 2, D = 2, scale 1/2, by hand: q0 = (1,0), q1 = (0,2); k0 = (3,0), k1 = (0,-1).
 * Logits: q0.k0 = 3, q0.k1 = 0, q1.k0 = 0, q1.k1 = -2, times 1/2: 1.5, 0, 0, -1 -> Smax = 1.5.
 * V = ((1,-4), (2,3)) -> Vmax = 4. Row 0: w0 = e^1.5/(e^1.5 + 1); row 1: w0 = 1/(1 + e^-1). */
static void test_hand_case_and_bounds(void **state) {
    (void)state;
    sdpa_shape_t sh = {1, 1, 2, 2, 0};
    const double q[] = {1, 0, 0, 2}, k[] = {3, 0, 0, -1}, v[] = {1, -4, 2, 3};
    double o[4], smax, vmax;
    reference_bounds_t b = {&smax, &vmax};
    assert_int_equal(reference_attention(q, k, v, sh, 0.5, o, &b), 0);
    assert_same_double(smax, 1.5);
    assert_same_double(vmax, 4.0);
    double w0 = exp(1.5) / (exp(1.5) + 1.0), w1 = 1.0 / (1.0 + exp(-1.0));
    assert_close(o[0], w0 * 1 + (1 - w0) * 2, 1e-15);
    assert_close(o[1], w0 * -4 + (1 - w0) * 3, 1e-15);
    assert_close(o[2], w1 * 1 + (1 - w1) * 2, 1e-15);
    assert_close(o[3], w1 * -4 + (1 - w1) * 3, 1e-15);
    /* Default scale (0 given): 1/sqrt(D) = 1/sqrt(2). */
    double o2[4];
    assert_int_equal(reference_attention(q, k, v, sh, 0.0, o2, &b), 0);
    assert_close(smax, 3.0 / sqrt(2.0), 1e-15);
    double o3[4];
    assert_int_equal(reference_attention(q, k, v, sh, 1.0 / sqrt(2.0), o3, NULL), 0);
    assert_memory_equal(o2, o3, sizeof o2);
}

/* Bounds are per (b, h) slice: each slice sees only its own data. */
static void test_bounds_per_slice(void **state) {
    (void)state;
    sdpa_shape_t sh = {2, 2, 3, 2, 0};
    size_t n = shape_numel(sh);
    double q[24], k[24], v[24], o[24], smax[4], vmax[4];
    for (size_t i = 0; i < n; i++) {
        size_t bh = i / 6;
        q[i] = (double)(bh + 1); /* every q element = bh + 1 */
        k[i] = 1.0;
        v[i] = (i % 6 == 4) ? -10.0 * (double)(bh + 1) : 0.5;
    }
    reference_bounds_t b = {smax, vmax};
    assert_int_equal(reference_attention(q, k, v, sh, 1.0, o, &b), 0);
    for (size_t bh = 0; bh < 4; bh++) {
        assert_same_double(smax[bh], 2.0 * (double)(bh + 1)); /* q.k = 2 (bh + 1) */
        assert_same_double(vmax[bh], 10.0 * (double)(bh + 1));
    }
}

static void test_bad_shape(void **state) {
    (void)state;
    double x[4] = {0};
    assert_int_equal(reference_attention(x, x, x, (sdpa_shape_t){1, 1, 0, 4, 0}, 1.0, x, NULL), -1);
    assert_int_equal(reference_attention(x, x, x, (sdpa_shape_t){1, 1, 1, -4, 0}, 1.0, x, NULL), -1);
    assert_int_equal(reference_attention(NULL, x, x, (sdpa_shape_t){1, 1, 1, 4, 0}, 1.0, x, NULL), -1);
}

/* The same bits whatever the thread count: 1 (serial), 2, 3 and 7 threads (more than the work's
 * chunks of some slices, fewer than its items), and the default (every CPU of the process), on
 * slices of a length that is not a multiple of the work's chunk. */
static void test_threads_same_bits(void **state) {
    (void)state;
    sdpa_shape_t sh = {2, 3, 37, 64, 0};
    const size_t n = shape_numel(sh), slices = 6;
    double *q = random_tensor(n, 11), *k = random_tensor(n, 12), *v = random_tensor(n, 13);
    double *o1 = malloc(n * sizeof *o1), *o = malloc(n * sizeof *o);
    double s1[6], v1[6], s[6], vm[6];
    assert_non_null(o1);
    assert_non_null(o);
    reference_bounds_t b1 = {s1, v1}, b = {s, vm};
    assert_int_equal(reference_attention_rows(q, k, v, sh, 0.0, NULL, 0, 1, o1, &b1), 0);
    const unsigned counts[] = {2, 3, 7, 0};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        memset(o, 0, n * sizeof *o);
        assert_int_equal(reference_attention_rows(q, k, v, sh, 0.0, NULL, 0, counts[c], o, &b), 0);
        assert_memory_equal(o, o1, n * sizeof *o);
        assert_memory_equal(s, s1, slices * sizeof *s);
        assert_memory_equal(vm, v1, slices * sizeof *vm);
    }
    assert_int_equal(reference_attention(q, k, v, sh, 0.0, o, NULL), 0); /* the every-CPU default */
    assert_memory_equal(o, o1, n * sizeof *o);
    assert_true(reference_cpus() >= 1);
    free(q);
    free(k);
    free(v);
    free(o1);
    free(o);
}

/* The sample's rule (reference.h): one row per stratum at a golden-ratio offset, both ends,
 * ascending; all rows when the sample would hold as many; one row refused. At the sweep's S values
 * (512 ... 16384, 256 rows) every position within a 32-row tile (the kernels' block of query rows)
 * is sampled, and every tile while S <= 8192 (at 16384: 256 of 512 tiles, one row each at most). */
static void test_sample_rows_rule(void **state) {
    (void)state;
    size_t *rows = malloc(16384 * sizeof *rows);
    assert_non_null(rows);
    for (size_t S = 512; S <= 16384; S *= 2) {
        assert_int_equal(reference_sample_rows(S, 256, rows), 256);
        assert_int_equal(rows[0], 0);
        assert_int_equal(rows[255], S - 1);
        bool offset[32] = {false}, tile[512] = {false};
        size_t tiles = 0;
        for (size_t i = 0; i < 256; i++) {
            if (i) assert_true(rows[i] > rows[i - 1]);
            assert_true(rows[i] >= i * S / 256 && rows[i] < (i + 1) * S / 256); /* its stratum */
            offset[rows[i] % 32] = true;
            tiles += !tile[rows[i] / 32];
            tile[rows[i] / 32] = true;
        }
        for (size_t t = 0; t < 32; t++) assert_true(offset[t]);
        assert_int_equal(tiles, S <= 8192 ? S / 32 : 256);
    }
    /* The rule's own numbers, pinned (a change of rule changes what a sampled run checked). */
    assert_int_equal(reference_sample_rows(2048, 256, rows), 256);
    const size_t first[6] = {0, 12, 17, 30, 35, 40};
    for (size_t i = 0; i < 6; i++) assert_int_equal(rows[i], first[i]);
    assert_int_equal(reference_sample_rows(100, 256, rows), 100); /* S <= n: every row */
    for (size_t i = 0; i < 100; i++) assert_int_equal(rows[i], i);
    assert_int_equal(reference_sample_rows(256, 256, rows), 256);
    assert_int_equal(rows[255], 255);
    assert_int_equal(reference_sample_rows(33, 0, rows), 33); /* 0: every row */
    assert_int_equal(reference_sample_rows(10, 2, rows), 2);
    assert_true(rows[0] == 0 && rows[1] == 9);
    assert_int_equal(reference_sample_rows(10, 1, rows), 0);
    free(rows);
}

/* A sampled reference is the full one's rows, bit for bit, and its smax is the maximum over the
 * sampled rows (at most the slice's); vmax is over the whole slice either way. */
static void test_sampled_rows_equal_full(void **state) {
    (void)state;
    sdpa_shape_t sh = {1, 2, 300, 64, 0};
    const size_t n = shape_numel(sh), S = 300, D = 64, N = 40;
    double *q = random_tensor(n, 21), *k = random_tensor(n, 22), *v = random_tensor(n, 23);
    double *full = malloc(n * sizeof *full), *part = malloc(2 * N * D * sizeof *part);
    size_t rows[40];
    double fs[2], fv[2], ps[2], pv[2];
    reference_bounds_t fb = {fs, fv}, pb = {ps, pv};
    assert_int_equal(reference_sample_rows(S, N, rows), N);
    assert_int_equal(reference_attention(q, k, v, sh, 0.0, full, &fb), 0);
    assert_int_equal(reference_attention_rows(q, k, v, sh, 0.0, rows, N, 3, part, &pb), 0);
    for (size_t bh = 0; bh < 2; bh++) {
        double smax = 0.0;
        for (size_t r = 0; r < N; r++) {
            assert_memory_equal(part + (bh * N + r) * D, full + (bh * S + rows[r]) * D, D * sizeof(double));
            for (size_t j = 0; j < S; j++) {
                double dot = 0.0;
                for (size_t d = 0; d < D; d++) dot += q[(bh * S + rows[r]) * D + d] * k[(bh * S + j) * D + d];
                smax = fmax(smax, fabs(dot) / 8.0);
            }
        }
        assert_close(ps[bh], smax, 1e-12 * smax);
        assert_true(ps[bh] <= fs[bh]);
        assert_same_double(pv[bh], fv[bh]);
    }
    /* A row list out of order or out of range is refused. */
    size_t bad[2] = {5, 3}, far[1] = {300};
    errno = 0;
    assert_int_equal(reference_attention_rows(q, k, v, sh, 0.0, bad, 2, 1, part, NULL), -1);
    assert_int_equal(errno, EINVAL);
    assert_int_equal(reference_attention_rows(q, k, v, sh, 0.0, far, 1, 1, part, NULL), -1);
    free(q);
    free(k);
    free(v);
    free(full);
    free(part);
}

/* Causal: row i of a causal slice is row i of the non-causal reference over the first i + 1 keys
 * alone (bit for bit: the same arithmetic on the same keys), and the slice's smax is over those
 * logits only. */
static void test_causal_row_is_its_prefix(void **state) {
    (void)state;
    const size_t S = 37, D = 16;
    sdpa_shape_t sh = {1, 2, (int32_t)S, (int32_t)D, 1};
    size_t n = shape_numel(sh);
    double *q = random_tensor(n, 21), *k = random_tensor(n, 22), *v = random_tensor(n, 23);
    double *o = malloc(n * sizeof *o), *op = malloc(n * sizeof *op), smax[2], vmax[2];
    reference_bounds_t b = {smax, vmax};
    assert_int_equal(reference_attention(q, k, v, sh, 0.0, o, &b), 0);
    for (size_t bh = 0; bh < 2; bh++) {
        double want_smax = 0.0;
        for (size_t i = 0; i < S; i++) {
            /* the slice's first i + 1 keys and values, as their own slice of length i + 1 */
            sdpa_shape_t pre = {1, 1, (int32_t)(i + 1), (int32_t)D, 0};
            double *qp = malloc((i + 1) * D * sizeof *qp), pre_smax, pre_vmax;
            reference_bounds_t pb = {&pre_smax, &pre_vmax};
            for (size_t r = 0; r <= i; r++) memcpy(qp + r * D, q + (bh * S + i) * D, D * sizeof *qp);
            assert_int_equal(
                reference_attention(qp, k + bh * S * D, v + bh * S * D, pre, 1.0 / sqrt((double)D), op, &pb),
                0);
            for (size_t d = 0; d < D; d++) assert_same_double(o[(bh * S + i) * D + d], op[i * D + d]);
            want_smax = fmax(want_smax, pre_smax);
            free(qp);
        }
        assert_same_double(smax[bh], want_smax);
    }
    /* row 0 sees key 0 alone: its output is v_0 */
    for (size_t d = 0; d < D; d++) assert_same_double(o[d], v[d]);
    free(q), free(k), free(v), free(o), free(op);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_causal_row_is_its_prefix),   cmocka_unit_test(test_zero_q_gives_mean),
        cmocka_unit_test(test_dominant_key_selects_value), cmocka_unit_test(test_key_permutation_invariance),
        cmocka_unit_test(test_single_key_gives_v),         cmocka_unit_test(test_hand_case_and_bounds),
        cmocka_unit_test(test_bounds_per_slice),           cmocka_unit_test(test_bad_shape),
        cmocka_unit_test(test_threads_same_bits),          cmocka_unit_test(test_sample_rows_rule),
        cmocka_unit_test(test_sampled_rows_equal_full),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
