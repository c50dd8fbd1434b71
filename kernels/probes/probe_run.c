/* probe_run.c: runs the hardware probes (probes.h) and records their raw output as JSON; decodes a
 * record against the PTX ISA's formulas (kernels/wgmma_layout.h) and the documented TMA layout; and
 * compares two records. The same code serves the GPU (probe_main.c, `make probes`) and the emulator
 * (tests/emu/test_probes.c), so the path from a GPU's record to the emulator's tests is tested here. */
#include "probe_run.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp2_poly.h"
#include "probes.h"
#include "tensor_map.h"
#include "wgmma_layout.h"

/* The TMA boxes: a uint16 tensor of TW x TH x TD elements, element (x, y, z) = 1 + x + 256 y + 4096 z. */
enum { TW = 96, TH = 40, TD = 3 };
static const struct {
    int swizzle, rank, bx, by, bz, c0, c1, c2;
} tma_cases[] = {
    {0, 2, 32, 16, 1, 8, 4, 0},    {0, 2, 48, 16, 1, 72, 32, 0}, {32, 2, 16, 24, 1, -8, 20, 0},
    {64, 2, 32, 32, 1, 16, -5, 0}, {128, 2, 64, 32, 1, 0, 0, 0}, {128, 2, 64, 24, 1, 40, 30, 0},
    {0, 3, 16, 8, 2, 8, 2, 1},     {64, 3, 32, 8, 3, 64, 36, 1}, {128, 3, 64, 16, 2, 0, 8, 2},
};
/* The descriptor configurations: start offset in the region, LBO, SBO, swizzle. */
static const unsigned desc_cases[][4] = {
    {0, 1024, 128, 0}, {256, 128, 256, 0}, {0, 16, 256, 32},    {0, 16, 512, 64},
    {32, 16, 512, 64}, {0, 16, 1024, 128}, {32, 16, 1024, 128}, {96, 16, 1024, 128},
};
enum { N_TMA = sizeof tma_cases / sizeof tma_cases[0], N_DESC = sizeof desc_cases / sizeof desc_cases[0] };

static int swizzle_enum(int bytes) {
    return bytes == 32    ? CU_TENSOR_MAP_SWIZZLE_32B
           : bytes == 64  ? CU_TENSOR_MAP_SWIZZLE_64B
           : bytes == 128 ? CU_TENSOR_MAP_SWIZZLE_128B
                          : CU_TENSOR_MAP_SWIZZLE_NONE;
}

static cJSON *floats(const float *v, size_t n) {
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a && i < n; i++) cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
    return a;
}
static cJSON *ints(const int *v, size_t n) {
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a && i < n; i++) cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
    return a;
}

#define FAIL(...) (snprintf(err, errlen, __VA_ARGS__), -1)

