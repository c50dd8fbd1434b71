/* The fp8 formats and the codecs (host/lib/fp8.c). Expected values come from the format definitions
 * (OCP OFP8 v1.0) computed independently here with ldexp, not from the code under test; the
 * bit-exact comparison with the CUDA toolkit is tests/lib/fp8_cuda_check.cpp. */
#include "testutil.h"

#include "fp8.h"

/* The value of an E4M3 code from its fields: S.EEEE.MMM, bias 7, S.1111.111 NaN. */
static double e4m3_by_fields(unsigned c) {
    unsigned s = c >> 7, e = (c >> 3) & 15, m = c & 7;
    if ((c & 0x7f) == 0x7f) return NAN;
    double v = e == 0 ? ldexp(m / 8.0, -6) : ldexp(1.0 + m / 8.0, (int)e - 7);
    return s ? -v : v;
}

/* E5M2: S.EEEEE.MM, bias 15, exponent 31: infinity (M = 0) or NaN. */
static double e5m2_by_fields(unsigned c) {
    unsigned s = c >> 7, e = (c >> 2) & 31, m = c & 3;
    double v;
    if (e == 31)
        v = m ? NAN : INFINITY;
    else
        v = e == 0 ? ldexp(m / 4.0, -14) : ldexp(1.0 + m / 4.0, (int)e - 15);
    return s && !isnan(v) ? -v : v;
}

static void test_decode_all_codes(void **state) {
    (void)state;
    for (unsigned c = 0; c < 256; c++) {
        double a = e4m3_by_fields(c), b = e5m2_by_fields(c);
        double fa = fp8_to_float((uint8_t)c, FP8_E4M3), fb = fp8_to_float((uint8_t)c, FP8_E5M2);
        if (isnan(a))
            assert_true(isnan(fa));
        else
            assert_same_double(fa, a);
        if (isnan(b))
            assert_true(isnan(fb));
        else
            assert_same_double(fb, b);
    }
    /* Landmarks. */
    assert_same_double(fp8_to_float(0x7e, FP8_E4M3), 448.0);
    assert_same_double(fp8_to_float(0xfe, FP8_E4M3), -448.0);
    assert_same_double(fp8_to_float(0x01, FP8_E4M3), 0x1p-9);
    assert_same_double(fp8_to_float(0x08, FP8_E4M3), 0x1p-6);
    assert_same_double(fp8_to_float(0x38, FP8_E4M3), 1.0);
    assert_same_double(fp8_to_float(0x80, FP8_E4M3), -0.0);
    assert_same_double(fp8_to_float(0x7b, FP8_E5M2), 57344.0);
    assert_same_double(fp8_to_float(0x01, FP8_E5M2), 0x1p-16);
    assert_same_double(fp8_to_float(0xfc, FP8_E5M2), -INFINITY);
    /* As halves: exact; NaN codes give the canonical half NaN. */
    assert_int_equal(fp8_to_half_bits(0x38, FP8_E4M3), 0x3c00);
    assert_int_equal(fp8_to_half_bits(0x01, FP8_E4M3), 0x1800); /* 2^-9: a normal half */
    assert_int_equal(fp8_to_half_bits(0x7e, FP8_E4M3), 0x5f00); /* 448 */
    assert_int_equal(fp8_to_half_bits(0x7f, FP8_E4M3), 0x7fff);
    assert_int_equal(fp8_to_half_bits(0xff, FP8_E4M3), 0x7fff);
    assert_int_equal(fp8_to_half_bits(0x7c, FP8_E5M2), 0x7c00);
    assert_int_equal(fp8_to_half_bits(0xfd, FP8_E5M2), 0x7fff);
}

static bool is_nan_code(unsigned c, fp8_format_t f) {
    return f == FP8_E4M3 ? (c & 0x7f) == 0x7f : (c & 0x7f) > 0x7c;
}

static void test_round_trip(void **state) {
    (void)state;
    const fp8_format_t fmts[2] = {FP8_E4M3, FP8_E5M2};
    for (int i = 0; i < 2; i++) {
        for (unsigned c = 0; c < 256; c++) {
            if (is_nan_code(c, fmts[i])) continue;
            float v = fp8_to_float((uint8_t)c, fmts[i]);
            assert_int_equal(fp8_from_float(v, fmts[i], FP8_NOSAT), c);
            if (!isinf(v)) assert_int_equal(fp8_from_float(v, fmts[i], FP8_SATFINITE), c);
        }
    }
}

