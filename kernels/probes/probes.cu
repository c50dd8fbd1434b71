// probes.cu: the probe kernels (probes.h). Built with nvcc for sm_90a (mk/probes.mk) and for the
// emulator (the emulator's tests); the same source either way.
#include "probes.h"
#include "prims.cuh"
#include "exp2_poly.h"

// A launch's verdict: on CUDA, waited for (a trap or a fault shows at the synchronisation).
static int finish(int rc) {
#if !defined(SIMT_EMU)
    if (rc == 0) rc = (int)cudaDeviceSynchronize();
#endif
    return rc;
}

extern "C" const char *probe_error_name(int rc) {
#if defined(SIMT_EMU)
    return rc ? "the emulator stopped the kernel (simt_last_error)" : "no error";
#else
    return cudaGetErrorName((cudaError_t)rc);
#endif
}

// One TMA box into shared memory, dumped byte for byte.
__global__ void probe_tma_box_kernel(const __grid_constant__ CUtensorMap map, int rank, int c0, int c1,
                                     int c2, uint8_t *__restrict__ out, unsigned bytes) {
    __shared__ __align__(1024) uint8_t tile[PROBE_TMA_MAX_BYTES];
    __shared__ __align__(8) uint64_t full;
    if (threadIdx.x == 0) {
        prims::mbar_init(&full, 1);
        prims::fence_mbarrier_init();
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        prims::mbar_arrive_expect_tx(&full, bytes);
        if (rank == 2)
            prims::tma_load_2d(tile, &map, c0, c1, &full);
        else
            prims::tma_load_3d(tile, &map, c0, c1, c2, &full);
    }
    prims::mbar_wait(&full, 0);
    for (unsigned i = threadIdx.x; i < bytes; i += blockDim.x) out[i] = tile[i];
}

// ---- wgmma fragments -------------------------------------------------------------------------------------
// A K-major 8-bit tile without swizzle: 8 x 16-byte core matrices, 8-row groups 128 bytes apart (SBO),
// the two 16-byte k-chunks rows x 16 bytes apart (LBO).
__device__ inline unsigned probe_kmajor(int r, int k, int rows) {
    return (unsigned)((r % 8) * 16 + (r / 8) * 128 + (k / 16) * rows * 16 + k % 16);
}
__device__ inline uint8_t probe_code(float v) { return (uint8_t)(prims::pack_e4m3x2(v, 0.0f) & 0xff); }

// SS, N = 256: A[m][k] and B[n][k] chosen so that D[m][n] = m + 64 n exactly (products of small powers of
// two times 0..7): k 0, 1: (m % 8, m / 8) x (1, 8); k 2, 3, 4: (1, 8, 64) x (64 (n % 8), 64 ((n / 8) % 8),
// 64 (n / 64)). out[128 t + i] = accumulator register i of thread t.
__global__ void __launch_bounds__(128) probe_wgmma_acc_kernel(float *__restrict__ out) {
    SMEM_DYNAMIC(uint8_t, sm);
    uint8_t *sA = sm, *sB = sm + 64 * 32;
    const int t = threadIdx.x;
    for (int i = t; i < 64 * 32; i += 128) {
        const int m = i / 32, k = i % 32;
        const float v = k == 0   ? (float)(m % 8)
                        : k == 1 ? (float)(m / 8)
                        : k == 2 ? 1.0f
                        : k == 3 ? 8.0f
                        : k == 4 ? 64.0f
                                 : 0.0f;
        sA[probe_kmajor(m, k, 64)] = probe_code(v);
    }
    for (int i = t; i < 256 * 32; i += 128) {
        const int n = i / 32, k = i % 32;
        const float v = k == 0   ? 1.0f
                        : k == 1 ? 8.0f
                        : k == 2 ? 64.0f * (n % 8)
                        : k == 3 ? 64.0f * ((n / 8) % 8)
                        : k == 4 ? 64.0f * (n / 64)
                                 : 0.0f;
        sB[probe_kmajor(n, k, 256)] = probe_code(v);
    }
    prims::fence_proxy_async();
    __syncthreads();
    float d[128];
    prims::wgmma_fence();
    prims::wgmma_ss(d, prims::wgmma_desc(sA, 64 * 16, 128, 0), prims::wgmma_desc(sB, 256 * 16, 128, 0),
                    false);
    prims::wgmma_commit();
    prims::wgmma_wait<0>(d);
    for (int i = 0; i < 128; i++) out[128 * t + i] = d[i];
}

