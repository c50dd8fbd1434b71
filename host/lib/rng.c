/* xoshiro256** seeded by SplitMix64, a polar-method normal and a libm-free logarithm (rng.h).
 *
 * Seeding, exactly: k = the first SplitMix64 output from state `stream`; s[0..3] = the first four
 * SplitMix64 outputs from state `seed XOR k`. Each (seed, stream) pair thus starts from its own
 * well-mixed state, and a stream does not depend on which others were drawn, or in what order.
 * The state cannot be all zero in practice; if it were, s[0] is set to 1 (xoshiro's only bad state).
 *
 * Normal deviates (Marsaglia's polar method): draw u = 2U - 1, v = 2U - 1 (U = rng_uniform01, u
 * first) until 0 < s = u^2 + v^2 < 1; f = sqrt(-2 rng_log(s) / s); return u*f and keep v*f as the
 * spare that the next call returns. sqrt is correctly rounded by IEEE 754, so it is
 * platform-independent; log is not, hence rng_log. */
#include "rng.h"

#include <math.h>
#include <string.h>

static uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void rng_seed(rng_t *r, uint64_t seed, uint64_t stream) {
    uint64_t st = stream;
    uint64_t sm = seed ^ splitmix64(&st);
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&sm);
    if ((r->s[0] | r->s[1] | r->s[2] | r->s[3]) == 0) r->s[0] = 1;
    r->have_spare = 0;
    r->spare = 0.0;
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t rng_next_u64(rng_t *r) {
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double rng_uniform01(rng_t *r) { return (double)(rng_next_u64(r) >> 11) * 0x1.0p-53; }

double rng_uniform(rng_t *r, double lo, double hi) { return lo + (hi - lo) * rng_uniform01(r); }

/* Rejection on the top of the 64-bit range: values below 2^64 mod n are redrawn, so every
 * residue is equally likely. */
uint64_t rng_below(rng_t *r, uint64_t n) {
    uint64_t threshold = (0 - n) % n;
    for (;;) {
        uint64_t x = rng_next_u64(r);
        if (x >= threshold) return x % n;
    }
}

double rng_normal(rng_t *r) {
    if (r->have_spare) {
        r->have_spare = 0;
        return r->spare;
    }
    double u, v, s;
    do {
        u = 2.0 * rng_uniform01(r) - 1.0;
        v = 2.0 * rng_uniform01(r) - 1.0;
        s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    double f = sqrt(-2.0 * rng_log(s) / s);
    r->spare = v * f;
    r->have_spare = 1;
    return u * f;
}

/* log x = e ln2 + log m with x = m 2^e and m in [sqrt(1/2), sqrt(2)), found from the bits (no
 * frexp); log m = 2 atanh(t), t = (m-1)/(m+1), |t| <= 0.1716, by the odd series
 * 2 (t + t^3/3 + ... + t^27/27): the first omitted term is below 2^-70 relative. ln2 is split in a
 * high part with trailing zero bits (exact when multiplied by e) and a low correction. Accurate to
 * a few ulps, and the same on every IEEE 754 machine. x <= 0 or NaN gives NaN; +inf gives +inf. */
double rng_log(double x) {
    if (!(x > 0.0)) return NAN;
    if (x == INFINITY) return x;
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    int e = 0;
    if ((b >> 52) == 0) { /* subnormal: scale into the normal range exactly */
        x *= 0x1.0p54;
        memcpy(&b, &x, sizeof b);
        e = -54;
    }
    e += (int)(b >> 52) - 1023;
    b = (b & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL; /* m in [1, 2) */
    double m;
    memcpy(&m, &b, sizeof m);
    if (m >= 1.4142135623730951) {
        m *= 0.5;
        e += 1;
    }
    double t = (m - 1.0) / (m + 1.0);
    double t2 = t * t;
    double sum = 1.0 / 27.0;
    for (int k = 25; k >= 1; k -= 2) sum = 1.0 / k + t2 * sum;
    static const double LN2_HI = 6.93147180369123816490e-01; /* 0x3fe62e42fee00000 */
    static const double LN2_LO = 1.90821492927058770002e-10; /* ln2 - LN2_HI */
    double de = (double)e;
    return de * LN2_HI + (2.0 * t * sum + de * LN2_LO);
}
