/* Seeded, quantised inputs (inputs.h).
 *
 * Exact order of draws, per tensor T in (Q, K, V) with its own rng stream (0, 1, 2), element by
 * element in [B,H,S,D] row-major order:
 *   normal:   x = rng_normal
 *   uniform:  x = rng_uniform(-1, 1)
 *   outliers: x = rng_normal, then U = rng_uniform01; if U < 0.001, x = 10 x
 * The value is computed in double and stored as float (round to nearest even). Because the polar
 * method caches its second deviate, the outlier draw sits between the two halves of a pair; the
 * order above is the definition, the golden checksums in tests/lib/test_inputs.c pin it. */
#include "inputs.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fp8.h"
#include "rng.h"

const named_shape_t named_shapes[] = {
    {"small", {1, 1, 32, 64, 0}, "the original's small shape"},
    {"mission", {1, 8, 512, 64, 0}, "the original's mission shape (its code; reports mislabel it)"},
    {"long", {1, 8, 2048, 64, 0}, "the original's long shape"},
    {"ragged", {2, 3, 33, 64, 0}, "partial tiles: S = 33 is one key past a 32-row tile"},
    {"partial", {1, 2, 200, 64, 0}, "S not a multiple of 32 (last tile 8 rows)"},
    {"single", {1, 1, 1, 64, 0}, "one query and one key"},
    {"label-a",
     {2, 8, 256, 64, 0},
     "the (2,8,256,64) label of the original's reports; its code never ran it"},
    {"stage5", {2, 8, 512, 64, 0}, "shape of the original's Stage-5 harness"},
    /* The workloads users run (Llama-class heads of 128, causal masks): the register-resident line. */
    {"mission-d128", {1, 8, 512, 128, 0}, "the mission shape with head dimension 128"},
    {"mission-causal", {1, 8, 512, 64, 1}, "the mission shape with a causal mask"},
    {"mission-d128-causal", {1, 8, 512, 128, 1}, "head dimension 128 and a causal mask"},
    {"ragged-d128", {2, 3, 33, 128, 0}, "partial tiles at head dimension 128"},
    {"ragged-causal", {2, 3, 33, 64, 1}, "partial tiles with a causal mask (the diagonal in a partial tile)"},
    {"ragged-d128-causal", {2, 3, 33, 128, 1}, "partial tiles, head dimension 128, causal"},
};
const size_t named_shapes_count = sizeof named_shapes / sizeof named_shapes[0];

const named_shape_t *named_shape_find(const char *name) {
    for (size_t i = 0; name && i < named_shapes_count; i++)
        if (strcmp(named_shapes[i].name, name) == 0) return &named_shapes[i];
    return NULL;
}

size_t shape_numel(sdpa_shape_t s) {
    int32_t dims[4] = {s.B, s.H, s.S, s.D};
    size_t n = 1;
    for (int i = 0; i < 4; i++) {
        if (dims[i] < 1) return 0;
        if (n > SIZE_MAX / (size_t)dims[i]) return 0;
        n *= (size_t)dims[i];
    }
    return n;
}

static const char *const DIST_NAMES[] = {
    [DIST_NORMAL] = "normal",
    [DIST_UNIFORM] = "uniform",
    [DIST_OUTLIERS] = "outliers",
};
#define N_DISTS (sizeof DIST_NAMES / sizeof DIST_NAMES[0])

const char *dist_name(dist_t d) { return (unsigned)d < N_DISTS ? DIST_NAMES[d] : "unknown"; }

int dist_from_name(const char *name, dist_t *out) {
    for (unsigned i = 0; name && i < N_DISTS; i++) {
        if (strcmp(name, DIST_NAMES[i]) == 0) {
            *out = (dist_t)i;
            return 0;
        }
    }
    return -1;
}

#define OUTLIER_PROB 0.001
#define OUTLIER_GAIN 10.0

