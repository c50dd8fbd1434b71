// simt_sync.h: block barriers and warp collectives (__syncthreads*, __syncwarp, __shfl*_sync,
// votes, __reduce_*_sync). Each is a macro that records the caller's file and line, so a fault
// names the kernel line (for calls made inside a helper function, the helper's line).
#pragma once

#include <string.h>
#include <type_traits>

namespace simt {

// Types a shuffle may carry: what CUDA declares __shfl*_sync for, plus __half and __half2.
template <class T>
inline constexpr bool shfl_type_ok =
    std::is_same_v<T, int> || std::is_same_v<T, unsigned> || std::is_same_v<T, long> ||
    std::is_same_v<T, unsigned long> || std::is_same_v<T, long long> ||
    std::is_same_v<T, unsigned long long> || std::is_same_v<T, float> || std::is_same_v<T, double> ||
    std::is_same_v<T, __half> || std::is_same_v<T, __half2>;

template <class T> inline T shfl(rt::Site at, unsigned mask, T v, rt::ShflMode mode, int b, int width = 32) {
    static_assert(shfl_type_ok<T>, "simt: __shfl*_sync supports int, unsigned, (unsigned) long (long), "
                                   "float, double, __half and __half2");
    uint64_t bits = 0;
    memcpy(&bits, &v, sizeof v);
    bits = rt::shfl(at, mask, bits, mode, b, width);
    memcpy(&v, &bits, sizeof v);
    return v;
}

template <class T> inline T reduce(rt::Site at, unsigned mask, T v, rt::ReduceOp op) {
    static_assert(std::is_same_v<T, int> || std::is_same_v<T, unsigned>,
                  "simt: __reduce_*_sync takes int or unsigned");
    return (T)rt::reduce(at, mask, (uint32_t)v, op, std::is_same_v<T, int>);
}

} // namespace simt

#define __syncthreads() ((void)::simt::rt::block_barrier(SIMT_HERE, 0))
#define __syncthreads_count(p) ((int)::simt::rt::block_barrier(SIMT_HERE, (p) != 0))
#define __syncthreads_and(p) ((int)(::simt::rt::block_barrier(SIMT_HERE, (p) == 0) == 0))
#define __syncthreads_or(p) ((int)(::simt::rt::block_barrier(SIMT_HERE, (p) != 0) != 0))

#define __syncwarp(...) ::simt::rt::syncwarp(SIMT_HERE, ::simt::rt::syncwarp_mask(__VA_ARGS__))
namespace simt::rt {
constexpr unsigned syncwarp_mask(unsigned m = 0xffffffffu) { return m; }
} // namespace simt::rt

#define __shfl_sync(mask, v, src, ...)                                                                       \
    ::simt::shfl(SIMT_HERE, (mask), (v), ::simt::rt::SHFL_IDX, (src), ##__VA_ARGS__)
#define __shfl_up_sync(mask, v, d, ...)                                                                      \
    ::simt::shfl(SIMT_HERE, (mask), (v), ::simt::rt::SHFL_UP, (d), ##__VA_ARGS__)
#define __shfl_down_sync(mask, v, d, ...)                                                                    \
    ::simt::shfl(SIMT_HERE, (mask), (v), ::simt::rt::SHFL_DOWN, (d), ##__VA_ARGS__)
#define __shfl_xor_sync(mask, v, m, ...)                                                                     \
    ::simt::shfl(SIMT_HERE, (mask), (v), ::simt::rt::SHFL_XOR, (m), ##__VA_ARGS__)

#define __ballot_sync(mask, p) ::simt::rt::vote(SIMT_HERE, (mask), (p) != 0, ::simt::rt::VOTE_BALLOT)
#define __any_sync(mask, p) ((int)::simt::rt::vote(SIMT_HERE, (mask), (p) != 0, ::simt::rt::VOTE_ANY))
#define __all_sync(mask, p) ((int)::simt::rt::vote(SIMT_HERE, (mask), (p) != 0, ::simt::rt::VOTE_ALL))

#define __reduce_add_sync(mask, v) ::simt::reduce(SIMT_HERE, (mask), (v), ::simt::rt::RED_ADD)
#define __reduce_min_sync(mask, v) ::simt::reduce(SIMT_HERE, (mask), (v), ::simt::rt::RED_MIN)
#define __reduce_max_sync(mask, v) ::simt::reduce(SIMT_HERE, (mask), (v), ::simt::rt::RED_MAX)
#define __reduce_and_sync(mask, v) ::simt::reduce(SIMT_HERE, (mask), (unsigned)(v), ::simt::rt::RED_AND)
#define __reduce_or_sync(mask, v) ::simt::reduce(SIMT_HERE, (mask), (unsigned)(v), ::simt::rt::RED_OR)
#define __reduce_xor_sync(mask, v) ::simt::reduce(SIMT_HERE, (mask), (unsigned)(v), ::simt::rt::RED_XOR)

#define __activemask() ::simt::rt::active_mask()
#define __nanosleep(ns) ((void)(ns), ::simt::rt::yield_now())