/* g: the tensor in device memory; out: a device buffer of PROBE_TMA_MAX_BYTES; host: the same on the host. */
static int run_tma(cJSON *doc, const uint16_t *g, uint8_t *out, uint8_t *host, char *err, size_t errlen) {
    cJSON *arr = cJSON_AddArrayToObject(doc, "tma");
    static CUtensorMap map; /* 128-byte aligned by its type */
    const cuuint64_t dims[3] = {TW, TH, TD}, strides[2] = {TW * 2, TW * 2 * TH};
    char hex[2 * PROBE_TMA_MAX_BYTES + 1];
    for (int i = 0; i < N_TMA; i++) {
        const cuuint32_t box[3] = {(cuuint32_t)tma_cases[i].bx, (cuuint32_t)tma_cases[i].by,
                                   (cuuint32_t)tma_cases[i].bz};
        const unsigned bytes = (unsigned)(tma_cases[i].bx * tma_cases[i].by *
                                          (tma_cases[i].rank == 3 ? tma_cases[i].bz : 1) * 2);
        if (probe_encode_tiled(&map, CU_TENSOR_MAP_DATA_TYPE_UINT16, (unsigned)tma_cases[i].rank, g, dims,
                               strides, box, swizzle_enum(tma_cases[i].swizzle), err, errlen))
            return -1;
        memset(host, 0xcd, PROBE_TMA_MAX_BYTES);
        int e = probe_put(out, host, PROBE_TMA_MAX_BYTES);
        if (!e)
            e = probe_tma_box(&map, tma_cases[i].rank, tma_cases[i].c0, tma_cases[i].c1, tma_cases[i].c2, out,
                              bytes);
        if (!e) e = probe_get(host, out, bytes);
        if (e)
            return FAIL("TMA probe %d (swizzle %d, rank %d, box %dx%dx%d at (%d, %d, %d)): %s", i,
                        tma_cases[i].swizzle, tma_cases[i].rank, tma_cases[i].bx, tma_cases[i].by,
                        tma_cases[i].bz, tma_cases[i].c0, tma_cases[i].c1, tma_cases[i].c2,
                        probe_error_name(e));
        for (unsigned b = 0; b < bytes; b++) snprintf(hex + 2 * b, 3, "%02x", host[b]);
        cJSON *o = cJSON_CreateObject();
        const int c[3] = {tma_cases[i].c0, tma_cases[i].c1, tma_cases[i].c2},
                  bx[3] = {tma_cases[i].bx, tma_cases[i].by, tma_cases[i].bz};
        cJSON_AddNumberToObject(o, "swizzle", tma_cases[i].swizzle);
        cJSON_AddNumberToObject(o, "rank", tma_cases[i].rank);
        cJSON_AddItemToObject(o, "box", ints(bx, 3));
        cJSON_AddItemToObject(o, "coords", ints(c, 3));
        cJSON_AddStringToObject(o, "bytes_hex", hex);
        cJSON_AddItemToArray(arr, o);
    }
    return 0;
}

/* Stage 7g's exponential: N_EXP2_SPREAD points spread over [-130, 0] (x = -130 frac(phi k), phi the
 * golden ratio's fraction, in double then rounded to float: the same on every host), then the edges
 * of its form. */
enum { N_EXP2_SPREAD = 8180, N_EXP2 = N_EXP2_SPREAD + 12 };
#define EXP2_INPUTS                                                                                          \
    "8180 points x = -130 frac(0.6180339887498949 k), k = 0..8179, then 0, -0, -0.5, -1.5, -124.5, -125, "   \
    "the float below -125, -126, -1e30, -inf, NaN, -2^-149"
static void exp2_inputs(float *x) {
    for (int k = 0; k < N_EXP2_SPREAD; k++) {
        const double f = 0.6180339887498949 * k;
        x[k] = (float)(-130.0 * (f - floor(f)));
    }
    const float edges[12] = {
        0.0f,    -0.0f,  -0.5f,     -1.5f, -124.5f,   -125.0f, nextafterf(-125.0f, -200.0f),
        -126.0f, -1e30f, -INFINITY, NAN,   -0x1p-149f};
    memcpy(x + N_EXP2_SPREAD, edges, sizeof edges);
}

/* The device's exp2_poly against the host twin, bit for bit, and the bits' FNV-1a hash (the same on
 * the emulator and a GPU when both agree with the twin). */
static int run_exp2(cJSON *doc, char *err, size_t errlen) {
    float x[N_EXP2], y[N_EXP2];
    float *dx = probe_alloc(sizeof x), *dy = probe_alloc(sizeof y);
    int e = !dx || !dy ? -1 : 0;
    exp2_inputs(x);
    if (!e) e = probe_put(dx, x, sizeof x);
    if (!e) e = probe_exp2_poly(dx, dy, N_EXP2);
    if (!e) e = probe_get(y, dy, sizeof y);
    probe_free(dx), probe_free(dy);
    if (e) return FAIL("exp2_poly probe: %s", e < 0 ? "out of device memory" : probe_error_name(e));
    uint64_t hash = 0xcbf29ce484222325u;
    int bad = 0;
    char first[160] = "";
    for (int i = 0; i < N_EXP2; i++) {
        const float host = exp2_poly(x[i]);
        uint32_t dev_bits, host_bits;
        memcpy(&dev_bits, &y[i], 4), memcpy(&host_bits, &host, 4);
        for (int b = 0; b < 4; b++) hash = (hash ^ ((dev_bits >> (8 * b)) & 0xff)) * 0x100000001b3u;
        if (dev_bits != host_bits && !bad++)
            snprintf(first, sizeof first, "x = %a: device 0x%08" PRIx32 ", host twin 0x%08" PRIx32,
                     (double)x[i], dev_bits, host_bits);
    }
    char hex[17];
    snprintf(hex, sizeof hex, "%016" PRIx64, hash);
    cJSON *o = cJSON_AddObjectToObject(doc, "exp2_poly");
    cJSON_AddStringToObject(o, "inputs", EXP2_INPUTS);
    cJSON_AddNumberToObject(o, "points", N_EXP2);
    cJSON_AddStringToObject(o, "bits_fnv1a64", hex);
    cJSON_AddNumberToObject(o, "host_twin_mismatches", bad);
    cJSON_AddStringToObject(o, "first_mismatch", first);
    return 0;
}

