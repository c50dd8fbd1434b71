/* TMA on the emulator: the tensor-map encoder's rules (kernels/tensor_map.h, the emulator's encoder)
 * and cp.async.bulk.tensor boxes (2-D, 3-D, every swizzle mode, partly outside the tensor) against the
 * layout the ISA and CUDA's documentation give: the box is written densely, row after row; each
 * 16-byte chunk at address a lands at a ^ (((a >> 7) & (span/16 - 1)) << 4) (CuTe Swizzle<b,4,3>, the
 * same XOR wgmma reads); elements outside the tensor arrive as zeros. The probe kernel itself
 * (kernels/probes/probes.cu) is what an H100 runs for the hardware fixture (test_probes.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "emu_check.h"
#include "probes.h"
#include "tensor_map.h"

/* ---- the encoder's rules ------------------------------------------------------------------------- */
typedef struct {
    const char *what; /* the argument the message must name; NULL: valid */
    CUtensorMapDataType dtype;
    unsigned rank;
    size_t gofs; /* globalAddress = base + gofs */
    cuuint64_t dims[3], strides[2];
    cuuint32_t box[3], es0;
    CUtensorMapSwizzle sw;
} rule_case;

static void test_encoder_rules(void **state) {
    (void)state;
    static const rule_case cases[] = {
        {NULL,
         CU_TENSOR_MAP_DATA_TYPE_UINT8,
         2,
         0,
         {128, 64},
         {128},
         {128, 64},
         1,
         CU_TENSOR_MAP_SWIZZLE_128B},
        {NULL,
         CU_TENSOR_MAP_DATA_TYPE_UINT16,
         3,
         0,
         {64, 8, 4},
         {128, 1024},
         {32, 8, 2},
         1,
         CU_TENSOR_MAP_SWIZZLE_64B},
        {"tensorRank", CU_TENSOR_MAP_DATA_TYPE_UINT8, 0, 0, {128}, {0}, {16}, 1, CU_TENSOR_MAP_SWIZZLE_NONE},
        {"globalAddress",
         CU_TENSOR_MAP_DATA_TYPE_UINT8,
         2,
         8,
         {128, 64},
         {128},
         {64, 64},
         1,
         CU_TENSOR_MAP_SWIZZLE_NONE},
        {"globalDim[1]",
         CU_TENSOR_MAP_DATA_TYPE_UINT8,
         2,
         0,
         {128, 0},
         {128},
         {64, 64},
         1,
         CU_TENSOR_MAP_SWIZZLE_NONE},
        {"globalStrides[0]",
         CU_TENSOR_MAP_DATA_TYPE_UINT8,
         2,
         0,
         {120, 64},
         {120},
         {64, 64},
         1,
         CU_TENSOR_MAP_SWIZZLE_NONE},
        {"boxDim[1]",
         CU_TENSOR_MAP_DATA_TYPE_UINT8,
         2,
         0,
         {128, 512},
         {128},
         {64, 257},
         1,
         CU_TENSOR_MAP_SWIZZLE_NONE},
        {"boxDim[0]",
         CU_TENSOR_MAP_DATA_TYPE_UINT8,
         2,
         0,
         {128, 64},
         {128},
         {24, 64},
         1,
         CU_TENSOR_MAP_SWIZZLE_NONE},
        /* inner box 128 bytes > the 64-byte swizzle span */
        {"boxDim[0]",
         CU_TENSOR_MAP_DATA_TYPE_UINT8,
         2,
         0,
         {128, 64},
         {128},
         {128, 64},
         1,
         CU_TENSOR_MAP_SWIZZLE_64B},
        {"boxDim[0]",
         CU_TENSOR_MAP_DATA_TYPE_UINT16,
         2,
         0,
         {64, 64},
         {128},
         {32, 64},
         1,
         CU_TENSOR_MAP_SWIZZLE_32B},
        {"elementStrides[0]",
         CU_TENSOR_MAP_DATA_TYPE_UINT8,
         2,
         0,
         {128, 64},
         {128},
         {64, 64},
         9,
         CU_TENSOR_MAP_SWIZZLE_NONE},
        {"tensorDataType",
         (CUtensorMapDataType)99,
         2,
         0,
         {128, 64},
         {128},
         {64, 64},
         1,
         CU_TENSOR_MAP_SWIZZLE_NONE},
        {"swizzle",
         CU_TENSOR_MAP_DATA_TYPE_UINT8,
         2,
         0,
         {128, 64},
         {128},
         {64, 64},
         1,
         (CUtensorMapSwizzle)42},
    };
    uint8_t *g = emu_alloc(1 << 20);
    static CUtensorMap map; /* 128-byte aligned by its type */
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const rule_case *c = &cases[i];
        const cuuint32_t es[3] = {c->es0, 1, 1};
        char err[256] = "", err2[256] = "";
        const int shared =
            tmap_check_tiled(&map, c->dtype, c->rank, g + c->gofs, c->dims, c->strides, c->box, es,
                             CU_TENSOR_MAP_INTERLEAVE_NONE, c->sw, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, err, sizeof err);
        /* the emulator's encoder (through prims::tma_encode_tiled, element strides 1) */
        const int emu = c->es0 == 1 ? probe_encode_tiled(&map, c->dtype, c->rank, g + c->gofs, c->dims,
                                                         c->strides, c->box, c->sw, err2, sizeof err2)
                                    : shared;
        if (!c->what) {
            if (shared || emu) fail_msg("case %zu: valid arguments refused: %s %s", i, err, err2);
            continue;
        }
        if (!shared || !emu) fail_msg("case %zu: invalid %s accepted", i, c->what);
        if (!strstr(err, c->what)) fail_msg("case %zu: the message \"%s\" does not name %s", i, err, c->what);
        if (c->es0 == 1 && strcmp(err, err2) != 0)
            fail_msg("case %zu: encoders disagree: \"%s\" / \"%s\"", i, err, err2);
    }
    /* valid for the driver, but not modelled by the emulator: refused with that reason */
    const cuuint64_t dims[2] = {128, 64}, strides[1] = {128};
    const cuuint32_t box[2] = {128, 64};
    char err[256];
    if (probe_encode_tiled(&map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, g, dims, strides, box,
                           CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B, err, sizeof err) == 0 ||
        !strstr(err, "does not model"))
        fail_msg("128B_ATOM_32B: want a refusal naming what the emulator does not model, got \"%s\"", err);
    free(g);
}

