// NVCC-ARCHS: 80 89 90 90a
// The sm_90a gate (prims::has_sm90a): a body that needs sm_90a compiles only in the sm_90a pass (and
// in the emulator); every other architecture's code traps. nvcc-kernels.sh checks the PTX of both
// passes (mk/emu.mk builds arch_gate for compute_90 and compute_90a).
#include "emu_tests.h"
#include "prims.cuh"

__global__ void arch_gate(int *out) {
    if constexpr (prims::has_sm90a)
        out[blockIdx.x * blockDim.x + threadIdx.x] = 90;
    else
        prims::arch_trap();
}

extern "C" int emut_arch_gate(int *out, int blocks) { return SDPA_LAUNCH(arch_gate, blocks, 128, 0, 0, out); }