/* Stage 7h's flushed exponential against __expf on the same device (paper/methods.md#prereg-stage7h):
 * spread points, and every float on both sides of the argument where __expf's result leaves the
 * normal range (x log2(e) = -126). */
enum { N_FTZ_SPREAD = 4096, N_FTZ_EDGE = 2048, N_FTZ = N_FTZ_SPREAD + 2 * N_FTZ_EDGE + 6 };
#define FTZ_INPUTS                                                                                           \
    "4096 points x = -110 frac(0.6180339887498949 k), k = 0..4095; the 2048 floats above and the 2048 "      \
    "below -126 / 1.44269502f (where __expf(x) crosses 2^-126); 0, -0, -88, -100, -104, -inf"
static void ftz_inputs(float *x) {
    for (int k = 0; k < N_FTZ_SPREAD; k++) {
        const double f = 0.6180339887498949 * k;
        x[k] = (float)(-110.0 * (f - floor(f)));
    }
    float up = -126.0f / 1.44269502f, down = up;
    for (int k = 0; k < N_FTZ_EDGE; k++) {
        x[N_FTZ_SPREAD + 2 * k] = up, x[N_FTZ_SPREAD + 2 * k + 1] = down = nextafterf(down, -200.0f);
        up = nextafterf(up, 0.0f);
    }
    const float edges[6] = {0.0f, -0.0f, -88.0f, -100.0f, -104.0f, -INFINITY};
    memcpy(x + N_FTZ_SPREAD + 2 * N_FTZ_EDGE, edges, sizeof edges);
}

/* Counts, per point: codes that differ; weights that differ where __expf's is normal, or a flushed one
 * that is not +0; and the points where the flush acted (a nonzero __expf below 2^-126). */
static int run_exp_ftz(cJSON *doc, char *err, size_t errlen) {
    static float x[N_FTZ];
    static uint32_t out[3 * N_FTZ];
    float *dx = probe_alloc(sizeof x);
    uint32_t *dout = probe_alloc(sizeof out);
    int e = !dx || !dout ? -1 : 0;
    ftz_inputs(x);
    if (!e) e = probe_put(dx, x, sizeof x);
    if (!e) e = probe_exp_ftz(dx, dout, N_FTZ);
    if (!e) e = probe_get(out, dout, sizeof out);
    probe_free(dx), probe_free(dout);
    if (e) return FAIL("exp_ftz probe: %s", e < 0 ? "out of device memory" : probe_error_name(e));
    int codes = 0, weights = 0, flushed = 0;
    char first[200] = "";
    for (int i = 0; i < N_FTZ; i++) {
        float plain;
        memcpy(&plain, &out[3 * i], 4);
        const uint32_t c = out[3 * i + 2];
        const int code_bad = (c & 0xffu) != ((c >> 8) & 0xffu);
        const int normal = !(plain < 0x1p-126f); /* NaN too: the bits must agree */
        const int weight_bad = normal ? out[3 * i + 1] != out[3 * i] : out[3 * i + 1] != 0u;
        codes += code_bad, weights += weight_bad, flushed += !normal && plain > 0.0f;
        if ((code_bad || weight_bad) && !first[0])
            snprintf(first, sizeof first,
                     "x = %a: __expf 0x%08" PRIx32 ", flushed 0x%08" PRIx32 ", codes 0x%04" PRIx32,
                     (double)x[i], out[3 * i], out[3 * i + 1], c & 0xffffu);
    }
    cJSON *o = cJSON_AddObjectToObject(doc, "exp_ftz");
    cJSON_AddStringToObject(o, "inputs", FTZ_INPUTS);
    cJSON_AddNumberToObject(o, "points", N_FTZ);
    cJSON_AddNumberToObject(o, "code_mismatches", codes);
    cJSON_AddNumberToObject(o, "weight_mismatches", weights);
    cJSON_AddNumberToObject(o, "flushed", flushed);
    cJSON_AddStringToObject(o, "first_mismatch", first);
    return 0;
}

