// guard.cpp: names a fiber stack overflow. A CUDA thread that overflows its stack (SIMT_STACK_KB,
// default 128) touches the guard page below it; instead of a bare SIGSEGV the emulator says which
// thread and how to get a larger stack. Other segmentation faults go to the previous handler.
// Not installed under the sanitizers, which report stack overflows themselves.
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "internal.h"

namespace simt::rt {

#if !defined(SIMT_TSAN) && !defined(SIMT_ASAN)
static struct sigaction previous;

static void on_segv(int sig, siginfo_t *info, void *uctx) {
    (void)uctx;
    Fiber *f = current();
    const char *addr = (const char *)info->si_addr;
    if (f && addr < (const char *)f->stack_lo && addr >= (const char *)f->stack_lo - stack_guard_bytes) {
        char msg[256]; // the thread is lost anyway: formatting here is acceptable
        int n = snprintf(
            msg, sizeof msg,
            "simt: stack overflow in block (%u,%u,%u), thread (%u,%u,%u): the fiber stack has %zu KB; "
            "raise SIMT_STACK_KB\n",
            block_idx.x, block_idx.y, block_idx.z, f->tid.x, f->tid.y, f->tid.z, f->stack_size / 1024);
        if (write(2, msg, (size_t)n) < 0) {}
    }
    sigaction(sig, &previous, nullptr); // returning re-executes the access under the old handler
}

void guard_install() {
    static bool done;
    if (done) return;
    done = true;
    static char altstack[64 * 1024]; // the overflowing stack cannot run the handler
    stack_t ss{};
    ss.ss_sp = altstack;
    ss.ss_size = sizeof altstack;
    sigaltstack(&ss, nullptr);
    struct sigaction sa {};
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &previous);
}
#else
void guard_install() {}
#endif

} // namespace simt::rt
