/* Hopper's machinery on the emulator (kernels/prims.cuh, section "Hopper"): the sm_90a gate,
 * mbarrier rings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "emu_check.h"
#include "emu_tests.h"

/* The emulator models sm_90a: a gated body runs (nvcc-kernels.sh checks that other architectures'
 * code traps instead). */
static void test_arch_gate(void **state) {
    (void)state;
    int *out = emu_alloc(2 * 128 * sizeof(int));
    if (emut_arch_gate(out, 2) != 0) fail_msg("launch failed: %s", simt_last_error());
    for (int i = 0; i < 2 * 128; i++) assert_int_equal(out[i], 90);
    free(out);
}

/* The named-barrier ring of named_barrier.cu on mbarriers: same sums, every schedule, no report. */
enum { RING_TILES = 6, RING_BLOCKS = 2 };
typedef struct {
    float *in, *out;
} ring_ctx;
static int run_ring(void *p) {
    return emut_mbar_ring(((ring_ctx *)p)->in, ((ring_ctx *)p)->out, RING_TILES, RING_BLOCKS);
}
static void test_mbar_ring(void **state) {
    (void)state;
    ring_ctx c = {emu_alloc(RING_BLOCKS * RING_TILES * 32 * sizeof(float)),
                  emu_alloc(RING_BLOCKS * 96 * sizeof(float))};
    float want[RING_BLOCKS * 96];
    for (int i = 0; i < RING_BLOCKS * RING_TILES * 32; i++) c.in[i] = (float)(i % 23) - 7.0f;
    for (int b = 0; b < RING_BLOCKS; b++)
        for (int k = 0; k < 96; k++) {
            float acc = 0.0f;
            for (int t = 0; t < RING_TILES; t++)
                acc += c.in[(b * RING_TILES + t) * 32 + k % 32] * (float)(1 + k / 32);
            want[b * 96 + k] = acc;
        }
    emu_run_everywhere(run_ring, &c, c.out, RING_BLOCKS * 96 * sizeof(float));
    if (emu_mismatches(c.out, want, RING_BLOCKS * 96)) fail_msg("wrong sums");
    free(c.in), free(c.out);
}

/* The control of bug_mbarrier.cu's plants: the correct ring passes under every schedule. */
static int run_bug_control(void *p) { return emut_bug_mbarrier(p, EMUT_MBAR_OK); }
static void test_mbar_bug_control(void **state) {
    (void)state;
    float *out = emu_alloc(32 * sizeof(float));
    emu_run_everywhere(run_bug_control, out, out, 32 * sizeof(float));
    for (int l = 0; l < 32; l++) assert_int_equal((int)out[l], (0 + 32 + 64 + 96) + 4 * l);
    free(out);
}

/* The control of bug_handover.cu (test_bugs.c runs it): the correct hand-over under every schedule. */
int emu_bug_handover_control(void);
static void test_handover_control(void **state) {
    (void)state;
    if (emu_bug_handover_control() != 0)
        fail_msg("the correct hand-over faulted or was wrong: %s", simt_last_error());
}

int emu_run_hopper_tests(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arch_gate),
        cmocka_unit_test(test_mbar_ring),
        cmocka_unit_test(test_mbar_bug_control),
        cmocka_unit_test(test_handover_control),
    };
    return cmocka_run_group_tests_name("emulator: Hopper (mbarrier, TMA, wgmma, setmaxnreg)", tests, NULL,
                                       NULL);
}
