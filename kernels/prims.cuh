// prims.cuh: the only architecture-specific code of the kernels.
//
// Kernels reach cp.async, FP8 conversion and packing, warp reductions, mma.sync, ldmatrix,
// movmatrix, named barriers, dynamic shared memory and the launch only through this header; WMMA is
// used through nvcuda::wmma, which both builds provide. Under nvcc the functions map to the CUDA
// toolkit (cuda_pipeline_primitives.h, cuda_fp8.h, mma.h), which picks the hardware instruction
// where the architecture has one (cp.async on sm_80+, cvt.rn.f16x2.e4m3x2 on sm_89+) and a
// bit-identical software path elsewhere, or to inline PTX. Under the CPU emulator (kernels/emu,
// force-included shim, defines SIMT_EMU) the same toolkit headers are compiled for the host, the
// emulator supplies mma.h and cuda_pipeline_primitives.h, and every inline PTX statement has an
// emulator twin in the other branch of the same function (kernels/emu/rt/mma.cpp, barrier.cpp).
// Inline PTX and __CUDA_ARCH__ tests appear only here: code the emulator never compiles is never
// tested, so each is kept to one instruction beside its emulated equivalent.
#pragma once

#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_pipeline_primitives.h>
#include <mma.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tensor_map.h"
#include "wgmma_layout.h"

// Faults found inside a wrapper are reported at the kernel line that called it, not here: every
// wrapper takes its caller's location as default arguments (evaluated at the call site), and under
// the emulator, whose intrinsics record SIMT_HERE, SIMT_HERE means that location in this header.
// Under nvcc the two parameters are unused and vanish with inlining.
#define PRIMS_CALLER                                                                                         \
    [[maybe_unused]] const char *caller_file = __builtin_FILE(),                                             \
                                [[maybe_unused]] int caller_line = __builtin_LINE()
#if defined(SIMT_EMU)
#pragma push_macro("SIMT_HERE")
#undef SIMT_HERE
#define SIMT_HERE (::simt::rt::Site{caller_file, caller_line})
#endif

namespace prims {

// ---- cp.async (Ampere+ asynchronous global -> shared copies) ---------------------------------
// One 16-byte copy; dst (shared) and src (global) must be 16-byte aligned.
__device__ __forceinline__ void cp_async_16(void *smem_dst, const void *gmem_src, PRIMS_CALLER) {
    __pipeline_memcpy_async(smem_dst, gmem_src, 16);
}
// Closes the group of copies issued by this thread since the last commit.
__device__ __forceinline__ void cp_async_commit(PRIMS_CALLER) { __pipeline_commit(); }
// Waits until at most N of this thread's committed groups are still in flight. A barrier is still
// needed before other threads read what this thread copied.
template <int N> __device__ __forceinline__ void cp_async_wait(PRIMS_CALLER) {
    static_assert(N >= 0 && N <= 8, "cp.async.wait_group N: N in [0, 8]");
#if defined(SIMT_EMU)
    __pipeline_wait_prior(N);
#else
    // Not the toolkit's __pipeline_wait_prior: its asm volatile has no "memory" clobber, so nothing
    // stops the compiler from hoisting this thread's reads of the copied bytes above the wait
    // (stage 1+ reads its own staging bytes right after it, with no barrier in between).
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}

// ---- FP8 -> half (exact) -----------------------------------------------------------------------
// Two E4M3 codes packed little-endian (low byte -> .x) to two halves.
__device__ __forceinline__ __half2 e4m3x2_to_half2(uint16_t two_codes) {
    return __half2(__nv_cvt_fp8x2_to_halfraw2((__nv_fp8x2_storage_t)two_codes, __NV_E4M3));
}
__device__ __forceinline__ __half e4m3_to_half(uint8_t code) {
    return __half(__nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)code, __NV_E4M3));
}

// ---- FP8 and half packing --------------------------------------------------------------------
// Two floats to two E4M3 codes (lo -> low byte): round to nearest even, saturating to +-448, NaN to
// NaN (cvt.rn.satfinite.e4m3x2.f32 on sm_89+; the toolkit's bit-identical software path elsewhere
// and in the emulator). Bit-exact with host/fp8.c's encoder (tests/emu/test_mma.c).
__device__ __forceinline__ uint16_t pack_e4m3x2(float lo, float hi) {
    return (uint16_t)__nv_cvt_float2_to_fp8x2(make_float2(lo, hi), __NV_SATFINITE, __NV_E4M3);
}
// Two floats to a half2 register (lo -> low 16 bits), round to nearest even.
__device__ __forceinline__ uint32_t pack_half2(float lo, float hi) {
    const __half2 h = __floats2half2_rn(lo, hi);
    uint32_t u;
    memcpy(&u, &h, sizeof u);
    return u;
}

// ---- mma.sync (PTX ISA fragment layouts; lane = 4 g + t, g = lane / 4, t = lane % 4) ----------
// m16n8k16 .row.col f32 += f16 x f16 (sm_80+):
//   A 16x16: a[0] = (row g, cols 2t, 2t+1), a[1] = (g+8, 2t..), a[2] = (g, 2t+8..), a[3] = (g+8, 2t+8..)
//   B 16x8:  b[0] = (rows k = 2t, 2t+1; col g), b[1] = (k = 2t+8, 2t+9; col g)
//   C, D 16x8 f32: c[0], c[1] = (row g, cols 2t, 2t+1), c[2], c[3] = (row g+8, cols 2t, 2t+1)
// m16n8k32 .row.col f32 += fp8 x fp8 (sm_89+), four codes per register, low byte first:
//   A 16x32: a[0] = (row g, cols 4t..4t+3), a[1] = (g+8, 4t..), a[2] = (g, 4t+16..), a[3] = (g+8, 4t+16..)
//   B 32x8:  b[0] = (rows k = 4t..4t+3; col g), b[1] = (k = 4t+16..4t+19; col g)
//   C, D: as for m16n8k16.
// d may alias c. The emulator multiplies exactly these layouts (a misplaced element gives a wrong
// product); it accumulates in float in ascending k, where a tensor core has its own order and width.
// The collectives are asm volatile (as in CUTLASS): the optimiser never deletes, merges or
// duplicates a warp-wide instruction.

// FP8 mma.sync exists from sm_89 (Ada). 1 in nvcc's host pass and in the emulator; kernels that
// need it are built for sm_89+ only, and calling it for an older architecture is a compile error.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 890
#define PRIMS_HAS_FP8_MMA 0
#else
#define PRIMS_HAS_FP8_MMA 1
#endif
inline constexpr bool has_fp8_mma = PRIMS_HAS_FP8_MMA != 0;