/* Between adjacent positive codes c and c+1 (both finite): the midpoint goes to the even code,
 * anything a float ulp off goes to the nearer one; the same mirrored with the sign bit. Covers
 * the tie between 0 and the smallest subnormal, the subnormal ties, and the tie at the
 * subnormal/normal boundary. */
static void check_ties(fp8_format_t f, unsigned max_code) {
    for (unsigned c = 0; c < max_code; c++) {
        double lo = fp8_to_float((uint8_t)c, f), hi = fp8_to_float((uint8_t)(c + 1), f);
        float mid = (float)((lo + hi) / 2); /* exact: at most 5 significant bits */
        unsigned even = (c % 2 == 0) ? c : c + 1;
        for (int neg = 0; neg < 2; neg++) {
            float s = neg ? -1.0f : 1.0f;
            unsigned sign = neg ? 0x80u : 0u;
            for (int sat = 0; sat < 2; sat++) {
                fp8_saturation_t m = sat ? FP8_SATFINITE : FP8_NOSAT;
                assert_int_equal(fp8_from_float(s * mid, f, m), even | sign);
                assert_int_equal(fp8_from_float(s * nextafterf(mid, 0.0f), f, m), c | sign);
                assert_int_equal(fp8_from_float(s * nextafterf(mid, INFINITY), f, m), (c + 1) | sign);
            }
        }
    }
}

static void test_ties_e4m3(void **state) {
    (void)state;
    check_ties(FP8_E4M3, 0x7e);
}

static void test_ties_e5m2(void **state) {
    (void)state;
    check_ties(FP8_E5M2, 0x7b);
}

/* Above the largest finite value: E4M3's next step would be 480 (a NaN pattern), so 464 is the
 * tie between 448 and overflow and goes to the even 448 (0x7e); E5M2's tie 61440 goes to the even
 * side, which is 65536 = overflow. */
static void test_max_tie_and_saturation(void **state) {
    (void)state;
    assert_int_equal(fp8_from_float(464.0f, FP8_E4M3, FP8_NOSAT), 0x7e);
    assert_int_equal(fp8_from_float(464.0f, FP8_E4M3, FP8_SATFINITE), 0x7e);
    assert_int_equal(fp8_from_float(-464.0f, FP8_E4M3, FP8_NOSAT), 0xfe);
    assert_int_equal(fp8_from_float(nextafterf(464.0f, INFINITY), FP8_E4M3, FP8_NOSAT), 0x7f);
    assert_int_equal(fp8_from_float(nextafterf(464.0f, INFINITY), FP8_E4M3, FP8_SATFINITE), 0x7e);
    assert_int_equal(fp8_from_float(-nextafterf(464.0f, INFINITY), FP8_E4M3, FP8_NOSAT), 0xff);
    assert_int_equal(fp8_from_float(-nextafterf(464.0f, INFINITY), FP8_E4M3, FP8_SATFINITE), 0xfe);
    assert_int_equal(fp8_from_float(61440.0f, FP8_E5M2, FP8_NOSAT), 0x7c);
    assert_int_equal(fp8_from_float(61440.0f, FP8_E5M2, FP8_SATFINITE), 0x7b);
    assert_int_equal(fp8_from_float(nextafterf(61440.0f, 0.0f), FP8_E5M2, FP8_NOSAT), 0x7b);
    assert_int_equal(fp8_from_float(-61440.0f, FP8_E5M2, FP8_NOSAT), 0xfc);
    /* Infinities and huge values. */
    assert_int_equal(fp8_from_float(INFINITY, FP8_E4M3, FP8_NOSAT), 0x7f);
    assert_int_equal(fp8_from_float(-INFINITY, FP8_E4M3, FP8_NOSAT), 0xff);
    assert_int_equal(fp8_from_float(INFINITY, FP8_E4M3, FP8_SATFINITE), 0x7e);
    assert_int_equal(fp8_from_float(-INFINITY, FP8_E4M3, FP8_SATFINITE), 0xfe);
    assert_int_equal(fp8_from_float(INFINITY, FP8_E5M2, FP8_NOSAT), 0x7c);
    assert_int_equal(fp8_from_float(-INFINITY, FP8_E5M2, FP8_NOSAT), 0xfc);
    assert_int_equal(fp8_from_float(INFINITY, FP8_E5M2, FP8_SATFINITE), 0x7b);
    assert_int_equal(fp8_from_float(-INFINITY, FP8_E5M2, FP8_SATFINITE), 0xfb);
    assert_int_equal(fp8_from_float(1e30f, FP8_E4M3, FP8_SATFINITE), 0x7e);
    assert_int_equal(fp8_from_float(-3.4e38f, FP8_E5M2, FP8_NOSAT), 0xfc);
    /* NaN, either sign: the canonical 0x7f in both formats. */
    for (int sat = 0; sat < 2; sat++) {
        assert_int_equal(fp8_from_float(NAN, FP8_E4M3, (fp8_saturation_t)sat), 0x7f);
        assert_int_equal(fp8_from_float(-NAN, FP8_E4M3, (fp8_saturation_t)sat), 0x7f);
        assert_int_equal(fp8_from_float(NAN, FP8_E5M2, (fp8_saturation_t)sat), 0x7f);
        assert_int_equal(fp8_from_float(-NAN, FP8_E5M2, (fp8_saturation_t)sat), 0x7f);
    }
    /* Underflow keeps the sign. */
    assert_int_equal(fp8_from_float(-1e-9f, FP8_E4M3, FP8_SATFINITE), 0x80);
    assert_int_equal(fp8_from_float(-0.0f, FP8_E5M2, FP8_NOSAT), 0x80);
    assert_int_equal(fp8_from_float(0x1p-149f, FP8_E5M2, FP8_NOSAT), 0x00);
}

