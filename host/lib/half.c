/* IEEE binary16 conversions, bit-exact with the CUDA toolkit's host __float2half_rn and
 * __half2float (tests/lib/fp8_cuda_check.cpp compares all 65536 halves and millions of floats).
 * Conventions taken from that toolkit: a NaN converts to the canonical NaN with the sign dropped
 * (0x7fff as a half, 0x7fffffff as a float); overflow rounds to infinity. */
#include "half.h"

#include "minifloat.h"

static const minifloat_fmt_t HALF_FMT = {10, -14};

uint16_t half_from_float(float x) {
    uint32_t b = float_bits(x);
    uint32_t sign = (b >> 16) & 0x8000u;
    uint32_t a = b & 0x7fffffffu;
    if (a > 0x7f800000u) return 0x7fffu;
    uint32_t c = a == 0x7f800000u ? 0x7c00u : minifloat_round(a, HALF_FMT);
    if (c > 0x7c00u) c = 0x7c00u; /* beyond the largest finite half: infinity */
    return (uint16_t)(sign | c);
}

float half_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t c = h & 0x7fffu;
    if (c > 0x7c00u) return float_from_bits(0x7fffffffu);
    if (c == 0x7c00u) return float_from_bits(sign | 0x7f800000u);
    return float_from_bits(sign | float_bits(minifloat_value(c, HALF_FMT)));
}

/* Map a half to a position on one integer line ordered like the values, with +0 and -0 both at
 * 0: negative values are mirrored below zero. */
static int32_t half_ordinal(uint16_t h) {
    int32_t mag = h & 0x7fff;
    return (h & 0x8000u) ? -mag : mag;
}

uint32_t half_ulp_distance(uint16_t a, uint16_t b) {
    if ((a & 0x7fffu) > 0x7c00u || (b & 0x7fffu) > 0x7c00u) return UINT32_MAX;
    int32_t d = half_ordinal(a) - half_ordinal(b);
    return (uint32_t)(d < 0 ? -d : d);
}
