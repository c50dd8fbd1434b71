// barrier.cpp: __syncthreads as a checked rendezvous of the whole block, and the named barriers
// bar.sync / bar.arrive (ids 1-15) of producer/consumer warps.
//
// A barrier is released only when every thread that has not exited waits at the same
// __syncthreads (same file and line) and no thread has exited: threads at different barriers,
// or some exited while others wait, is a fault (the CUDA rule: a conditional __syncthreads must
// evaluate identically across the block). Faults name the barrier and the other one.
#include <stdio.h>

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

static bool named_deadlock();

// Called when no fiber is ready and none waits in a warp collective: every live thread waits at
// a barrier.
bool release_barrier() {
    for (unsigned i = 0; i < B.n; i++)
        if (B.fibers[i].state == State::named || B.fibers[i].state == State::mbar) return named_deadlock();
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
    B.sync_epoch++;
    for (unsigned i = 0; i < B.n; i++) wake(&B.fibers[i]);
    stats.barriers++;
    return true;
}

// ---- named barriers ------------------------------------------------------------------------------
// bar.sync id, n waits until n threads have arrived at barrier `id` in its current phase; bar.arrive
// counts without waiting. Both are .aligned: a warp counts (32 threads) once all its lanes have
// arrived at the same instruction, so n must be a multiple of 32. Every arrival releases a TSan
// object of the thread for that arrival, and the waiters acquire all of the phase's arrivals when
// it completes (sync -> sync and arrive -> sync order, as on the GPU; arrive -> arrive does not).

static const char *bar_name(bool wait) { return wait ? "bar.sync" : "bar.arrive"; }

// Wakes the phase's waiters; runs in the thread whose arrival completed the phase.
static void named_complete(unsigned id) {
    NamedBar &nb = B.named[id];
    [[maybe_unused]] Fiber *self = current();
    for (unsigned a = 0; a < nb.n_arrived; a++) {
        if (!nb.arrived[a].wait) continue;
        Fiber &w = B.fibers[nb.arrived[a].thread];
#if defined(SIMT_TSAN)
        san::tsan_switch(w.tsan_fiber, false); // acquire as the waiter
        for (unsigned b = 0; b < nb.n_arrived; b++)
            san::acquire(&B.fibers[nb.arrived[b].thread].sync_named[id][nb.arrived[b].slot]);
        san::tsan_switch(self->tsan_fiber, false);
#endif
        wake(&w);
    }
    nb.n = nb.count = nb.n_arrived = 0;
    B.sync_epoch++;
    stats.barriers++;
}

// A whole warp has arrived: it counts 32 threads in the current phase.
static void count_warp(unsigned id, const WarpArrival &a, unsigned warp) {
    NamedBar &nb = B.named[id];
    if (nb.n && nb.n != a.n)
        fault(a.at,
              "%s %u, %u: mismatched thread count: this phase of barrier %u expects %u (first arrival at "
              "%s:%d)",
              bar_name(a.wait), id, a.n, id, nb.n, nb.at.file, nb.at.line);
    if (!nb.n) {
        nb.n = a.n;
        nb.at = a.at;
    }
    for (unsigned m = B.warps[warp].exists; m; m &= m - 1)
        nb.arrived[nb.n_arrived++] =
            NamedBar::Arrival{(uint16_t)(warp * 32 + __builtin_ctz(m)), (uint8_t)(a.seq % 4), a.wait};
    nb.count += 32;
    if (nb.count >= nb.n) named_complete(id);
}