__device__ __forceinline__ void mma_m16n8k16_f16(float (&d)[4], const uint32_t (&a)[4],
                                                 const uint32_t (&b)[2], const float (&c)[4], PRIMS_CALLER) {
#if defined(SIMT_EMU)
    ::simt::rt::mma_tile(SIMT_HERE, ::simt::rt::MMA_F16_K16, d, a, b, c);
#else
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%10, %11, %12, %13};\n"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]),
          "f"(c[3]));
#endif
}

enum class Fp8 { e4m3, e5m2 };
// prims::mma_m16n8k32<prims::Fp8::e4m3>(d, a, b, c): both operands of the same FP8 type.
template <Fp8 T>
__device__ __forceinline__ void mma_m16n8k32(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2],
                                             const float (&c)[4], PRIMS_CALLER) {
#if defined(SIMT_EMU)
    ::simt::rt::mma_tile(SIMT_HERE, T == Fp8::e4m3 ? ::simt::rt::MMA_E4M3_K32 : ::simt::rt::MMA_E5M2_K32, d,
                         a, b, c);
#elif PRIMS_HAS_FP8_MMA
#define PRIMS_MMA_K32(type)                                                                                  \
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f32." type "." type                                      \
                 ".f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "                                                 \
                 "{%8, %9}, {%10, %11, %12, %13};\n"                                                         \
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])                                            \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]),   \
                   "f"(c[2]), "f"(c[3]))
    if constexpr (T == Fp8::e4m3)
        PRIMS_MMA_K32("e4m3");
    else
        PRIMS_MMA_K32("e5m2");
#undef PRIMS_MMA_K32
#else
    static_assert(int(T) < 0,
                  "prims::mma_m16n8k32 (FP8 mma.sync) needs sm_89 or newer: build this kernel for "
                  "sm_89+ only (test PRIMS_HAS_FP8_MMA)");
#endif
}

// ---- ldmatrix, movmatrix ---------------------------------------------------------------------
// ldmatrix.sync.aligned.m8n8.xN[.trans].shared.b16: N (1, 2, 4) 8x8 matrices of 16-bit elements.
// Lanes 8m..8m+7 pass the shared, 16-byte aligned addresses of rows 0-7 of matrix m (the other
// lanes' addresses are unused). r[m] of lane l holds row l/4, columns 2(l%4), 2(l%4)+1 of matrix m
// (low half first), i.e. the mma A/B/C register layout; .trans delivers the transpose.
template <int N, bool TRANS = false>
__device__ __forceinline__ void ldmatrix(uint32_t (&r)[N], const void *row, PRIMS_CALLER) {
    static_assert(N == 1 || N == 2 || N == 4, "ldmatrix: .x1, .x2 or .x4");
#if defined(SIMT_EMU)
    ::simt::rt::ldmatrix(SIMT_HERE, N, TRANS, r, row);
#else
    const unsigned addr = (unsigned)__cvta_generic_to_shared(row);
#define PRIMS_LDSM(num, mod, regs, ...)                                                                      \
    asm volatile("ldmatrix.sync.aligned.m8n8." num mod ".shared.b16 " regs ";\n"                             \
                 : __VA_ARGS__                                                                               \
                 : "r"(addr)                                                                                 \
                 : "memory")
    if constexpr (N == 1 && TRANS)
        PRIMS_LDSM("x1", ".trans", "{%0}, [%1]", "=r"(r[0]));
    else if constexpr (N == 1)
        PRIMS_LDSM("x1", "", "{%0}, [%1]", "=r"(r[0]));
    else if constexpr (N == 2 && TRANS)
        PRIMS_LDSM("x2", ".trans", "{%0, %1}, [%2]", "=r"(r[0]), "=r"(r[1]));
    else if constexpr (N == 2)
        PRIMS_LDSM("x2", "", "{%0, %1}, [%2]", "=r"(r[0]), "=r"(r[1]));
    else if constexpr (TRANS)
        PRIMS_LDSM("x4", ".trans", "{%0, %1, %2, %3}, [%4]", "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]));
    else
        PRIMS_LDSM("x4", "", "{%0, %1, %2, %3}, [%4]", "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]));
#undef PRIMS_LDSM
#endif
}

// movmatrix.sync.aligned.m8n8.trans.b16 (sm_75+): the transpose of an 8x8 matrix of 16-bit elements
// held in the ldmatrix register layout, in the same layout.
__device__ __forceinline__ uint32_t movmatrix_trans(uint32_t x, PRIMS_CALLER) {
#if defined(SIMT_EMU)
    return ::simt::rt::movmatrix_trans(SIMT_HERE, x);
#else
    uint32_t y;
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;\n" : "=r"(y) : "r"(x));
    return y;
#endif
}

// ---- accumulator -> next A operand -------------------------------------------------------------
// f16: the f32 C fragments of two adjacent m16n8 tiles (columns 0-7 in c0, 8-15 in c1) are, element
// for element, the A fragment of an m16n8k16 over those 16 columns: a pure register repack.
__device__ __forceinline__ void acc_to_a_f16(uint32_t (&a)[4], const float (&c0)[4], const float (&c1)[4]) {
    a[0] = pack_half2(c0[0], c0[1]);
    a[1] = pack_half2(c0[2], c0[3]);
    a[2] = pack_half2(c1[0], c1[1]);
    a[3] = pack_half2(c1[2], c1[3]);
}
// e4m3: A of m16n8k32 wants columns 4t..4t+3 in one register, but a lane's C tiles hold columns
// 2t, 2t+1 of each 8-column tile. Rather than moving bytes across lanes, k is permuted: register 0
// holds columns {2t, 2t+1} of tile 0 and {2t, 2t+1} of tile 1 (prmt 0x5410 joins the two pairs), so
// k position 4t+i stands for column k32_col(4t+i). A product over k does not care about the order of
// k as long as B uses the same one: B must hold row k32_col(k) of the matrix at k position k
// (for B = V^T stored [n][k], a lane reads bytes k32_col(4t) and k32_col(4t+2), two at a time).
// c[j] is the C fragment of tile j (columns 8j..8j+7).
__host__ __device__ constexpr int k32_col(int k) {
    return 16 * (k / 16) + 8 * ((k % 4) / 2) + 2 * ((k % 16) / 4) + k % 2;
}
__device__ __forceinline__ void acc_to_a_e4m3(uint32_t (&a)[4], const float (&c)[4][4]) {
    for (int h = 0; h < 2; h++)     // columns 0-15, 16-31
        for (int r = 0; r < 2; r++) // rows g, g+8
            a[2 * h + r] = __byte_perm(pack_e4m3x2(c[2 * h][2 * r], c[2 * h][2 * r + 1]),
                                       pack_e4m3x2(c[2 * h + 1][2 * r], c[2 * h + 1][2 * r + 1]), 0x5410);
}

// ---- named barriers (producer/consumer warps) -----------------------------------------------------
// bar.sync ID, n: wait until n threads (whole warps: n a multiple of 32) arrived at barrier ID
// (1-15; 0 is __syncthreads). bar.arrive ID, n: count this warp without waiting (a producer
// signalling). Both are per warp: every lane of the warp must execute the same one. ID is a
// template parameter, an immediate in the PTX: with a register id ptxas cannot tell which barriers
// a kernel uses and reserves all 16 (observed: "used 16 barriers"), which on sm_90 limits the
// CTAs per SM (cuda_occupancy.h: 2 x 32 barriers per SM); with immediates it reserves ids 0..max.
template <unsigned ID> __device__ __forceinline__ void bar_sync(unsigned n, PRIMS_CALLER) {
    static_assert(ID >= 1 && ID <= 15, "named barrier ids are 1-15 (0 is __syncthreads)");
#if defined(SIMT_EMU)
    ::simt::rt::named_barrier(SIMT_HERE, ID, n, true);
#else
    asm volatile("bar.sync %0, %1;\n" ::"n"(ID), "r"(n) : "memory");
#endif
}
template <unsigned ID> __device__ __forceinline__ void bar_arrive(unsigned n, PRIMS_CALLER) {
    static_assert(ID >= 1 && ID <= 15, "named barrier ids are 1-15 (0 is __syncthreads)");
#if defined(SIMT_EMU)
    ::simt::rt::named_barrier(SIMT_HERE, ID, n, false);
#else
    asm volatile("bar.arrive %0, %1;\n" ::"n"(ID), "r"(n) : "memory");
#endif
}

// ---- address spaces ----------------------------------------------------------------------------
// Tells nvcc that p points into shared memory. A pointer into the CTA's Smem that a helper returns
// can reach its users as a generic address (observed: ld.f32/st.f32 instead of ld.shared.f32 for
// stage 0's scratch once the translation unit held every variant, though not when compiled
// alone); the assumption lets it emit shared-memory accesses. No-op in the emulator.
template <class T> __device__ __forceinline__ T *assume_shared(T *p) {
#if !defined(SIMT_EMU)
    __builtin_assume(__isShared(p));
#endif
    return p;
}

// ---- warp reductions (full warp, butterfly: every lane gets the result) ----------------------
__device__ __forceinline__ float warp_max(float x, PRIMS_CALLER) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) x = fmaxf(x, __shfl_xor_sync(0xffffffffu, x, off));
    return x;
}
__device__ __forceinline__ float warp_sum(float x, PRIMS_CALLER) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) x += __shfl_xor_sync(0xffffffffu, x, off);
    return x;
}

