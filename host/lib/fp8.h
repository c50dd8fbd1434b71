/* The one host-side definition of the 8-bit formats the artifact uses.
 *
 * OCP 8-bit floating point (OFP8, "OCP 8-bit Floating Point Specification" v1.0):
 *   E4M3: 1 sign, 4 exponent (bias 7), 3 mantissa bits; no infinities; S.1111.111 is NaN;
 *         largest finite 448 (0x7e), smallest subnormal 2^-9.
 *   E5M2: 1 sign, 5 exponent (bias 15), 2 mantissa bits; IEEE-like infinities and NaNs;
 *         largest finite 57344 (0x7b).
 * Encoding rounds to nearest, ties to even. FP8_SATFINITE sends finite values beyond the largest
 * finite number (and, for E5M2, infinities) to +-max; FP8_NOSAT sends them to NaN (E4M3) or
 * infinity (E5M2), exactly as the CUDA toolkit's __nv_cvt_float_to_fp8 does. Every function here is
 * bit-exact with cuda_fp8.h's host conversions (tests/lib/fp8_cuda_check.cpp proves it).
 *
 * The seed-linear codec is the original study's 8-bit format, kept only to reproduce and explain
 * its published error figures (f686304:cudadent42/bench/kernels/sdpa_fp8_stage_c_wmma.cu:65-70 and f686304:tasks/fp8_sdpa_stage_c_wmma/func_forward.py): decoder (u - 128)/127 * amax, and the
 * original harness's encoder round((x/amax + 1) * 127.5), which does not match that decoder (it
 * adds a bias of about -0.5/127 * amax to every element). Never the default.
 */
#ifndef FP8_H
#define FP8_H

#include <stdint.h>

#include "sdpa_api.h" /* sdpa_codec_t, shared with the kernels */

typedef enum { FP8_E4M3 = 0, FP8_E5M2 = 1 } fp8_format_t;
typedef enum { FP8_NOSAT = 0, FP8_SATFINITE = 1 } fp8_saturation_t;

#define FP8_E4M3_MAX 448.0f
#define FP8_E5M2_MAX 57344.0f

/* float -> fp8 code, round to nearest even. */
uint8_t fp8_from_float(float x, fp8_format_t fmt, fp8_saturation_t sat);
/* fp8 code -> float (exact; every fp8 value is a float). NaN codes give a quiet NaN. */
float fp8_to_float(uint8_t code, fp8_format_t fmt);
/* fp8 code -> IEEE binary16 bits (exact; every fp8 value is a half), as __nv_cvt_fp8_to_halfraw. */
uint16_t fp8_to_half_bits(uint8_t code, fp8_format_t fmt);

/* Seed-linear legacy codec (see above). amax > 0. */
uint8_t seedlin_encode_biased(float x, float amax); /* the original harness's encoder */
uint8_t seedlin_encode_matched(float x,
                               float amax);    /* round(x/amax*127) + 128, clamped: matches the decoder */
double seedlin_decode(uint8_t u, double amax); /* (u - 128)/127 * amax */

/* Per-head codec as the kernels see it. Both codecs carry a float scale per head with
 * scale = amax/448 (the original's granularity). A code decodes to
 *   value = codec_unit(codec, code) * codec_step(codec, scale)
 * where codec_unit is exact in fp16 (E4M3 value, or u - 128 for seed-linear) and the step is
 * scale (E4M3) or scale * 448/127 (seed-linear). */
double codec_unit(sdpa_codec_t codec, uint8_t code);
double codec_step(sdpa_codec_t codec, float scale);
double codec_decode(sdpa_codec_t codec, uint8_t code, float scale);
/* x -> code with the codec's encoder: E4M3 saturating RNE of x/scale; seed-linear: the original's
 * biased encoder (that is the point of keeping it). */
uint8_t codec_encode(sdpa_codec_t codec, float x, float scale);
const char *codec_name(sdpa_codec_t codec);               /* "e4m3", "seed-linear" */
int codec_from_name(const char *name, sdpa_codec_t *out); /* 0 on success, -1 unknown */

#endif
