// Planted mma.sync / ldmatrix bugs on the f16 tile D = A B (A [16][16], B [k][n] [16][8]).
#include "emu_tests.h"
#include "prims.cuh"

__global__ void mma_bugs(const __half *__restrict__ A, const __half *__restrict__ Bkn, float *__restrict__ D,
                         int mode) {
    __shared__ __align__(16) __half sA[16][16], sB[16][8];
    const int l = threadIdx.x, g = l / 4, t = l % 4, m = l / 8, r = l % 8;
    for (int i = l; i < 256; i += 32) sA[i / 16][i % 16] = A[i];
    for (int i = l; i < 128; i += 32) sB[i / 8][i % 8] = Bkn[i];
    // ldmatrix reads each row as the lane that gave its address: rows other lanes stored need this.
    if (mode != EMUT_LDSM_NO_SYNCWARP) __syncwarp();
    uint32_t a[4], b[2];
    prims::ldmatrix<2, true>(b, &sB[r + 8 * (m & 1)][0]); // EMU-BUG(ldsm-no-syncwarp)
    if (mode == EMUT_MMA_SWAPPED_REG) {
        for (int i = 0; i < 4; i++) {
            const int row = g + 8 * (i & 1), col = 2 * t + 8 * (i >> 1);
            const int reg = i == 1 ? 2 : i == 2 ? 1 : i; // EMU-BUG(mma-swapped): a[1] and a[2] exchanged
            a[reg] = prims::pack_half2(__half2float(sA[row][col]), __half2float(sA[row][col + 1]));
        }
    } else if (mode == EMUT_LDSM_WRONG_LANES) {
        prims::ldmatrix<4>(a,
                           &sA[r + 8 * (m >> 1)][8 * (m & 1)]); // EMU-BUG(ldsm-lanes): matrices 1, 2 swapped
    } else if (mode == EMUT_LDSM_MISALIGNED) {
        prims::ldmatrix<4>(a, &sA[r][4]); // EMU-BUG(ldsm-misaligned): rows start 8 bytes into a 16-byte unit
    } else {
        prims::ldmatrix<4>(a, A + 16 * r); // EMU-BUG(ldsm-global): ldmatrix reads shared memory only
    }
    float d[4] = {0, 0, 0, 0};
    prims::mma_m16n8k16_f16(d, a, b, d);
    for (int i = 0; i < 4; i++) D[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = d[i];
}

extern "C" int emut_bug_mma(const uint16_t *A, const uint16_t *Bkn, float *D, int mode) {
    return SDPA_LAUNCH(mma_bugs, 1, 32, 0, 0, (const __half *)A, (const __half *)Bkn, D, mode);
}