// ---- exponentials ---------------------------------------------------------------------------
// [stage 7h] __expf with a result below 2^-126 flushed to +0. Without -ftz, __expf is mul.f32 by
// log2(e) and ex2.approx.f32, whose sm_90a SASS wraps MUFU.EX2 in a path for subnormal results (a
// compare against -126, a predicated halving of the argument, a predicated squaring); the .ftz form
// of the same product is the MUFU.EX2 alone, the same result wherever it is at least 2^-126
// (paper/methods.md#prereg-stage7h). The multiply stays outside the asm, as __expf's is (the same
// mul.f32 by 0f3FB8AA3B: static-gates.sh checks the PTX). Emulator: its __expf (libm), flushed alike.
__device__ __forceinline__ float expf_ftz(float x) {
#if defined(SIMT_EMU)
    const float y = __expf(x);
    return y < 0x1p-126f ? 0.0f : y;
#else
    const float t = x * 0x1.715476p+0f; // log2(e) rounded to fp32, __expf's constant
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(t));
    return y;
#endif
}

// =================================================================================================
// Hopper's asynchronous machinery (sm_90 / sm_90a). Everything below is new with Hopper and kept in
// this one section; the emulator's twins are in kernels/emu/rt/ (mbarrier.cpp, tma.cpp, wgmma.cpp).
// =================================================================================================

// sm_90a: the architecture-specific instructions (wgmma with FP8 operands, setmaxnreg) exist only in
// code built for sm_90a, which runs on compute capability 9.0 alone. PRIMS_HAS_SM90A is 1 in nvcc's
// sm_90a device pass (__CUDA_ARCH_FEAT_SM90_ALL), in its host pass and in the emulator, which models
// them; 0 in every other device pass. A kernel that needs them (a switch with ARCH SM90A,
// kernels/switches.h) keeps its body under `if constexpr (prims::has_sm90a)` and calls arch_trap()
// otherwise, so a binary built for the wrong architecture fails loudly instead of computing nothing.
#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define PRIMS_HAS_SM90A 0
#else
#define PRIMS_HAS_SM90A 1
#endif
inline constexpr bool has_sm90a = PRIMS_HAS_SM90A != 0;

// Stops the kernel: the launch fails (an illegal-instruction trap on the GPU, a fault here).
__device__ __forceinline__ void arch_trap(PRIMS_CALLER) {
#if defined(SIMT_EMU)
    ::simt::rt::fault(SIMT_HERE,
                      "an sm_90a-only body was compiled out for this architecture (prims::arch_trap)");
#else
    __trap();
#endif
}

// ---- mbarrier (sm_90: expect_tx and try_wait; PTX ISA "mbarrier") -----------------------------
// An 8-byte, 8-byte aligned object in shared memory. One thread inits it with the arrival count per
// phase, then fence_mbarrier_init() and a block barrier publish the init to every thread and to TMA.
// A phase completes when all its arrivals happened and its transaction bytes (expect_tx; TMA copies
// complete them) arrived. mbar_wait(bar, p) returns once the phase of parity p completed: a fresh
// barrier is in phase 0, so p = 1 passes at once (a producer's first wait on an empty slot); a ring
// flips p each time it wraps. Acquire: what the arrivals and copies of that phase wrote is visible.
// Under the emulator a wait that can never complete is a deadlock report naming the barrier's state.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define PRIMS_HAS_SM90 0
#else
#define PRIMS_HAS_SM90 1
#endif
// What a kernel that needs sm_90 (TMA, mbarrier transactions) tests before its body, as has_sm90a.
inline constexpr bool has_sm90 = PRIMS_HAS_SM90 != 0;
#if !defined(SIMT_EMU) && PRIMS_HAS_SM90
#define PRIMS_SMEM_ADDR(p) ((unsigned)__cvta_generic_to_shared(p))
#endif
// In a pass for an older architecture the wrappers trap (such kernels are never launched there).
__device__ __forceinline__ void mbar_init(uint64_t *bar, unsigned count, PRIMS_CALLER) {
#if defined(SIMT_EMU)
    ::simt::rt::mbar_init(SIMT_HERE, bar, count);
#elif PRIMS_HAS_SM90
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(PRIMS_SMEM_ADDR(bar)), "r"(count)
                 : "memory");
#else
    __trap();
