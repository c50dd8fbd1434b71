// NVCC-ARCHS: 90 90a
// mbarrier as a producer/consumer ring (correct kernel): warp 0 produces `tiles` tiles of 32 floats
// into a 2-slot ring, warps 1-3 consume them. FULL[s]: 32 producer arrivals per phase; EMPTY[s]: 96
// consumer arrivals. The producer's first wait on each EMPTY slot takes parity 1 (passes at once on a
// fresh barrier); both sides flip parity each time the ring wraps. out[c] as emut_producer_consumer.
#include "emu_tests.h"
#include "prims.cuh"

__global__ void mbar_ring(const float *__restrict__ in, float *__restrict__ out, int tiles) {
    __shared__ float ring[2][32];
    __shared__ float sums[96];
    __shared__ __align__(8) uint64_t full[2], empty[2];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (threadIdx.x == 0) {
        for (int s = 0; s < 2; s++) {
            prims::mbar_init(&full[s], 32);
            prims::mbar_init(&empty[s], 96);
        }
        prims::fence_mbarrier_init();
    }
    __syncthreads();
    const float *src = in + (size_t)blockIdx.x * tiles * 32;
    if (warp == 0) {
        for (int i = 0; i < tiles; i++) {
            const int s = i % 2;
            prims::mbar_wait(&empty[s], ((i / 2) & 1) ^ 1); // the consumers are done with tile i - 2
            ring[s][lane] = src[i * 32 + lane];
            prims::mbar_arrive(&full[s]);
        }
    } else {
        const int c = threadIdx.x - 32;
        float acc = 0.0f;
        for (int i = 0; i < tiles; i++) {
            const int s = i % 2;
            prims::mbar_wait(&full[s], (i / 2) & 1);
            acc += ring[s][c % 32] * (float)(1 + c / 32);
            prims::mbar_arrive(&empty[s]);
        }
        sums[c] = acc;
    }
    __syncthreads();
    if (threadIdx.x < 96) out[blockIdx.x * 96 + threadIdx.x] = sums[threadIdx.x];
}

extern "C" int emut_mbar_ring(const float *in, float *out, int tiles, int blocks) {
    return SDPA_LAUNCH(mbar_ring, blocks, 128, 0, 0, in, out, tiles);
}
