/* binary16 conversions and ULP distance (host/lib/half.c). Expected bits follow from the IEEE 754
 * binary16 layout (1 sign, 5 exponent bits with bias 15, 10 mantissa bits). */
#include "testutil.h"

#include "half.h"

static void test_known_values(void **state) {
    (void)state;
    assert_int_equal(half_from_float(1.0f), 0x3c00);
    assert_int_equal(half_from_float(-2.0f), 0xc000);
    assert_int_equal(half_from_float(65504.0f), 0x7bff);   /* largest finite */
    assert_int_equal(half_from_float(65519.996f), 0x7bff); /* below the tie */
    assert_int_equal(half_from_float(65520.0f), 0x7c00);   /* tie with 65536 -> even side: inf */
    assert_int_equal(half_from_float(-1e9f), 0xfc00);
    assert_int_equal(half_from_float(0x1p-24f), 0x0001); /* smallest subnormal */
    assert_int_equal(half_from_float(0x1p-25f), 0x0000); /* tie with 0 -> even: 0 */
    assert_int_equal(half_from_float(0x1.8p-25f), 0x0001);
    assert_int_equal(half_from_float(0x1.8p-24f), 0x0002);        /* tie 1|2 -> even 2 */
    assert_int_equal(half_from_float(0x1p-14f), 0x0400);          /* smallest normal */
    assert_int_equal(half_from_float(1.0f + 0x1p-11f), 0x3c00);   /* tie -> even */
    assert_int_equal(half_from_float(1.0f + 0x1.8p-10f), 0x3c02); /* tie 1|2 ulp -> even */
    assert_int_equal(half_from_float(-0.0f), 0x8000);
    assert_int_equal(half_from_float(-1e-30f), 0x8000);
    assert_int_equal(half_from_float(INFINITY), 0x7c00);
    assert_int_equal(half_from_float(NAN), 0x7fff);
    assert_int_equal(half_from_float(-NAN), 0x7fff);
    assert_same_double(half_to_float(0x3555), 0x1.554p-2);
    assert_same_double(half_to_float(0x0001), 0x1p-24);
    assert_same_double(half_to_float(0x83ff), -0x1.ff8p-15);
    assert_same_double(half_to_float(0xfc00), -INFINITY);
    uint32_t nan_bits;
    float nan = half_to_float(0xfe01);
    memcpy(&nan_bits, &nan, sizeof nan_bits);
    assert_int_equal(nan_bits, 0x7fffffffu); /* canonical, sign dropped */
}

static void test_all_halves_round_trip(void **state) {
    (void)state;
    for (uint32_t h = 0; h < 65536; h++) {
        float f = half_to_float((uint16_t)h);
        if ((h & 0x7fff) > 0x7c00) {
            assert_true(isnan(f));
            assert_int_equal(half_from_float(f), 0x7fff);
        } else {
            assert_int_equal(half_from_float(f), h);
        }
    }
}

static void test_ulp_distance(void **state) {
    (void)state;
    assert_int_equal(half_ulp_distance(0x0000, 0x8000), 0);
    assert_int_equal(half_ulp_distance(0x3c00, 0x3c00), 0);
    assert_int_equal(half_ulp_distance(0x3c00, 0x3c01), 1);
    assert_int_equal(half_ulp_distance(0x3c01, 0x3c00), 1);
    assert_int_equal(half_ulp_distance(0x0001, 0x8001), 2); /* across zero */
    assert_int_equal(half_ulp_distance(0x3c00, 0xbc00), 2 * 0x3c00);
    assert_int_equal(half_ulp_distance(0x7bff, 0x7c00), 1); /* max to inf */
    assert_int_equal(half_ulp_distance(0x7c00, 0xfc00), 2 * 0x7c00);
    assert_int_equal(half_ulp_distance(0x7e00, 0x3c00), UINT32_MAX);
    assert_int_equal(half_ulp_distance(0x3c00, 0xffff), UINT32_MAX);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_values),
        cmocka_unit_test(test_all_halves_round_trip),
        cmocka_unit_test(test_ulp_distance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
