// NVCC-ARCHS: 90 90a
// stmatrix .x1/.x2/.x4 with and without .trans (correct kernel): one warp stores fragments whose 16-bit
// elements encode (matrix, row, column) of the fragment layout, the shared tile is copied out as it
// lies, so the test sees where each element went.
#include "emu_tests.h"
#include "prims.cuh"

template <int N, bool TRANS> __global__ void stmatrix_tile(uint16_t *__restrict__ out) {
    __shared__ __align__(16) uint16_t tile[4][8][8];
    for (int i = threadIdx.x; i < 256; i += 32) (&tile[0][0][0])[i] = 0xffff;
    __syncwarp();
    const int l = threadIdx.x, row = l / 4, col = 2 * (l % 4);
    uint32_t r[N];
    for (int m = 0; m < N; m++) // element (m, row, col) of the fragment holds 64 m + 8 row + col
        r[m] = (uint32_t)(64 * m + 8 * row + col) | (uint32_t)(64 * m + 8 * row + col + 1) << 16;
    prims::stmatrix<N, TRANS>(&tile[(l / 8) % N][l % 8][0], r);
    __syncwarp();
    for (int i = l; i < 64 * N; i += 32) out[i] = (&tile[0][0][0])[i];
}

extern "C" int emut_stmatrix(uint16_t *out, int n, int trans) {
    if (n == 1)
        return trans ? SDPA_LAUNCH((stmatrix_tile<1, true>), 1, 32, 0, 0, out)
                     : SDPA_LAUNCH((stmatrix_tile<1, false>), 1, 32, 0, 0, out);
    if (n == 2)
        return trans ? SDPA_LAUNCH((stmatrix_tile<2, true>), 1, 32, 0, 0, out)
                     : SDPA_LAUNCH((stmatrix_tile<2, false>), 1, 32, 0, 0, out);
    return trans ? SDPA_LAUNCH((stmatrix_tile<4, true>), 1, 32, 0, 0, out)
                 : SDPA_LAUNCH((stmatrix_tile<4, false>), 1, 32, 0, 0, out);
}
