/* A kernel table for testing the harness without the emulator: plain C launchers with the
 * launcher signature, standing in for sdpa_kernels_emu in the test build of sdpa-bench.
 *   - every row of kernels/variants.def (same ids, parents and switches, so the harness's table
 *     check and cross-variant expectations apply): P in fp32 without WMMA P.V, fp16 with it;
 *   - planted faults, each of which the harness must catch with exit status 1:
 *     test-wrong (biased output), test-ulp (one element 1 ulp off stage2: correct within the
 *     tolerances, but not bit-identical), test-nowrite (one element never written),
 *     test-clobber (modifies an input), test-status (the launcher reports a launch failure);
 *   - test-timefail: correct on its first launch (the check), failing on every later one, so the
 *     run stops during timing with exit status 3 and writes no result file. */
#include <stdint.h>

#include "fp8.h"
#include "half.h"
#include "sdpa_api.h"

#define TA_FN static inline
#define TA_UNIT(codec, code) ((float)codec_unit((codec), (code)))
#define TA_ROUND(x) half_to_float(half_from_float(x))
#define TA_HALF_BITS(x) half_from_float(x)
#include "test_attention.h"

static sdpa_status_t attention(const sdpa_args_t *a, int p16) {
    const sdpa_status_t st = sdpa_check_args(a);
    if (st != SDPA_OK) return st;
    const size_t S = (size_t)a->S, D = TA_D;
    for (int b = 0; b < a->B; b++)
        for (int h = 0; h < a->H; h++) {
            const size_t base = ((size_t)b * (size_t)a->H + (size_t)h) * S * D;
            const float sq = (float)codec_step(a->codec, a->q_scale[h]),
                        sk = (float)codec_step(a->codec, a->k_scale[h]);
            const float factor = sq * sk * a->softmax_scale, sv = (float)codec_step(a->codec, a->v_scale[h]);
            for (size_t i = 0; i < S; i++)
                ta_row(a->q + base + i * D, a->k + base, a->v + base, a->S, a->codec, factor, sv, p16,
                       a->o + base + i * D);
        }
    return SDPA_OK;
}

static sdpa_status_t test_p32(const sdpa_args_t *a) { return attention(a, 0); }
static sdpa_status_t test_p16(const sdpa_args_t *a) { return attention(a, 1); }

static size_t numel(const sdpa_args_t *a) {
    return (size_t)a->B * (size_t)a->H * (size_t)a->S * (size_t)a->D;
}

static sdpa_status_t test_wrong(const sdpa_args_t *a) {
    const sdpa_status_t st = attention(a, 1);
    for (size_t i = 0; st == SDPA_OK && i < numel(a); i++)
        a->o[i] = half_from_float(half_to_float(a->o[i]) + 0.1f);
    return st;
}

static sdpa_status_t test_ulp(const sdpa_args_t *a) {
    const sdpa_status_t st = attention(a, 1);
    if (st == SDPA_OK) a->o[0] ^= 1u; /* the last bit: one ulp away */
    return st;
}

static sdpa_status_t test_nowrite(const sdpa_args_t *a) {
    const uint16_t keep = a->o[numel(a) - 1];
    const sdpa_status_t st = attention(a, 1);
    a->o[numel(a) - 1] = keep;
    return st;
}

static sdpa_status_t test_clobber(const sdpa_args_t *a) {
    const sdpa_status_t st = attention(a, 1);
    ((uint8_t *)a->q)[0] ^= 1u;
    return st;
}

static sdpa_status_t test_timefail(const sdpa_args_t *a) {
    static int launches;
    return launches++ == 0 ? attention(a, 1) : SDPA_ERR_LAUNCH;
}

static sdpa_status_t test_status(const sdpa_args_t *a) {
    (void)a;
    return SDPA_ERR_LAUNCH;
}

static sdpa_status_t test_fault(const sdpa_args_t *a) {
    (void)a;
    return SDPA_ERR_FAULT;
}

#define SDPA_VARIANT(ident, id, parent, sw, summary)                                                         \
    {id,                                                                                                     \
     parent,                                                                                                 \
     (sw),                                                                                                   \
     summary,                                                                                                \
     ((sw)&SDPA_SW(WMMA_PV)) ? test_p16 : test_p32,                                                          \
     1,                                                                                                      \
     {SDPA_GEOMETRY_OF_SWITCHES("test_" #ident, (sw), 64, 0)}},
/* The planted variants are stage2-shaped: its geometry at D = 64. */
#define TEST_GEOMETRY SDPA_GEOMETRY_OF_SWITCHES("test", SDPA_SW(CP_ASYNC) | SDPA_SW(WMMA_PV), 64, 0)
const sdpa_kernel_entry_t sdpa_kernels_emu[] = {
#include "variants.def"
    {"test-wrong",
     "stage2",
     SDPA_SW(CP_ASYNC) | SDPA_SW(WMMA_PV),
     "planted fault: output biased by +0.1",
     test_wrong,
     1,
     {TEST_GEOMETRY}},
    {"test-ulp",
     "stage2",
     SDPA_SW(CP_ASYNC) | SDPA_SW(WMMA_PV),
     "planted fault: one element 1 ulp off stage2",
     test_ulp,
     1,
     {TEST_GEOMETRY}},
    {"test-nowrite",
     "stage2",
     SDPA_SW(CP_ASYNC) | SDPA_SW(WMMA_PV),
     "planted fault: last element never written",
     test_nowrite,
     1,
     {TEST_GEOMETRY}},
    {"test-clobber",
     "stage2",
     SDPA_SW(CP_ASYNC) | SDPA_SW(WMMA_PV),
     "planted fault: modifies its input q",
     test_clobber,
     1,
     {TEST_GEOMETRY}},
    {"test-status",
     "stage2",
     SDPA_SW(CP_ASYNC) | SDPA_SW(WMMA_PV),
     "planted fault: the device fails the launch (a run-time error)",
     test_status,
     1,
     {TEST_GEOMETRY}},
    {"test-fault",
     "stage2",
     SDPA_SW(CP_ASYNC) | SDPA_SW(WMMA_PV),
     "planted fault: the emulator finds a fault in the kernel (a correctness failure)",
     test_fault,
     1,
     {TEST_GEOMETRY}},
    {"test-timefail",
     "stage2",
     SDPA_SW(CP_ASYNC) | SDPA_SW(WMMA_PV),
     "planted fault: fails after its first launch",
     test_timefail,
     1,
     {TEST_GEOMETRY}},
    {NULL, NULL, 0, NULL, NULL, 0, {{0}}},
};
#undef SDPA_VARIANT
