// Named barriers (correct kernel): warp 0 produces tiles into a two-slot ring in shared memory,
// warps 1-3 consume them. FULL[s] (ids 1, 2): the producer arrives, the consumers wait; EMPTY[s]
// (ids 3, 4): the consumers arrive, the producer waits before it reuses the slot. 128 threads each.
#include "emu_tests.h"
#include "prims.cuh"

__global__ void producer_consumer(const float *__restrict__ in, float *__restrict__ out, int tiles) {
    __shared__ float ring[2][32];
    __shared__ float sums[96];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const float *src = in + (size_t)blockIdx.x * tiles * 32;
    if (warp == 0) {
        for (int i = 0; i < tiles; i++) {
            const int s = i % 2;
            if (i >= 2) { // the consumers are done with tile i - 2 (ids are immediates: prims.cuh)
                if (s)
                    prims::bar_sync<4>(128);
                else
                    prims::bar_sync<3>(128);
            }
            ring[s][lane] = src[i * 32 + lane];
            if (s)
                prims::bar_arrive<2>(128);
            else
                prims::bar_arrive<1>(128);
        }
    } else {
        const int c = threadIdx.x - 32;
        float acc = 0.0f;
        for (int i = 0; i < tiles; i++) {
            const int s = i % 2;
            if (s)
                prims::bar_sync<2>(128);
            else
                prims::bar_sync<1>(128);
            acc += ring[s][c % 32] * (float)(1 + c / 32);
            if (s)
                prims::bar_arrive<4>(128);
            else
                prims::bar_arrive<3>(128);
        }
        sums[c] = acc;
    }
    __syncthreads();
    if (threadIdx.x < 96) out[blockIdx.x * 96 + threadIdx.x] = sums[threadIdx.x];
}

extern "C" int emut_producer_consumer(const float *in, float *out, int tiles, int blocks) {
    return SDPA_LAUNCH(producer_consumer, blocks, 128, 0, 0, in, out, tiles);
}
