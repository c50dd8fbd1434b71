/* TMA on the emulator: the tensor-map encoder's rules (kernels/tensor_map.h, the emulator's encoder)
 * and the control of the planted TMA bugs. The boxes themselves (2-D, 3-D, every swizzle mode, partly
 * outside the tensor) are the TMA probe's (kernels/probes; test_probes.c checks them against the
 * documented layout: dense rows, 16-byte chunks XOR-swizzled as wgmma reads them, zeros outside). */
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
        cmocka_unit_test(test_tma_bug_control),
    };
    return cmocka_run_group_tests_name("emulator: TMA (tensor maps, cp.async.bulk.tensor)", tests, NULL,
                                       NULL);
}
