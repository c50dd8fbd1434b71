/* The project RNG (host/lib/rng.c): golden values, stream independence, distribution sanity.
 * Golden values: the xoshiro256** vector for the state {1, 2, 3, 4} is the published reference
 * generator's output; the seeded values were produced by this implementation and checked against
 * an independent Python re-implementation of the seeding rule in rng.c (SplitMix64 of the stream,
 * XOR the seed, four SplitMix64 outputs; for the normals also the polar method and rng_log's
 * series, in Python's IEEE doubles), which gave the same bits. Any change to the streams fails. */
#include "testutil.h"

#include "rng.h"

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

static uint64_t fnv_u64(uint64_t h, uint64_t v) {
    for (int b = 0; b < 8; b++) {
        h ^= (v >> (8 * b)) & 0xff;
        h *= FNV_PRIME;
    }
    return h;
}

static uint64_t double_bits(double x) {
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

static void test_xoshiro_reference_vector(void **state) {
    (void)state;
    rng_t r = {.s = {1, 2, 3, 4}};
    assert_int_equal(rng_next_u64(&r), 11520ULL);
    assert_int_equal(rng_next_u64(&r), 0ULL);
    assert_int_equal(rng_next_u64(&r), 1509978240ULL);
    assert_int_equal(rng_next_u64(&r), 1215971899390074240ULL);
}

static void test_golden_streams(void **state) {
    (void)state;
    rng_t r;
    rng_seed(&r, 0, 0);
    assert_int_equal(rng_next_u64(&r), 0xfb5405f7bd79c540ULL);
    assert_int_equal(rng_next_u64(&r), 0x780c98e26cea5883ULL);
    assert_int_equal(rng_next_u64(&r), 0x2a146e0980febc66ULL);
    assert_int_equal(rng_next_u64(&r), 0x4851477db8791fcaULL);
    rng_seed(&r, 42, 7);
    uint64_t h = FNV_OFFSET;
    for (int i = 0; i < 1000; i++) h = fnv_u64(h, rng_next_u64(&r));
    assert_int_equal(h, 0xbd7a1531bcae4f26ULL);
    /* Normals and uniforms: bits of the first 10000 values (pins rng_log and the polar method). */
    rng_seed(&r, 1, 2);
    h = FNV_OFFSET;
    for (int i = 0; i < 10000; i++) h = fnv_u64(h, double_bits(rng_normal(&r)));
    assert_int_equal(h, 0x57c09c92f7f33c00ULL);
    rng_seed(&r, 1, 3);
    h = FNV_OFFSET;
    for (int i = 0; i < 10000; i++) h = fnv_u64(h, double_bits(rng_uniform(&r, -1.0, 1.0)));
    assert_int_equal(h, 0xf6160fb3c751c913ULL);
}

/* A stream's values depend only on (seed, stream), not on other streams or the order of draws. */
static void test_streams_independent(void **state) {
    (void)state;
    enum { N = 64 };
    uint64_t alone[3][N];
    for (uint64_t s = 0; s < 3; s++) {
        rng_t r;
        rng_seed(&r, 5, s);
        for (int i = 0; i < N; i++) alone[s][i] = rng_next_u64(&r);
    }
    rng_t r[3];
    for (int s = 2; s >= 0; s--) rng_seed(&r[s], 5, (uint64_t)s); /* reverse order, interleaved */
    for (int i = 0; i < N; i++)
        for (int s = 2; s >= 0; s--) assert_int_equal(rng_next_u64(&r[s]), alone[s][i]);
    /* Different streams and different seeds give different values. */
    assert_true(alone[0][0] != alone[1][0] && alone[1][0] != alone[2][0]);
    rng_t a, b;
    rng_seed(&a, 6, 0);
    rng_seed(&b, 5, 0);
    assert_true(rng_next_u64(&a) != rng_next_u64(&b));
}

/* Sample moments within 5 standard errors, the errors computed for the sample size. */
static void test_uniform_moments(void **state) {
    (void)state;
    const int N = 1000000;
    rng_t r;
    rng_seed(&r, 123, 0);
    double sum = 0.0, sum2 = 0.0, lo = 1.0, hi = 0.0;
    for (int i = 0; i < N; i++) {
        double u = rng_uniform01(&r);
        assert_true(u >= 0.0 && u < 1.0);
        sum += u;
        sum2 += (u - 0.5) * (u - 0.5);
        lo = fmin(lo, u);
        hi = fmax(hi, u);
    }
    /* U(0,1): mean 1/2, var 1/12; sd of the mean sqrt(1/12/N); of (U-1/2)^2's mean sqrt(1/180/N). */
    assert_close(sum / N, 0.5, 5.0 * sqrt(1.0 / 12.0 / N));
    assert_close(sum2 / N, 1.0 / 12.0, 5.0 * sqrt(1.0 / 180.0 / N));
    assert_true(lo < 1e-5 && hi > 1.0 - 1e-5);
    for (int i = 0; i < 1000; i++) {
        double x = rng_uniform(&r, -2.0, 3.0);
        assert_true(x >= -2.0 && x < 3.0);
    }
}

static void test_normal_moments(void **state) {
    (void)state;
    const int N = 1000000;
    rng_t r;
    rng_seed(&r, 321, 0);
    double s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0;
    for (int i = 0; i < N; i++) {
        double z = rng_normal(&r);
        s1 += z;
        s2 += z * z;
        s3 += z * z * z;
        s4 += z * z * z * z;
    }
    /* N(0,1): E z = 0 (sd 1), E z^2 = 1 (sd sqrt 2), E z^3 = 0 (sd sqrt 15), E z^4 = 3 (sd sqrt 96). */
    assert_close(s1 / N, 0.0, 5.0 * sqrt(1.0 / N));
    assert_close(s2 / N, 1.0, 5.0 * sqrt(2.0 / N));
    assert_close(s3 / N, 0.0, 5.0 * sqrt(15.0 / N));
    assert_close(s4 / N, 3.0, 5.0 * sqrt(96.0 / N));
}

static void test_below(void **state) {
    (void)state;
    rng_t r;
    rng_seed(&r, 9, 0);
    for (int i = 0; i < 100; i++) assert_int_equal(rng_below(&r, 1), 0);
    const int N = 300000;
    int count[3] = {0, 0, 0};
    for (int i = 0; i < N; i++) {
        uint64_t x = rng_below(&r, 3);
        assert_true(x < 3);
        count[x]++;
    }
    /* Each count ~ Bin(N, 1/3): sd sqrt(N 2/9). */
    for (int k = 0; k < 3; k++) assert_close(count[k], N / 3.0, 5.0 * sqrt(N * 2.0 / 9.0));
    uint64_t big = (1ULL << 63) + 12345;
    for (int i = 0; i < 1000; i++) assert_true(rng_below(&r, big) < big);
}

/* rng_log against libm's log: a few ulps everywhere, exact at 1. */
static void test_log(void **state) {
    (void)state;
    const double xs[] = {1.0,       2.0,       0.5,        10.0,       1e-300, 5e-324,    1e300,
                         0.9999999, 1.0000001, 0.70710678, 1.41421356, 3.0e-5, 123456.789};
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        double ref = log(xs[i]);
        assert_close(rng_log(xs[i]), ref, fabs(ref) * 4e-16 + 1e-300);
    }
    assert_same_double(rng_log(1.0), 0.0);
    rng_t r;
    rng_seed(&r, 77, 0);
    for (int i = 0; i < 100000; i++) {
        double x = rng_uniform01(&r);
        if (x == 0.0) continue;
        double ref = log(x);
        assert_close(rng_log(x), ref, fabs(ref) * 4e-16 + 4e-16);
    }
    assert_true(isnan(rng_log(0.0)));
    assert_true(isnan(rng_log(-1.0)));
    assert_true(isnan(rng_log(NAN)));
    assert_true(isinf(rng_log(INFINITY)));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xoshiro_reference_vector),
        cmocka_unit_test(test_golden_streams),
        cmocka_unit_test(test_streams_independent),
        cmocka_unit_test(test_uniform_moments),
        cmocka_unit_test(test_normal_moments),
        cmocka_unit_test(test_below),
        cmocka_unit_test(test_log),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