#endif
}
// After the inits and before the block barrier that publishes them (fence.mbarrier_init.release.cluster).
__device__ __forceinline__ void fence_mbarrier_init(PRIMS_CALLER) {
#if defined(SIMT_EMU)
    ::simt::rt::fence_mbarrier_init(SIMT_HERE);
#elif PRIMS_HAS_SM90
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
#else
    __trap();
#endif
}
__device__ __forceinline__ void mbar_inval(uint64_t *bar, PRIMS_CALLER) {
#if defined(SIMT_EMU)
    ::simt::rt::mbar_inval(SIMT_HERE, bar);
#elif PRIMS_HAS_SM90
    asm volatile("mbarrier.inval.shared::cta.b64 [%0];\n" ::"r"(PRIMS_SMEM_ADDR(bar)) : "memory");
#else
    __trap();
#endif
}
// Counts this thread's arrival (release).
__device__ __forceinline__ void mbar_arrive(uint64_t *bar, PRIMS_CALLER) {
#if defined(SIMT_EMU)
    ::simt::rt::mbar_arrive(SIMT_HERE, bar, 0, true);
#elif PRIMS_HAS_SM90
    asm volatile(
        "{\n.reg .b64 st;\nmbarrier.arrive.shared::cta.b64 st, [%0];\n}\n" ::"r"(PRIMS_SMEM_ADDR(bar))
        : "memory");
#else
    __trap();
#endif
}
// Adds tx_bytes to the phase's expected transaction bytes, then counts this thread's arrival: what a
// TMA producer does before (or after) issuing copies of tx_bytes in total on this barrier.
__device__ __forceinline__ void mbar_arrive_expect_tx(uint64_t *bar, uint32_t tx_bytes, PRIMS_CALLER) {
#if defined(SIMT_EMU)
    ::simt::rt::mbar_arrive(SIMT_HERE, bar, tx_bytes, true);
#elif PRIMS_HAS_SM90
    asm volatile("{\n.reg .b64 st;\nmbarrier.arrive.expect_tx.shared::cta.b64 st, [%0], %1;\n}\n" ::"r"(
                     PRIMS_SMEM_ADDR(bar)),
                 "r"(tx_bytes)
                 : "memory");
#else
    __trap();
#endif
}
// Whether the phase of this parity has completed; may suspend the thread for a while first.
__device__ __forceinline__ bool mbar_try_wait_parity(uint64_t *bar, unsigned parity, PRIMS_CALLER) {
#if defined(SIMT_EMU)
    return ::simt::rt::mbar_try_wait_parity(SIMT_HERE, bar, parity);
#elif PRIMS_HAS_SM90
    unsigned done;
    asm volatile(
        "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(PRIMS_SMEM_ADDR(bar)), "r"(parity)
        : "memory");
    return done != 0;
#else
    __trap();
    return false;
#endif
}
// Waits until the phase of this parity has completed.
__device__ __forceinline__ void mbar_wait(uint64_t *bar, unsigned parity, PRIMS_CALLER) {
    while (!mbar_try_wait_parity(bar, parity, caller_file, caller_line)) {}
}
// fence.proxy.async.shared::cta: this thread's ordinary shared-memory stores become visible to the
// async proxy (TMA, wgmma) that later reads them; also publishes mbarrier inits to TMA.
__device__ __forceinline__ void fence_proxy_async(PRIMS_CALLER) {
#if defined(SIMT_EMU)
    ::simt::rt::fence_proxy_async(SIMT_HERE);
#elif PRIMS_HAS_SM90
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#else
    __trap();
#endif
}

// ---- TMA: tensor maps and cp.async.bulk.tensor (sm_90) ------------------------------------------
// Host side: a tiled tensor map over a global tensor (rank 1-5; dims in elements, innermost first;
// strides in bytes of dimensions 1..rank-1; a box of box[] elements; swizzle NONE / 32B / 64B /
// 128B), no interleave, element strides 1, out-of-bounds elements read as zeros. The arguments must
// meet cuTensorMapEncodeTiled's documented rules (kernels/tensor_map.h, checked first on both
// backends). CUDA: the driver's encoder, reached through cudaGetDriverEntryPointByVersion (no libcuda
// link); the emulator: its own encoder with the same rules. 0, or -1 with a message in err. Pass the
// map to the kernel as a `const __grid_constant__ CUtensorMap` parameter.
inline int tma_encode_tiled(CUtensorMap *map, CUtensorMapDataType dtype, unsigned rank, const void *gaddr,
                            const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box,
                            CUtensorMapSwizzle swizzle, char *err, size_t errlen) {
    const cuuint32_t ones[5] = {1, 1, 1, 1, 1};
    const CUtensorMapInterleave il = CU_TENSOR_MAP_INTERLEAVE_NONE;
    const CUtensorMapL2promotion l2 = CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
    const CUtensorMapFloatOOBfill oob = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
    if (tmap_check_tiled(map, dtype, rank, gaddr, dims, strides, box, ones, il, swizzle, l2, oob, err,
                         errlen))
        return -1;
#if defined(SIMT_EMU)
    return ::simt::rt::tensor_map_encode_tiled(map, dtype, rank, const_cast<void *>(gaddr), dims, strides,
                                               box, ones, il, swizzle, l2, oob, err, errlen);
#else
    typedef CUresult (*encode_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                                  const cuuint64_t *, const cuuint32_t *, const cuuint32_t *,
                                  CUtensorMapInterleave, CUtensorMapSwizzle, CUtensorMapL2promotion,
                                  CUtensorMapFloatOOBfill);
    void *fn = nullptr;
    cudaDriverEntryPointQueryResult q;
    const cudaError_t e =
        cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q);
    if (e != cudaSuccess || q != cudaDriverEntryPointSuccess || !fn) {
        snprintf(err, errlen, "cuTensorMapEncodeTiled: not found in the driver (%s)", cudaGetErrorString(e));
        return -1;
    }
    const CUresult r = ((encode_fn)fn)(map, dtype, rank, const_cast<void *>(gaddr), dims, strides, box, ones,
                                       il, swizzle, l2, oob);
    if (r != CUDA_SUCCESS) {
        snprintf(err, errlen, "cuTensorMapEncodeTiled: CUresult %d", (int)r);
        return -1;
    }
    return 0;
#endif
}

