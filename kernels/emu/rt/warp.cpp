// warp.cpp: the rendezvous behind every warp collective (shuffles, votes, __syncwarp, WMMA).
//
// Exactly the lanes named in the mask must arrive at the same call: same operation, same file and
// line, same mask. The lane that arrives last does the work for all (Gather) and wakes them; they
// continue in the next round, in the policy's order. For ThreadSanitizer a collective synchronises
// its lanes (each releases at arrival, the completer acquires them all and releases each) unless it
// is per_lane (simt_rt.h): then the memory it touches is announced as each lane's own access. A collective that can never complete - a
// named lane exited, waits at a barrier or at another collective - is reported when the block
// has nothing left to run.
#include <stdio.h>

#include "internal.h"
#include "san.h"

namespace simt::rt {

static Coll *find_or_open(Warp &w, const CollOp &op, Site at, unsigned mask, const uint64_t key[3]) {
    for (unsigned u = w.used; u; u &= u - 1) {
        Coll &c = w.pending[__builtin_ctz(u)];
        if (c.op == &op && c.mask == mask && same_site(c.at, at)) return &c;
    }
    unsigned slot = __builtin_ctz(~w.used); // at most 32 records: one lane waits in one
    w.used |= 1u << slot;
    Coll &c = w.pending[slot];
    c = Coll{&op, at, mask, 0, {key[0], key[1], key[2]}};
    return &c;
}

static void complete(Warp &w, Coll *c) {
    Fiber *lanes = &B.fibers[(size_t)(&w - B.warps.data()) * 32];
    const bool sync = !c->op->per_lane;
    Gather g;
    g.mask = c->mask;
    for (int k = 0; k < 3; k++) g.key[k] = c->key[k];
    for (unsigned m = c->mask; m; m &= m - 1) {
        Fiber &f = lanes[__builtin_ctz(m)];
        g.arg[f.lane] = f.carg;
        if (sync) san::acquire(&f.sync_arrive);
    }
    c->op->complete(g);
    for (unsigned m = c->mask; m; m &= m - 1) {
        Fiber &f = lanes[__builtin_ctz(m)];
        if (sync) san::release(&f.sync_wake);
        wake(&f);
    }
    w.used &= ~(1u << (c - w.pending));
    stats.collectives++;
}

void warp_collective(const CollOp &op, Site at, unsigned mask, void *arg, uint64_t k0, uint64_t k1,
                     uint64_t k2, void *pc) {
    Fiber *f = current();
    // Called straight from kernel code (WMMA's header) unless the caller passes its own caller's pc.
    f->cpc = pc ? pc : __builtin_extract_return_addr(__builtin_return_address(0));
    Warp &w = B.warps[f->warp];
    unsigned me = 1u << f->lane;
    if (!(mask & me)) fault(at, "%s: mask 0x%08x does not name the calling lane %u", op.name, mask, f->lane);
    if (mask & ~w.exists)
        fault(at, "%s: mask 0x%08x names lane %d, which does not exist (partial warp of %d threads)", op.name,
              mask, __builtin_ctz(mask & ~w.exists), __builtin_popcount(w.exists));
    const uint64_t key[3] = {k0, k1, k2};
    Coll *c = find_or_open(w, op, at, mask, key);
    if (c->key[0] != k0 || c->key[1] != k1 || c->key[2] != k2)
        fault(at,
              "%s: lanes pass different arguments (lane %u: 0x%llx, 0x%llx, 0x%llx; lane %d: 0x%llx, 0x%llx, "
              "0x%llx)",
              op.name, f->lane, (unsigned long long)k0, (unsigned long long)k1, (unsigned long long)k2,
              __builtin_ctz(c->arrived), (unsigned long long)c->key[0], (unsigned long long)c->key[1],
              (unsigned long long)c->key[2]);
    c->arrived |= me;
    f->coll = c;
    f->carg = arg;
    f->site = at;
    f->state = State::collective;
    if (!op.per_lane) san::release(&f->sync_arrive);
    if (c->arrived == mask) complete(w, c);
    wait_here(f);
    if (!op.per_lane) san::acquire(&f->sync_wake);
}

void tsan_ignore(bool on) {
    if (on)
        san::ignore_begin();
    else
        san::ignore_end();
}

void access_as_lane(unsigned lane, const void *p, size_t n, bool write) {
#if defined(SIMT_TSAN)
    Fiber *self = current();
    Fiber &f = B.fibers[self->warp * 32 + lane];
    san::tsan_switch(f.tsan_fiber, false);
    if (write)
        san::write_range_pc(const_cast<void *>(p), n, f.cpc);
    else
        san::read_range_pc(p, n, f.cpc);
    san::tsan_switch(self->tsan_fiber, false);
#else
    (void)lane, (void)p, (void)n, (void)write;
#endif
}

unsigned active_mask() {
    Fiber *f = current();
    Warp &w = B.warps[f->warp];
    return w.exists & ~w.exited;
}

const char *describe_wait(const Fiber *f, char *buf, size_t n) {
    switch (f->state) {
    case State::exited: snprintf(buf, n, "has exited"); break;
    case State::barrier:
        snprintf(buf, n, "waits at __syncthreads at %s:%d", f->site.file, f->site.line);
        break;
    case State::collective:
        snprintf(buf, n, "waits at %s (mask 0x%08x) at %s:%d", f->coll->op->name, f->coll->mask, f->site.file,
                 f->site.line);
        break;
    case State::named:
        snprintf(buf, n, "waits at bar.sync %u at %s:%d", f->named_id, f->site.file, f->site.line);
        break;
    case State::mbar:
        snprintf(buf, n, "waits at mbarrier.try_wait.parity %u at %s:%d", f->mbar_parity, f->site.file,
                 f->site.line);
        break;
    case State::wgroup:
        snprintf(buf, n, "waits in a warpgroup collective at %s:%d", f->site.file, f->site.line);
        break;
    case State::wgwait:
        snprintf(buf, n, "waits at wgmma.wait_group at %s:%d", f->site.file, f->site.line);
        break;
    case State::ready: snprintf(buf, n, "is running"); break;
    }
    return buf;
}

// Called when no fiber is ready and some wait in collectives: none of those can complete.
void diagnose_collective() {
    for (unsigned i = 0; i < B.n; i++) {
        Fiber &f = B.fibers[i];
        if (f.state != State::collective) continue;
        const Coll &c = *f.coll;
        unsigned missing = c.mask & ~c.arrived;
        const Fiber &o = B.fibers[f.warp * 32 + __builtin_ctz(missing)];
        char what[200];
        fault_waiting(&f, c.at, "%s (mask 0x%08x): lane %u %s", c.op->name, c.mask, o.lane,
                      describe_wait(&o, what, sizeof what));
        return;
    }
}

} // namespace simt::rt