/* Stage 7k's stmatrix.x4 (probes.h): the tile's 256 halves as the device left them. */
static int run_stmatrix(cJSON *doc, char *err, size_t errlen) {
    uint16_t out[256];
    uint16_t *dout = probe_alloc(sizeof out);
    int e = !dout ? -1 : probe_stmatrix(dout);
    if (!e) e = probe_get(out, dout, sizeof out);
    probe_free(dout);
    if (e) return FAIL("stmatrix probe: %s", e < 0 ? "out of device memory" : probe_error_name(e));
    int v[256];
    for (int k = 0; k < 256; k++) v[k] = out[k];
    cJSON *o = cJSON_AddObjectToObject(doc, "stmatrix");
    cJSON_AddStringToObject(o, "mode",
                            "x4, row i of matrix m at 16 ((7 (8 m + i)) mod 32) bytes; lane l's register m "
                            "holds 0x1000 + 32 m + l (low half), 0x1100 + 32 m + l (high half)");
    cJSON_AddItemToObject(o, "halves", ints(v, 256));
    return 0;
}

/* Where stage 7's dynamic shared memory starts (probes.h): a fact of the device, its driver and the
 * compiler, not of the layouts: probe_check_isa checks it against stage 7's alignment, probe_compare
 * leaves it out (the emulator's is SIMT_DYN_SMEM_OFFSET's). */
static int run_smem_base(cJSON *doc, char *err, size_t errlen) {
    uint32_t addr = 0, *dout = probe_alloc(sizeof addr);
    int e = !dout ? -1 : probe_smem_base(PROBE_SMEM_BASE_BYTES, dout);
    if (!e) e = probe_get(&addr, dout, sizeof addr);
    probe_free(dout);
    if (e) return FAIL("smem_base probe: %s", e < 0 ? "out of device memory" : probe_error_name(e));
    cJSON *o = cJSON_AddObjectToObject(doc, "smem_base");
    cJSON_AddNumberToObject(o, "dynamic_bytes", PROBE_SMEM_BASE_BYTES);
    cJSON_AddNumberToObject(o, "declared_align", 1024);
    cJSON_AddNumberToObject(o, "window_address", addr);
    return 0;
}

/* A probe writing n floats to the device buffer dev, then copied to host: 0 or the first error. */
#define RUN(call, n) ((e = (call)) || (e = probe_get(host, dev, (n) * sizeof(float))))

/* The wgmma probes first, then the exponential, the TMA boxes last: a fault (which ends the CUDA
 * context) keeps in doc every part that completed before it. */
