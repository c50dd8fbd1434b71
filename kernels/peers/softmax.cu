// softmax.cu: the row-wise softmax of the unfused cuBLAS peer (peer_softmax.h), between its two
// GEMMs. One warp per row, four warps per block; each lane walks the row with a stride of 32 three
// times (max, sum of exponentials, normalised write), so a row of any length needs no shared
// memory. The same source builds with nvcc (the CUDA backend) and for the CPU emulator, like
// kernels/stages.cu; warp reductions and the launch come from prims.cuh.
#include "peer_softmax.h"
#include "prims.cuh"

namespace {

constexpr int kWarps = 4;

__global__ void __launch_bounds__(32 * kWarps)
    softmax_rows(const __half *s, __half *p, long long rows, int cols, int ld, float scale) {
    const long long row = (long long)blockIdx.x * kWarps + threadIdx.x / 32;
    // The whole warp shares the row, so it leaves together and the reductions see all 32 lanes.
    if (row >= rows) return;
    const int lane = threadIdx.x % 32;
    const __half *in = s + row * ld;
    __half *out = p + row * ld;
    float m = -INFINITY;
    for (int j = lane; j < cols; j += 32) m = fmaxf(m, scale * __half2float(in[j]));
    m = prims::warp_max(m);
    float l = 0.0f;
    for (int j = lane; j < cols; j += 32) l += expf(scale * __half2float(in[j]) - m);
    const float inv = 1.0f / prims::warp_sum(l);
    for (int j = lane; j < cols; j += 32)
        out[j] = __float2half_rn(expf(scale * __half2float(in[j]) - m) * inv);
}

} // namespace

extern "C" sdpa_status_t SDPA_BACKEND_SYM(peer_softmax)(const peer_softmax_args_t *a) {
    if (!a || !a->s || !a->p) return SDPA_ERR_NULL;
    if (a->rows < 1 || a->cols < 1 || a->ld < a->cols) return SDPA_ERR_EMPTY;
    const long long blocks = (a->rows + kWarps - 1) / kWarps;
    if (blocks > 0x7fffffffLL) return SDPA_ERR_TOO_LARGE;
    const int rc = SDPA_LAUNCH(softmax_rows, dim3((unsigned)blocks), dim3(32 * kWarps), 0, a->stream,
                               reinterpret_cast<const __half *>(a->s), reinterpret_cast<__half *>(a->p),
                               (long long)a->rows, (int)a->cols, (int)a->ld, a->scale);
    return rc == 0 ? SDPA_OK : SDPA_LAUNCH_FAILED;
}
