/* The artifact's random numbers: identical bytes on every machine and compiler.
 *
 * Generator: xoshiro256** 1.0 (Blackman & Vigna, https://prng.di.unimi.it/), state seeded by
 * SplitMix64. Only integer arithmetic, so the stream is platform-independent.
 * Uniform doubles take the top 53 bits. Normal deviates use Marsaglia's polar method with the
 * project's own logarithm (rng_log: argument reduction by frexp and an atanh series using only
 * +, -, *, /), so no libm function whose last bit differs between C libraries is involved;
 * host code is compiled with -ffp-contract=off so no FMA changes a rounding.
 * Independent streams: rng_seed(&r, seed, stream) mixes (seed, stream) through SplitMix64, so
 * Q, K and V (streams 0, 1, 2) do not depend on the order in which they are generated. */
#ifndef RNG_H
#define RNG_H

#include <stdint.h>

typedef struct {
    uint64_t s[4];
    int have_spare;
    double spare;
} rng_t;

void rng_seed(rng_t *r, uint64_t seed, uint64_t stream);
uint64_t rng_next_u64(rng_t *r);
double rng_uniform01(rng_t *r);                     /* [0, 1), 53-bit resolution */
double rng_uniform(rng_t *r, double lo, double hi); /* [lo, hi) */
double rng_normal(rng_t *r);                        /* N(0, 1) */
uint64_t rng_below(rng_t *r, uint64_t n);           /* uniform integer in [0, n), unbiased; n > 0 */
double rng_log(double x);                           /* natural log, x > 0, deterministic (see above) */

#endif
