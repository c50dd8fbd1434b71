/* Stage 7g's polynomial exp2 (kernels/exp2_poly.h), its host twin against exp2 in double, within the
 * bar paper/methods.md#prereg-stage7g-poly derived before the function was written: the committed
 * coefficients are the interpolant the derivation names (solved anew here), the bar is that
 * derivation's sum (not a number loosened after a failure), and a dense sweep of [-125, 0] stays
 * under it. */
#include "testutil.h"

#include "exp2_poly.h"

static const float coef[4] = {EXP2_POLY_C0, EXP2_POLY_C1, EXP2_POLY_C2, EXP2_POLY_C3};

/* The cubic through (t_k, 2^t_k) at the Chebyshev points of [-1/2, 1/2], in double: Gaussian
 * elimination with partial pivoting on the 4 x 4 Vandermonde system. */
static void interpolant(double c[4]) {
    const double pi = acos(-1.0);
    double a[4][5];
    for (int k = 0; k < 4; k++) {
        const double t = 0.5 * cos((2 * k + 1) * pi / 8);
        for (int j = 0; j < 4; j++) a[k][j] = pow(t, j);
        a[k][4] = exp2(t);
    }
    for (int i = 0; i < 4; i++) {
        int p = i;
        for (int r = i + 1; r < 4; r++)
            if (fabs(a[r][i]) > fabs(a[p][i])) p = r;
        for (int j = 0; j < 5; j++) {
            const double s = a[i][j];
            a[i][j] = a[p][j], a[p][j] = s;
        }
        for (int r = 0; r < 4; r++) {
            if (r == i) continue;
            const double m = a[r][i] / a[i][i];
            for (int j = i; j < 5; j++) a[r][j] -= m * a[i][j];
        }
    }
    for (int i = 0; i < 4; i++) c[i] = a[i][4] / a[i][i];
}

static void test_coefficients(void **state) {
    (void)state;
    double c[4];
    interpolant(c);
    for (int i = 0; i < 4; i++) {
        assert_true((float)c[i] == coef[i]); /* the interpolant's, rounded to fp32 */
        assert_true(coef[i] > 0);            /* the evaluation term of the bound assumes it */
    }
}

/* The bar is the derivation's sum rounded up by less than 1 %: E = (ln 2)^4 / 1536 (interpolation,
 * relative) and 2 gamma_4 (1 + E) (Horner with FMAs and fp32 coefficients). */
static void test_bar_is_the_derivation(void **state) {
    (void)state;
    const double ln2 = log(2.0), u = 0x1p-24, g4 = 4 * u / (1 - 4 * u);
    /* the interpolation bound from its parts: max |(2^t)''''| 2 (w/4)^4 / 4! over min 2^t, w = 1 */
    const double e = pow(ln2, 4) * sqrt(2.0) * 2 * pow(0.25, 4) / 24 / sqrt(0.5);
    assert_close(e, pow(ln2, 4) / 1536, 1e-18);
    const double b = e + 2 * g4 * (1 + e);
    assert_true(EXP2_POLY_REL_BOUND >= b);
    assert_true(EXP2_POLY_REL_BOUND <= 1.01 * b);
}

typedef struct {
    double worst;
    float at;
    long n;
} sweep_t;

static void point(sweep_t *s, float x) {
    const double want = exp2((double)x), got = exp2_poly(x);
    const double rel = fabs(got / want - 1);
    if (!(rel <= s->worst)) s->worst = rel, s->at = x; /* NaN counts as worst */
    s->n++;
}

/* Every float of [-1, -2^-8): f = x + 1 at fp32's finest spacing over [0, 1/2), and every negative
 * f down to -2^-8; every 1024th float of [-2^-8, 0] (to the smallest subnormals) and 0 itself;
 * and [-125, -1] on a grid of 2^-14 (each of those x is exact), where every integer part n is
 * reached. */
static void test_dense_sweep(void **state) {
    (void)state;
    sweep_t s = {0, 0, 0};
    uint32_t lo, hi;
    float v = -1.0f, w = -0x1p-8f;
    memcpy(&hi, &v, 4);
    memcpy(&lo, &w, 4);
    for (uint32_t b = lo + 1; b <= hi; b++) { /* (-2^-8, -1] by bit pattern */
        float x;
        memcpy(&x, &b, 4);
        point(&s, x);
    }
    for (uint32_t b = 0x80000000u; b <= lo; b += 1024) {
        float x;
        memcpy(&x, &b, 4);
        point(&s, x);
    }
    point(&s, 0.0f);
    point(&s, -0x1p-8f);
    for (long k = 0; k <= 124L << 14; k++) point(&s, -1.0f - (float)k * 0x1p-14f);
    print_message("exp2_poly: %ld points, worst relative error %.4e at x = %a (bar %.2e)\n", s.n, s.worst,
                  (double)s.at, EXP2_POLY_REL_BOUND);
    assert_true(s.n > 60000000);
    assert_true(s.worst <= EXP2_POLY_REL_BOUND);
}

/* The scaling is exact: exp2_poly(x - k) is exp2_poly(x) times 2^-k to the bit, for x off the ties
 * of rint on a grid of 2^-10 in (-1/2, 0] and every k down to -125 (x - k exact there). */
static void test_scaling_is_exact(void **state) {
    (void)state;
    for (int i = 0; i < 512; i++) {
        const float x = -(float)i * 0x1p-10f, base = exp2_poly(x);
        for (int k = 1; x - (float)k >= EXP2_POLY_MIN_X; k++) {
            const float a = exp2_poly(x - (float)k), want = ldexpf(base, -k);
            assert_memory_equal(&a, &want, sizeof a);
        }
    }
}

static void test_specials(void **state) {
    (void)state;
    const float zero = 0.0f;
    float r = exp2_poly(-INFINITY);
    assert_memory_equal(&r, &zero, sizeof r); /* +0, as a masked score's weight */
    assert_true(isnan(exp2_poly(NAN)));
    r = exp2_poly(nextafterf(EXP2_POLY_MIN_X, -INFINITY));
    assert_memory_equal(&r, &zero, sizeof r);
    r = exp2_poly(-1e30f);
    assert_memory_equal(&r, &zero, sizeof r);
    r = exp2_poly(EXP2_POLY_MIN_X); /* the last point kept: a normal number within the bar */
    assert_true(isnormal(r));
    assert_true(fabs(r / exp2(EXP2_POLY_MIN_X) - 1) <= EXP2_POLY_REL_BOUND);
    assert_true(fabs(exp2_poly(-0.0f) - 1.0) <= EXP2_POLY_REL_BOUND);
    assert_true(fabs(exp2_poly(-0.5f) / sqrt(0.5) - 1) <= EXP2_POLY_REL_BOUND); /* a tie of rint */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coefficients), cmocka_unit_test(test_bar_is_the_derivation),
        cmocka_unit_test(test_dense_sweep),  cmocka_unit_test(test_scaling_is_exact),
        cmocka_unit_test(test_specials),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
