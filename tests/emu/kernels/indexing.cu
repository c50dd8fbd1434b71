// Grid and block indexing in 1, 2 and 3 dimensions, and dynamic shared memory (correct kernel).
#include "emu_tests.h"
#include "prims.cuh"

// Each thread writes EMUT_INDEX_OUT ints: its threadIdx, its blockIdx, the global index of the
// thread at the mirrored position of its block (exchanged through dynamic shared memory) and the
// grid and block dimensions.
__global__ void index3d(int *__restrict__ out) {
    SMEM_DYNAMIC(int, mirror);
    const int nthreads = blockDim.x * blockDim.y * blockDim.z;
    const int local = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    const int block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    const int global = block * nthreads + local;
    mirror[local] = global;
    __syncthreads();
    int *o = out + global * EMUT_INDEX_OUT;
    o[0] = threadIdx.x + 100 * threadIdx.y + 10000 * threadIdx.z;
    o[1] = blockIdx.x + 100 * blockIdx.y + 10000 * blockIdx.z;
    o[2] = mirror[nthreads - 1 - local];
    o[3] = gridDim.x + 100 * gridDim.y + 10000 * gridDim.z;
    o[4] = blockDim.x + 100 * blockDim.y + 10000 * blockDim.z;
}

extern "C" int emut_index3d(int *out, const int grid[3], const int block[3]) {
    const size_t smem = sizeof(int) * block[0] * block[1] * block[2];
    return SDPA_LAUNCH(index3d, dim3(grid[0], grid[1], grid[2]), dim3(block[0], block[1], block[2]), smem, 0,
                       out);
}

// Shared variables keep their type's alignment, also above 16 bytes (a struct with alignas(128)
// members, an __align__(32) tile), whatever small variables sit next to them.
struct Overaligned {
    alignas(128) float a[3];
    alignas(128) __half b[5];
};
__global__ void smem_alignment(unsigned *__restrict__ out) {
    __shared__ char odd[3];
    __shared__ Overaligned big;
    __shared__ __align__(32) __half tile[16][24];
    if (threadIdx.x == 0) {
        odd[0] = 1;
        out[0] = (unsigned)((uintptr_t)&big % 128);
        out[1] = (unsigned)((uintptr_t)&big.b[0] % 128);
        out[2] = (unsigned)((uintptr_t)&tile[0][0] % 32);
        out[3] = (unsigned)odd[0];
    }
}

extern "C" int emut_smem_alignment(unsigned out[4]) { return SDPA_LAUNCH(smem_alignment, 1, 32, 0, 0, out); }

// Dynamic shared memory above 48 KB: a kernel may use it only after opting in (as with the CUDA
// runtime's cudaFuncSetAttribute(MaxDynamicSharedMemorySize)). Each thread writes its slice of
// `words` and the block reads it back reversed. Two identical kernels: the opt-in is per kernel.
template <int K> __global__ void big_dynamic_smem(unsigned *__restrict__ out, int words) {
    SMEM_DYNAMIC(unsigned, s);
    for (int i = threadIdx.x; i < words; i += blockDim.x) s[i] = (unsigned)i * 3u + K;
    __syncthreads();
    for (int i = threadIdx.x; i < words; i += blockDim.x) out[i] = s[words - 1 - i];
}

extern "C" int emut_big_dynamic_smem(int kernel, size_t opt_in_bytes, size_t smem_bytes, unsigned *out) {
    const int words = (int)(smem_bytes / sizeof(unsigned));
    if (kernel == 0) {
        if (opt_in_bytes && SDPA_OPT_IN_DYNAMIC_SMEM(big_dynamic_smem<0>, opt_in_bytes) != 0) return -1;
        return SDPA_LAUNCH(big_dynamic_smem<0>, 1, 128, smem_bytes, 0, out, words);
    }
    if (opt_in_bytes && SDPA_OPT_IN_DYNAMIC_SMEM(big_dynamic_smem<1>, opt_in_bytes) != 0) return -1;
    return SDPA_LAUNCH(big_dynamic_smem<1>, 1, 128, smem_bytes, 0, out, words);
}