/* ---- boxes ---------------------------------------------------------------------------------------- */
/* A uint16 tensor of W x H x D elements whose element (x, y, z) holds 1 + x + 256 y + 4096 z (mod 2^16:
 * unique over the boxes below), the box of bx x by x bz elements at (c0, c1, c2). */
typedef struct {
    CUtensorMapSwizzle sw;
    unsigned rank, bx, by, bz;
    int c0, c1, c2;
} box_case;

enum { TW = 96, TH = 40, TD = 3 };

static uint16_t elem(int x, int y, int z) { return (uint16_t)(1 + x + 256 * y + 4096 * z); }

static unsigned span_of(CUtensorMapSwizzle sw) { return tmap_swizzle_span(sw); }

typedef struct {
    const CUtensorMap *map;
    const box_case *c;
    uint8_t *out;
    unsigned bytes;
} box_run;
static int run_box(void *p) {
    const box_run *r = p;
    return probe_tma_box(r->map, (int)r->c->rank, r->c->c0, r->c->c1, r->c->c2, r->out, r->bytes);
}

static void check_box(const box_case *c, uint16_t *g) {
    CUtensorMap map;
    const cuuint64_t dims[3] = {TW, TH, TD}, strides[2] = {TW * 2, TW * 2 * TH};
    const cuuint32_t box[3] = {c->bx, c->by, c->bz};
    char err[256];
    if (probe_encode_tiled(&map, CU_TENSOR_MAP_DATA_TYPE_UINT16, c->rank, g, dims, strides, box, c->sw, err,
                           sizeof err))
        fail_msg("encode: %s", err);
    const unsigned bz = c->rank == 3 ? c->bz : 1, bytes = c->bx * c->by * bz * 2, span = span_of(c->sw);
    uint8_t *out = emu_alloc(PROBE_TMA_MAX_BYTES), *want = emu_alloc(PROBE_TMA_MAX_BYTES);
    for (unsigned z = 0; z < bz; z++)
        for (unsigned y = 0; y < c->by; y++)
            for (unsigned x = 0; x < c->bx; x++) {
                const int gx = c->c0 + (int)x, gy = c->c1 + (int)y, gz = c->rank == 3 ? c->c2 + (int)z : 0;
                const int in = gx >= 0 && gx < TW && gy >= 0 && gy < TH && gz >= 0 && gz < TD;
                const uint16_t v = in ? elem(gx, gy, gz) : 0;
                size_t a = (((size_t)z * c->by + y) * c->bx + x) * 2;
                if (span) a ^= ((a >> 7) & (span / 16 - 1)) << 4;
                memcpy(want + a, &v, 2);
            }
    box_run r = {&map, c, out, bytes};
    emu_run_everywhere(run_box, &r, out, PROBE_TMA_MAX_BYTES);
    for (unsigned i = 0; i < bytes; i++)
        if (out[i] != want[i])
            fail_msg("swizzle %u B, rank %u, box %ux%ux%u at (%d,%d,%d): byte %u = 0x%02x, want 0x%02x", span,
                     c->rank, c->bx, c->by, bz, c->c0, c->c1, c->c2, i, out[i], want[i]);
    free(out), free(want);
}

