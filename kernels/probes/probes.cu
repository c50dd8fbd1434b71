// probes.cu: the probe kernels (probes.h). Built with nvcc for sm_90a (mk/probes.mk) and for the
// emulator (the emulator's tests); the same source either way.
#include "probes.h"
#include "prims.cuh"

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

extern "C" int probe_tma_box(const CUtensorMap *map, int rank, int c0, int c1, int c2, uint8_t *out,
                             unsigned bytes) {
    if (bytes > PROBE_TMA_MAX_BYTES || (rank != 2 && rank != 3)) return -1;
    return SDPA_LAUNCH(probe_tma_box_kernel, 1, 128, 0, 0, *map, rank, c0, c1, c2, out, bytes);
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
