/* The wgmma layouts of kernels/wgmma_layout.h (what the emulator and prims.cuh use) against entries
 * transcribed by hand from the PTX ISA: the register-fragment figures of wgmma .m64nNk32 (accumulator D
 * with .f32; A from registers with 8-bit types: each thread T holds, per warp, the mma.m16n8k32 pieces
 * of rows 16 warp .. 16 warp + 15), the matrix-descriptor bit layout, and the K-major canonical layouts
 * with the descriptor fields CuTe's make_gmma_desc gives for FP8 tiles (hopper-wgmma-notes section 3).
 * The CuTe cross-check (tests/emu/cute) compares every element; these are fixed anchors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "wgmma_layout.h"

/* Accumulator: thread, register -> row, column (the figure: T0 holds d0, d1 at row 0, columns 0, 1; d2,
 * d3 at row 8; d4, d5 at row 0, columns 8, 9; T1 columns 2, 3; T4 row 1; warp 1 from row 16). */
static void test_accumulator_figure(void **state) {
    (void)state;
    static const unsigned e[][4] = {
        {0, 0, 0, 0},        {0, 1, 0, 1},   {0, 2, 8, 0},     {0, 3, 8, 1},   {0, 4, 0, 8},
        {0, 5, 0, 9},        {0, 6, 8, 8},   {1, 0, 0, 2},     {3, 1, 0, 7},   {4, 0, 1, 0},
        {31, 0, 7, 6},       {31, 3, 15, 7}, {32, 0, 16, 0},   {64, 2, 40, 0}, {127, 31, 63, 63},
        {127, 127, 63, 255}, {5, 12, 1, 26}, {96, 16, 48, 32},
    };
    for (size_t i = 0; i < sizeof e / sizeof e[0]; i++) {
        assert_int_equal(wg_acc_row(e[i][0], e[i][1]), e[i][2]);
        assert_int_equal(wg_acc_col(e[i][0], e[i][1]), e[i][3]);
    }
}

/* A from registers, 8-bit: thread, byte (register byte / 4, low byte first) -> row, k (T0: a0 = row 0,
 * k 0-3; a1 = row 8; a2 = row 0, k 16-19; a3 = row 8, k 16-19; T1 k 4-7; T4 row 1; warp 1 from row 16). */
static void test_a_fragment_figure(void **state) {
    (void)state;
    static const unsigned e[][4] = {
        {0, 0, 0, 0}, {0, 3, 0, 3},  {0, 4, 8, 0}, {0, 8, 0, 16},   {0, 12, 8, 16},    {0, 15, 8, 19},
        {1, 0, 0, 4}, {3, 7, 8, 15}, {4, 0, 1, 0}, {33, 9, 16, 21}, {127, 15, 63, 31}, {66, 5, 40, 9},
    };
    for (size_t i = 0; i < sizeof e / sizeof e[0]; i++) {
        assert_int_equal(wg_a_row(e[i][0], e[i][1]), e[i][2]);
        assert_int_equal(wg_a_k(e[i][0], e[i][1]), e[i][3]);
    }
}

/* Descriptor bits: start, LBO, SBO as (x & 0x3FFFF) >> 4 at bits 0, 16, 32; swizzle at 62-63 (1 = 128 B,
 * 2 = 64 B, 3 = 32 B); and the FP8 K-major fields of hopper-wgmma-notes' table (units of 16 bytes:
 * 64x128 SW128 LBO 1 SBO 64; 64x64 SW64 1, 32; 64x32 SW32 1, 16; 64x32 none 64, 8). */
static void test_descriptor_bits(void **state) {
    (void)state;
    assert_true(wg_desc(0x400, 16, 1024, 128) == 0x4000004000010040ull);
    assert_true(wg_desc(0x800, 16, 512, 64) == 0x8000002000010080ull);
    assert_true(wg_desc(0x100, 16, 256, 32) == 0xc000001000010010ull);
    assert_true(wg_desc(0x20, 1024, 128, 0) == 0x0000000800400002ull);
    assert_true(wg_desc(0x3fff0, 0, 0, 0) == 0x3fffull); /* 18-bit address: bits 4-17 */
    assert_true(wg_desc(0x40000, 0, 0, 0) == 0);         /* bit 18 and above are not encoded */
    const uint64_t d = 0x4000004000010040ull;
    assert_int_equal(wg_desc_start(d), 0x400);
    assert_int_equal(wg_desc_lbo(d), 16);
    assert_int_equal(wg_desc_sbo(d), 1024);
    assert_int_equal(wg_desc_swizzle(d), 128);
    assert_int_equal(wg_desc_base(d | 5ull << 49), 5);
}

/* Addresses of row r, k-byte e from the canonical K-major layouts: 128-byte swizzle, rows of 128 bytes:
 * row 1 byte 0 at 128 ^ 16; row 7 byte 16 at 7 * 128 + 16 with chunk 1 ^ 7 = 6; row 8 begins the next
 * 8-row group at SBO; the second k-block (start + 32) of row 2 lands at chunk 2 ^ 2 = 0. No swizzle:
 * 8 x 16-byte core matrices (rows 16 bytes apart), k-chunk 1 at LBO. */
static void test_kmajor_addresses(void **state) {
    (void)state;
    assert_int_equal(wg_kmajor_address(0, 16, 1024, 128, 0, 0), 0);
    assert_int_equal(wg_kmajor_address(0, 16, 1024, 128, 1, 0), 144);
    assert_int_equal(wg_kmajor_address(0, 16, 1024, 128, 7, 16), 7 * 128 + 6 * 16);
    assert_int_equal(wg_kmajor_address(0, 16, 1024, 128, 8, 5), 1024 + 5);
    assert_int_equal(wg_kmajor_address(32, 16, 1024, 128, 2, 0), 256);
    assert_int_equal(wg_kmajor_address(0, 16, 512, 64, 3, 17), 3 * 64 + (1 ^ 1) * 16 + 1);
    assert_int_equal(wg_kmajor_address(0, 16, 512, 64, 2, 0), 128 + 16);
    assert_int_equal(wg_kmajor_address(0, 16, 256, 32, 4, 0), 128 + 16);
    assert_int_equal(wg_kmajor_address(0, 16, 256, 32, 5, 16), 160 + 0);
    assert_int_equal(wg_kmajor_address(0, 1024, 128, 0, 3, 20), 3 * 16 + 1024 + 4);
    assert_int_equal(wg_kmajor_address(0, 1024, 128, 0, 9, 1), 128 + 16 + 1);
}

int emu_run_isa_tests(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_accumulator_figure),
        cmocka_unit_test(test_a_fragment_figure),
        cmocka_unit_test(test_descriptor_bits),
        cmocka_unit_test(test_kmajor_addresses),
    };
    return cmocka_run_group_tests_name("wgmma layouts against the PTX ISA's figures and descriptor format",
                                       tests, NULL, NULL);
}
