// cp.async (correct kernels): E4M3 rows decoded to half through double-buffered shared-memory
// tiles, the next tile in flight while this one is decoded (prims::cp_async_16 / commit / wait),
// a 4-byte copy of a per-tile scale, zero-filled copies past the last row, per-row and per-warp
// maxima (prims::warp_max). Two correct tails: an empty group committed on the last tile, or an
// explicit drain with wait_prior(0).
#include "emu_tests.h"
#include "prims.cuh"

constexpr int CP_ROWS = 32, CP_COLS = 64; // a tile: 2048 bytes, one 16-byte copy per thread

template <bool DRAIN_TAIL>
__global__ void __launch_bounds__(128)
    fp8_stage(const uint8_t *__restrict__ codes, const float *__restrict__ scales, __half *__restrict__ out,
              float *__restrict__ row_max, float *__restrict__ warp_max, int n_rows) {
    __shared__ __align__(16) uint8_t stage[2][CP_ROWS * CP_COLS];
    __shared__ __align__(16) float scale[2][4];
    const int t = threadIdx.x, lane = t % 32, warp = t / 32;
    const int tiles = (n_rows + CP_ROWS - 1) / CP_ROWS;
    auto issue = [&](int tile) {
        const int buf = tile & 1, row = tile * CP_ROWS + t / 4; // 4 threads per 64-byte row
        void *dst = &stage[buf][t * 16];
        if (row < n_rows)
            prims::cp_async_16(dst, codes + (size_t)row * CP_COLS + (t % 4) * 16);
        else
            __pipeline_memcpy_async(dst, codes, 16, 16); // zfill 16: copies nothing, writes zeros
        if (t == 0) __pipeline_memcpy_async(&scale[buf][0], scales + tile, 4);
    };
    issue(0);
    prims::cp_async_commit();
    for (int tile = 0; tile < tiles; tile++) {
        if (tile + 1 < tiles) issue(tile + 1);
        if (DRAIN_TAIL) {
            if (tile + 1 < tiles) {
                prims::cp_async_commit();
                prims::cp_async_wait<1>();
            } else {
                prims::cp_async_wait<0>();
            }
        } else {
            prims::cp_async_commit(); // possibly empty: the group of this tile is never the newest
            prims::cp_async_wait<1>();
        }
        __syncthreads();
        const int buf = tile & 1, row = tile * CP_ROWS + t / 4;
        const __half2 s = __float2half2_rn(scale[buf][0]);
        float m = -INFINITY;
        for (int j = 0; j < 16; j += 2) {
            const uint8_t *p = &stage[buf][t * 16 + j];
            const __half2 h = __hmul2(prims::e4m3x2_to_half2((uint16_t)(p[0] | p[1] << 8)), s);
            if (row < n_rows) {
                out[(size_t)row * CP_COLS + (t % 4) * 16 + j] = __low2half(h);
                out[(size_t)row * CP_COLS + (t % 4) * 16 + j + 1] = __high2half(h);
            }
            m = fmaxf(m, fmaxf(__low2float(h), __high2float(h)));
        }
        m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, 1)); // the 4 threads of a row are adjacent
        m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, 2));
        if (t % 4 == 0 && row < n_rows) row_max[row] = m;
        const float wm = prims::warp_max(m);
        if (lane == 0) warp_max[tile * 4 + warp] = wm;
        __syncthreads(); // the next iteration refills the other buffer; the one after, this one
    }
}

extern "C" int emut_fp8_stage(const uint8_t *codes, const float *scales, uint16_t *out, float *row_max,
                              float *warp_max, int n_rows, int drain_tail) {
    return drain_tail ? SDPA_LAUNCH(fp8_stage<true>, 1, 128, 0, 0, codes, scales, (__half *)out, row_max,
                                    warp_max, n_rows)
                      : SDPA_LAUNCH(fp8_stage<false>, 1, 128, 0, 0, codes, scales, (__half *)out, row_max,
                                    warp_max, n_rows);
}