// Device side: one thread copies the box at coordinates (c0, c1[, c2]) (innermost first, in
// elements; parts outside the tensor arrive as zeros) into shared memory at dst (128-byte aligned;
// the emulator also wants a swizzled box aligned to its swizzle's repeat, 256/512/1024 bytes). The
// whole box's bytes complete on bar: the phase it belongs to must expect them (mbar_arrive_expect_tx).
// dst is undefined until that phase completes.
__device__ __forceinline__ void tma_load_2d(void *dst, const CUtensorMap *map, int c0, int c1, uint64_t *bar,
                                            PRIMS_CALLER) {
#if defined(SIMT_EMU)
    const int32_t c[2] = {c0, c1};
    ::simt::rt::tma_load(SIMT_HERE, dst, map, 2, c, bar);
#elif PRIMS_HAS_SM90
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, "
        "%3}], [%4];\n" ::"r"(PRIMS_SMEM_ADDR(dst)),
        "l"((uint64_t)map), "r"(c0), "r"(c1), "r"(PRIMS_SMEM_ADDR(bar))
        : "memory");
#else
    __trap();
#endif
}
__device__ __forceinline__ void tma_load_3d(void *dst, const CUtensorMap *map, int c0, int c1, int c2,
                                            uint64_t *bar, PRIMS_CALLER) {
#if defined(SIMT_EMU)
    const int32_t c[3] = {c0, c1, c2};
    ::simt::rt::tma_load(SIMT_HERE, dst, map, 3, c, bar);
#elif PRIMS_HAS_SM90
    asm volatile(
        "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, "
        "%3, %4}], [%5];\n" ::"r"(PRIMS_SMEM_ADDR(dst)),
        "l"((uint64_t)map), "r"(c0), "r"(c1), "r"(c2), "r"(PRIMS_SMEM_ADDR(bar))
        : "memory");
#else
    __trap();
#endif
}

// ---- wgmma: m64nNk32 f32 += e4m3 x e4m3 (sm_90a) -----------------------------------------------------
// A warpgroup (4 consecutive warps, the first a multiple of 4) computes D (64 x N, f32) = A (64 x 32)
// B^T (B: N x 32) [+ D] as one asynchronous operation: wgmma_fence() before the first wgmma and after
// any access to its registers; wgmma_ss (A in shared memory) or wgmma_rs (A in registers); then
// wgmma_commit() and wgmma_wait<K>(accumulators[, A fragments]) before any access to the accumulators
// (and, for RS, to A's registers). Every thread of the warpgroup passes the same descriptors.
// Shared operands are K-major (FP8 has no transpose) and described by wgmma_desc. Fragments, thread t
// of the warpgroup (w = t / 32, g = (t % 32) / 4, q = t % 4):
//   accumulator d[i] (i < N/2): row 16w + g + 8((i >> 1) & 1), column 8(i >> 2) + 2q + (i & 1);
//   A (RS) byte i of a[i / 4] (low byte first): row 16w + g + 8((i >> 2) & 1), k 4q + (i & 3) + 16(i >> 3).
// N: 16, 32, 64, 96, 128, 160, 192 or 256 (the PTX below; the emulator takes any multiple of 8).
// The emulator (kernels/emu/rt/wgmma.cpp) poisons the accumulators at issue and lands the results at
// the wait; the wait wrapper passes them to the compiler as read-write operands, so that nvcc cannot
// move their uses above it (CUTLASS's warpgroup_fence_operand). An RS wgmma's A registers need the
// same at the wait that retires it: to nvcc an asm's "r" input is dead once the asm has run, and
// stage 7f's first build put the next tile's P codes into the in-flight P.V's A registers (PTX and
// SASS; the emulator runs the source, whose registers never alias: tools/wgmma-inflight.sh checks
// the PTX and SASS, tests/kernels/wgmma-inflight.sh).

// The 64-bit matrix descriptor of a K-major shared-memory operand (PTX ISA, "Matrix Descriptor
// Format"): start address, leading and stride byte offsets (bytes, multiples of 16), swizzle (0 = none,
// 32, 64 or 128 bytes); base offset 0 (the tile starts on a 256/512/1024-byte boundary for 32/64/128).
// K-major FP8 tiles: LBO = the offset between the two 16-byte column blocks of a core matrix (ignored,
// "1", when swizzled); SBO = the offset between consecutive 8-row groups.
__host__ __device__ constexpr uint64_t wgmma_desc_fields(uint32_t addr, uint32_t lbo, uint32_t sbo,
                                                         unsigned swizzle) {
    return ::wg_desc(addr, lbo, sbo, swizzle);
}
// The shared-window address of a shared-memory pointer (what descriptors and TMA encode).
__device__ __forceinline__ uint32_t smem_address(const void *p, PRIMS_CALLER) {
#if defined(SIMT_EMU)
    return ::simt::rt::smem_address(SIMT_HERE, p);
#else
    return (uint32_t)__cvta_generic_to_shared(p);
#endif
}
// Stops the kernel unless `base` lies on ALIGN bytes of the shared window. The Hopper kernels' TMA
// destinations (128 bytes) and swizzled tiles (their swizzle's 256/512/1024-byte repeat: TMA and
// wgmma XOR absolute address bits) need their dynamic shared memory there, but CUDA promises that
// memory 16 bytes only, and nvcc may ignore `__align__` on an `extern __shared__` array (NVIDIA/cccl
// pull requests 5122 and 5414). ptxas lays the window out: nvcc 13.0 puts these kernels' base at
// 0x400, after the 1 KiB the system reserves per block (UMOV 0x400 in their SASS), so this is
// insurance for other compilers and reserves: a misplaced base stops the launch instead of computing
// on tiles that TMA and the threads swizzle differently.
// No message on the GPU (device printf would give every kernel a stack frame; the local-memory gate
// is 0): a stage 7 launch that fails at once is the cue to read sdpa-probes' smem_base part.
template <unsigned ALIGN> __device__ __forceinline__ void smem_check_aligned(const void *base, PRIMS_CALLER) {
    static_assert(ALIGN >= 16 && (ALIGN & (ALIGN - 1)) == 0, "a power of two of at least 16 bytes");
    uint32_t a = smem_address(base, caller_file, caller_line);
#if !defined(SIMT_EMU)
    // Through an opaque move: nvcc takes the declaration's __align__ as a fact and deleted the test
    // (no trap in the PTX, observed). ptxas keeps it: 7 instructions and a BPT.TRAP at the kernel's
    // start (static-gates.sh checks the PTX of every instance, sass-gates.sh the SASS).
    asm volatile("mov.b32 %0, %0;" : "+r"(a));
#endif
    if (a % ALIGN == 0) return;
#if defined(SIMT_EMU)
    ::simt::rt::fault(SIMT_HERE,
                      "dynamic shared memory starts at shared-window address 0x%x, not on the %u-byte "
                      "boundary this kernel's TMA and swizzled tiles need (prims::smem_check_aligned)",
                      a, ALIGN);
#else
    __trap();
#endif
}
__device__ __forceinline__ uint64_t wgmma_desc(const void *smem, uint32_t lbo, uint32_t sbo, unsigned swizzle,
                                               PRIMS_CALLER) {
    return wgmma_desc_fields(smem_address(smem, caller_file, caller_line), lbo, sbo, swizzle);
}

