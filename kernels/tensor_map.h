/* tensor_map.h: the requirements cuTensorMapEncodeTiled documents for its arguments (the CUDA
 * toolkit's cuda.h, "cuTensorMapEncodeTiled"), as one host-side check that both encoders apply:
 * prims::tma_encode_tiled before it calls the driver (a clear message naming the argument instead
 * of CUDA_ERROR_INVALID_VALUE) and the emulator's own encoder (kernels/emu/rt/tma.cpp), so that a map
 * the emulator accepts is one the driver accepts. Plain C or C++, header only. */
#ifndef SDPA_TENSOR_MAP_H
#define SDPA_TENSOR_MAP_H

#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

/* Bits per element of a data type, 0 for an unknown one. */
static inline unsigned tmap_elem_bits(int t) {
    switch (t) {
    case CU_TENSOR_MAP_DATA_TYPE_UINT8: return 8;
    case CU_TENSOR_MAP_DATA_TYPE_UINT16:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT16:
    case CU_TENSOR_MAP_DATA_TYPE_BFLOAT16: return 16;
    case CU_TENSOR_MAP_DATA_TYPE_UINT32:
    case CU_TENSOR_MAP_DATA_TYPE_INT32:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT32:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ:
    case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32:
    case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ: return 32;
    case CU_TENSOR_MAP_DATA_TYPE_UINT64:
    case CU_TENSOR_MAP_DATA_TYPE_INT64:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT64: return 64;
    case CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B:
    case CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B: return 4;
    case CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B: return 6;
    default: return 0;
    }
}

/* The widest inner box extent in bytes a swizzle mode allows (0: none). */
static inline unsigned tmap_swizzle_span(int s) {
    switch (s) {
    case CU_TENSOR_MAP_SWIZZLE_32B: return 32;
    case CU_TENSOR_MAP_SWIZZLE_64B: return 64;
    case CU_TENSOR_MAP_SWIZZLE_NONE: return 0;
    default: return 128;
    }
}

#define TMAP_FAIL(...) return (snprintf(err, errlen, __VA_ARGS__), -1)

/* 0 when the arguments meet cuTensorMapEncodeTiled's documented requirements, else -1 with a message
 * (in err) naming the argument that does not. The enumerations travel as int: a value outside an
 * enumeration is what this checks, and holding one in the enum type is undefined in C++. */
