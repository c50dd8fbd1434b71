// Planted memory bugs, caught by the AddressSanitizer + UBSan build of the emulator. The kernels
// are not templates: ASan gives no redzones to static locals of templates (README).
#include "emu_tests.h"
#include "prims.cuh"

// The last thread writes one element past a shared array.
__global__ void smem_oob(float *__restrict__ out) {
    __shared__ float s[128];
    s[threadIdx.x + 1] = 1.0f; // EMU-BUG(smem-oob)
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}

// A 16-byte vector load from an address that is only 4-byte aligned.
__global__ void misaligned(const float *__restrict__ in, float *__restrict__ out) {
    __shared__ __align__(16) float s[132];
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) {
        const float4 *v = reinterpret_cast<const float4 *>(&s[1]);
        out[0] = v->x + v->y + v->z + v->w; // EMU-BUG(misaligned)
    }
}

extern "C" int emut_bug_smem_oob(float *out) { return SDPA_LAUNCH(smem_oob, 1, 128, 0, 0, out); }
extern "C" int emut_bug_misaligned(const float *in, float *out) {
    return SDPA_LAUNCH(misaligned, 1, 128, 0, 0, in, out);
}
