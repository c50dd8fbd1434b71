/* The order of the arms within a round of interleaved sampling (host/bench/sampling.h), one rule for
 * the sampler that follows it and the reports that read positions back from the samples: with k arms,
 * kept round r runs position p with arm (r + p) mod k when the order rotates, arm p when it is fixed.
 * TIMING entries record their arm and k (data/SCHEMA.md, since 2.1.0), so a report recovers the
 * position of every kept sample from its index alone. */
#ifndef ARM_ORDER_H
#define ARM_ORDER_H

#include <stdbool.h>
#include <stddef.h>

/* The arm sampled at position p of kept round r. */
static inline size_t arm_at(bool rotated, size_t arms, size_t r, size_t p) {
    return rotated ? (r + p) % arms : p;
}

/* The position of arm a in kept round r: the inverse of arm_at. */
static inline size_t arm_position(bool rotated, size_t arms, size_t r, size_t a) {
    return rotated ? (a + arms - r % arms) % arms : a;
}

#endif