static void fill_tensor(float *x, size_t n, dist_t dist, uint64_t seed, uint64_t stream) {
    rng_t r;
    rng_seed(&r, seed, stream);
    for (size_t i = 0; i < n; i++) {
        double v;
        if (dist == DIST_UNIFORM) {
            v = rng_uniform(&r, -1.0, 1.0);
        } else {
            v = rng_normal(&r);
            if (dist == DIST_OUTLIERS && rng_uniform01(&r) < OUTLIER_PROB) v *= OUTLIER_GAIN;
        }
        x[i] = (float)v;
    }
}

/* Per-head scales: amax over (b, s, d) of head h, scale = amax/448 in float; an all-zero head
 * gets scale 1 so that decoding stays finite (as in the original). Then every element is encoded
 * with its head's scale. */
void inputs_quantise(const float *x, sdpa_shape_t sh, sdpa_codec_t codec, uint8_t *code, float *scale) {
    size_t slice = (size_t)sh.S * (size_t)sh.D;
    for (int32_t h = 0; h < sh.H; h++) {
        float amax = 0.0f;
        for (int32_t b = 0; b < sh.B; b++) {
            const float *p = x + ((size_t)b * (size_t)sh.H + (size_t)h) * slice;
            for (size_t i = 0; i < slice; i++) amax = fmaxf(amax, fabsf(p[i]));
        }
        scale[h] = amax > 0.0f ? amax / FP8_E4M3_MAX : 1.0f;
    }
    size_t n = shape_numel(sh);
    for (size_t i = 0; i < n; i++) {
        size_t h = (i / slice) % (size_t)sh.H;
        code[i] = codec_encode(codec, x[i], scale[h]);
    }
}

/* One tensor's draws and codes: Q, K and V are independent streams, so they can be made at once
 * on three threads with the same bits (at (2,32,8192,64) one thread takes ~6 s for the three). */
typedef struct {
    float *x, *scale;
    uint8_t *code;
    sdpa_shape_t shape;
    dist_t dist;
    sdpa_codec_t codec;
    uint64_t seed, stream;
} tensor_job_t;
static void *tensor_job(void *arg) {
    const tensor_job_t *j = arg;
    fill_tensor(j->x, shape_numel(j->shape), j->dist, j->seed, j->stream);
    inputs_quantise(j->x, j->shape, j->codec, j->code, j->scale);
    return NULL;
}
/* Below this many elements per tensor the threads are not worth starting. */
#define INPUTS_THREADED_MIN ((size_t)1 << 20)

int inputs_generate(sdpa_inputs_t *in, sdpa_shape_t shape, dist_t dist, sdpa_codec_t codec, uint64_t seed) {
    memset(in, 0, sizeof *in);
    size_t n = shape_numel(shape);
    if (n == 0 || (unsigned)dist >= N_DISTS ||
        (codec != SDPA_CODEC_E4M3 && codec != SDPA_CODEC_SEED_LINEAR) || n > SIZE_MAX / sizeof(float)) {
        errno = EINVAL;
        return -1;
    }
    in->shape = shape;
    in->dist = dist;
    in->codec = codec;
    in->seed = seed;
    in->n = n;
    float **xs[3] = {&in->x_q, &in->x_k, &in->x_v};
    uint8_t **cs[3] = {&in->q, &in->k, &in->v};
    float **ss[3] = {&in->q_scale, &in->k_scale, &in->v_scale};
    for (int t = 0; t < 3; t++) {
        *xs[t] = malloc(n * sizeof(float));
        *cs[t] = malloc(n);
        *ss[t] = malloc((size_t)shape.H * sizeof(float));
        if (!*xs[t] || !*cs[t] || !*ss[t]) {
            inputs_free(in);
            errno = ENOMEM;
            return -1;
        }
    }
    tensor_job_t jobs[3];
    pthread_t tid[3];
    bool started[3] = {false, false, false};
    for (int t = 0; t < 3; t++) {
        jobs[t] = (tensor_job_t){*xs[t], *ss[t], *cs[t], shape, dist, codec, seed, (uint64_t)t};
        /* a thread that cannot start does its work here, after the others are started */
        if (t > 0 && n >= INPUTS_THREADED_MIN)
            started[t] = pthread_create(&tid[t], NULL, tensor_job, &jobs[t]) == 0;
    }
    for (int t = 0; t < 3; t++)
        if (!started[t]) tensor_job(&jobs[t]);
    for (int t = 1; t < 3; t++)
        if (started[t]) pthread_join(tid[t], NULL);
    return 0;
}