__device__ __forceinline__ void wgmma_fence(PRIMS_CALLER) {
#if defined(SIMT_EMU)
    ::simt::rt::wgmma_fence(SIMT_HERE);
#elif PRIMS_HAS_SM90A
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#else
    __trap();
#endif
}
__device__ __forceinline__ void wgmma_commit(PRIMS_CALLER) {
#if defined(SIMT_EMU)
    ::simt::rt::wgmma_commit(SIMT_HERE);
#elif PRIMS_HAS_SM90A
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#else
    __trap();
#endif
}
// Keeps the compiler from moving accesses to these registers across the point where it stands.
template <int M> __device__ __forceinline__ void wgmma_fence_operand(float (&acc)[M]) {
#if !defined(SIMT_EMU)
#pragma unroll
    for (int i = 0; i < M; i++) asm volatile("" : "+f"(acc[i])::"memory");
#else
    (void)acc;
#endif
}
// The same for RS A fragments (four registers each): after the wait that retires their wgmmas, they
// are live up to here, so nvcc cannot give their registers another value while the wgmma reads them.
template <int R> __device__ __forceinline__ void wgmma_fence_operand(uint32_t (&a)[R][4]) {
#if !defined(SIMT_EMU)
#pragma unroll
    for (int r = 0; r < R; r++)
#pragma unroll
        for (int i = 0; i < 4; i++) asm volatile("" : "+r"(a[r][i])::"memory");
#else
    (void)a;
#endif
}
// wgmma.wait_group K: at most K of this thread's newest committed groups stay in flight; acc (and
// acc2) are the accumulators the thread reads next: none may belong to a group still in flight.
template <int K, int M> __device__ __forceinline__ void wgmma_wait(float (&acc)[M], PRIMS_CALLER) {
    static_assert(K >= 0 && K <= 7, "wgmma.wait_group K: K in [0, 7]");
#if defined(SIMT_EMU)
    float *const accs[1] = {acc};
    const unsigned lens[1] = {M};
    ::simt::rt::wgmma_wait(SIMT_HERE, K, accs, lens, 1);
#elif PRIMS_HAS_SM90A
    wgmma_fence_operand(acc);
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(K) : "memory");
    wgmma_fence_operand(acc);
#else
    __trap();
#endif
}
template <int K, int M, int M2>
__device__ __forceinline__ void wgmma_wait(float (&acc)[M], float (&acc2)[M2], PRIMS_CALLER) {
    static_assert(K >= 0 && K <= 7, "wgmma.wait_group K: K in [0, 7]");
#if defined(SIMT_EMU)
    float *const accs[2] = {acc, acc2};
    const unsigned lens[2] = {M, M2};
    ::simt::rt::wgmma_wait(SIMT_HERE, K, accs, lens, 2);
#elif PRIMS_HAS_SM90A
    wgmma_fence_operand(acc);
    wgmma_fence_operand(acc2);
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(K) : "memory");
    wgmma_fence_operand(acc);
    wgmma_fence_operand(acc2);
#else
    __trap();
#endif
}
// ... and a, the A fragments of the RS wgmmas this wait retires, which the thread may change after it.
template <int K, int M, int R>
__device__ __forceinline__ void wgmma_wait(float (&acc)[M], uint32_t (&a)[R][4], PRIMS_CALLER) {
    static_assert(K >= 0 && K <= 7, "wgmma.wait_group K: K in [0, 7]");
#if defined(SIMT_EMU)
    (void)a; // the emulator checks them itself (W5: A changed in flight, at the retirement)
    wgmma_wait<K>(acc, caller_file, caller_line);
#elif PRIMS_HAS_SM90A
    wgmma_fence_operand(acc);
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(K) : "memory");
    wgmma_fence_operand(acc);
    wgmma_fence_operand(a);
#else
    __trap();
#endif
}

// The accumulator operand lists of the asm statements below ("+f"(d[b]) ... "+f"(d[b + 7]), ...).
#define PRIMS_F8(b)                                                                                          \
    "+f"(d[b]), "+f"(d[b + 1]), "+f"(d[b + 2]), "+f"(d[b + 3]), "+f"(d[b + 4]), "+f"(d[b + 5]),              \
        "+f"(d[b + 6]), "+f"(d[b + 7])
#define PRIMS_F16(b) PRIMS_F8(b), PRIMS_F8(b + 8)
#define PRIMS_F32(b) PRIMS_F16(b), PRIMS_F16(b + 16)
#define PRIMS_F64(b) PRIMS_F32(b), PRIMS_F32(b + 32)

// The N this header has PTX for.
template <int M>
inline constexpr bool wgmma_has_n =
    M == 8 || M == 16 || M == 32 || M == 48 || M == 64 || M == 80 || M == 96 || M == 128;

