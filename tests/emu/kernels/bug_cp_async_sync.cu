// Planted cp.async ordering bugs in one tiled copy: each thread stages 16 bytes of a 2 KB tile,
// then reads its neighbour's 16 bytes. The copies land only at the wait that retires them, and
// their destinations are poisoned until then, so each bug reads NaN in the plain build; the
// ThreadSanitizer build reports a data race at the read.
//   mode 0: correct (double-buffered, drained tail)
//   mode 1: no __pipeline_wait_prior in the loop (drained after it)
//   mode 2: no __syncthreads after the wait
//   mode 3: the original's tail: wait_prior(1) on the last tile, where no newer group exists
#include "emu_tests.h"
#include "prims.cuh"

__global__ void __launch_bounds__(128)
    tiled_copy(const float *__restrict__ in, float *__restrict__ out, int tiles, int mode) {
    __shared__ __align__(16) float stage[2][128 * 4];
    const int t = threadIdx.x, next = (t + 1) % 128;
    __pipeline_memcpy_async(&stage[0][t * 4], in + t * 4, 16);
    __pipeline_commit();
    for (int tile = 0; tile < tiles; tile++) {
        const bool more = tile + 1 < tiles;
        if (more) {
            __pipeline_memcpy_async(&stage[(tile + 1) & 1][t * 4], in + ((tile + 1) * 128 + t) * 4, 16);
            __pipeline_commit();
        }
        if (mode == 3) {
            __pipeline_wait_prior(1); // on the last tile no newer group exists: it stays in flight
        } else if (mode != 1) {
            if (more)
                __pipeline_wait_prior(1);
            else
                __pipeline_wait_prior(0);
        }
        if (mode != 2) __syncthreads();
        const float *src = &stage[tile & 1][next * 4];
        float *dst = out + (tile * 128 + t) * 4;
        for (int j = 0; j < 4; j++) dst[j] = src[j]; // EMU-BUG(cp-async-read): reads the neighbour's copy
        __syncthreads();
    }
    __pipeline_wait_prior(0);
}

extern "C" int emut_bug_tiled_copy(const float *in, float *out, int tiles, int mode) {
    return SDPA_LAUNCH(tiled_copy, 1, 128, 0, 0, in, out, tiles, mode);
}
