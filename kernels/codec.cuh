// codec.cuh: from codes to halves. Q, K and V arrive as uint8 codes with a float scale per head;
// Codec<C> decodes two codes to two exact halves (E4M3 by the hardware cvt on sm_89+, or the
// original's linear code u - 128) and gives the per-head step that the caller applies in fp32
// after the products, so no product is rounded before accumulation. Also the half2 <-> 32-bit
// word packing the other blocks use (no type punning of registers) and the 16-code chunk decode
// every fp16 load path shares.
#pragma once

#include "config.cuh"

namespace sdpa {

// ---- [stage 0] codecs: one 16-byte chunk of codes -> 16 exact halves ----------------------------
// E4M3: the OCP format (hardware cvt on sm_89+). Seed-linear: the original's linear code,
// unit u - 128 (exact in fp16); its step scale*448/127 is applied in fp32 by the caller.
template <sdpa_codec_t C> struct Codec;
template <> struct Codec<SDPA_CODEC_E4M3> {
    static __device__ __forceinline__ float step(float scale) { return scale; }
    static __device__ __forceinline__ __half2 pair(uint32_t two) {
        return prims::e4m3x2_to_half2((uint16_t)two);
    }
};
template <> struct Codec<SDPA_CODEC_SEED_LINEAR> {
    static __device__ __forceinline__ float step(float scale) { return scale * (448.0f / 127.0f); }
    static __device__ __forceinline__ __half2 pair(uint32_t two) {
        return __halves2half2(__int2half_rn((int)(two & 0xffu) - 128),
                              __int2half_rn((int)((two >> 8) & 0xffu) - 128));
    }
};

// half2 <-> 32-bit word through __half2_raw: no type punning of registers.
__device__ __forceinline__ uint32_t pack(__half2 h) {
    const __half2_raw r = h;
    return (uint32_t)r.x | ((uint32_t)r.y << 16);
}
__device__ __forceinline__ __half2 unpack(uint32_t w) {
    __half2_raw r;
    r.x = (unsigned short)(w & 0xffffu);
    r.y = (unsigned short)(w >> 16);
    return __half2(r);
}
__device__ __forceinline__ uint4 pack8(float a0, float a1, float a2, float a3, float a4, float a5, float a6,
                                       float a7) {
    return make_uint4(pack(__floats2half2_rn(a0, a1)), pack(__floats2half2_rn(a2, a3)),
                      pack(__floats2half2_rn(a4, a5)), pack(__floats2half2_rn(a6, a7)));
}

__device__ __forceinline__ float4 add4(float4 a, float4 b) {
    return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

// Decodes 16 codes and stores them as 16 halves (two 16-byte stores) at dst (16-byte aligned).
template <sdpa_codec_t C> __device__ __forceinline__ void decode_chunk(const uint4 codes, __half *dst) {
    const uint32_t w[4] = {codes.x, codes.y, codes.z, codes.w};
    uint32_t h[8];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        h[2 * i] = pack(Codec<C>::pair(w[i] & 0xffffu));
        h[2 * i + 1] = pack(Codec<C>::pair(w[i] >> 16));
    }
    uint4 *out = reinterpret_cast<uint4 *>(dst);
    out[0] = make_uint4(h[0], h[1], h[2], h[3]);
    out[1] = make_uint4(h[4], h[5], h[6], h[7]);
}

__device__ __forceinline__ void store_zero_chunk(__half *dst) {
    uint4 *out = reinterpret_cast<uint4 *>(dst);
    out[0] = make_uint4(0, 0, 0, 0);
    out[1] = make_uint4(0, 0, 0, 0);
}

} // namespace sdpa