// D (M = N/2 floats per thread) = A B^T + (scale_d ? D : 0), A and B from shared memory by descriptors.
template <int M>
__device__ __forceinline__ void wgmma_ss(float (&d)[M], uint64_t desc_a, uint64_t desc_b, bool scale_d,
                                         PRIMS_CALLER) {
    static_assert(wgmma_has_n<M>, "wgmma m64nNk32: N = 2 M must be 16, 32, 64, 96, 128, 160, 192 or 256");
#if defined(SIMT_EMU)
    ::simt::rt::wgmma_mma(SIMT_HERE, 2 * M, d, nullptr, desc_a, desc_b, scale_d);
#elif PRIMS_HAS_SM90A
    if constexpr (M == 8)
        asm volatile(
            "{\n.reg .pred p;\nsetp.ne.b32 p, %10, 0;\nwgmma.mma_async.sync.aligned.m64n16k32.f32.e4m3.e4m3 "
            "{%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p, 1, 1;\n}\n"
            : PRIMS_F8(0)
            : "l"(desc_a), "l"(desc_b), "r"((int)scale_d)
            : "memory");
    else if constexpr (M == 16)
        asm volatile(
            "{\n.reg .pred p;\nsetp.ne.b32 p, %18, 0;\nwgmma.mma_async.sync.aligned.m64n32k32.f32.e4m3.e4m3 "
            "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, %16, %17, p, 1, 1;\n}\n"
            : PRIMS_F16(0)
            : "l"(desc_a), "l"(desc_b), "r"((int)scale_d)
            : "memory");
    else if constexpr (M == 32)
        asm volatile(
            "{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\nwgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3 "
            "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, "
            "%21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1;\n}\n"
            : PRIMS_F32(0)
            : "l"(desc_a), "l"(desc_b), "r"((int)scale_d)
            : "memory");
    else if constexpr (M == 48)
        asm volatile(
            "{\n.reg .pred p;\nsetp.ne.b32 p, %50, 0;\nwgmma.mma_async.sync.aligned.m64n96k32.f32.e4m3.e4m3 "
            "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, "
            "%21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, "
            "%40, %41, %42, %43, %44, %45, %46, %47}, %48, %49, p, 1, 1;\n}\n"
            : PRIMS_F32(0), PRIMS_F16(32)
            : "l"(desc_a), "l"(desc_b), "r"((int)scale_d)
            : "memory");
    else if constexpr (M == 64)
        asm volatile(
            "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\nwgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 "
            "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, "
            "%21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, "
            "%40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, "
            "%59, %60, %61, %62, %63}, %64, %65, p, 1, 1;\n}\n"
            : PRIMS_F64(0)
            : "l"(desc_a), "l"(desc_b), "r"((int)scale_d)
            : "memory");
    else if constexpr (M == 80)
        asm volatile(
            "{\n.reg .pred p;\nsetp.ne.b32 p, %82, 0;\nwgmma.mma_async.sync.aligned.m64n160k32.f32.e4m3.e4m3 "
            "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, "
            "%21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, "
            "%40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, "
            "%59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, "
            "%78, %79}, %80, %81, p, 1, 1;\n}\n"
            : PRIMS_F64(0), PRIMS_F16(64)
            : "l"(desc_a), "l"(desc_b), "r"((int)scale_d)
            : "memory");
    else if constexpr (M == 96)
        asm volatile(
            "{\n.reg .pred p;\nsetp.ne.b32 p, %98, 0;\nwgmma.mma_async.sync.aligned.m64n192k32.f32.e4m3.e4m3 "
            "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, "
            "%21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, "
            "%40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, "
            "%59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, "
            "%78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95}, %96, "
            "%97, p, 1, 1;\n}\n"
            : PRIMS_F64(0), PRIMS_F32(64)
            : "l"(desc_a), "l"(desc_b), "r"((int)scale_d)
            : "memory");
    else if constexpr (M == 128)
        asm volatile(
            "{\n.reg .pred p;\nsetp.ne.b32 p, %130, "
            "0;\nwgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3 {%0, %1, %2, %3, %4, %5, %6, %7, %8, "
            "%9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, "
            "%28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "
            "%47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, "
            "%66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, "
            "%85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, "
            "%103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, "
            "%119, %120, %121, %122, %123, %124, %125, %126, %127}, %128, %129, p, 1, 1;\n}\n"
            : PRIMS_F64(0), PRIMS_F64(64)
            : "l"(desc_a), "l"(desc_b), "r"((int)scale_d)
            : "memory");
#else
    __trap();
#endif
}
// The same with A from registers (the A fragment above, four registers per thread).
template <int M>
__device__ __forceinline__ void wgmma_rs(float (&d)[M], const uint32_t (&a)[4], uint64_t desc_b, bool scale_d,
                                         PRIMS_CALLER) {
    static_assert(wgmma_has_n<M>, "wgmma m64nNk32: N = 2 M must be 16, 32, 64, 96, 128, 160, 192 or 256");
#if defined(SIMT_EMU)
    ::simt::rt::wgmma_mma(SIMT_HERE, 2 * M, d, a, 0, desc_b, scale_d);
#elif PRIMS_HAS_SM90A
    if constexpr (M == 8)
        asm volatile(
            "{\n.reg .pred p;\nsetp.ne.b32 p, %13, 0;\nwgmma.mma_async.sync.aligned.m64n16k32.f32.e4m3.e4m3 "
            "{%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, %12, p, 1, 1;\n}\n"
            : PRIMS_F8(0)
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"((int)scale_d)
            : "memory");
    else if constexpr (M == 16)
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %21, "
                     "0;\nwgmma.mma_async.sync.aligned.m64n32k32.f32.e4m3.e4m3 {%0, %1, %2, %3, %4, %5, %6, "
                     "%7, %8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, %19}, %20, p, 1, 1;\n}\n"
                     : PRIMS_F16(0)
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"((int)scale_d)
                     : "memory");
    else if constexpr (M == 32)
        asm volatile(
            "{\n.reg .pred p;\nsetp.ne.b32 p, %37, 0;\nwgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3 "
            "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, "
            "%21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, {%32, %33, %34, %35}, %36, p, 1, 1;\n}\n"
            : PRIMS_F32(0)
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"((int)scale_d)
            : "memory");
    else if constexpr (M == 48)
        asm volatile(
            "{\n.reg .pred p;\nsetp.ne.b32 p, %53, 0;\nwgmma.mma_async.sync.aligned.m64n96k32.f32.e4m3.e4m3 "
            "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, "
            "%21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, "
            "%40, %41, %42, %43, %44, %45, %46, %47}, {%48, %49, %50, %51}, %52, p, 1, 1;\n}\n"
            : PRIMS_F32(0), PRIMS_F16(32)
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"((int)scale_d)
            : "memory");
    else if constexpr (M == 64)
        asm volatile(
            "{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\nwgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 "
            "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, "
            "%21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, "
            "%40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, "
            "%59, %60, %61, %62, %63}, {%64, %65, %66, %67}, %68, p, 1, 1;\n}\n"
            : PRIMS_F64(0)
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"((int)scale_d)
            : "memory");
    else if constexpr (M == 80)
        asm volatile(
            "{\n.reg .pred p;\nsetp.ne.b32 p, %85, 0;\nwgmma.mma_async.sync.aligned.m64n160k32.f32.e4m3.e4m3 "
            "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, "
            "%21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, "
            "%40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, "
            "%59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, "
            "%78, %79}, {%80, %81, %82, %83}, %84, p, 1, 1;\n}\n"
            : PRIMS_F64(0), PRIMS_F16(64)
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"((int)scale_d)
            : "memory");
    else if constexpr (M == 96)
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %101, "
                     "0;\nwgmma.mma_async.sync.aligned.m64n192k32.f32.e4m3.e4m3 {%0, %1, %2, %3, %4, %5, %6, "
                     "%7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, "
                     "%25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, "
                     "%42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, "
                     "%59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, "
                     "%76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, "
                     "%93, %94, %95}, {%96, %97, %98, %99}, %100, p, 1, 1;\n}\n"
                     : PRIMS_F64(0), PRIMS_F32(64)
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"((int)scale_d)
                     : "memory");
    else if constexpr (M == 128)
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %133, "
                     "0;\nwgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3 {%0, %1, %2, %3, %4, %5, %6, "
                     "%7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, "
                     "%25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, "
                     "%42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, "
                     "%59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, "
                     "%76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, "
                     "%93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, "
                     "%108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, "
                     "%122, %123, %124, %125, %126, %127}, {%128, %129, %130, %131}, %132, p, 1, 1;\n}\n"
                     : PRIMS_F64(0), PRIMS_F64(64)
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"((int)scale_d)
                     : "memory");
#else
    __trap();
