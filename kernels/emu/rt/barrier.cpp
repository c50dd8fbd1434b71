// barrier.cpp: __syncthreads as a checked rendezvous of the whole block.
//
// A barrier is released only when every thread that has not exited waits at the same
// __syncthreads (same file and line) and no thread has exited: threads at different barriers,
// or some exited while others wait, is a fault (the CUDA rule: a conditional __syncthreads must
// evaluate identically across the block). Faults name the barrier and the other one.
#include "internal.h"
#include "san.h"

namespace simt::rt {

unsigned block_barrier(Site at, int pred) {
    Fiber *f = current();
    f->state = State::barrier;
    f->site = at;
    f->bar_pred = pred;
    unsigned gen = f->bar_gen = B.bar_gen;
    // Two sync objects, alternating: a fast thread's release for the next barrier must not reach
    // a thread still leaving this one (README.md, "ThreadSanitizer build").
    san::release(&B.bar_sync[gen & 1]);
    wait_here(f);
    san::acquire(&B.bar_sync[gen & 1]);
    return B.bar_count[gen & 1];
}

static unsigned count_at(Site s) {
    unsigned c = 0;
    for (unsigned i = 0; i < B.n; i++)
        c += B.fibers[i].state == State::barrier && same_site(B.fibers[i].site, s);
    return c;
}

// Called when no fiber is ready and none waits in a warp collective: every live thread waits at
// a barrier.
bool release_barrier() {
    Fiber *first = nullptr, *other = nullptr;
    for (unsigned i = 0; i < B.n && !other; i++) {
        Fiber &f = B.fibers[i];
        if (f.state != State::barrier) continue;
        if (!first)
            first = &f;
        else if (!same_site(f.site, first->site))
            other = &f;
    }
    if (other) {
        // Charge the fault to the barrier fewer threads reached: usually the one in the branch.
        unsigned n1 = count_at(first->site), n2 = count_at(other->site);
        Fiber *lo = n2 < n1 ? other : first, *hi = lo == first ? other : first;
        fault_waiting(lo, lo->site, "__syncthreads: threads wait at different barriers: %u here, %u at %s:%d",
                      lo == first ? n1 : n2, lo == first ? n2 : n1, hi->site.file, hi->site.line);
        return false;
    }
    if (B.n_exited) {
        fault_waiting(first, first->site, "__syncthreads: %u threads wait here but %u have exited",
                      B.n - B.n_exited, B.n_exited);
        return false;
    }
    unsigned gen = B.bar_gen, count = 0;
    for (unsigned i = 0; i < B.n; i++) count += B.fibers[i].bar_pred != 0;
    B.bar_count[gen & 1] = count;
    B.bar_gen++;
    for (unsigned i = 0; i < B.n; i++) wake(&B.fibers[i]);
    stats.barriers++;
    return true;
}

} // namespace simt::rt
