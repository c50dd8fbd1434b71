// simt_intrinsics.h: the device-only intrinsics that cuda_fp16.h / cuda_runtime.h do not provide
// when compiled for the host (the host ones - __float2half_rn, __half2float, __hmax, __hadd2,
// __float22half2_rn, ... - come from the toolkit unchanged). Anything missing here is a compile
// error ("use of undeclared identifier"), never a silent no-op.
//
// Numerics: fast-math intrinsics (__expf, __fdividef, hexp2, ...) are computed with libm in
// float; the GPU's approximations (ex2.approx) differ in the last bits, so tests compare with
// tolerances (README, "What it cannot catch").
#pragma once

#include <math.h>
#include <stdint.h>
#include <string.h>

// ---- float ----------------------------------------------------------------------------------------
// glibc's math.h declares __expf, __logf, ... as internal names that libm does not export, so
// these are object-like macros naming the emulator's functions.
namespace simt::intr {
inline float expf_(float x) { return expf(x); }
inline float exp10f_(float x) { return exp10f(x); }
inline float logf_(float x) { return logf(x); }
inline float log2f_(float x) { return log2f(x); }
inline float log10f_(float x) { return log10f(x); }
inline float powf_(float x, float y) { return powf(x, y); }
inline float sinf_(float x) { return sinf(x); }
inline float cosf_(float x) { return cosf(x); }
inline float tanf_(float x) { return tanf(x); }
} // namespace simt::intr
#define __expf ::simt::intr::expf_
#define __exp10f ::simt::intr::exp10f_
#define __logf ::simt::intr::logf_
#define __log2f ::simt::intr::log2f_
#define __log10f ::simt::intr::log10f_
#define __powf ::simt::intr::powf_
#define __sinf ::simt::intr::sinf_
#define __cosf ::simt::intr::cosf_
#define __tanf ::simt::intr::tanf_
static inline float __fdividef(float x, float y) { return x / y; }
static inline float __frcp_rn(float x) { return 1.0f / x; }
static inline float __fsqrt_rn(float x) { return sqrtf(x); }
static inline float __frsqrt_rn(float x) { return 1.0f / sqrtf(x); }
static inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
static inline float __fadd_rn(float x, float y) { return x + y; }
static inline float __fsub_rn(float x, float y) { return x - y; }
static inline float __fmul_rn(float x, float y) { return x * y; }
static inline float __fdiv_rn(float x, float y) { return x / y; }
static inline float __fmaf_rn(float x, float y, float z) { return fmaf(x, y, z); }
static inline float __saturatef(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; } // NaN -> 0

static inline int __float2int_rn(float x) { return (int)nearbyintf(x); }
static inline int __float2int_rz(float x) { return (int)x; }
static inline int __float2int_rd(float x) { return (int)floorf(x); }
static inline int __float2int_ru(float x) { return (int)ceilf(x); }
static inline unsigned __float2uint_rn(float x) { return (unsigned)nearbyintf(x); }
static inline float __int2float_rn(int x) { return (float)x; }
static inline float __uint2float_rn(unsigned x) { return (float)x; }

template <class To, class From> static inline To simt_bit_cast(From v) {
    static_assert(sizeof(To) == sizeof(From), "simt_bit_cast: sizes differ");
    To r;
    memcpy(&r, &v, sizeof r);
    return r;
}
static inline float __int_as_float(int x) { return simt_bit_cast<float>(x); }
static inline int __float_as_int(float x) { return simt_bit_cast<int>(x); }
static inline float __uint_as_float(unsigned x) { return simt_bit_cast<float>(x); }
static inline unsigned __float_as_uint(float x) { return simt_bit_cast<unsigned>(x); }
static inline double __longlong_as_double(long long x) { return simt_bit_cast<double>(x); }
static inline long long __double_as_longlong(double x) { return simt_bit_cast<long long>(x); }

