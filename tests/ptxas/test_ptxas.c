/* ptxas log parsing, static gates and the occupancy model, on canned logs and hand-computed cases. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "ptxas/occupancy.h"
#include "ptxas/ptxas_log.h"

/* The original's Stage-2 report (ed36e34:STAGE3_VALIDATION_REPORT.md, appendix A) in the sm_89
 * format, an sm_90 record without cmem[0], and one with local memory. */
static const char *LOG =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function 'sdpa_stage2_e4m3' for 'sm_89'\n"
    "ptxas info    : Function properties for sdpa_stage2_e4m3\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 84 registers, used 1 barriers, 37120 bytes smem, 428 bytes cmem[0]\n"
    "ptxas info    : Compiling entry function 'sdpa_stage1_e4m3' for 'sm_90'\n"
    "ptxas info    : Function properties for sdpa_stage1_e4m3\n"
    "    128 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\n"
    "ptxas info    : Used 88 registers, used 1 barriers, 30976 bytes smem\n"
    "ptxas info    : Compiling entry function 'k_local' for 'sm_80'\n"
    "ptxas info    : Used 130 registers, 64 bytes lmem, 49160 bytes smem, 384 bytes cmem[0]\n"
    "ptxas info    : Compiling entry function 'sdpa_stage7b_e4m3' for 'sm_90a'\n"
    "ptxas info    : Used 96 registers, used 5 barriers\n";

static void parses_fields(void **state) {
    (void)state;
    ptxas_kernel_t k[4];
    char err[256] = "";
    assert_int_equal(ptxas_parse(LOG, k, 4, err, sizeof err), 4);
    assert_string_equal(k[0].kernel, "sdpa_stage2_e4m3");
    assert_int_equal(k[0].arch, 89);
    assert_string_equal(k[0].target, "sm_89");
    /* architecture-specific code: the architecture it runs on, and the target as named */
    assert_int_equal(k[3].arch, 90);
    assert_string_equal(k[3].target, "sm_90a");
    assert_int_equal(k[0].registers, 84);
    assert_int_equal(k[0].barriers, 1);
    assert_int_equal(k[0].smem, 37120);
    assert_int_equal(k[0].cmem0, 428);
    assert_int_equal(k[0].stack, 0);
    assert_int_equal(k[0].lmem, -1);
    assert_int_equal(k[1].arch, 90);
    assert_int_equal(k[1].cmem0, -1); /* sm_90 omits it */
    assert_int_equal(k[1].stack, 128);
    assert_int_equal(k[1].spill_stores, 8);
    assert_int_equal(k[1].spill_loads, 4);
    assert_int_equal(k[2].registers, 130);
    assert_int_equal(k[2].lmem, 64);
    assert_int_equal(k[2].stack, -1); /* no properties line */
    assert_int_equal(ptxas_local_bytes(&k[1]), 128);
    assert_int_equal(ptxas_local_bytes(&k[2]), 64);
}

static void rejects_malformed(void **state) {
    (void)state;
    ptxas_kernel_t k[2];
    char err[256] = "";
    const char *no_used = "ptxas info    : Compiling entry function 'a' for 'sm_89'\n";
    assert_int_equal(ptxas_parse(no_used, k, 2, err, sizeof err), -1);
    assert_non_null(strstr(err, "no \"Used N registers\" line"));
    const char *bad_entry = "ptxas info    : Compiling entry function 'a\n";
    assert_int_equal(ptxas_parse(bad_entry, k, 2, err, sizeof err), -1);
    assert_non_null(strstr(err, "line 1"));
    assert_int_equal(ptxas_parse(LOG, k, 2, err, sizeof err), -1); /* capacity */
    const char *open_target = "ptxas info    : Compiling entry function 'a' for 'sm_89\n";
    assert_int_equal(ptxas_parse(open_target, k, 2, err, sizeof err), -1);
    assert_non_null(strstr(err, "line 1"));
}

static void gates(void **state) {
    (void)state;
    ptxas_kernel_t k[4];
    char err[256];
    assert_int_equal(ptxas_parse(LOG, k, 4, err, sizeof err), 4);
    ptxas_gate_result_t g0 = ptxas_gate(&k[0], &PTXAS_GATES);
    assert_true(g0.pass);
    ptxas_gate_result_t g1 = ptxas_gate(&k[1], &PTXAS_GATES); /* spills and a stack frame */
    assert_false(g1.spills);
    assert_false(g1.local);
    assert_true(g1.registers);
    assert_false(g1.pass);
    ptxas_gate_result_t g2 = ptxas_gate(&k[2], &PTXAS_GATES); /* 130 regs, lmem, 49160 > 49152 */
    assert_false(g2.registers);
    assert_false(g2.local);
    assert_false(g2.smem);
    k[2].registers = 128;
    k[2].lmem = -1;
    k[2].smem = 49152;
    assert_true(ptxas_gate(&k[2], &PTXAS_GATES).pass); /* the limits themselves pass */
}