static void test_seedlin_formulas(void **state) {
    (void)state;
    const double a = 3.5;
    assert_same_double(seedlin_decode(128, a), 0.0);
    assert_same_double(seedlin_decode(255, a), a);
    assert_same_double(seedlin_decode(1, a), -a);
    assert_close(seedlin_decode(0, a), -128.0 / 127.0 * a, 1e-15);
    assert_close(seedlin_decode(200, a), 72.0 / 127.0 * a, 1e-15);
    /* Matched encoder: the decoder's grid; every x in [-a, a] decodes within half a step. */
    assert_int_equal(seedlin_encode_matched(0.0f, 3.5f), 128);
    assert_int_equal(seedlin_encode_matched(3.5f, 3.5f), 255);
    assert_int_equal(seedlin_encode_matched(-3.5f, 3.5f), 1);
    assert_int_equal(seedlin_encode_matched(100.0f, 3.5f), 255); /* clamped */
    for (int i = -1000; i <= 1000; i++) {
        float x = (float)(a * i / 1000.0);
        double err = seedlin_decode(seedlin_encode_matched(x, (float)a), a) - x;
        assert_true(fabs(err) <= a / 254.0 * (1 + 1e-6));
    }
    /* The biased encoder at its ends: -a encodes to 0, which decodes to -128/127 a. */
    assert_int_equal(seedlin_encode_biased(3.5f, 3.5f), 255);
    assert_int_equal(seedlin_encode_biased(-3.5f, 3.5f), 0);
    assert_int_equal(seedlin_encode_biased(-100.0f, 3.5f), 0); /* clamped */
}

/* The original harness's bias, as it really is. At x = 0, (0 + 1) * 127.5 = 127.5 is a tie and
 * goes to the even 128, which decodes to exactly 0. Off zero the grids differ: decoded
 * ~ (127.5/127) x - 0.5/127 amax + rounding, so over x uniform on a symmetric interval the mean
 * error is -0.5/127 amax = -0.003937 amax (the rounding term averages out) and the
 * least-squares gain is 127.5/127 = 1.003937. */
