// simt_wmma.h: nvcuda::wmma for the emulator (included by kernels/emu/include/mma.h).
//
// Only the m16n16k16 shape with __half A/B and float or __half accumulators exists here; other
// shapes and types are compile errors. load/store/mma are warp collectives of all 32 lanes: the
// lane that arrives last does the whole warp's work (so mma_sync's d may alias c). Each lane holds
// num_elements values as on the GPU (16 for A/B, 8 for accumulators), but which matrix element
// sits in which (lane, index) is the emulator's own scrambled map (rt::wmma_map): the real map is
// unspecified, so code that reads fragment elements by position fails here, while element-wise
// operations (scaling, conversion between accumulator types) keep working.
#pragma once

#include <type_traits>

#include "simt_rt.h"

namespace nvcuda {
namespace wmma {

struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };

template <class Use, int m, int n, int k, class T, class Layout = void> class fragment {
    static_assert(m == 16 && n == 16 && k == 16, "simt: only the m16n16k16 WMMA shape is emulated");
    static_assert(std::is_same_v<Use, accumulator>
                      ? (std::is_same_v<T, float> || std::is_same_v<T, __half>)&&std::is_void_v<Layout>
                      : std::is_same_v<T, __half> &&
                            (std::is_same_v<Layout, row_major> || std::is_same_v<Layout, col_major>),
                  "simt: emulated fragments: matrix_a/matrix_b of __half (row_major or col_major), "
                  "accumulator of float or __half");

  public:
    static constexpr int num_elements = std::is_same_v<Use, accumulator> ? 8 : 16;
    static constexpr int num_storage_elements = num_elements;
    typedef Use use;
    typedef T element_type;
    typedef T storage_element_type;
    alignas(8) T x[num_elements];
};

namespace detail {

template <class T> struct ident { typedef T type; };
template <class Use> constexpr ::simt::rt::WmmaUse use_of() {
    if constexpr (std::is_same_v<Use, matrix_a>)
        return ::simt::rt::WMMA_A;
    else if constexpr (std::is_same_v<Use, matrix_b>)
        return ::simt::rt::WMMA_B;
    else
        return ::simt::rt::WMMA_ACC;
}
inline float to_float(float v) { return v; }
inline float to_float(__half v) { return __half2float(v); }
template <class T> inline T from_float(float v) {
    if constexpr (std::is_same_v<T, float>)
        return v;
    else
        return __float2half_rn(v);
}

// mma_sync's satf: NaN -> 0, infinities and overflows -> the largest finite value of T.
template <class T> inline float saturate_finite(float v) {
    const float big = std::is_same_v<T, float> ? 3.40282347e38f : 65504.0f;
    return isnan(v) ? 0.0f : fminf(fmaxf(v, -big), big);
}

// Visits every (lane, index) slot of a warp's fragments with its matrix element's offset in a
// 16x16 matrix stored row-major (r * ldm + c) or column-major (c * ldm + r).
template <class F, class Fn>
inline void for_each_slot(const ::simt::rt::Gather &g, bool row, unsigned ldm, Fn fn) {
    constexpr int per = F::num_elements;
    const uint8_t *map = ::simt::rt::wmma_map(use_of<typename F::use>());
    for (int lane = 0; lane < 32; lane++) {
        F *f = static_cast<F *>(g.arg[lane]);
        for (int i = 0; i < per; i++) {
            unsigned e = map[lane * per + i], r = e >> 4, c = e & 15;
            fn(f->x[i], row ? r * ldm + c : c * ldm + r);
        }
    }
}

// The completions run in the lane that arrived last but act for every lane: ThreadSanitizer ignores
// what they do themselves (they touch the other lanes' fragments), and each element of memory is
// announced as the access of the lane whose fragment slot holds it (the collectives are per_lane:
// CUDA orders nothing between the lanes of a WMMA load or store; elements another lane stored need a
// __syncwarp or a barrier first).
struct IgnoreTsan {
    IgnoreTsan() { ::simt::rt::tsan_ignore(true); }
    ~IgnoreTsan() { ::simt::rt::tsan_ignore(false); }
};
#if defined(SIMT_TSAN)
template <class F>
inline void announce(const ::simt::rt::Gather &g, const void *p, bool row, unsigned ldm, bool write) {
    typedef typename F::element_type T;
    for (int lane = 0; lane < 32; lane++) {
        const uint8_t *map = ::simt::rt::wmma_map(use_of<typename F::use>());
        for (int i = 0; i < F::num_elements; i++) {
            const unsigned e = map[lane * F::num_elements + i], r = e >> 4, c = e & 15;
            ::simt::rt::access_as_lane(lane, static_cast<const T *>(p) + (row ? r * ldm + c : c * ldm + r),
                                       sizeof(T), write);
        }
    }
    (void)g;
}
#else
template <class F> inline void announce(const ::simt::rt::Gather &, const void *, bool, unsigned, bool) {}
#endif

// key[0] = pointer, key[1] = ldm, key[2] = 1 for row-major memory.
template <class F> void load_complete(const ::simt::rt::Gather &g) {
    const auto *p = reinterpret_cast<const typename F::element_type *>(g.key[0]);
    announce<F>(g, p, g.key[2] != 0, (unsigned)g.key[1], false);
    IgnoreTsan ignore;
    for_each_slot<F>(g, g.key[2] != 0, (unsigned)g.key[1], [p](auto &x, unsigned off) { x = p[off]; });
}
template <class F> void store_complete(const ::simt::rt::Gather &g) {
    auto *p = reinterpret_cast<typename F::element_type *>(g.key[0]);
    announce<F>(g, p, g.key[2] != 0, (unsigned)g.key[1], true);
    IgnoreTsan ignore;
    for_each_slot<F>(g, g.key[2] != 0, (unsigned)g.key[1], [p](auto &x, unsigned off) { p[off] = x; });
}

template <class FD, class FA, class FB, class FC> struct MmaArgs {
    FD *d;
    const FA *a;
    const FB *b;
    const FC *c;
};
// Gathers one operand of the whole warp into a row-major 16x16 float matrix.
template <class F, class Get> inline void gather(const ::simt::rt::Gather &g, float *m, Get get) {
    constexpr int per = F::num_elements;
    const uint8_t *map = ::simt::rt::wmma_map(use_of<typename F::use>());
    for (int lane = 0; lane < 32; lane++) {
        const F *f = get(g.arg[lane]);
        for (int i = 0; i < per; i++) m[map[lane * per + i]] = to_float(f->x[i]);
    }
}
// D = A * B + C in float, k in order; half results are rounded once at the end. key[0] = satf.
template <class FD, class FA, class FB, class FC> void mma_complete(const ::simt::rt::Gather &g) {
    IgnoreTsan ignore; // registers only: the lanes' fragments
    typedef MmaArgs<FD, FA, FB, FC> Args;
    float a[256], b[256], c[256];
    gather<FA>(g, a, [](void *p) { return static_cast<Args *>(p)->a; });
    gather<FB>(g, b, [](void *p) { return static_cast<Args *>(p)->b; });
    gather<FC>(g, c, [](void *p) { return static_cast<Args *>(p)->c; });
    for (int r = 0; r < 16; r++)
        for (int col = 0; col < 16; col++) {
            float acc = c[r * 16 + col];
            for (int k = 0; k < 16; k++) acc += a[r * 16 + k] * b[k * 16 + col];
            if (g.key[0]) acc = saturate_finite<typename FD::element_type>(acc);
            c[r * 16 + col] = acc; // c is complete in registers: safe to overwrite
        }
    constexpr int per = FD::num_elements;
    const uint8_t *map = ::simt::rt::wmma_map(::simt::rt::WMMA_ACC);
    for (int lane = 0; lane < 32; lane++) {
        FD *d = static_cast<Args *>(g.arg[lane])->d;
        for (int i = 0; i < per; i++) d->x[i] = from_float<typename FD::element_type>(c[map[lane * per + i]]);
    }
}

} // namespace detail

template <class Use, int m, int n, int k, class T, class L>
inline void fill_fragment(fragment<Use, m, n, k, T, L> &f, const typename detail::ident<T>::type &v) {
    for (int i = 0; i < f.num_elements; i++) f.x[i] = v;
}

// matrix_a / matrix_b: the layout is part of the fragment type.
template <class Use, class T, class L>
inline void load_matrix_sync_at(::simt::rt::Site at, fragment<Use, 16, 16, 16, T, L> &f, const T *p,
                                unsigned ldm) {
    typedef fragment<Use, 16, 16, 16, T, L> F;
    static const ::simt::rt::CollOp op{"wmma::load_matrix_sync", &detail::load_complete<F>, true};
    ::simt::rt::wmma_check(at, op.name, p, ldm, sizeof(T));
    ::simt::rt::warp_collective(op, at, 0xffffffffu, &f, (uintptr_t)p, ldm, std::is_same_v<L, row_major>);
}
// accumulator: the memory layout is an argument.
template <class T>
inline void load_matrix_sync_at(::simt::rt::Site at, fragment<accumulator, 16, 16, 16, T> &f, const T *p,
                                unsigned ldm, layout_t layout) {
    typedef fragment<accumulator, 16, 16, 16, T> F;
    static const ::simt::rt::CollOp op{"wmma::load_matrix_sync", &detail::load_complete<F>, true};
    ::simt::rt::wmma_check(at, op.name, p, ldm, sizeof(T));
    ::simt::rt::warp_collective(op, at, 0xffffffffu, &f, (uintptr_t)p, ldm, layout == mem_row_major);
}
template <class T>
inline void store_matrix_sync_at(::simt::rt::Site at, T *p, const fragment<accumulator, 16, 16, 16, T> &f,
                                 unsigned ldm, layout_t layout) {
    typedef fragment<accumulator, 16, 16, 16, T> F;
    static const ::simt::rt::CollOp op{"wmma::store_matrix_sync", &detail::store_complete<F>, true};
    ::simt::rt::wmma_check(at, op.name, p, ldm, sizeof(T));
    ::simt::rt::warp_collective(op, at, 0xffffffffu, const_cast<F *>(&f), (uintptr_t)p, ldm,
                                layout == mem_row_major);
}
template <class TD, class LA, class LB, class TC>
inline void mma_sync_at(::simt::rt::Site at, fragment<accumulator, 16, 16, 16, TD> &d,
                        const fragment<matrix_a, 16, 16, 16, __half, LA> &a,
                        const fragment<matrix_b, 16, 16, 16, __half, LB> &b,
                        const fragment<accumulator, 16, 16, 16, TC> &c, bool satf = false) {
    typedef fragment<accumulator, 16, 16, 16, TD> FD;
    typedef fragment<matrix_a, 16, 16, 16, __half, LA> FA;
    typedef fragment<matrix_b, 16, 16, 16, __half, LB> FB;
    typedef fragment<accumulator, 16, 16, 16, TC> FC;
    static const ::simt::rt::CollOp op{"wmma::mma_sync", &detail::mma_complete<FD, FA, FB, FC>, true};
    detail::MmaArgs<FD, FA, FB, FC> args{&d, &a, &b, &c};
    ::simt::rt::warp_collective(op, at, 0xffffffffu, &args, satf);
}

} // namespace wmma
} // namespace nvcuda

// The collectives record the caller's line; `wmma::load_matrix_sync(...)` stays valid source.
#define load_matrix_sync(...) load_matrix_sync_at(SIMT_HERE, __VA_ARGS__)
#define store_matrix_sync(...) store_matrix_sync_at(SIMT_HERE, __VA_ARGS__)
#define mma_sync(...) mma_sync_at(SIMT_HERE, __VA_ARGS__)
