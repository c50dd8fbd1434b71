/* One round-to-nearest-even routine for every narrow format (see minifloat.h). The float is split
 * into an integer significand m and the exponent e of its last bit (|x| = m * 2^e); the target
 * format's quantum at |x| is 2^q with q = max(E, emin) - man_bits, E = floor(log2 |x|); the
 * result is m * 2^(e - q) rounded to an integer with ties to even. Because the magnitude code of a
 * normal number is (E - emin + 1) << man_bits | (significand - 2^man_bits), and a subnormal's code
 * is its significand, both collapse to ((max(E, emin) - emin) << man_bits) + rounded, and a
 * rounding carry into the next binade falls out of the addition. */
#include "minifloat.h"

#include <string.h>

uint32_t float_bits(float x) {
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

float float_from_bits(uint32_t b) {
    float x;
    memcpy(&x, &b, sizeof x);
    return x;
}

uint32_t minifloat_round(uint32_t abs_bits, minifloat_fmt_t f) {
    int bexp = (int)(abs_bits >> 23);
    /* Float subnormals (< 2^-126) lie far below half the smallest subnormal of every format here
     * (2^-25 for binary16), so they round to zero. */
    if (bexp == 0) return 0;
    uint32_t m = (abs_bits & 0x7fffffu) | 0x800000u; /* 24-bit significand */
    int e = bexp - 150;                              /* exponent of m's last bit */
    int E = bexp - 127;
    int eeff = E < f.emin ? f.emin : E;
    int shift = eeff - f.man_bits - e; /* > 0 for every format narrower than float */
    uint32_t r;
    if (shift >= 25) {
        r = 0; /* m < 2^24 <= half a quantum */
    } else {
        uint32_t half = 1u << (shift - 1);
        uint32_t rem = m & ((half << 1) - 1u);
        r = m >> shift;
        if (rem > half || (rem == half && (r & 1u))) r++;
    }
    return ((uint32_t)(eeff - f.emin) << f.man_bits) + r;
}

float minifloat_value(uint32_t c, minifloat_fmt_t f) {
    uint32_t field = c >> f.man_bits;
    uint32_t sig = c & ((1u << f.man_bits) - 1u);
    int exp = f.emin - f.man_bits; /* exponent of the last mantissa bit */
    if (field != 0) {
        sig |= 1u << f.man_bits;
        exp += (int)field - 1;
    }
    /* sig has at most 11 bits and 2^exp is a normal float for every format here: exact. */
    return (float)sig * float_from_bits((uint32_t)(exp + 127) << 23);
}