/* Hand computations (regs: per warp round_up(r*32, 256); smem: round_up(s, 128) + 1024):
 * sm_89, 84 regs, 37120 B (the original's Stage-2): regs 2688 -> 2816/warp, 11264/block ->
 *   65536/11264 = 5; smem 38144 -> 102400/38144 = 2; warps 48/4 = 12; blocks 24 -> 2 blocks,
 *   8 of 48 warps = 16.7 %, limited by shared memory (the original's reports claimed ~50 %).
 * sm_80, same kernel: smem 167936/38144 = 4 -> 4 blocks, 16 of 64 warps = 25 %.
 * sm_90, same kernel: smem 233472/38144 = 6, regs 5 -> 5 blocks by registers, 20/64 = 31.25 %.
 * sm_89, 255 regs, 1 KiB: 8160 -> 8192/warp, 32768/block -> 2 blocks by registers.
 * sm_89, 16 regs, 0 B: regs 65536/2048 = 32, smem 102400/1024 = 100, warps 12, blocks 24 -> 12
 *   by warps, 48/48 = 100 %.
 * Named barriers (sm_90 only, as cuda_occupancy.h: 64 per SM): 84 regs, 0 B, 16 barriers (a register
 *   barrier id: ptxas reserves all 16) -> 64/16 = 4 blocks, limited by barriers, under the 5 that
 *   registers allow; 5 barriers (ids 0-4 as immediates) -> 12, so registers bind again (5). On
 *   sm_89 the same 16 barriers limit nothing: 5 blocks by registers. */
static void occupancy_cases(void **state) {
    (void)state;
    occupancy_t o;
    assert_int_equal(occupancy_compute(89, 128, 84, 37120, 1, &o), 0);
    assert_int_equal(o.by_registers, 5);
    assert_int_equal(o.by_smem, 2);
    assert_int_equal(o.by_warps, 12);
    assert_int_equal(o.blocks_per_sm, 2);
    assert_int_equal(o.warps_per_sm, 8);
    assert_string_equal(o.limited_by, "shared_memory");
    assert_true(o.occupancy > 0.1666 && o.occupancy < 0.1667);

    assert_int_equal(occupancy_compute(80, 128, 84, 37120, 1, &o), 0);
    assert_int_equal(o.blocks_per_sm, 4);
    assert_int_equal(o.warps_per_sm, 16);

    assert_int_equal(occupancy_compute(90, 128, 84, 37120, 1, &o), 0);
    assert_int_equal(o.blocks_per_sm, 5);
    assert_string_equal(o.limited_by, "registers");
    assert_true(o.occupancy == 0.3125);

    assert_int_equal(occupancy_compute(89, 128, 255, 1024, 1, &o), 0);
    assert_int_equal(o.blocks_per_sm, 2);
    assert_string_equal(o.limited_by, "registers");

    assert_int_equal(occupancy_compute(89, 128, 16, 0, 1, &o), 0);
    assert_int_equal(o.blocks_per_sm, 12);
    assert_string_equal(o.limited_by, "warps");
    assert_true(o.occupancy == 1.0);
}

static void occupancy_barriers(void **state) {
    (void)state;
    occupancy_t o;
    assert_int_equal(occupancy_compute(90, 128, 84, 0, 16, &o), 0);
    assert_int_equal(o.by_barriers, 4);
    assert_int_equal(o.blocks_per_sm, 4);
    assert_string_equal(o.limited_by, "barriers");
    assert_int_equal(occupancy_compute(90, 128, 84, 0, 5, &o), 0);
    assert_int_equal(o.by_barriers, 12);
    assert_int_equal(o.blocks_per_sm, 5);
    assert_string_equal(o.limited_by, "registers");
    assert_int_equal(occupancy_compute(89, 128, 84, 0, 16, &o), 0);
    assert_int_equal(o.blocks_per_sm, 5);
    assert_string_equal(o.limited_by, "registers");
}

static void occupancy_infeasible(void **state) {
    (void)state;
    occupancy_t o;
    assert_int_equal(occupancy_compute(89, 128, 32, 100 * 1024, 1, &o), -1); /* > 99 KiB per block */
    assert_int_equal(o.blocks_per_sm, 0);
    assert_int_equal(occupancy_compute(89, 128, 256, 0, 1, &o), -1); /* > 255 registers */
    assert_int_equal(occupancy_compute(75, 128, 32, 0, 1, &o), -1);  /* unknown arch */
    assert_null(arch_limits(75));
    assert_int_equal(arch_limits(89)->max_warps_per_sm, 48);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parses_fields),
        cmocka_unit_test(rejects_malformed),
        cmocka_unit_test(gates),
        cmocka_unit_test(occupancy_cases),
        cmocka_unit_test(occupancy_barriers),
        cmocka_unit_test(occupancy_infeasible),
    };
    return cmocka_run_group_tests_name("ptxas", tests, NULL, NULL);
}