cJSON *probe_run_all(cJSON *doc, char *err, size_t errlen) {
    const size_t tensor = TW * TH * TD * 2, out_bytes = 128 * 128 * sizeof(float);
    uint16_t *g = malloc(tensor), *dg = probe_alloc(tensor);
    float *host = malloc(out_bytes), *dev = probe_alloc(out_bytes);
    uint8_t *tma_host = malloc(PROBE_TMA_MAX_BYTES), *tma_dev = probe_alloc(PROBE_TMA_MAX_BYTES);
    int rc = 0, e = 0;
    if (!g || !dg || !host || !dev || !tma_host || !tma_dev) rc = FAIL("out of memory (host or device)");
    if (!rc && RUN(probe_wgmma_acc(dev), 128 * 128))
        rc = FAIL("wgmma accumulator probe: %s", probe_error_name(e));
    if (!rc) {
        cJSON *o = cJSON_AddObjectToObject(doc, "wgmma_acc");
        cJSON_AddStringToObject(o, "mode", "ss m64n256k32 e4m3, D[m][n] = m + 64 n");
        cJSON_AddItemToObject(o, "values", floats(host, 128 * 128));
    }
    cJSON *a = rc ? NULL : cJSON_AddObjectToObject(doc, "wgmma_a");
    static const char *const what[3] = {"byte", "thread_mod_8", "thread_div_8"};
    for (int w = 0; !rc && w < 3; w++) {
        if (RUN(probe_wgmma_a(w, dev), 128 * 16))
            rc = FAIL("wgmma A-fragment probe %s: %s", what[w], probe_error_name(e));
        else
            cJSON_AddItemToObject(a, what[w], floats(host, 128 * 16));
    }
    cJSON *descs = rc ? NULL : cJSON_AddArrayToObject(doc, "wgmma_desc");
    for (int i = 0; !rc && i < N_DESC; i++) {
        cJSON *o = cJSON_CreateObject(), *nib = cJSON_CreateArray();
        cJSON_AddNumberToObject(o, "start", desc_cases[i][0]);
        cJSON_AddNumberToObject(o, "lbo", desc_cases[i][1]);
        cJSON_AddNumberToObject(o, "sbo", desc_cases[i][2]);
        cJSON_AddNumberToObject(o, "swizzle", desc_cases[i][3]);
        for (int j = 0; !rc && j < 4; j++) {
            if (RUN(probe_wgmma_desc(desc_cases[i][0], desc_cases[i][1], desc_cases[i][2], desc_cases[i][3],
                                     j, dev),
                    64 * 32))
                rc = FAIL("wgmma descriptor probe %d: %s", i, probe_error_name(e));
            else
                cJSON_AddItemToArray(nib, floats(host, 64 * 32));
        }
        cJSON_AddItemToObject(o, "nibbles", nib);
        cJSON_AddItemToArray(descs, o);
    }
    if (!rc) rc = run_exp2(doc, err, errlen);
    if (!rc) rc = run_exp_ftz(doc, err, errlen);
    if (!rc) rc = run_stmatrix(doc, err, errlen);
    if (!rc) rc = run_smem_base(doc, err, errlen);
    for (int z = 0; !rc && z < TD; z++)
        for (int y = 0; y < TH; y++)
            for (int x = 0; x < TW; x++) g[(z * TH + y) * TW + x] = (uint16_t)(1 + x + 256 * y + 4096 * z);
    if (!rc && probe_put(dg, g, tensor)) rc = FAIL("copying the TMA tensor to the device failed");
    if (!rc) {
        cJSON *t = cJSON_AddObjectToObject(doc, "tma_tensor");
        const int dims[3] = {TW, TH, TD};
        cJSON_AddItemToObject(t, "dims", ints(dims, 3));
        cJSON_AddStringToObject(t, "element", "uint16: 1 + x + 256 y + 4096 z");
        rc = run_tma(doc, dg, tma_dev, tma_host, err, errlen);
    }
    free(g), free(host), free(tma_host);
    probe_free(dg), probe_free(dev), probe_free(tma_dev);
    return rc ? NULL : doc;
}

/* ---- decoding against the documents --------------------------------------------------------------- */
static double num_at(const cJSON *arr, int i) {
    const cJSON *v = cJSON_GetArrayItem(arr, i);
    return cJSON_IsNumber(v) ? v->valuedouble : -1.0;
}
static int count_items(const cJSON *arr) { return cJSON_IsArray(arr) ? cJSON_GetArraySize(arr) : -1; }

#define MISMATCH(...)                                                                                        \
    do {                                                                                                     \
        if (!bad++) snprintf(err, errlen, __VA_ARGS__);                                                      \
    } while (0)

/* An exponential part's first_mismatch, as recorded. */
static const char *first_mismatch(const cJSON *part) {
    const cJSON *f = cJSON_GetObjectItem(part, "first_mismatch");
    return cJSON_IsString(f) ? f->valuestring : "not recorded";
}