static void test_tma_boxes(void **state) {
    (void)state;
    uint16_t *g = emu_alloc(TW * TH * TD * 2);
    for (int z = 0; z < TD; z++)
        for (int y = 0; y < TH; y++)
            for (int x = 0; x < TW; x++) g[(z * TH + y) * TW + x] = elem(x, y, z);
    static const box_case cases[] = {
        {CU_TENSOR_MAP_SWIZZLE_NONE, 2, 32, 16, 1, 8, 4, 0},   /* inside */
        {CU_TENSOR_MAP_SWIZZLE_NONE, 2, 48, 16, 1, 72, 32, 0}, /* past both ends: zeros */
        {CU_TENSOR_MAP_SWIZZLE_32B, 2, 16, 24, 1, -8, 20, 0},  /* before the start: zeros */
        {CU_TENSOR_MAP_SWIZZLE_64B, 2, 32, 32, 1, 16, -5, 0},
        {CU_TENSOR_MAP_SWIZZLE_128B, 2, 64, 32, 1, 0, 0, 0},
        {CU_TENSOR_MAP_SWIZZLE_128B, 2, 64, 24, 1, 40, 30, 0},
        {CU_TENSOR_MAP_SWIZZLE_NONE, 3, 16, 8, 2, 4, 2, 1},
        {CU_TENSOR_MAP_SWIZZLE_64B, 3, 32, 8, 3, 64, 36, 1}, /* a partial tile at the tensor's edge */
        {CU_TENSOR_MAP_SWIZZLE_128B, 3, 64, 16, 2, 0, 8, 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) check_box(&cases[i], g);
    free(g);
}

/* The control of bug_tma.cu's plants (test_bugs.c runs it): passes under every schedule. */
int emu_bug_tma_control(void);
static void test_tma_bug_control(void **state) {
    (void)state;
    if (emu_bug_tma_control() != 0)
        fail_msg("the correct TMA kernel faulted or gave wrong bytes: %s", simt_last_error());
}

int emu_run_tma_tests(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_encoder_rules),
        cmocka_unit_test(test_tma_boxes),
        cmocka_unit_test(test_tma_bug_control),
    };
    return cmocka_run_group_tests_name("emulator: TMA (tensor maps, cp.async.bulk.tensor)", tests, NULL,
                                       NULL);
}