void inputs_free(sdpa_inputs_t *in) {
    if (!in) return;
    free(in->x_q);
    free(in->x_k);
    free(in->x_v);
    free(in->q);
    free(in->k);
    free(in->v);
    free(in->q_scale);
    free(in->k_scale);
    free(in->v_scale);
    memset(in, 0, sizeof *in);
}

/* which -> index 0..2 (q, k, v). Any other letter is a programming error that the void API
 * cannot return: it is reported on stderr and the output is filled with NaN, so that no caller
 * can mistake it for data. */
static int tensor_index(char which, const char *fn, double *out, size_t n) {
    switch (which) {
    case 'q': return 0;
    case 'k': return 1;
    case 'v': return 2;
    default:
        fprintf(stderr, "%s: unknown tensor '%c' (expected 'q', 'k' or 'v')\n", fn, which);
        for (size_t i = 0; i < n; i++) out[i] = NAN;
        return -1;
    }
}

void inputs_dequantised(const sdpa_inputs_t *in, char which, double *out) {
    int t = tensor_index(which, "inputs_dequantised", out, in->n);
    if (t < 0) return;
    const uint8_t *code = t == 0 ? in->q : t == 1 ? in->k : in->v;
    const float *scale = t == 0 ? in->q_scale : t == 1 ? in->k_scale : in->v_scale;
    size_t slice = (size_t)in->shape.S * (size_t)in->shape.D;
    /* One decode table per head: 256 entries instead of a decode per element. */
    double table[256];
    for (size_t base = 0; base < in->n; base += slice) {
        size_t h = (base / slice) % (size_t)in->shape.H;
        for (int c = 0; c < 256; c++) table[c] = codec_decode(in->codec, (uint8_t)c, scale[h]);
        for (size_t i = 0; i < slice; i++) out[base + i] = table[code[base + i]];
    }
}

void inputs_original(const sdpa_inputs_t *in, char which, double *out) {
    int t = tensor_index(which, "inputs_original", out, in->n);
    if (t < 0) return;
    const float *x = t == 0 ? in->x_q : t == 1 ? in->x_k : in->x_v;
    for (size_t i = 0; i < in->n; i++) out[i] = (double)x[i];
}

/* FNV-1a 64 over little-endian bytes, so the checksum is the same on any host byte order. */
#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

static uint64_t fnv_bytes(uint64_t h, const uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= FNV_PRIME;
    }
    return h;
}

static uint64_t fnv_floats(uint64_t h, const float *x, size_t n) {
    for (size_t i = 0; i < n; i++) {
        uint32_t b;
        memcpy(&b, &x[i], sizeof b);
        uint8_t le[4] = {(uint8_t)b, (uint8_t)(b >> 8), (uint8_t)(b >> 16), (uint8_t)(b >> 24)};
        h = fnv_bytes(h, le, 4);
    }
    return h;
}

/* Order: codes q, k, v; scales q, k, v; float inputs q, k, v. */
uint64_t inputs_checksum(const sdpa_inputs_t *in) {
    uint64_t h = FNV_OFFSET;
    h = fnv_bytes(h, in->q, in->n);
    h = fnv_bytes(h, in->k, in->n);
    h = fnv_bytes(h, in->v, in->n);
    size_t H = (size_t)in->shape.H;
    h = fnv_floats(h, in->q_scale, H);
    h = fnv_floats(h, in->k_scale, H);
    h = fnv_floats(h, in->v_scale, H);
    h = fnv_floats(h, in->x_q, in->n);
    h = fnv_floats(h, in->x_k, in->n);
    h = fnv_floats(h, in->x_v, in->n);
    return h;
}
