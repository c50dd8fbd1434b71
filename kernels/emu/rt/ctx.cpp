// ctx.cpp: fresh fiber contexts and guarded stacks (ctx.h).
#include "ctx.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

namespace simt::rt {

void *stack_alloc(size_t size) {
    const size_t guard = stack_guard_bytes;
    void *m = mmap(nullptr, size + guard, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (m == MAP_FAILED) {
        perror("simt: mmap of a fiber stack");
        abort();
    }
    mprotect(m, guard, PROT_NONE); // stacks grow down: the guard is at the low end
    return (char *)m + guard;
}

void stack_free(void *lo, size_t size) { munmap((char *)lo - stack_guard_bytes, size + stack_guard_bytes); }

#if defined(SIMT_FIBER_UCONTEXT)

// makecontext passes int arguments only: the pointers travel as two halves.
static void uc_entry(unsigned fn_hi, unsigned fn_lo, unsigned arg_hi, unsigned arg_lo) {
    auto fn = (void (*)(void *))(((uintptr_t)fn_hi << 32) | fn_lo);
    void *arg = (void *)(((uintptr_t)arg_hi << 32) | arg_lo);
    fn(arg);
    abort(); // fn must not return
}

void ctx_make(Ctx *c, void *lo, size_t size, void (*fn)(void *), void *arg) {
    getcontext(&c->uc);
    c->uc.uc_stack.ss_sp = lo;
    c->uc.uc_stack.ss_size = size;
    c->uc.uc_link = nullptr;
    uint64_t f = (uintptr_t)fn, a = (uintptr_t)arg;
    makecontext(&c->uc, (void (*)())uc_entry, 4, (unsigned)(f >> 32), (unsigned)f, (unsigned)(a >> 32),
                (unsigned)a);
}

#else

extern "C" void simt_ctx_entry();

void ctx_make(Ctx *c, void *lo, size_t size, void (*fn)(void *), void *arg) {
    uintptr_t top = ((uintptr_t)lo + size) & ~(uintptr_t)15;
#if defined(__x86_64__)
    // Popped by simt_ctx_swap: r15 r14 r13 r12 rbx rbp, then `ret` into simt_ctx_entry, leaving
    // rsp == top (16-byte aligned) as the entry's call expects.
    void **sp = (void **)(top - 7 * sizeof(void *));
    sp[0] = nullptr;    // r15
    sp[1] = nullptr;    // r14
    sp[2] = (void *)fn; // r13
    sp[3] = arg;        // r12
    sp[4] = nullptr;    // rbx
    sp[5] = nullptr;    // rbp: ends frame-pointer walks
    sp[6] = (void *)simt_ctx_entry;
#else
    // x19..x30 then d8..d15; x29 = 0 ends frame walks, x30 is where `ret` goes.
    void **sp = (void **)(top - 160);
    for (int i = 0; i < 20; i++) sp[i] = nullptr;
    sp[0] = arg;                     // x19
    sp[1] = (void *)fn;              // x20
    sp[11] = (void *)simt_ctx_entry; // x30
#endif
    c->sp = sp;
}

#endif

} // namespace simt::rt