int probe_check_isa(const cJSON *doc, char *err, size_t errlen) {
    int bad = 0;
    err[0] = 0;
    /* An incomplete record (a probe faulted: "incomplete") is checked part by part as far as it got. */
    const int partial = cJSON_GetObjectItem(doc, "incomplete") != NULL;
    const cJSON *tma = cJSON_GetObjectItem(doc, "tma");
    const int n_tma = partial && count_items(tma) >= 0 ? count_items(tma) : N_TMA;
    if (count_items(tma) != n_tma && !(partial && !tma))
        return FAIL("tma: %d records, expected %d", count_items(tma), N_TMA);
    for (int i = 0; tma && i < n_tma && i < N_TMA; i++) {
        const cJSON *hex = cJSON_GetObjectItem(cJSON_GetArrayItem(tma, i), "bytes_hex");
        const int bz = tma_cases[i].rank == 3 ? tma_cases[i].bz : 1, span = tma_cases[i].swizzle;
        if (!cJSON_IsString(hex) ||
            (int)strlen(hex->valuestring) != 4 * tma_cases[i].bx * tma_cases[i].by * bz)
            return FAIL("tma[%d]: bytes_hex missing or of the wrong length", i);
        for (int z = 0; z < bz; z++)
            for (int y = 0; y < tma_cases[i].by; y++)
                for (int x = 0; x < tma_cases[i].bx; x++) {
                    const int gx = tma_cases[i].c0 + x, gy = tma_cases[i].c1 + y,
                              gz = tma_cases[i].rank == 3 ? tma_cases[i].c2 + z : 0;
                    const int in = gx >= 0 && gx < TW && gy >= 0 && gy < TH && gz >= 0 && gz < TD;
                    const unsigned want = in ? (uint16_t)(1 + gx + 256 * gy + 4096 * gz) : 0;
                    const uint32_t a = wg_swizzle(
                        (uint32_t)(((z * tma_cases[i].by + y) * tma_cases[i].bx + x) * 2), (unsigned)span);
                    unsigned lo, hi;
                    if (sscanf(hex->valuestring + 2 * a, "%2x%2x", &lo, &hi) != 2 || (lo | hi << 8) != want)
                        MISMATCH("tma[%d] (swizzle %d, rank %d): element (%d, %d, %d) not at byte %u", i,
                                 span, tma_cases[i].rank, x, y, z, a);
                }
    }
    if (partial && !cJSON_GetObjectItem(doc, "wgmma_acc")) return bad;
    const cJSON *acc = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "wgmma_acc"), "values");
    if (count_items(acc) != 128 * 128)
        return FAIL("wgmma_acc.values: %d numbers, expected 16384", count_items(acc));
    for (int t = 0; t < 128; t++)
        for (int i = 0; i < 128; i++) {
            const double v = num_at(acc, 128 * t + i);
            const double want = wg_acc_row(t, i) + 64.0 * wg_acc_col(t, i);
            if (v != want)
                MISMATCH("wgmma_acc: thread %d register %d holds (m %d, n %d), the ISA says (m %u, n %u)", t,
                         i, (int)v % 64, (int)v / 64, wg_acc_row(t, i), wg_acc_col(t, i));
        }
    const cJSON *a = cJSON_GetObjectItem(doc, "wgmma_a");
    if (partial && count_items(cJSON_GetObjectItem(a, "thread_div_8")) != 2048) return bad;
    const cJSON *ab = cJSON_GetObjectItem(a, "byte"), *alo = cJSON_GetObjectItem(a, "thread_mod_8"),
                *ahi = cJSON_GetObjectItem(a, "thread_div_8");
    if (count_items(ab) != 2048 || count_items(alo) != 2048 || count_items(ahi) != 2048)
        return FAIL("wgmma_a: expected byte, thread_mod_8, thread_div_8 of 2048 numbers each");
    /* D register r of thread u holds A[m][k] at (m, k) = its accumulator position: which (thread, byte) of the
     * A fragment supplied it, against the ISA's A fragment. */
    for (int u = 0; u < 128; u++)
        for (int r = 0; r < 16; r++) {
            const unsigned m = wg_acc_row(u, r), k = wg_acc_col(u, r);
            const int byte = (int)num_at(ab, 16 * u + r),
                      t = (int)num_at(ahi, 16 * u + r) * 8 + (int)num_at(alo, 16 * u + r);
            if (t < 0 || t > 127 || byte < 0 || byte > 15 || wg_a_row(t, byte) != m || wg_a_k(t, byte) != k)
                MISMATCH(
                    "wgmma_a: A (m %u, k %u) came from thread %d byte %d; the ISA puts that at (m %u, k %u)",
                    m, k, t, byte, t >= 0 && t < 128 && byte >= 0 && byte < 16 ? wg_a_row(t, byte) : 0,
                    t >= 0 && t < 128 && byte >= 0 && byte < 16 ? wg_a_k(t, byte) : 0);
        }
    /* Stage 7g's exponential (records since 2026-11-28): the device's bits are the host twin's. */
    const cJSON *x2 = cJSON_GetObjectItem(doc, "exp2_poly");
    if (x2) {
        const cJSON *pts = cJSON_GetObjectItem(x2, "points"),
                    *mm = cJSON_GetObjectItem(x2, "host_twin_mismatches");
        if (!cJSON_IsNumber(pts) || pts->valueint != N_EXP2 || !cJSON_IsNumber(mm))
            return FAIL("exp2_poly: points (%d expected) or host_twin_mismatches missing", N_EXP2);
        if (mm->valueint != 0)
            MISMATCH("exp2_poly: %d of %d points differ from the host twin; the first: %s", mm->valueint,
                     N_EXP2, first_mismatch(x2));
    }
    /* Stage 7h's flushed exponential (records since 2026-11-29): the same codes as __expf's at every
     * point, the same weight where that is normal, and the flush reached (some __expf subnormal). */
    const cJSON *xf = cJSON_GetObjectItem(doc, "exp_ftz");
    if (xf) {
        const cJSON *pts = cJSON_GetObjectItem(xf, "points"),
                    *cm = cJSON_GetObjectItem(xf, "code_mismatches"),
                    *wm = cJSON_GetObjectItem(xf, "weight_mismatches"),
                    *fl = cJSON_GetObjectItem(xf, "flushed");
        if (!cJSON_IsNumber(pts) || pts->valueint != N_FTZ || !cJSON_IsNumber(cm) || !cJSON_IsNumber(wm) ||
            !cJSON_IsNumber(fl))
            return FAIL(
                "exp_ftz: points (%d expected), code_mismatches, weight_mismatches or flushed missing",
                N_FTZ);
        if (cm->valueint != 0 || wm->valueint != 0)
            MISMATCH("exp_ftz: %d codes and %d weights of %d points differ from __expf's; the first: %s",
                     cm->valueint, wm->valueint, N_FTZ, first_mismatch(xf));
        if (fl->valueint < 1)
            MISMATCH(
                "exp_ftz: no point reached the flush (no __expf result below 2^-126): the claim is untested");
    }
    /* Stage 7k's stmatrix (records since 2026-11-29): row i of matrix m, half c, is register m of lane
     * 4 i + c / 2, its low half for even c (the PTX ISA's stmatrix fragment, ldmatrix's inverse). */
    const cJSON *stm = cJSON_GetObjectItem(doc, "stmatrix");
    if (stm) {
        const cJSON *st = cJSON_GetObjectItem(stm, "halves");
        if (count_items(st) != 256) return FAIL("stmatrix.halves: %d numbers, expected 256", count_items(st));
        for (int m = 0; m < 4; m++)
            for (int i = 0; i < 8; i++)
                for (int c = 0; c < 8; c++) {
                    const int at = PROBE_STSM_ROW(m, i) / 2 + c;
                    const unsigned want = PROBE_STSM_CODE(4 * i + c / 2, m, c % 2),
                                   got = (unsigned)num_at(st, at);
                    if (got != want)
                        MISMATCH("stmatrix: matrix %d row %d half %d holds 0x%04x (lane %u, register %u, "
                                 "half %u); the ISA "
                                 "says lane %d, register %d, half %d",
                                 m, i, c, got, got & 31u, (got >> 5) & 3u, (got >> 8) & 1u, 4 * i + c / 2, m,
                                 c % 2);
                }
    }
    /* Stage 7's dynamic shared memory (records since 2026-11-29): on the 1024 bytes its swizzled tiles
     * need, else every stage 7 kernel stops at prims::smem_check_aligned. */
    const cJSON *sb = cJSON_GetObjectItem(doc, "smem_base");
    if (sb) {
        const cJSON *wa = cJSON_GetObjectItem(sb, "window_address");
        const double a = cJSON_IsNumber(wa) ? wa->valuedouble : -1;
        if (!(a >= 0 && a < 4294967296.0 && a == floor(a)))
            return FAIL("smem_base.window_address: missing or not a 32-bit shared-window address");
        if ((uint32_t)a % 1024 != 0)
            MISMATCH("smem_base: dynamic shared memory starts at shared-window address 0x%x, not on 1024 "
                     "bytes: stage 7's 1024-byte aligned kernels (7e-7k; 7b-7d at D = 128) stop at "
                     "prims::smem_check_aligned with this build",
                     (unsigned)a);
    }
    const cJSON *descs = cJSON_GetObjectItem(doc, "wgmma_desc");
    const int n_desc = partial ? count_items(descs) : N_DESC;
    if (count_items(descs) != n_desc || n_desc > N_DESC)
        return FAIL("wgmma_desc: %d records, expected %d", count_items(descs), N_DESC);
    for (int i = 0; i < n_desc; i++) {
        const cJSON *nib = cJSON_GetObjectItem(cJSON_GetArrayItem(descs, i), "nibbles");
        if (partial && count_items(nib) != 4) break;
        if (count_items(nib) != 4) return FAIL("wgmma_desc[%d].nibbles: expected 4 runs", i);
        for (int m = 0; m < 64; m++)
            for (int k = 0; k < 32; k++) {
                unsigned addr = 0;
                for (int j = 0; j < 4; j++)
                    addr |= (unsigned)num_at(cJSON_GetArrayItem(nib, j), 32 * m + k) << (4 * j);
                const unsigned want = wg_kmajor_address(desc_cases[i][0], desc_cases[i][1], desc_cases[i][2],
                                                        desc_cases[i][3], m, k);
                if (addr != want)
                    MISMATCH("wgmma_desc[%d] (start %u, LBO %u, SBO %u, swizzle %u): (m %d, k %d) read at "
                             "%u, the ISA "
                             "says %u",
                             i, desc_cases[i][0], desc_cases[i][1], desc_cases[i][2], desc_cases[i][3], m, k,
                             addr, want);
            }
    }
    return bad;
}

