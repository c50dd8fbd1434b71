// Planted WMMA bugs.
#include "emu_tests.h"
#include "prims.cuh"

using namespace nvcuda;

// Row maxima of S = A B read from the accumulator by position, assuming the sm_80 element layout
// that the original's Stage-3B derived by experiment (lane l: rows l/4 and l/4 + 8, columns
// 2(l%4) + {0, 1, 8, 9}). That layout is unspecified; the emulator scrambles it, so the maxima
// come out wrong here.
__global__ void acc_by_position(const __half *__restrict__ A, const __half *__restrict__ B,
                                float *__restrict__ row_max) {
    const int lane = threadIdx.x % 32;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> s;
    wmma::load_matrix_sync(a, A, 16);
    wmma::load_matrix_sync(b, B, 16);
    wmma::fill_fragment(s, 0.0f);
    wmma::mma_sync(s, a, b, s);
    float m[2] = {-INFINITY, -INFINITY};
    for (int i = 0; i < s.num_elements; i++)
        m[(i >> 1) & 1] = fmaxf(m[(i >> 1) & 1], s.x[i]); // EMU-BUG(wmma-layout)
    for (int h = 0; h < 2; h++) {
        m[h] = fmaxf(m[h], __shfl_xor_sync(0xffffffffu, m[h], 1));
        m[h] = fmaxf(m[h], __shfl_xor_sync(0xffffffffu, m[h], 2));
    }
    if (lane % 4 == 0) {
        row_max[lane / 4] = m[0];
        row_max[lane / 4 + 8] = m[1];
    }
}

// Arguments that break the rules of load_matrix_sync: mode 0 an ldm that is not a multiple of
// 8 halves (16 bytes), mode 1 a pointer that is 16- but not 32-byte aligned.
__global__ void bad_args(const __half *__restrict__ A, float *__restrict__ out, int mode) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
    if (mode == 0)
        wmma::load_matrix_sync(a, A, 20); // EMU-BUG(wmma-ldm)
    else
        wmma::load_matrix_sync(a, A + 8, 16); // EMU-BUG(wmma-align)
    out[threadIdx.x] = __half2float(a.x[0]);
}

extern "C" int emut_bug_wmma_layout(const uint16_t *A, const uint16_t *B, float *row_max) {
    return SDPA_LAUNCH(acc_by_position, 1, 32, 0, 0, (const __half *)A, (const __half *)B, row_max);
}
extern "C" int emut_bug_wmma_args(const uint16_t *A, float *out, int mode) {
    return SDPA_LAUNCH(bad_args, 1, 32, 0, 0, (const __half *)A, out, mode);
}