// ---- integer --------------------------------------------------------------------------------------
static inline int __popc(unsigned x) { return __builtin_popcount(x); }
static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static inline int __clz(int x) { return x ? __builtin_clz((unsigned)x) : 32; }
static inline int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
static inline int __ffs(int x) { return __builtin_ffs(x); }
static inline int __ffsll(long long x) { return __builtin_ffsll(x); }
static inline unsigned __brev(unsigned x) { return __builtin_bitreverse32(x); }
static inline unsigned long long __brevll(unsigned long long x) { return __builtin_bitreverse64(x); }
static inline int __mul24(int x, int y) { return (int)((x << 8 >> 8) * (y << 8 >> 8)); }
static inline unsigned __umul24(unsigned x, unsigned y) { return (x & 0xffffffu) * (y & 0xffffffu); }
static inline int __mulhi(int x, int y) { return (int)(((long long)x * y) >> 32); }
static inline unsigned __umulhi(unsigned x, unsigned y) {
    return (unsigned)(((unsigned long long)x * y) >> 32);
}
static inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
    uint64_t v = ((uint64_t)y << 32) | x;
    unsigned r = 0;
    for (int i = 0; i < 4; i++) r |= (unsigned)((v >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
    return r;
}

// min/max: CUDA declares these overloads for device (and host) code.
#define SIMT_MINMAX(T)                                                                                       \
    static inline T min(T a, T b) { return b < a ? b : a; }                                                  \
    static inline T max(T a, T b) { return a < b ? b : a; }
SIMT_MINMAX(int)
SIMT_MINMAX(unsigned)
SIMT_MINMAX(long long)
SIMT_MINMAX(unsigned long long)
#undef SIMT_MINMAX
static inline float min(float a, float b) { return fminf(a, b); }
static inline float max(float a, float b) { return fmaxf(a, b); }
static inline double min(double a, double b) { return fmin(a, b); }
static inline double max(double a, double b) { return fmax(a, b); }

// ---- half -----------------------------------------------------------------------------------------
// Computed in double and rounded once to half (a*b is exact in double).
static inline __half __hfma(__half a, __half b, __half c) {
    return __double2half(fma((double)__half2float(a), (double)__half2float(b), (double)__half2float(c)));
}
static inline __half2 __hfma2(__half2 a, __half2 b, __half2 c) {
    return __halves2half2(__hfma(__low2half(a), __low2half(b), __low2half(c)),
                          __hfma(__high2half(a), __high2half(b), __high2half(c)));
}
#define SIMT_HALF_UNARY(name, name2, expr)                                                                   \
    static inline __half name(__half h) {                                                                    \
        float x = __half2float(h);                                                                           \
        return __float2half_rn(expr);                                                                        \
    }                                                                                                        \
    static inline __half2 name2(__half2 h) {                                                                 \
        return __halves2half2(name(__low2half(h)), name(__high2half(h)));                                    \
    }
SIMT_HALF_UNARY(hexp, h2exp, expf(x))
SIMT_HALF_UNARY(hexp2, h2exp2, exp2f(x))
SIMT_HALF_UNARY(hexp10, h2exp10, exp10f(x))
SIMT_HALF_UNARY(hlog, h2log, logf(x))
SIMT_HALF_UNARY(hlog2, h2log2, log2f(x))
SIMT_HALF_UNARY(hsqrt, h2sqrt, sqrtf(x))
SIMT_HALF_UNARY(hrsqrt, h2rsqrt, 1.0f / sqrtf(x))
SIMT_HALF_UNARY(hrcp, h2rcp, 1.0f / x)
#undef SIMT_HALF_UNARY

// ---- memory ---------------------------------------------------------------------------------------
template <class T> static inline T __ldg(const T *p) { return *p; }
template <class T> static inline T __ldcg(const T *p) { return *p; }
template <class T> static inline T __ldca(const T *p) { return *p; }
template <class T> static inline T __ldcs(const T *p) { return *p; }
template <class T> static inline void __stcg(T *p, T v) { *p = v; }
template <class T> static inline void __stcs(T *p, T v) { *p = v; }

// Blocks run one at a time and threads switch only at rendezvous points, so fences have nothing
// to order here (README: inter-block ordering is outside what the emulator checks).
static inline void __threadfence() {}
static inline void __threadfence_block() {}
static inline void __threadfence_system() {}

// ---- atomics (sequentially consistent; visible to ThreadSanitizer as atomics) ---------------------
template <class T> static inline T atomicAdd(T *p, T v) {
    if constexpr (__is_integral(T)) {
        return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
    } else {
        T old = __atomic_load_n(p, __ATOMIC_SEQ_CST);
        while (
            !__atomic_compare_exchange_n(p, &old, (T)(old + v), false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {}
        return old;
    }
}
template <class T> static inline T atomicSub(T *p, T v) { return __atomic_fetch_sub(p, v, __ATOMIC_SEQ_CST); }
template <class T> static inline T atomicExch(T *p, T v) {
    return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);
}
template <class T> static inline T atomicAnd(T *p, T v) { return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST); }
template <class T> static inline T atomicOr(T *p, T v) { return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); }
template <class T> static inline T atomicXor(T *p, T v) { return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST); }
template <class T> static inline T atomicCAS(T *p, T expected, T desired) {
    __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return expected;
}
template <class T> static inline T atomicMax(T *p, T v) {
    T old = __atomic_load_n(p, __ATOMIC_SEQ_CST);
    while (old < v && !__atomic_compare_exchange_n(p, &old, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {}
    return old;
}
template <class T> static inline T atomicMin(T *p, T v) {
    T old = __atomic_load_n(p, __ATOMIC_SEQ_CST);
    while (v < old && !__atomic_compare_exchange_n(p, &old, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {}
    return old;
}