// RS, N = 32: B[n][k] = (n == k), so D[m][n] = A[m][n]; A comes from registers whose byte i of thread t
// holds the value `what` selects: 0: i, 1: t % 8, 2: t / 8. out[16 t + i] = accumulator register i.
__global__ void __launch_bounds__(128) probe_wgmma_a_kernel(int what, float *__restrict__ out) {
    SMEM_DYNAMIC(uint8_t, sB);
    const int t = threadIdx.x;
    for (int i = t; i < 32 * 32; i += 128)
        sB[probe_kmajor(i / 32, i % 32, 32)] = probe_code(i / 32 == i % 32 ? 1.0f : 0.0f);
    prims::fence_proxy_async();
    __syncthreads();
    uint32_t a[4];
    for (int r = 0; r < 4; r++) {
        a[r] = 0;
        for (int b = 0; b < 4; b++) {
            const int i = 4 * r + b;
            a[r] |= (uint32_t)probe_code((float)(what == 0 ? i : what == 1 ? t % 8 : t / 8)) << (8 * b);
        }
    }
    float d[16];
    prims::wgmma_fence();
    prims::wgmma_rs(d, a, prims::wgmma_desc(sB, 32 * 16, 128, 0), false);
    prims::wgmma_commit();
    prims::wgmma_wait<0>(d);
    for (int i = 0; i < 16; i++) out[16 * t + i] = d[i];
}

// The descriptor's address function: a 16 KB shared region whose byte x holds nibble `nibble` of x
// (x >> 4 nibble) & 15; A is read through the descriptor (start, LBO, SBO, swizzle) and B selects
// columns (B[n][k] = (n == k), N = 32), so D[m][k] = the nibble of the address A's (m, k) came from.
// out[32 m + k] = D[m][k] (placed by the accumulator layout).
__global__ void __launch_bounds__(128)
    probe_wgmma_desc_kernel(unsigned start, unsigned lbo, unsigned sbo, unsigned swizzle, int nibble,
                            float *__restrict__ out) {
    SMEM_DYNAMIC(uint8_t, sm);
    uint8_t *sB = sm + 16384;
    const int t = threadIdx.x;
    for (int x = t; x < 16384; x += 128) sm[x] = probe_code((float)((x >> (4 * nibble)) & 15));
    for (int i = t; i < 32 * 32; i += 128)
        sB[probe_kmajor(i / 32, i % 32, 32)] = probe_code(i / 32 == i % 32 ? 1.0f : 0.0f);
    prims::fence_proxy_async();
    __syncthreads();
    const uint64_t da = prims::wgmma_desc_fields(prims::smem_address(sm) + start, lbo, sbo, swizzle);
    float d[16];
    prims::wgmma_fence();
    prims::wgmma_ss(d, da, prims::wgmma_desc(sB, 32 * 16, 128, 0), false);
    prims::wgmma_commit();
    prims::wgmma_wait<0>(d);
    for (int i = 0; i < 16; i++) out[32 * wg_acc_row(t, i) + wg_acc_col(t, i)] = d[i];
}

extern "C" int probe_wgmma_acc(float *out) {
    return SDPA_LAUNCH(probe_wgmma_acc_kernel, 1, 128, 64 * 32 + 256 * 32, 0, out);
}
extern "C" int probe_wgmma_a(int what, float *out) {
    return SDPA_LAUNCH(probe_wgmma_a_kernel, 1, 128, 32 * 32, 0, what, out);
}
extern "C" int probe_wgmma_desc(unsigned start, unsigned lbo, unsigned sbo, unsigned swizzle, int nibble,
                                float *out) {
    return SDPA_LAUNCH(probe_wgmma_desc_kernel, 1, 128, 16384 + 32 * 32, 0, start, lbo, sbo, swizzle, nibble,
                       out);
}

extern "C" int probe_tma_box(const CUtensorMap *map, int rank, int c0, int c1, int c2, uint8_t *out,
                             unsigned bytes) {
    if (bytes > PROBE_TMA_MAX_BYTES || (rank != 2 && rank != 3)) return -1;
    return finish(SDPA_LAUNCH(probe_tma_box_kernel, 1, 128, 0, 0, *map, rank, c0, c1, c2, out, bytes));
}

// Stage 7g's exponential, one element per thread.
__global__ void probe_exp2_poly_kernel(const float *__restrict__ x, float *__restrict__ y, unsigned n) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = exp2_poly(x[i]);
}
extern "C" int probe_exp2_poly(const float *x, float *y, unsigned n) {
    return finish(SDPA_LAUNCH(probe_exp2_poly_kernel, (n + 255) / 256, 256, 0, 0, x, y, n));
}

// Stage 7h's flushed exponential beside __expf, and the e4m3 codes the kernels make of 448 times each.
__global__ void probe_exp_ftz_kernel(const float *__restrict__ x, uint32_t *__restrict__ out, unsigned n) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float plain = __expf(x[i]), flushed = prims::expf_ftz(x[i]);
        out[3 * i] = __float_as_uint(plain);
        out[3 * i + 1] = __float_as_uint(flushed);
        out[3 * i + 2] = prims::pack_e4m3x2(448.0f * plain, 448.0f * flushed);
    }
}
extern "C" int probe_exp_ftz(const float *x, uint32_t *out, unsigned n) {
    return finish(SDPA_LAUNCH(probe_exp_ftz_kernel, (n + 255) / 256, 256, 0, 0, x, out, n));
}

