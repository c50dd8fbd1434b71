// ctx.h: raw execution contexts for the fibers (one per CUDA thread) and their stacks.
//
// The default is a hand-written switch (ctx_x86_64.S, ctx_aarch64.S) that saves only the
// callee-saved registers: about 20x faster than swapcontext, which makes a sigprocmask system
// call on every switch (README.md, "Execution model"). -DSIMT_FIBER_UCONTEXT selects the portable
// ucontext fallback, also used on other architectures. Neither saves the floating-point control
// registers (MXCSR/FPCR): kernels do not change rounding modes.
#pragma once

#include <stddef.h>

#if !defined(SIMT_FIBER_UCONTEXT) && !defined(__x86_64__) && !defined(__aarch64__)
#define SIMT_FIBER_UCONTEXT 1
#endif
#if defined(SIMT_FIBER_UCONTEXT)
#include <ucontext.h>
#endif

extern "C" void simt_ctx_swap(void **save_sp, void *load_sp);

namespace simt::rt {

struct Ctx {
#if defined(SIMT_FIBER_UCONTEXT)
    ucontext_t uc;
#else
    void *sp; // saved stack pointer; the registers are on that stack
#endif
};

// Prepares c so that the first switch to it runs fn(arg) on [lo, lo + size). fn must not return.
void ctx_make(Ctx *c, void *lo, size_t size, void (*fn)(void *), void *arg);

// Saves the running context in from and resumes to.
inline void ctx_swap(Ctx *from, Ctx *to) {
#if defined(SIMT_FIBER_UCONTEXT)
    swapcontext(&from->uc, &to->uc);
#else
    simt_ctx_swap(&from->sp, to->sp);
#endif
}

// A stack of `size` usable bytes above an inaccessible guard region (an overflow is a SIGSEGV,
// not silent corruption of the next stack). The guard is 64 KB, not a page, so that a frame with
// a large local array cannot step over it. Virtual memory: pages are committed when touched.
constexpr size_t stack_guard_bytes = 64 * 1024;
void *stack_alloc(size_t size);
void stack_free(void *lo, size_t size);

} // namespace simt::rt
