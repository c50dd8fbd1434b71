// simt_pipeline.h: __pipeline_memcpy_async / __pipeline_commit / __pipeline_wait_prior for the
// emulator (included by kernels/emu/include/cuda_pipeline_primitives.h).
//
// A copy is checked when issued (size 4, 8 or 16; both pointers aligned to it; destination in
// shared memory, source not), its destination is poisoned, and the bytes move only when the
// issuing thread's __pipeline_wait_prior retires its group. A read that races with the copy -
// a missing wait, a wait that leaves the group in flight, a missing barrier after the wait -
// therefore sees poison (NaN) instead of data that happened to arrive early. Copies still in
// flight when their thread exits are a fault.
#pragma once

#include <stddef.h>

#include "simt_rt.h"

namespace simt {
inline void pipeline_memcpy_async(rt::Site at, void *dst, const void *src, size_t size, size_t zfill = 0) {
    rt::cp_async(at, dst, src, size, zfill);
}
} // namespace simt

#define __pipeline_memcpy_async(dst, src, ...)                                                               \
    ::simt::pipeline_memcpy_async(SIMT_HERE, (dst), (src), __VA_ARGS__)
#define __pipeline_commit() ::simt::rt::cp_commit(SIMT_HERE)
#define __pipeline_wait_prior(n) ::simt::rt::cp_wait_prior(SIMT_HERE, (n))
