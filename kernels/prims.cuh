// prims.cuh: the only architecture-specific code of the kernels.
//
// Kernels reach cp.async, FP8 conversion, warp reductions, dynamic shared memory and the launch
// only through this header; WMMA is used through nvcuda::wmma, which both builds provide. Under
// nvcc the functions map to the CUDA toolkit (cuda_pipeline_primitives.h, cuda_fp8.h, mma.h),
// which pick the hardware instruction where the architecture has one (cp.async on sm_80+,
// cvt.rn.f16x2.e4m3x2 on sm_89+) and a bit-identical software path elsewhere. Under the CPU
// emulator (kernels/emu, force-included shim, defines SIMT_EMU) the same toolkit headers are
// compiled for the host, and the emulator supplies mma.h and cuda_pipeline_primitives.h.
// No inline PTX and no __CUDA_ARCH__ branches: code the emulator never compiles is never tested.
#pragma once

#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_pipeline_primitives.h>
#include <mma.h>
#include <stdint.h>

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
template <int N> __device__ __forceinline__ void cp_async_wait(PRIMS_CALLER) { __pipeline_wait_prior(N); }

// ---- FP8 -> half (exact) -----------------------------------------------------------------------
// Two E4M3 codes packed little-endian (low byte -> .x) to two halves.
__device__ __forceinline__ __half2 e4m3x2_to_half2(uint16_t two_codes) {
    return __half2(__nv_cvt_fp8x2_to_halfraw2((__nv_fp8x2_storage_t)two_codes, __NV_E4M3));
}
__device__ __forceinline__ __half e4m3_to_half(uint8_t code) {
    return __half(__nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)code, __NV_E4M3));
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
#else
#define SMEM_DYNAMIC(T, name) extern __shared__ __align__(16) T name[]
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
