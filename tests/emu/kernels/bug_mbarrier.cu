// NVCC-ARCHS: 90 90a
// Planted mbarrier bugs (hopper-wgmma-notes M2, M5, M6, M7; a phase arrived on before its predecessor
// was waited for) on a 2-slot ring of 64 threads: warp 0 produces 4 tiles of 32 floats, warp 1 consumes
// them (FULL: 32 arrivals, EMPTY: 32 arrivals).
#include "emu_tests.h"
#include "prims.cuh"

__global__ void mbar_bugs(float *__restrict__ out, int mode) {
    __shared__ float ring[2][32];
    __shared__ __align__(8) uint64_t full[2], empty[2];
    const int lane = threadIdx.x % 32;
    if (threadIdx.x == 0) {
        for (int s = 0; s < 2; s++) {
            prims::mbar_init(&full[s], 32);
            prims::mbar_init(&empty[s], 32);
        }
        if (mode == EMUT_MBAR_REINIT) prims::mbar_init(&full[0], 32); // EMU-BUG(mbar-reinit)
        prims::fence_mbarrier_init();
    }
    if (mode != EMUT_MBAR_NO_SYNC_AFTER_INIT) __syncthreads();
    float acc = 0.0f;
    const bool producer = threadIdx.x < 32;
    for (int i = 0; i < 4; i++) {
        const int s = i % 2;
        const unsigned round = (unsigned)(i / 2) & 1;
        // Producers wait for an EMPTY slot (parity round ^ 1: passes at once on a fresh barrier; a
        // producer starting with parity 0 waits for a phase nothing completes), consumers for a FULL
        // one (parity round; one that never flips it re-waits the phase it already passed).
        unsigned p = producer ? round ^ 1 : round;
        if (producer && mode == EMUT_MBAR_PRODUCER_PARITY0) p = round;
        if (!producer && mode == EMUT_MBAR_PARITY_NOT_FLIPPED) p = 0;
        prims::mbar_wait(producer ? &empty[s] : &full[s], p); // EMU-BUG(mbar-wait)
        if (producer) {
            ring[s][lane] = (float)(i * 32 + lane);
            prims::mbar_arrive(&full[s]);
        } else {
            acc += ring[s][lane];
            // Each consumer releases its slot once; twice (EMUT_MBAR_DOUBLE_RELEASE, as stage 7l's
            // every-lane plant) completes a phase every 32 arrivals, faster than the producers wait.
            for (int r = 0; r < (mode == EMUT_MBAR_DOUBLE_RELEASE ? 2 : 1); r++)
                prims::mbar_arrive(&empty[s]); // EMU-BUG(mbar-release)
        }
    }
    if (threadIdx.x >= 32) out[lane] = acc;
}

extern "C" int emut_bug_mbarrier(float *out, int mode) {
    return SDPA_LAUNCH(mbar_bugs, 1, 64, 0, 0, out, mode);
}
