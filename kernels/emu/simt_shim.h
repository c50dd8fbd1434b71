// simt_shim.h: force-included into an unchanged CUDA source to build it for the CPU emulator:
//   clang++ -std=c++17 -x c++ -include kernels/emu/simt_shim.h -Ikernels/emu/include \
//           -I$(CUDA_HOME)/include ... -c kernel.cu
// (kernels/emu/README.md). kernels/emu/include must precede the CUDA include folder: it holds the
// emulator's mma.h and cuda_pipeline_primitives.h.
#pragma once

#if !defined(__cplusplus) || __cplusplus < 201703L
#error "simt_shim.h: compile the .cu source as C++17 (clang++ -std=c++17 -x c++)"
#endif
#if defined(__CUDACC__)
#error "simt_shim.h is for the CPU emulator build; nvcc uses the CUDA toolkit's headers"
#endif
#if !defined(__clang__)
// GCC ignores section attributes on static locals of templates (observed with GCC 12): static
// __shared__ memory would silently escape poisoning and the cp.async destination check.
#error "simt_shim.h: use clang++"
#endif

#define SIMT_EMU 1

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

// The CUDA headers compile in host mode (no __CUDACC__) and must come first: they define
// __shared__ and friends as inert annotations, which are replaced below (cuda_runtime's host headers).
// nvcc includes cuda_runtime.h implicitly, so kernel sources may rely on it.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#undef __global__
#undef __device__
#undef __host__
#undef __constant__
#undef __managed__
#undef __shared__
#undef __grid_constant__
#define __global__
#define __device__
#define __host__
// A plain global: cudaMemcpyToSymbol does not exist here; the launcher passes values instead.
#define __constant__
#define __grid_constant__
#define __launch_bounds__(...)
// Unified memory has no meaning without a device: a compile error naming the feature.
#define __managed__ simt_unsupported___managed__
// The toolkit's host __forceinline__ is always_inline: every helper flattened into every kernel,
// and one kernel function so large that clang's optimisation of it grew far faster than its size.
// A plain `inline` lets clang choose. Measured 2026-11-30: the plain build's three kernel compiles
// 238 -> 23 CPU-s, the mission shape over every variant 19.8 -> 19.0 s. No result changes:
// contraction is off (-ffp-contract=off), and same-bits.sh compares -O0 with -O2 builds bit for bit.
#undef __forceinline__
#define __forceinline__ inline

// Static shared memory: one instance, reused block after block (blocks run one at a time on one
// OS thread), poisoned before each block. See SIMT_SMEM_SECTION in simt_rt.h. No alignment
// attribute: the type's own alignment (and __align__) applies, as with nvcc; clang would let an
// aligned(16) attribute lower the alignment of an over-aligned type.
#include "simt_rt.h"
#if defined(SIMT_SMEM_SECTION)
#define __shared__ static __attribute__((section("simt_shared")))
#else
#define __shared__ static
#endif

// Built-in variables: object-like macros reading the running thread (so they collide with
// same-named identifiers; kernels avoid those names).
#define threadIdx (static_cast<const uint3 &>(::simt::rt::cur->tid))
#define blockIdx (static_cast<const uint3 &>(::simt::rt::block_idx))
#define blockDim (static_cast<const dim3 &>(::simt::rt::block_dim))
#define gridDim (static_cast<const dim3 &>(::simt::rt::grid_dim))
#define warpSize 32

#include "simt_intrinsics.h"
#include "simt_sync.h"
#include "simt_launch.h"
