/* Hopper's machinery on the emulator (kernels/prims.cuh, section "Hopper"): the sm_90a gate. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

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

int emu_run_hopper_tests(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arch_gate),
    };
    return cmocka_run_group_tests_name("emulator: Hopper (mbarrier, TMA, wgmma, setmaxnreg)", tests, NULL,
                                       NULL);
}
