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

#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_pipeline_primitives.h>
#include <mma.h>
#include <stdint.h>
#include <string.h>

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
