// The CUDA counterpart of test_kernels.c for the test build of sdpa-bench: one naive kernel (one
// thread per query row) behind every row of kernels/variants.def. It makes the test binary link
// the real CUDA backend, and on a machine with a GPU it exercises that backend end to end
// (allocation, copies, checked launches, timed samples) on a kernel whose correctness is obvious.
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "sdpa_api.h"

#define TA_FN static __device__ __forceinline__
__device__ __forceinline__ float ta_unit(sdpa_codec_t codec, uint8_t code) {
    return codec == SDPA_CODEC_E4M3
               ? __half2float(__half(__nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)code, __NV_E4M3)))
               : (float)((int)code - 128);
}
#define TA_UNIT(codec, code) ta_unit((codec), (code))
#define TA_ROUND(x) __half2float(__float2half_rn(x))
#define TA_HALF_BITS(x) __half_as_ushort(__float2half_rn(x))
#include "test_attention.h"

namespace {

__global__ void naive_attention(sdpa_args_t a, int p16) {
    const int b = blockIdx.z, h = blockIdx.y, i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= a.S) return;
    const size_t S = (size_t)a.S, D = TA_D, base = ((size_t)b * (size_t)a.H + (size_t)h) * S * D;
    const float sq = ta_step(a.codec, a.q_scale[h]), sk = ta_step(a.codec, a.k_scale[h]);
    ta_row(a.q + base + (size_t)i * D, a.k + base, a.v + base, a.S, a.codec, sq * sk * a.softmax_scale,
           ta_step(a.codec, a.v_scale[h]), p16, a.o + base + (size_t)i * D);
}

sdpa_status_t launch(const sdpa_args_t *a, int p16) {
    const sdpa_status_t st = sdpa_check_args(a);
    if (st != SDPA_OK) return st;
    const dim3 grid((unsigned)((a->S + 63) / 64), (unsigned)a->H, (unsigned)a->B);
    naive_attention<<<grid, 64, 0, (cudaStream_t)a->stream>>>(*a, p16);
    return cudaPeekAtLastError() == cudaSuccess ? SDPA_OK : SDPA_ERR_LAUNCH;
}

sdpa_status_t test_p32(const sdpa_args_t *a) { return launch(a, 0); }
sdpa_status_t test_p16(const sdpa_args_t *a) { return launch(a, 1); }

} // namespace

#define SDPA_VARIANT(ident, id, parent, sw, summary)                                                         \
    {id,                                                                                                     \
     parent,                                                                                                 \
     (sw),                                                                                                   \
     summary,                                                                                                \
     ((sw)&SDPA_SW(WMMA_PV)) ? test_p16 : test_p32,                                                          \
     1,                                                                                                      \
     {SDPA_GEOMETRY_OF_SWITCHES("naive_attention", (sw), 64, 0)}},
extern "C" const sdpa_kernel_entry_t sdpa_kernels_cuda[] = {
#include "variants.def"
    {nullptr, nullptr, 0, nullptr, nullptr, 0, {}},
};
#undef SDPA_VARIANT
