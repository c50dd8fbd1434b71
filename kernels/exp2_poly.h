/* exp2_poly.h: stage 7g's exponential on the FMA pipe, 2^x for the softmax's x <= 0 as a cubic,
 * in the form and within the bound that paper/methods.md#prereg-stage7g-poly fixed before it was
 * written. One definition, C or CUDA C++: the host twin, which tests/lib/test_exp2_poly.c sweeps
 * against exp2 in double, is this function compiled for the host; the kernel's (a stage-7g row,
 * built only if stage 7f's profile says go: methods.md#prereg-stage7g) is the same function
 * compiled for the device, where each addition and fmaf is one correctly rounded instruction
 * (FADD, FFMA) and the rest is integer arithmetic, so the two agree bit for bit. */
#ifndef SDPA_EXP2_POLY_H
#define SDPA_EXP2_POLY_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#if defined(__CUDACC__)
#define EXP2_POLY_FN __host__ __device__ inline
#elif defined(__cplusplus)
#define EXP2_POLY_FN inline
#else
#define EXP2_POLY_FN static inline
#endif

/* The cubic interpolating 2^t at the Chebyshev points t_k = cos((2k+1) pi / 8) / 2, k = 0..3,
 * solved in double and rounded to fp32 (the test solves for them anew and compares). */
#define EXP2_POLY_C0 0x1.fff61cp-1f
#define EXP2_POLY_C1 0x1.62e2d2p-1f
#define EXP2_POLY_C2 0x1.f0ecf8p-3f
#define EXP2_POLY_C3 0x1.c96d5ep-5f
/* Below this the result is 0 (a flush the kernel's output cannot show: methods.md). */
#define EXP2_POLY_MIN_X (-125.0f)
/* The bar on |exp2_poly(x) / 2^x - 1| for EXP2_POLY_MIN_X <= x <= 0: interpolation
 * (ln 2)^4 / 1536 plus evaluation 2 gamma_4 (1 + E), rounded up (methods.md). */
#define EXP2_POLY_REL_BOUND 1.51e-4

/* Adding it to x (|x| < 2^22) leaves rint(x) in the low mantissa bits: the sum lies in
 * [2^23, 2^24), where fp32's spacing is 1, and rounds to nearest, ties to even. */
#define EXP2_POLY_SHIFTER 0x1.8p23f

/* 2^x for x <= 0 (also -inf: 0; NaN: NaN). On the device: FADDs, FFMAs and one integer LEA, no
 * F2I (a conversion: the XU pipe, MUFU's, which this function is meant to spare) and no FRND. */
EXP2_POLY_FN float exp2_poly(float x) {
    if (!(x >= EXP2_POLY_MIN_X)) return x != x ? x : 0.0f;
    const float shifted = x + EXP2_POLY_SHIFTER;
    const float n = shifted - EXP2_POLY_SHIFTER, f = x - n; /* both exact: n = rint(x), |f| <= 1/2 */
    float p = fmaf(fmaf(fmaf(EXP2_POLY_C3, f, EXP2_POLY_C2), f, EXP2_POLY_C1), f, EXP2_POLY_C0);
    /* p * 2^n, exactly: p's biased exponent is 126 or 127 and n >= -125 keeps the sum >= 1. The
     * shifted sum's bits are 0x4B400000 + n, whose low 9 bits shifted by 23 are n << 23 mod 2^32. */
    uint32_t bits, nbits;
    memcpy(&bits, &p, sizeof bits);
    memcpy(&nbits, &shifted, sizeof nbits);
    bits += nbits << 23;
    memcpy(&p, &bits, sizeof p);
    return p;
}

#endif
