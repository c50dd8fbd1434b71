/* wgmma_layout.h: the layouts of wgmma .m64nNk32 with 8-bit operands, as the PTX ISA gives them
 * ("Asynchronous Warpgroup Level Matrix Multiply-Accumulate": the register fragments of Figures 152
 * and 153, the matrix descriptor, the canonical K-major layouts in shared memory; hopper-wgmma-notes
 * sections 2 and 3). One definition used by kernels/prims.cuh (descriptors), the emulator
 * (kernels/emu/rt/wgmma.cpp) and the cross-checks (tests/emu/cute: CuTe; tests/emu/test_isa.c: the
 * ISA's own figures). C or C++ (constexpr there), no CUDA dependency. */
#ifndef SDPA_WGMMA_LAYOUT_H
#define SDPA_WGMMA_LAYOUT_H

#include <stdint.h>

#if defined(__CUDACC__)
#define WGMMA_LAYOUT_FN __host__ __device__ constexpr inline
#elif defined(__cplusplus)
#define WGMMA_LAYOUT_FN constexpr inline
#else
#define WGMMA_LAYOUT_FN static inline
#endif

/* Thread t of the warpgroup (0-127): warp w = t / 32, group g = (t % 32) / 4, q = t % 4. */
/* Accumulator register i (0 <= i < N/2) holds D[row][column]. */
WGMMA_LAYOUT_FN unsigned wg_acc_row(unsigned t, unsigned i) {
    return 16 * (t / 32) + (t % 32) / 4 + 8 * ((i >> 1) & 1);
}
WGMMA_LAYOUT_FN unsigned wg_acc_col(unsigned t, unsigned i) { return 8 * (i >> 2) + 2 * (t % 4) + (i & 1); }
/* A from registers: byte i (0-15) of the thread's four registers (register i / 4, low byte first)
 * holds A[row][k] of the 64 x 32 tile. */
WGMMA_LAYOUT_FN unsigned wg_a_row(unsigned t, unsigned i) {
    return 16 * (t / 32) + (t % 32) / 4 + 8 * ((i >> 2) & 1);
}
WGMMA_LAYOUT_FN unsigned wg_a_k(unsigned t, unsigned i) { return 4 * (t % 4) + (i & 3) + 16 * (i >> 3); }

/* The 64-bit matrix descriptor: bits 0-13 start address, 16-29 leading byte offset, 32-45 stride byte
 * offset (each (x & 0x3FFFF) >> 4), 49-51 base offset (0 here), 62-63 swizzle: 0 none, 1 128 B, 2 64 B,
 * 3 32 B. swizzle is given in bytes (0, 32, 64, 128). */
WGMMA_LAYOUT_FN uint64_t wg_desc(uint32_t addr, uint32_t lbo, uint32_t sbo, unsigned swizzle) {
    return (uint64_t)((addr & 0x3FFFF) >> 4) | (uint64_t)((lbo & 0x3FFFF) >> 4) << 16 |
           (uint64_t)((sbo & 0x3FFFF) >> 4) << 32 |
           (uint64_t)(swizzle == 128  ? 1
                      : swizzle == 64 ? 2
                      : swizzle == 32 ? 3
                                      : 0)
               << 62;
}
WGMMA_LAYOUT_FN uint32_t wg_desc_start(uint64_t d) { return (uint32_t)(d & 0x3fff) << 4; }
WGMMA_LAYOUT_FN uint32_t wg_desc_lbo(uint64_t d) { return (uint32_t)((d >> 16) & 0x3fff) << 4; }
WGMMA_LAYOUT_FN uint32_t wg_desc_sbo(uint64_t d) { return (uint32_t)((d >> 32) & 0x3fff) << 4; }
WGMMA_LAYOUT_FN unsigned wg_desc_base(uint64_t d) { return (unsigned)((d >> 49) & 7); }
WGMMA_LAYOUT_FN unsigned wg_desc_swizzle(uint64_t d) {
    return (d >> 62) == 1 ? 128 : (d >> 62) == 2 ? 64 : (d >> 62) == 3 ? 32 : 0;
}

/* The XOR of the swizzles (CuTe Swizzle<b, 4, 3>, b = log2(span / 16)): address bits [7, 7+b) into
 * [4, 4+b). The same for TMA's writes and wgmma's reads; the bits are those of the shared address. */
WGMMA_LAYOUT_FN uint32_t wg_swizzle(uint32_t a, unsigned span) {
    return span ? a ^ (((a >> 7) & (span / 16 - 1)) << 4) : a;
}

/* The shared address of row r (of M or N), k-byte e (0-31) of a K-major 8-bit operand:
 *   no swizzle (8 x 16-byte core matrices): start + (r % 8) 16 + (r / 8) SBO + (e / 16) LBO + e % 16;
 *   swizzle of W = span / 16 chunks: start + (r % 8) 16 W + (r / 8) SBO + e, then swizzled (LBO unused). */
WGMMA_LAYOUT_FN uint32_t wg_kmajor_address(uint32_t start, uint32_t lbo, uint32_t sbo, unsigned span,
                                           unsigned r, unsigned e) {
    return span ? wg_swizzle(start + (r % 8) * span + (r / 8) * sbo + e, span)
                : start + (r % 8) * 16 + (r / 8) * sbo + (e / 16) * lbo + e % 16;
}

#undef WGMMA_LAYOUT_FN
#endif