/* ---- comparing two records ------------------------------------------------------------------------- */
static int same_json(const cJSON *a, const cJSON *b) { return a && b && cJSON_Compare(a, b, 1); }

int probe_compare(const cJSON *got, const cJSON *want, char *err, size_t errlen) {
    static const char *const parts[] = {"tma", "wgmma_acc", "wgmma_a", "wgmma_desc"};
    int bad = 0;
    err[0] = 0;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if (!same_json(cJSON_GetObjectItem(got, parts[i]), cJSON_GetObjectItem(want, parts[i])))
            MISMATCH("%s differs", parts[i]);
    /* Nor smem_base: where dynamic shared memory starts is the runtime's choice, not a layout. */
    /* Stage 7h's exp_ftz is not compared: its weights are each device's own __expf (the emulator's is
     * libm's); its claim is within one record, and probe_check_isa checks it. */
    /* stage 7g's exponential: where both records have it (hardware records before 2026-11-28 do not) */
    const cJSON *xg = cJSON_GetObjectItem(got, "exp2_poly"), *xw = cJSON_GetObjectItem(want, "exp2_poly");
    if (xg && xw && !same_json(xg, xw)) MISMATCH("exp2_poly differs");
    /* stage 7k's stmatrix: likewise (records since 2026-11-29) */
    const cJSON *sg = cJSON_GetObjectItem(got, "stmatrix"), *sw = cJSON_GetObjectItem(want, "stmatrix");
    if (sg && sw && !same_json(sg, sw)) MISMATCH("stmatrix differs");
    return bad;
}
