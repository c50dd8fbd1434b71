// NVCC-ARCHS: 90 90a
// Planted TMA and mbarrier-transaction bugs (hopper-wgmma-notes M1, M3, M5, T1-T4; T1 also the
// innermost coordinate's 16-byte rule an H100 showed): one 2-D box of
// 64 rows x 64 bytes (4096 bytes) loaded by thread 0 of 128 and copied to out by all of them.
#include "emu_tests.h"
#include "prims.cuh"

__global__ void tma_bugs(const __grid_constant__ CUtensorMap map, const __grid_constant__ CUtensorMap map3,
                         uint8_t *__restrict__ out, int mode) {
    __shared__ __align__(1024) uint8_t tile[2 * 4096];
    __shared__ __align__(8) uint64_t full;
    const unsigned bytes = 4096;
    if (threadIdx.x == 0) {
        prims::mbar_init(&full, 1);
        if (mode != EMUT_TMA_NO_INIT_FENCE) prims::fence_mbarrier_init();
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        const unsigned expect = mode == EMUT_TMA_EXPECT_SMALL   ? bytes / 2
                                : mode == EMUT_TMA_EXPECT_LARGE ? 2 * bytes
                                                                : bytes;
        prims::mbar_arrive_expect_tx(&full, expect); // EMU-BUG(tma-expect)
        uint8_t *dst = mode == EMUT_TMA_MISALIGNED ? tile + 64 : tile;
        const CUtensorMap *m = mode == EMUT_TMA_BAD_MAP ? &map3 : &map;
        const int x0 = mode == EMUT_TMA_UNALIGNED_COORD ? 8 : 0; // 8 one-byte elements: not 16 B
        prims::tma_load_2d(dst, m, x0, 0, &full);                // EMU-BUG(tma-issue)
        if (mode == EMUT_TMA_OVERLAP) prims::tma_load_2d(tile, &map, 0, 0, &full); // EMU-BUG(tma-overlap)
    }
    if (mode == EMUT_TMA_READ_EARLY && threadIdx.x == 1) out[8192] = tile[0]; // EMU-BUG(tma-read-early)
    if (mode == EMUT_TMA_NO_WAIT) return;
    prims::mbar_wait(&full, 0);
    for (unsigned i = threadIdx.x; i < bytes; i += blockDim.x) out[i] = tile[i];
}

extern "C" int emut_bug_tma(const CUtensorMap *map, const CUtensorMap *map3, uint8_t *out, int mode) {
    return SDPA_LAUNCH(tma_bugs, 1, 128, 0, 0, *map, *map3, out, mode);
}
