// Two hand-over bugs a plain build used to miss (the arriving thread ran on, so the other side never
// ran in between; only ThreadSanitizer saw them): a consumer that releases its slot (bar.arrive EMPTY)
// before reading it, and a producer that signals FULL before its cp.async copies landed. 64 threads:
// warp 0 produces 4 tiles of 32 floats through a one-slot ring, warp 1 sums them; out[lane].
#include "emu_tests.h"
#include "prims.cuh"

__global__ void handover(const float *__restrict__ in, float *__restrict__ out, int mode) {
    __shared__ __align__(16) float slot[32];
    const int lane = threadIdx.x % 32;
    float acc = 0.0f;
    for (int i = 0; i < 4; i++) {
        if (threadIdx.x < 32) {
            if (i > 0) prims::bar_sync<2>(64); // EMPTY: the consumer is done with the slot
            if (lane % 4 == 0) prims::cp_async_16(&slot[lane], in + i * 32 + lane); // 8 lanes, 4 floats each
            prims::cp_async_commit();
            if (mode == EMUT_HANDOVER_SIGNAL_EARLY) prims::bar_arrive<1>(64); // EMU-BUG(signal-early)
            prims::cp_async_wait<0>();
            if (mode != EMUT_HANDOVER_SIGNAL_EARLY) prims::bar_arrive<1>(64); // FULL
        } else {
            prims::bar_sync<1>(64);
            if (mode == EMUT_HANDOVER_RELEASE_EARLY) {
                if (i < 3) prims::bar_arrive<2>(64);
                acc += slot[lane]; // EMU-BUG(release-early)
            } else {
                acc += slot[lane];
                if (i < 3) prims::bar_arrive<2>(64);
            }
        }
    }
    if (threadIdx.x >= 32) out[lane] = acc;
}

extern "C" int emut_bug_handover(const float *in, float *out, int mode) {
    return SDPA_LAUNCH(handover, 1, 64, 0, 0, in, out, mode);
}