static void test_seedlin_biased_bias(void **state) {
    (void)state;
    const float a = 2.0f;
    assert_int_equal(seedlin_encode_biased(0.0f, a), 128);
    assert_same_double(seedlin_decode(seedlin_encode_biased(0.0f, a), a), 0.0);
    /* x = 0.25 a: 1.25 * 127.5 = 159.375 -> 159 -> 31/127 a. */
    assert_int_equal(seedlin_encode_biased(0.5f, a), 159);
    const int N = 200000;
    double sum_err = 0.0, sxx = 0.0, sxy = 0.0;
    for (int i = 0; i < N; i++) {
        double x = a * (-0.5 + (i + 0.5) / N); /* uniform grid on [-a/2, a/2] */
        double y = seedlin_decode(seedlin_encode_biased((float)x, a), a);
        sum_err += y - x;
        sxx += x * x;
        sxy += x * (y + 0.5 / 127.0 * a);
    }
    assert_close(sum_err / N / a, -0.5 / 127.0, 2e-6);
    assert_close(sxy / sxx, 127.5 / 127.0, 1e-4);
    /* The matched encoder has no such offset. */
    double sum_m = 0.0;
    for (int i = 0; i < N; i++) {
        double x = a * (-0.5 + (i + 0.5) / N);
        sum_m += seedlin_decode(seedlin_encode_matched((float)x, a), a) - x;
    }
    assert_close(sum_m / N / a, 0.0, 2e-6);
}

static void test_codec_helpers(void **state) {
    (void)state;
    const float scale = 0.0078125f; /* amax 3.5 */
    assert_same_double(codec_unit(SDPA_CODEC_E4M3, 0x38), 1.0);
    assert_same_double(codec_unit(SDPA_CODEC_E4M3, 0xfe), -448.0);
    assert_same_double(codec_step(SDPA_CODEC_E4M3, scale), 0.0078125);
    assert_same_double(codec_decode(SDPA_CODEC_E4M3, 0x7e, scale), 3.5);
    assert_same_double(codec_unit(SDPA_CODEC_SEED_LINEAR, 200), 72.0);
    assert_same_double(codec_unit(SDPA_CODEC_SEED_LINEAR, 0), -128.0);
    assert_close(codec_step(SDPA_CODEC_SEED_LINEAR, scale), 3.5 / 127.0, 1e-16);
    for (unsigned u = 0; u < 256; u++)
        assert_close(codec_decode(SDPA_CODEC_SEED_LINEAR, (uint8_t)u, scale), seedlin_decode((uint8_t)u, 3.5),
                     1e-14);
    /* Encoders: E4M3 saturating RNE of x/scale; seed-linear the biased encoder with amax = 448 scale. */
    assert_int_equal(codec_encode(SDPA_CODEC_E4M3, 3.5f, scale), 0x7e);
    assert_int_equal(codec_encode(SDPA_CODEC_E4M3, -3.5f, scale), 0xfe);
    assert_int_equal(codec_encode(SDPA_CODEC_E4M3, 100.0f, scale), 0x7e);
    assert_int_equal(codec_encode(SDPA_CODEC_E4M3, 0.0078125f, scale), 0x38);
    assert_int_equal(codec_encode(SDPA_CODEC_SEED_LINEAR, 0.0f, scale), 128);
    assert_int_equal(codec_encode(SDPA_CODEC_SEED_LINEAR, 3.5f, scale), 255);
    assert_int_equal(codec_encode(SDPA_CODEC_SEED_LINEAR, 0.875f, scale),
                     seedlin_encode_biased(0.875f, 3.5f));
}

static void test_codec_names(void **state) {
    (void)state;
    sdpa_codec_t c = SDPA_CODEC_SEED_LINEAR;
    assert_string_equal(codec_name(SDPA_CODEC_E4M3), "e4m3");
    assert_string_equal(codec_name(SDPA_CODEC_SEED_LINEAR), "seed-linear");
    assert_string_equal(codec_name((sdpa_codec_t)7), "unknown");
    assert_int_equal(codec_from_name("e4m3", &c), 0);
    assert_int_equal(c, SDPA_CODEC_E4M3);
    assert_int_equal(codec_from_name("seed-linear", &c), 0);
    assert_int_equal(c, SDPA_CODEC_SEED_LINEAR);
    assert_int_equal(codec_from_name("E4M3", &c), -1);
    assert_int_equal(codec_from_name("fp8", &c), -1);
    assert_int_equal(codec_from_name(NULL, &c), -1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode_all_codes),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_ties_e4m3),
        cmocka_unit_test(test_ties_e5m2),
        cmocka_unit_test(test_max_tie_and_saturation),
        cmocka_unit_test(test_seedlin_formulas),
        cmocka_unit_test(test_seedlin_biased_bias),
        cmocka_unit_test(test_codec_helpers),
        cmocka_unit_test(test_codec_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
