// An accumulator fragment never zeroed (one block, one warp): D = A B + D reads whatever the stack
// held. Fiber stacks are poisoned (NaN) before every block, so the result is NaN instead of A B by
// the accident of a fresh, zeroed stack. A [16][16] and B [16][8] halves (B as [k][n]); D [16][8].
#include "emu_tests.h"
#include "prims.cuh"

__global__ void uninit_accumulator(const __half *__restrict__ A, const __half *__restrict__ Bkn,
                                   float *__restrict__ D) {
    const int l = threadIdx.x, g = l / 4, t = l % 4;
    uint32_t a[4], b[2];
    for (int i = 0; i < 4; i++) {
        const int row = g + 8 * (i & 1), col = 2 * t + 8 * (i >> 1);
        a[i] = prims::pack_half2(__half2float(A[row * 16 + col]), __half2float(A[row * 16 + col + 1]));
    }
    for (int i = 0; i < 2; i++)
        b[i] = prims::pack_half2(__half2float(Bkn[(2 * t + 8 * i) * 8 + g]),
                                 __half2float(Bkn[(2 * t + 8 * i + 1) * 8 + g]));
    float d[4]; // EMU-BUG(uninit) never zeroed
    prims::mma_m16n8k16_f16(d, a, b, d);
    for (int i = 0; i < 4; i++) D[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = d[i];
}

extern "C" int emut_bug_uninit(const uint16_t *A, const uint16_t *Bkn, float *D) {
    return SDPA_LAUNCH(uninit_accumulator, 1, 32, 0, 0, (const __half *)A, (const __half *)Bkn, D);
}
