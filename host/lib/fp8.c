/* OCP E4M3/E5M2 conversions and the per-head codecs (fp8.h). The fp8 conversions follow the CUDA
 * toolkit's host path of __nv_cvt_float_to_fp8 and __nv_cvt_fp8_to_halfraw bit for bit; the
 * behaviours that are conventions rather than arithmetic are:
 *   - a NaN input gives 0x7f in both formats, whatever its sign (the toolkit canonicalises NaN);
 *   - E4M3 has no infinity: with FP8_NOSAT an overflow (|x| > 464, i.e. beyond 448 plus half an
 *     ulp; 464 itself ties to the even 448) or an infinity gives NaN with the input's sign
 *     (0x7f/0xff); with FP8_SATFINITE it gives +-448 (0x7e/0xfe);
 *   - E5M2: |x| >= 61440 (57344 plus half an ulp; at the tie the even neighbour is 65536, i.e.
 *     overflow) and infinities give +-inf (0x7c/0xfc) with FP8_NOSAT, +-57344 (0x7b/0xfb) with
 *     FP8_SATFINITE;
 *   - a value that rounds to zero keeps its sign (-1e-9 gives 0x80);
 *   - decoding a NaN code gives the canonical half NaN 0x7fff (sign dropped), and as a float the
 *     canonical NaN 0x7fffffff, as cuda_fp16's half-to-float does with it. */
#include "fp8.h"

#include <math.h>
#include <string.h>

#include "half.h"
#include "minifloat.h"

typedef struct {
    minifloat_fmt_t f;
    uint32_t max_code;   /* largest finite magnitude code */
    uint32_t nosat_code; /* what an overflow becomes without saturation: NaN (E4M3) or inf (E5M2) */
} fp8_desc_t;

static const fp8_desc_t FP8_DESC[2] = {
    [FP8_E4M3] = {{3, -6}, 0x7e, 0x7f},
    [FP8_E5M2] = {{2, -14}, 0x7b, 0x7c},
};

uint8_t fp8_from_float(float x, fp8_format_t fmt, fp8_saturation_t sat) {
    const fp8_desc_t *d = &FP8_DESC[fmt == FP8_E5M2];
    uint32_t b = float_bits(x);
    uint32_t sign = (b >> 24) & 0x80u;
    uint32_t a = b & 0x7fffffffu;
    if (a > 0x7f800000u) return 0x7f;
    uint32_t c = a == 0x7f800000u ? UINT32_MAX : minifloat_round(a, d->f);
    if (c > d->max_code) c = sat == FP8_SATFINITE ? d->max_code : d->nosat_code;
    return (uint8_t)(sign | c);
}

uint16_t fp8_to_half_bits(uint8_t code, fp8_format_t fmt) {
    uint32_t mag = code & 0x7fu;
    if (fmt == FP8_E5M2) {
        /* E5M2 is binary16 with the low byte cut off: shifting keeps zero, subnormals, inf. */
        return mag > 0x7cu ? 0x7fffu : (uint16_t)(code << 8);
    }
    if (mag == 0x7fu) return 0x7fffu;
    float v = minifloat_value(mag, FP8_DESC[FP8_E4M3].f);
    return half_from_float((code & 0x80u) ? -v : v); /* exact: every E4M3 value is a half */
}

float fp8_to_float(uint8_t code, fp8_format_t fmt) { return half_to_float(fp8_to_half_bits(code, fmt)); }

/* ---- seed-linear legacy codec ------------------------------------------------------------ */

/* An already rounded value clamped to a code in [0, 255]; NaN gives 0 (callers never pass one).
 * The rounding itself is rintf, which rounds in the current mode, never changed by the artifact
 * from the default (to nearest, ties to even): torch.round's rule, that of the original harness. */
static uint8_t clamp_code(float r) {
    if (!(r >= 0.0f)) return 0;
    if (r > 255.0f) return 255;
    return (uint8_t)r;
}

/* The original harness's encoder, computed in float: u = round((x/amax + 1) * 127.5), ties to
 * even, clamped to [0, 255]. Its grid (step amax/127.5, zero at 127.5) does not match the decoder
 * (step amax/127, zero at 128): decoding gives about 1.0039*x - 0.0039*amax. At x = 0 exactly,
 * 127.5 ties to the even 128 and decodes to 0; the -0.5/127*amax offset is the average over x. */
uint8_t seedlin_encode_biased(float x, float amax) { return clamp_code(rintf((x / amax + 1.0f) * 127.5f)); }

/* round(x/amax*127) + 128 in float, ties to even, clamped to [0, 255]: the decoder's own grid. */
uint8_t seedlin_encode_matched(float x, float amax) {
    /* Round before adding 128: adding first would round x/amax*127 to float's grid at 128 and
     * could turn a value just above a half into a tie. */
    return clamp_code(rintf(x / amax * 127.0f) + 128.0f);
}

double seedlin_decode(uint8_t u, double amax) { return ((double)u - 128.0) / 127.0 * amax; }

/* ---- per-head codec ---------------------------------------------------------------------- */

double codec_unit(sdpa_codec_t codec, uint8_t code) {
    if (codec == SDPA_CODEC_SEED_LINEAR) return (double)code - 128.0;
    return (double)fp8_to_float(code, FP8_E4M3);
}

double codec_step(sdpa_codec_t codec, float scale) {
    if (codec == SDPA_CODEC_SEED_LINEAR) return (double)scale * 448.0 / 127.0;
    return (double)scale;
}

double codec_decode(sdpa_codec_t codec, uint8_t code, float scale) {
    return codec_unit(codec, code) * codec_step(codec, scale);
}

uint8_t codec_encode(sdpa_codec_t codec, float x, float scale) {
    if (codec == SDPA_CODEC_SEED_LINEAR) return seedlin_encode_biased(x, scale * 448.0f);
    return fp8_from_float(x / scale, FP8_E4M3, FP8_SATFINITE);
}

static const char *const CODEC_NAMES[] = {
    [SDPA_CODEC_E4M3] = "e4m3",
    [SDPA_CODEC_SEED_LINEAR] = "seed-linear",
};

const char *codec_name(sdpa_codec_t codec) {
    if ((unsigned)codec < sizeof CODEC_NAMES / sizeof CODEC_NAMES[0]) return CODEC_NAMES[codec];
    return "unknown";
}

int codec_from_name(const char *name, sdpa_codec_t *out) {
    for (unsigned i = 0; name && i < sizeof CODEC_NAMES / sizeof CODEC_NAMES[0]; i++) {
        if (strcmp(name, CODEC_NAMES[i]) == 0) {
            *out = (sdpa_codec_t)i;
            return 0;
        }
    }
    return -1;
}
