// Planted named-barrier bugs, one kernel each (64 threads: warp 0 produces, warp 1 consumes).
// (An id out of range, 0 or > 15, no longer compiles: prims.cuh takes ids as template parameters
// with a static_assert; tests/kernels/static-gates.sh checks the refusal.)
#include "emu_tests.h"
#include "prims.cuh"

// The producer writes but never arrives: the consumer waits forever (a deadlock, reported where
// it waits).
__global__ void never_arrives(float *__restrict__ out) {
    __shared__ float x[32];
    const int lane = threadIdx.x % 32;
    if (threadIdx.x < 32) {
        x[lane] = (float)lane; // ... and no prims::bar_arrive<1>(64)
    } else {
        prims::bar_sync<1>(64); // EMU-BUG(never-arrives)
        out[lane] = x[lane];
    }
}

// The consumer waits on barrier 2; the producer signals barrier 1.
__global__ void wrong_id(float *__restrict__ out) {
    __shared__ float x[32];
    const int lane = threadIdx.x % 32;
    if (threadIdx.x < 32) {
        x[lane] = (float)lane;
        prims::bar_arrive<1>(64);
    } else {
        prims::bar_sync<2>(64); // EMU-BUG(wrong-id)
        out[lane] = x[lane];
    }
}

// Producer and consumers disagree on the thread count of barrier 1 (128 threads: warp 0 produces).
__global__ void count_mismatch(float *__restrict__ out) {
    __shared__ float x[32];
    const int lane = threadIdx.x % 32;
    if (threadIdx.x < 32) {
        x[lane] = (float)lane;
        prims::bar_arrive<1>(64); // EMU-BUG(count-producer)
    } else {
        prims::bar_sync<1>(128); // EMU-BUG(count-consumer)
        out[threadIdx.x] = x[lane];
    }
}

// bar.sync reached by half of each warp (it is .aligned: the whole warp must execute it).
__global__ void divergent(float *__restrict__ out) {
    const int lane = threadIdx.x % 32;
    if (lane < 16) prims::bar_sync<1>(64); // EMU-BUG(bar-divergent)
    __syncthreads();
    out[threadIdx.x] = (float)lane;
}

extern "C" int emut_bug_named_barrier(float *out, int mode) {
    switch (mode) {
    case EMUT_BAR_NEVER_ARRIVES: return SDPA_LAUNCH(never_arrives, 1, 64, 0, 0, out);
    case EMUT_BAR_WRONG_ID: return SDPA_LAUNCH(wrong_id, 1, 64, 0, 0, out);
    case EMUT_BAR_COUNT_MISMATCH: return SDPA_LAUNCH(count_mismatch, 1, 128, 0, 0, out);
    default: return SDPA_LAUNCH(divergent, 1, 64, 0, 0, out);
    }
}
