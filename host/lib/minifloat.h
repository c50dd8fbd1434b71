/* Internal to the host library: rounding a float to a narrow binary floating-point format
 * (binary16, E4M3, E5M2) and decoding one, shared by half.c and fp8.c so that the three formats
 * use one rounding routine (tested bit for bit against the CUDA toolkit). Not a public interface. */
#ifndef MINIFLOAT_H
#define MINIFLOAT_H

#include <stdint.h>

/* A format with man_bits stored mantissa bits whose smallest normal exponent is emin
 * (binary16: 10, -14; E4M3: 3, -6; E5M2: 2, -14). */
typedef struct {
    int man_bits;
    int emin;
} minifloat_fmt_t;

/* |x| rounded to nearest, ties to even, as the format's magnitude code (exponent field << man_bits
 * | mantissa), without any upper limit: a value beyond the format's range gives a code beyond its
 * largest finite code, which the caller turns into saturation, infinity or NaN. abs_bits are the
 * bits of a finite, non-negative float (sign cleared, not inf or NaN). */
uint32_t minifloat_round(uint32_t abs_bits, minifloat_fmt_t f);

/* The value of magnitude code c (finite codes only), as a float: exact for every format here. */
float minifloat_value(uint32_t c, minifloat_fmt_t f);

uint32_t float_bits(float x);
float float_from_bits(uint32_t b);

#endif