// Stage 7k's stmatrix.x4 (probes.h): its first run on hardware in this project.
__global__ void __launch_bounds__(32) probe_stmatrix_kernel(uint16_t *__restrict__ out) {
    __shared__ __align__(128) uint16_t tile[256];
    const unsigned l = threadIdx.x;
    for (unsigned k = l; k < 256; k += 32) tile[k] = 0;
    __syncwarp();
    uint32_t r[4];
    for (unsigned m = 0; m < 4; m++) r[m] = PROBE_STSM_CODE(l, m, 0) | PROBE_STSM_CODE(l, m, 1) << 16;
    prims::stmatrix<4>(reinterpret_cast<uint8_t *>(tile) + PROBE_STSM_ROW(l / 8, l % 8), r);
    __syncwarp();
    for (unsigned k = l; k < 256; k += 32) out[k] = tile[k];
}
extern "C" int probe_stmatrix(uint16_t *out) {
    return finish(SDPA_LAUNCH(probe_stmatrix_kernel, 1, 32, 0, 0, out));
}

// Where stage 7's dynamic shared memory starts (probes.h): declared as mainloops.cuh's (no static
// shared memory), read with the kernels' own smem_address, unchecked.
__global__ void __launch_bounds__(32) probe_smem_base_kernel(uint32_t *__restrict__ out) {
    SMEM_DYNAMIC_ALIGNED(unsigned char, raw_base, 1024);
    if (threadIdx.x == 0) *out = prims::smem_address(raw_base);
}
extern "C" int probe_smem_base(unsigned bytes, uint32_t *out) {
    const int e = bytes > 48 * 1024 ? SDPA_OPT_IN_DYNAMIC_SMEM(probe_smem_base_kernel, bytes) : 0;
    if (e) return e;
    return finish(SDPA_LAUNCH(probe_smem_base_kernel, 1, 32, bytes, 0, out));
}

extern "C" int probe_tma_unaligned(void) {
    const cuuint64_t dims[2] = {64, 16}, strides[1] = {64 * 2};
    const cuuint32_t box[2] = {16, 8};
    static CUtensorMap map;
    char err[256];
    void *g = probe_alloc(64 * 16 * 2), *out = probe_alloc(16 * 8 * 2);
    int rc = -1;
    if (g && out &&
        prims::tma_encode_tiled(&map, CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, g, dims, strides, box,
                                CU_TENSOR_MAP_SWIZZLE_NONE, err, sizeof err) == 0)
        rc = probe_tma_box(&map, 2, PROBE_UNALIGNED_X, 0, 0, (uint8_t *)out, 16 * 8 * 2);
    probe_free(g), probe_free(out);
    return rc;
}

extern "C" int probe_encode_tiled(CUtensorMap *map, int dtype, unsigned rank, const void *gaddr,
                                  const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box,
                                  int swizzle, char *err, size_t errlen) {
    const cuuint32_t ones[5] = {1, 1, 1, 1, 1};
    if (tmap_check_tiled(map, dtype, rank, gaddr, dims, strides, box, ones, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, err,
                         errlen))
        return -1;
    return prims::tma_encode_tiled(map, (CUtensorMapDataType)dtype, rank, gaddr, dims, strides, box,
                                   (CUtensorMapSwizzle)swizzle, err, errlen);
}

extern "C" const char *probe_device(char *name, size_t n, int *major, int *minor, char *err, size_t errlen) {
#if defined(SIMT_EMU)
    (void)err, (void)errlen;
    snprintf(name, n, "CPU SIMT emulator (models sm_90a)");
    *major = 9, *minor = 0;
    return "emulator";
#else
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        snprintf(err, errlen, "no CUDA device (%s)", e != cudaSuccess ? cudaGetErrorString(e) : "none found");
        return nullptr;
    }
    cudaDeviceProp p;
    if ((e = cudaGetDeviceProperties(&p, 0)) != cudaSuccess) {
        snprintf(err, errlen, "cudaGetDeviceProperties: %s", cudaGetErrorString(e));
        return nullptr;
    }
    snprintf(name, n, "%s", p.name);
    *major = p.major, *minor = p.minor;
    return "cuda";
#endif
}

// Buffers the probes read and write: device memory on CUDA, 256-byte aligned host memory here.
extern "C" void *probe_alloc(size_t n) {
    void *p = nullptr;
#if defined(SIMT_EMU)
    p = aligned_alloc(256, (n + 255) / 256 * 256);
#else
    if (cudaMalloc(&p, n) != cudaSuccess) p = nullptr;
#endif
    return p;
}
extern "C" void probe_free(void *p) {
#if defined(SIMT_EMU)
    free(p);
#else
    cudaFree(p);
#endif
}
extern "C" int probe_put(void *dst, const void *src, size_t n) {
#if defined(SIMT_EMU)
    memcpy(dst, src, n);
    return 0;
#else
    return (int)cudaMemcpy(dst, src, n, cudaMemcpyHostToDevice);
#endif
}
extern "C" int probe_get(void *dst, const void *src, size_t n) {
#if defined(SIMT_EMU)
    memcpy(dst, src, n);
    return 0;
#else
    return (int)cudaMemcpy(dst, src, n, cudaMemcpyDeviceToHost);
#endif
}