static inline int tmap_check_tiled(const CUtensorMap *map, int dtype, cuuint32_t rank, const void *gaddr,
                                   const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box,
                                   const cuuint32_t *estrides, int il, int sw, int l2, int oob, char *err,
                                   size_t errlen) {
    const unsigned bits = tmap_elem_bits(dtype);
    const int packed16 =
        dtype == CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B || dtype == CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B;
    if ((uintptr_t)map % 64) TMAP_FAIL("tensorMap %p: not 64-byte aligned", (const void *)map);
    if (!bits) TMAP_FAIL("tensorDataType %d: not a CUtensorMapDataType", dtype);
    if (il < CU_TENSOR_MAP_INTERLEAVE_NONE || il > CU_TENSOR_MAP_INTERLEAVE_32B)
        TMAP_FAIL("interleave %d: not a CUtensorMapInterleave", (int)il);
    if (sw < CU_TENSOR_MAP_SWIZZLE_NONE || sw > CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B)
        TMAP_FAIL("swizzle %d: not a CUtensorMapSwizzle", (int)sw);
    if (l2 < CU_TENSOR_MAP_L2_PROMOTION_NONE || l2 > CU_TENSOR_MAP_L2_PROMOTION_L2_256B)
        TMAP_FAIL("l2Promotion %d: not a CUtensorMapL2promotion", (int)l2);
    if (oob != CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE && oob != CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA)
        TMAP_FAIL("oobFill %d: not a CUtensorMapFloatOOBfill", (int)oob);
    if (rank < 1 || rank > 5) TMAP_FAIL("tensorRank %u: must be 1 to 5", rank);
    if (il != CU_TENSOR_MAP_INTERLEAVE_NONE && rank < 3)
        TMAP_FAIL("tensorRank %u: interleaved layouts need 3 to 5", rank);
    const uintptr_t ga = (uintptr_t)gaddr;
    if (ga % 16) TMAP_FAIL("globalAddress %p: not 16-byte aligned", gaddr);
    if ((il == CU_TENSOR_MAP_INTERLEAVE_32B || packed16) && ga % 32)
        TMAP_FAIL(
            "globalAddress %p: not 32-byte aligned (32-byte interleave or a 16-byte aligned packed type)",
            gaddr);
    for (cuuint32_t i = 0; i < rank; i++)
        if (dims[i] == 0 || dims[i] > ((cuuint64_t)1 << 32))
            TMAP_FAIL("globalDim[%u] = %llu: must be 1 to 2^32", i, (unsigned long long)dims[i]);
    if (packed16 && dims[0] % 128)
        TMAP_FAIL("globalDim[0] = %llu: a multiple of 128 for this packed type", (unsigned long long)dims[0]);
    if (dtype == CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B && dims[0] % 2)
        TMAP_FAIL("globalDim[0] = %llu: a multiple of 2 for 16U4_ALIGN8B", (unsigned long long)dims[0]);
    for (cuuint32_t i = 0; i + 1 < rank; i++) {
        if (strides[i] % 16 || strides[i] >= ((cuuint64_t)1 << 40))
            TMAP_FAIL("globalStrides[%u] = %llu: a multiple of 16 below 2^40", i,
                      (unsigned long long)strides[i]);
        if ((il == CU_TENSOR_MAP_INTERLEAVE_32B || packed16) && strides[i] % 32)
            TMAP_FAIL("globalStrides[%u] = %llu: a multiple of 32 (32-byte interleave or a 16-byte aligned "
                      "packed type)",
                      i, (unsigned long long)strides[i]);
    }
    for (cuuint32_t i = 0; i < rank; i++) {
        if (box[i] == 0 || box[i] > 256) TMAP_FAIL("boxDim[%u] = %u: must be 1 to 256", i, box[i]);
        if (estrides[i] == 0 || estrides[i] > 8)
            TMAP_FAIL("elementStrides[%u] = %u: must be 1 to 8", i, estrides[i]);
    }
    const unsigned long long inner_bits = (unsigned long long)box[0] * bits;
    if (il == CU_TENSOR_MAP_INTERLEAVE_NONE && inner_bits % 128)
        TMAP_FAIL("boxDim[0] = %u: boxDim[0] x element size must be a multiple of 16 bytes", box[0]);
    if (packed16 && box[0] != 128) TMAP_FAIL("boxDim[0] = %u: must be 128 for this packed type", box[0]);
    if (il == CU_TENSOR_MAP_INTERLEAVE_NONE && sw != CU_TENSOR_MAP_SWIZZLE_NONE &&
        inner_bits > 8ull * tmap_swizzle_span(sw))
        TMAP_FAIL("boxDim[0] = %u: the inner box extent (%llu bytes) exceeds the swizzle span (%u bytes)",
                  box[0], inner_bits / 8, tmap_swizzle_span(sw));
    if (il == CU_TENSOR_MAP_INTERLEAVE_32B && sw != CU_TENSOR_MAP_SWIZZLE_32B)
        TMAP_FAIL("swizzle %d: 32-byte interleave needs CU_TENSOR_MAP_SWIZZLE_32B", (int)sw);
    if (dtype == CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B && il != CU_TENSOR_MAP_INTERLEAVE_NONE)
        TMAP_FAIL("interleave %d: 16U6_ALIGN16B needs CU_TENSOR_MAP_INTERLEAVE_NONE", (int)il);
    if (packed16 && sw != CU_TENSOR_MAP_SWIZZLE_NONE && sw != CU_TENSOR_MAP_SWIZZLE_128B &&
        sw != CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B && sw != CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B)
        TMAP_FAIL("swizzle %d: not allowed for this packed type", (int)sw);
    const int is_float =
        dtype == CU_TENSOR_MAP_DATA_TYPE_FLOAT16 || dtype == CU_TENSOR_MAP_DATA_TYPE_FLOAT32 ||
        dtype == CU_TENSOR_MAP_DATA_TYPE_FLOAT64 || dtype == CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 ||
        dtype == CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ || dtype == CU_TENSOR_MAP_DATA_TYPE_TFLOAT32 ||
        dtype == CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ;
    if (oob == CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA && !is_float)
        TMAP_FAIL("oobFill: the NaN fill needs a floating-point tensorDataType");
    return 0;
}

#undef TMAP_FAIL

#endif