#endif
}
#undef PRIMS_F8
#undef PRIMS_F16
#undef PRIMS_F32
#undef PRIMS_F64

// ---- setmaxnreg (sm_90a) -------------------------------------------------------------------------------
// Every thread of the warpgroup lowers (dec) or raises (inc) its register allocation to N (24 to 256, a
// multiple of 8); .inc waits until the block's pool has the registers (new ones are undefined).
template <int N> __device__ __forceinline__ void setmaxnreg_dec(PRIMS_CALLER) {
    static_assert(N >= 24 && N <= 256 && N % 8 == 0, "setmaxnreg: N a multiple of 8 in [24, 256]");
#if defined(SIMT_EMU)
    ::simt::rt::setmaxnreg(SIMT_HERE, false, N);
#elif PRIMS_HAS_SM90A
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(N));
#else
    __trap();
#endif
}
template <int N> __device__ __forceinline__ void setmaxnreg_inc(PRIMS_CALLER) {
    static_assert(N >= 24 && N <= 256 && N % 8 == 0, "setmaxnreg: N a multiple of 8 in [24, 256]");
#if defined(SIMT_EMU)
    ::simt::rt::setmaxnreg(SIMT_HERE, true, N);
#elif PRIMS_HAS_SM90A
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(N));
#else
    __trap();
#endif
}

// ---- stmatrix (sm_90): the inverse of ldmatrix ----------------------------------------------------------
// stmatrix.sync.aligned.m8n8.xN[.trans].shared.b16: lanes 8m..8m+7 give the shared, 16-byte aligned
// addresses of rows 0-7 of matrix m; r[m] of lane l holds row l/4, columns 2(l%4), 2(l%4)+1 (low half
// first), as ldmatrix delivers them; .trans stores the transpose.
template <int N, bool TRANS = false>
__device__ __forceinline__ void stmatrix(void *row, const uint32_t (&r)[N], PRIMS_CALLER) {
    static_assert(N == 1 || N == 2 || N == 4, "stmatrix: .x1, .x2 or .x4");
#if defined(SIMT_EMU)
    ::simt::rt::stmatrix(SIMT_HERE, N, TRANS, r, row);
#elif PRIMS_HAS_SM90
    const unsigned addr = PRIMS_SMEM_ADDR(row);
    if constexpr (N == 1 && TRANS)
        asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};\n" ::"r"(addr), "r"(r[0])
                     : "memory");
    else if constexpr (N == 1)
        asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};\n" ::"r"(addr), "r"(r[0])
                     : "memory");
    else if constexpr (N == 2 && TRANS)
        asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};\n" ::"r"(addr),
                     "r"(r[0]), "r"(r[1])
                     : "memory");
    else if constexpr (N == 2)
        asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};\n" ::"r"(addr), "r"(r[0]),
                     "r"(r[1])
                     : "memory");
    else if constexpr (TRANS)
        asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(addr),
                     "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])
                     : "memory");
    else
        asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(addr),
                     "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])
                     : "memory");
#else
    __trap();
#endif
}

} // namespace prims

#if defined(SIMT_EMU)
#pragma pop_macro("SIMT_HERE")
#endif
#undef PRIMS_CALLER

// ---- dynamic shared memory and launch ----------------------------------------------------------
#if defined(SIMT_EMU)
// The emulator cannot give `extern __shared__ T x[]` a meaning (it would become `extern static`),
// so dynamic shared memory is a pointer the emulator fills in per block.
#define SMEM_DYNAMIC(T, name) T *name = (T *)simt::dynamic_smem()
// The emulator's dynamic shared memory is 1024-byte aligned (its README) unless SIMT_DYN_SMEM_OFFSET
// moves it, as a runtime may: any ALIGN up to 1024 holds by default; smem_check_aligned checks it.
#define SMEM_DYNAMIC_ALIGNED(T, name, ALIGN)                                                                 \
    static_assert((ALIGN) <= 1024, "the emulator aligns dynamic shared memory to 1024 bytes");               \
    SMEM_DYNAMIC(T, name)
// Launch: 0 on success, non-zero when the emulator detected a fault (reported on stderr with the
// kernel's file and line).
#define SDPA_LAUNCH(kernel, grid, block, smem_bytes, stream, ...)                                            \
    simt::launch((kernel), (grid), (block), (smem_bytes), ##__VA_ARGS__)
// A failed emulated launch is a fault the emulator found in the kernel: a correctness failure.
#define SDPA_LAUNCH_FAILED SDPA_ERR_FAULT
// Dynamic shared memory above 48 KB: the kernel opts in first (0 on success); the emulator
// enforces the same rule as the CUDA runtime.
#define SDPA_OPT_IN_DYNAMIC_SMEM(kernel, bytes) simt::set_max_dynamic_smem((kernel), (bytes))
#else
#define SMEM_DYNAMIC(T, name) extern __shared__ __align__(128) T name[]
// With a larger alignment, for tiles that TMA and wgmma swizzle (aligned to the swizzle's repeat): a
// request nvcc may ignore for extern shared memory, hence smem_check_aligned.
#define SMEM_DYNAMIC_ALIGNED(T, name, ALIGN)                                                                 \
    extern __shared__ __align__(ALIGN)                                                                       \
    T name[]
// Launch: 0 on success, else the cudaError_t of the launch. Peek, not Get: the error stays set,
// so the caller (host/bench/backend_cuda.cu) reads it with cudaGetLastError and can report its
// name and text (too many resources requested, no kernel image for this device, ...).
// (clang-format 14 would split <<< inside a macro into "< < <".)
// clang-format off
#define SDPA_LAUNCH(kernel, grid, block, smem_bytes, stream, ...) \
    ((kernel)<<<(grid), (block), (smem_bytes), (cudaStream_t)(stream)>>>(__VA_ARGS__), (int)cudaPeekAtLastError())
// clang-format on
// A failed CUDA launch is the machine's error, not the kernel's verdict.
#define SDPA_LAUNCH_FAILED SDPA_ERR_LAUNCH
#define SDPA_OPT_IN_DYNAMIC_SMEM(kernel, bytes)                                                              \
    ((int)cudaFuncSetAttribute((const void *)(kernel), cudaFuncAttributeMaxDynamicSharedMemorySize,          \
                               (int)(bytes)))
#endif

// ---- symbol names ------------------------------------------------------------------------------
// sdpa-bench links both builds of the same kernel source (nvcc and emulator), so the emulator
// build's externally visible names carry a prefix and its launcher table has its own name.
#if defined(SIMT_EMU)
#define SDPA_BACKEND_SYM(name) emu_##name
#define SDPA_KERNEL_TABLE sdpa_kernels_emu
#else
#define SDPA_BACKEND_SYM(name) name
#define SDPA_KERNEL_TABLE sdpa_kernels_cuda
#endif