void named_barrier(Site at, unsigned id, unsigned n, bool wait) {
    Fiber *f = current();
    const char *what = bar_name(wait);
    if (id < 1 || id > 15)
        fault(at, "%s %u, %u: barrier id out of range (1-15; 0 is __syncthreads)", what, id, n);
    if (n == 0 || n % 32)
        fault(at, "%s %u, %u: the thread count must be a positive multiple of 32 (whole warps)", what, id, n);
    if (n > 32 * B.nwarps)
        fault(at, "%s %u, %u: the block has only %u warps (%u threads at most)", what, id, n, B.nwarps,
              32 * B.nwarps);
    Warp &w = B.warps[f->warp];
    WarpArrival *q = w.named[id];
    uint8_t &len = w.named_len[id];
    const unsigned me = 1u << f->lane;
    unsigned k = 0; // the oldest arrival of the warp this lane has not joined yet
    while (k < len && (q[k].lanes & me)) k++;
    if (k == 4)
        fault(at,
              "%s %u: lane %u runs 4 arrivals ahead of the rest of warp %u (first at %s:%d; not emulated)",
              what, id, f->lane, f->warp, q[0].at.file, q[0].at.line);
    if (k == len) {
        q[k] = WarpArrival{0, wait, n, w.named_seq[id]++, at};
        len++;
    } else if (q[k].wait != wait || q[k].n != n || !same_site(q[k].at, at)) {
        fault(at,
              "%s %u, %u in divergent code: the lanes of warp %u arrive at different instructions: here and "
              "%s %u, %u at %s:%d",
              what, id, n, f->warp, bar_name(q[k].wait), id, q[k].n, q[k].at.file, q[k].at.line);
    }
    q[k].lanes |= me;
    san::release(&f->sync_named[id][q[k].seq % 4]);
    if (wait) {
        f->state = State::named;
        f->site = at;
        f->named_id = id;
    }
    while (len && q[0].lanes == w.exists) { // complete warp arrivals count in order
        const WarpArrival a = q[0];
        for (unsigned j = 1; j < len; j++) q[j - 1] = q[j];
        len--;
        count_warp(id, a, f->warp);
    }
    if (wait)
        wait_here(f);
    else
        yield_now(); // let the threads this arrival released run before the arriving one goes on
}

// A warp of which only some lanes arrived at a named barrier: bar in divergent code.
static bool named_partial_warp(bool at_end) {
    for (unsigned wi = 0; wi < B.nwarps; wi++) {
        const Warp &w = B.warps[wi];
        for (unsigned id = 1; id < 16; id++) {
            if (!w.named_len[id]) continue;
            const WarpArrival &wa = w.named[id][0];
            Fiber &who = B.fibers[wi * 32 + __builtin_ctz(wa.lanes)];
            const Fiber &o = B.fibers[wi * 32 + __builtin_ctz(w.exists & ~wa.lanes)];
            char state[200];
            fault_waiting(&who, wa.at,
                          "%s %u in divergent code: lanes 0x%08x of warp %u arrived here, lane %u %s%s",
                          bar_name(wa.wait), id, wa.lanes, wi, o.lane, describe_wait(&o, state, sizeof state),
                          at_end ? " (block ended)" : "");
            return true;
        }
    }
    return false;
}

bool named_block_end() { return !named_partial_warp(true); }

// Nothing is ready, nothing waits in a collective and some threads wait at named barriers: no barrier
// can complete. Names every place where threads wait (mbarrier waits with their barrier's state).
static bool same_wait(const Fiber &a, const Fiber &b) {
    return a.state == b.state && same_site(a.site, b.site) &&
           (a.state != State::named || a.named_id == b.named_id) &&
           (a.state != State::mbar || (a.mbar == b.mbar && a.mbar_parity == b.mbar_parity));
}
static bool named_deadlock() {
    if (named_partial_warp(false)) return false;
    Fiber *who = nullptr;
    char what[1536];
    size_t len = 0;
    for (unsigned i = 0; i < B.n; i++) {
        Fiber &f = B.fibers[i];
        if (f.state != State::barrier && f.state != State::named && f.state != State::mbar) continue;
        if (!who && f.state != State::barrier) who = &f;
        bool seen = false; // one entry per place
        for (unsigned j = 0; j < i && !seen; j++) seen = same_wait(B.fibers[j], f);
        if (seen) continue;
        unsigned count = 0;
        for (unsigned j = i; j < B.n; j++) count += same_wait(B.fibers[j], f);
        char one[640];
        if (f.state == State::named) {
            const NamedBar &nb = B.named[f.named_id];
            snprintf(one, sizeof one, "%s%u at bar.sync %u (%u of %u threads arrived) at %s:%d",
                     len ? "; " : "", count, f.named_id, nb.count, nb.n, f.site.file, f.site.line);
        } else if (f.state == State::mbar) {
            char m[600];
            mbar_describe_wait(f, m, sizeof m);
            snprintf(one, sizeof one, "%s%u %s", len ? "; " : "", count, m);
        } else {
            snprintf(one, sizeof one, "%s%u at __syncthreads at %s:%d", len ? "; " : "", count, f.site.file,
                     f.site.line);
        }
        len += (size_t)snprintf(what + len, sizeof what - len, "%s", one);
        if (len >= sizeof what) len = sizeof what - 1;
    }
    fault_waiting(who, who->site, "deadlock: every live thread waits and no barrier can complete: %s%s", what,
                  B.n_exited ? " (the other threads have exited)" : "");
    return false;
}

} // namespace simt::rt
