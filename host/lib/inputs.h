/* Seeded inputs for one attention problem: float32 Q, K, V of shape [B,H,S,D], drawn from a named
 * distribution, then quantised per head with the chosen codec.
 *
 * Distributions: "normal" N(0,1); "uniform" U[-1,1); "outliers" N(0,1) with each element, with
 * probability 0.001, multiplied by 10 (the FlashAttention-3 paper's accuracy setting).
 * Streams: Q, K, V use rng streams 0, 1, 2 of the seed (rng.h); the outlier choice for a tensor
 * is drawn from the same stream, element by element, so a tensor's bytes depend only on
 * (seed, tensor, shape, distribution).
 * Quantisation: per head h, amax_h = max |x| over that head's [B,S,D]; scale_h = amax_h/448
 * (an all-zero head gets scale 1); code = codec_encode(codec, x, scale_h).
 */
#ifndef INPUTS_H
#define INPUTS_H

#include <stddef.h>
#include <stdint.h>

#include "sdpa_api.h"

/* A problem: B, H, S, D, and whether query row i attends to keys j <= i only (causal, 0 or 1: the
 * reference masks the later keys, the FLOP count halves; run_json.h). */
typedef struct {
    int32_t B, H, S, D;
    int32_t causal;
} sdpa_shape_t;

typedef enum { DIST_NORMAL = 0, DIST_UNIFORM = 1, DIST_OUTLIERS = 2 } dist_t;
const char *dist_name(dist_t d);
int dist_from_name(const char *name, dist_t *out); /* 0 ok, -1 unknown */

/* Named shapes of the study (the original's tasks/fp8_sdpa_stage_c_wmma/config_forward.json) plus the project's ragged ones. */
typedef struct {
    const char *name;
    sdpa_shape_t shape;
    const char *note;
} named_shape_t;
extern const named_shape_t named_shapes[];
extern const size_t named_shapes_count;
const named_shape_t *named_shape_find(const char *name); /* NULL if unknown */

/* Number of elements B*H*S*D; 0 if any dimension is < 1 or the product overflows size_t. */
size_t shape_numel(sdpa_shape_t s);

typedef struct {
    sdpa_shape_t shape;
    dist_t dist;
    sdpa_codec_t codec;
    uint64_t seed;
    size_t n;                           /* elements per tensor */
    float *x_q, *x_k, *x_v;             /* original float32 inputs */
    uint8_t *q, *k, *v;                 /* codes */
    float *q_scale, *k_scale, *v_scale; /* [H] */
} sdpa_inputs_t;

/* Allocates and fills *in. Returns 0, or -1 with errno set (ENOMEM, EINVAL for a bad shape). */
int inputs_generate(sdpa_inputs_t *in, sdpa_shape_t shape, dist_t dist, sdpa_codec_t codec, uint64_t seed);
void inputs_free(sdpa_inputs_t *in);

/* Added: the per-head quantisation of inputs_generate on its own, for one float tensor x of the
 * given shape: scales[h] = amax_h/448 (1 for an all-zero head), codes[i] = codec_encode. */
void inputs_quantise(const float *x, sdpa_shape_t shape, sdpa_codec_t codec, uint8_t *codes, float *scales);

/* Dequantised tensor (codec_decode of every code with its head's scale) as doubles; which is
 * 'q', 'k' or 'v'. out has in->n elements. */
void inputs_dequantised(const sdpa_inputs_t *in, char which, double *out);
/* The original float inputs widened to double. */
void inputs_original(const sdpa_inputs_t *in, char which, double *out);

/* FNV-1a 64 over the codes, scales and float inputs in a fixed order: a reproducibility checksum. */
uint64_t inputs_checksum(const sdpa_inputs_t *in);

#endif
