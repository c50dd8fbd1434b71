/* One query row of attention with the kernels' roundings (paper/methods.md, rounding budget):
 * scores from exact code units accumulated in fp32, times step_q*step_k*softmax_scale, rounded to
 * fp16; softmax in fp32 over all keys (two passes: max, then sum); P rounded to fp16 when p16;
 * P.V accumulated in fp32, times step_v, divided by the fp32 row sum, rounded to fp16.
 * Test kernels only (tests/bench): a plain, obviously correct reference point for the harness.
 * Shared by the CPU table (test_kernels.c) and the CUDA one (test_kernels_cuda.cu): the includer
 * defines TA_FN (qualifiers), TA_UNIT(codec, code) -> float, TA_ROUND(x) (float through fp16 and
 * back) and TA_HALF_BITS(x) (float -> fp16 bits). */
#ifndef TEST_ATTENTION_H
#define TEST_ATTENTION_H

#include <math.h>
#include <stdint.h>

#include "sdpa_api.h"

/* The stand-ins compute D = 64 only, the geometry their kernel tables state. */
#define TA_D 64

TA_FN float ta_step(sdpa_codec_t codec, float scale) {
    return codec == SDPA_CODEC_E4M3 ? scale : scale * (448.0f / 127.0f);
}

TA_FN float ta_score(const uint8_t *q, const uint8_t *k, sdpa_codec_t codec, float factor) {
    float acc = 0.0f;
    for (int d = 0; d < TA_D; d++) acc += TA_UNIT(codec, q[d]) * TA_UNIT(codec, k[d]);
    return TA_ROUND(acc * factor);
}

/* q: this row's codes; k, v: the slice's [S][D] codes; o: this row's output. */
TA_FN void ta_row(const uint8_t *q, const uint8_t *k, const uint8_t *v, int S, sdpa_codec_t codec,
                  float factor, float step_v, int p16, uint16_t *o) {
    float m = -INFINITY, l = 0.0f, u[TA_D];
    for (int j = 0; j < S; j++) m = fmaxf(m, ta_score(q, k + (size_t)j * TA_D, codec, factor));
    for (int d = 0; d < TA_D; d++) u[d] = 0.0f;
    for (int j = 0; j < S; j++) {
        const float p = expf(ta_score(q, k + (size_t)j * TA_D, codec, factor) - m);
        const float pw = p16 ? TA_ROUND(p) : p;
        l += p;
        for (int d = 0; d < TA_D; d++) u[d] += pw * TA_UNIT(codec, v[(size_t)j * TA_D + d]);
    }
    for (int d = 0; d < TA_D; d++) o[d] = TA_HALF_BITS(u[d] * step_v / l);
}

#endif
