// san.h: what the sanitizers must be told about fibers (README.md, "ThreadSanitizer build"); empty
// functions in the plain build.
//
// ThreadSanitizer: every CUDA thread is a TSan fiber. Every switch is non-synchronising: a fiber
// acquires what the scheduler did once, when it starts (block_start), and fibers are ordered only by
// the emulator's own release/acquire pairs: barriers, collectives, cp.async landing and the end of
// a block (fiber.cpp, resume, says why the switch does not synchronise). Without this every
// access would be ordered by the scheduler and no race would ever be reported.
// AddressSanitizer: stack switches are announced so that ASan knows which stack is live.
#pragma once

#include <stddef.h>

#include "../simt_rt.h"

#if defined(SIMT_TSAN)
#include <sanitizer/tsan_interface.h>
// Part of the TSan runtime's interface (what instrumented code calls for a range of bytes), not
// of its public header.
extern "C" void __tsan_read_range(void *addr, unsigned long size);
extern "C" void __tsan_write_range(void *addr, unsigned long size);
extern "C" void __tsan_read_range_pc(void *addr, unsigned long size, void *pc);
extern "C" void __tsan_write_range_pc(void *addr, unsigned long size, void *pc);
extern "C" void __tsan_ignore_thread_begin(void);
extern "C" void __tsan_ignore_thread_end(void);
#endif
#if defined(SIMT_ASAN)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace simt::rt::san {

#if defined(SIMT_TSAN)
inline void release(void *addr) { __tsan_release(addr); }
inline void acquire(void *addr) { __tsan_acquire(addr); }
// Accesses the (uninstrumented) runtime makes on behalf of the running CUDA thread.
inline void read_range(const void *addr, size_t n) { __tsan_read_range(const_cast<void *>(addr), n); }
inline void write_range(void *addr, size_t n) { __tsan_write_range(addr, n); }
// The same at a given code address (the kernel's call site, so that a report names the kernel line).
inline void read_range_pc(const void *addr, size_t n, void *pc) {
    __tsan_read_range_pc(const_cast<void *>(addr), n, pc);
}
inline void write_range_pc(void *addr, size_t n, void *pc) { __tsan_write_range_pc(addr, n, pc); }
inline void *tsan_current() { return __tsan_get_current_fiber(); }
inline void ignore_begin() { __tsan_ignore_thread_begin(); }
inline void ignore_end() { __tsan_ignore_thread_end(); }
inline void *tsan_create() { return __tsan_create_fiber(0); }
inline void tsan_name(void *fiber, const char *name) { __tsan_set_fiber_name(fiber, name); }
// Called just before the context switch (or alone, to run code as another fiber).
inline void tsan_switch(void *fiber, bool sync) {
    __tsan_switch_to_fiber(fiber, sync ? 0 : __tsan_switch_to_fiber_no_sync);
}
#else
inline void release(void *) {}
inline void acquire(void *) {}
inline void read_range(const void *, size_t) {}
inline void write_range(void *, size_t) {}
inline void read_range_pc(const void *, size_t, void *) {}
inline void write_range_pc(void *, size_t, void *) {}
inline void *tsan_current() { return nullptr; }
inline void ignore_begin() {}
inline void ignore_end() {}
inline void *tsan_create() { return nullptr; }
inline void tsan_name(void *, const char *) {}
inline void tsan_switch(void *, bool) {}
#endif

#if defined(SIMT_ASAN)
// Start before the switch (fake_save null when leaving a fiber for good), finish after it.
inline void asan_start(void **fake_save, const void *bottom, size_t size) {
    __sanitizer_start_switch_fiber(fake_save, bottom, size);
}
inline void asan_finish(void *fake, const void **bottom_old, size_t *size_old) {
    __sanitizer_finish_switch_fiber(fake, bottom_old, size_old);
}
// A reused stack may carry redzones of frames that never returned (an abandoned block).
inline void asan_unpoison(void *p, size_t n) { __asan_unpoison_memory_region(p, n); }
inline void asan_poison(void *p, size_t n) { __asan_poison_memory_region(p, n); }
#else
inline void asan_start(void **, const void *, size_t) {}
inline void asan_finish(void *, const void **, size_t *) {}
inline void asan_unpoison(void *, size_t) {}
inline void asan_poison(void *, size_t) {}
#endif

} // namespace simt::rt::san
