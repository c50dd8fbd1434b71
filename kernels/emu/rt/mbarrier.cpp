// mbarrier.cpp: mbarrier objects (PTX ISA "Parallel Synchronization and Communication Instructions:
// mbarrier"): init, arrive, expect_tx, try_wait.parity, inval, and the fences that publish an init.
//
// State per object: the phase (its number; its parity is what try_wait.parity tests), the arrivals
// still missing in it, the transaction bytes still expected (expect_tx adds, a TMA copy's complete_tx
// subtracts, rt/tma.cpp). A phase completes when both reach zero; then the arrivals reset and the
// threads waiting for it wake. try_wait.parity p is true when the phase of parity p is the one that
// completed last (a fresh barrier is in phase 0, so p = 1 passes at once) and otherwise blocks the
// thread until it completes: a wait that can never complete is reported by the deadlock check
// (barrier.cpp) with each barrier's state, never a hang.
//
// Checks (hopper-wgmma-notes M1-M7): an object used before init, after inval, or overwritten by an
// ordinary store since its init (M6: the emulator keeps its own tag in the 8 bytes); a second init
// (M6); a thread other than the initialiser using it before a barrier ordered the init (M5); more
// arrivals than expected in a phase; a wait that returns at once for a phase this thread already
// waited for (M2: parity not flipped on a ring wrap; stricter than the ISA, which allows re-testing);
// expect_tx too large or a producer starting on parity 0 (M3, M7: deadlock with the barrier's state);
// an arrive-on in a phase whose preceding phase no wait has yet seen complete (the PTX ISA: "for each
// phase of the mbarrier object, at least one test_wait or try_wait operation must be performed which
// returns True for waitComplete before an arrive-on operation in the subsequent phase"): more arrivals
// than a phase counts, or a release made before its slot's previous release was waited for;
// expect_tx too small (M3) and TMA use before the init was fenced (M5) in rt/tma.cpp.
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "san.h"

namespace simt::rt {

static constexpr uint64_t kTag = 0x4d42415253494d00ull & ~0xffffull; // "SIMTMBAR" above an index
static constexpr uint64_t kTagMask = ~0xffffull;
static constexpr unsigned kMaxBarriers = 256; // per block: Mbar pointers stay valid (reserve)
static constexpr int64_t kTxMax = (1 << 20) - 1;

void mbar_block_start() {
    B.mbars.reserve(kMaxBarriers);
    B.mbars.clear();
}

static uint64_t read_tag(const uint64_t *bar) { return *(const volatile uint64_t *)bar; }

static void check_object(Site at, const char *op, const uint64_t *bar) {
    if ((uintptr_t)bar & 7) fault(at, "%s: mbarrier address %p is not 8-byte aligned", op, (const void *)bar);
    bool known;
    if (!is_shared(bar, 8, &known) && known)
        fault(at, "%s: mbarrier address %p is not shared memory", op, (const void *)bar);
}

// The live record of the object at bar, or a fault saying why there is none.
Mbar &mbar_lookup(Site at, const char *op, uint64_t *bar) {
    check_object(at, op, bar);
    const uint64_t v = read_tag(bar);
    Mbar *m = nullptr;
    if ((v & kTagMask) == kTag && (v & 0xffff) < B.mbars.size() && B.mbars[v & 0xffff].addr == bar)
        m = &B.mbars[v & 0xffff];
    if (!m) {
        for (Mbar &o : B.mbars)
            if (o.addr == bar && o.live)
                fault(at,
                      "%s: the mbarrier at %p (initialised at %s:%d) was overwritten by an ordinary store "
                      "since its "
                      "init (M6)",
                      op, (void *)bar, o.init_at.file, o.init_at.line);
        fault(at,
              "%s: %p is not an initialised mbarrier (mbarrier.init first; shared memory is not kept between "
              "blocks)",
              op, (void *)bar);
    }
    if (!m->live)
        fault(at, "%s: the mbarrier at %p was invalidated (mbarrier.inval) after its init at %s:%d", op,
              (void *)bar, m->init_at.file, m->init_at.line);
    const Fiber *f = current();
    if (f->linear != m->init_thread && B.sync_epoch == m->init_epoch)
        fault(at,
              "%s: this thread uses the mbarrier initialised at %s:%d by another thread before any barrier "
              "ordered "
              "that init (init, fence.mbarrier_init, then __syncthreads: M5)",
              op, m->init_at.file, m->init_at.line);
    return *m;
}

void mbar_init(Site at, uint64_t *bar, unsigned count) {
    static const char op[] = "mbarrier.init";
    check_object(at, op, bar);
    if (count < 1 || count > kTxMax) fault(at, "%s: count %u outside [1, 2^20 - 1]", op, count);
    const uint64_t v = read_tag(bar);
    Mbar *m = nullptr;
    if ((v & kTagMask) == kTag && (v & 0xffff) < B.mbars.size() && B.mbars[v & 0xffff].addr == bar) {
        m = &B.mbars[v & 0xffff];
        if (m->live)
            fault(at,
                  "%s: the mbarrier at %p is already initialised (at %s:%d): a second init without "
                  "mbarrier.inval (M6)",
                  op, (void *)bar, m->init_at.file, m->init_at.line);
    }
    if (!m) {
        for (Mbar &o : B.mbars)
            if (o.addr == bar) m = &o;
    }
    if (!m) {
        if (B.mbars.size() == kMaxBarriers)
            fault(at, "%s: more than %u mbarriers in one block", op, kMaxBarriers);
        san::ignore_begin(); // constructing the record is bookkeeping, not this thread's access
        B.mbars.emplace_back();
        san::ignore_end();
        m = &B.mbars.back();
    }
    Fiber *f = current();
    m->addr = bar;
    m->expected = m->pending = count;
    m->tx = 0;
    m->phase = 0;
    m->live = true;
    m->fenced = m->active = false;
    m->observed = true; // phase 0 follows no completed phase
    m->init_thread = f->linear;
    m->init_epoch = B.sync_epoch;
    m->init_at = at;
    m->tx_at = Site{nullptr, 0};
    m->inflight = 0;
    for (unsigned i = 0; i < B.n; i++) m->seen[i] = -1;
    const uint64_t tag = kTag | (uint64_t)(m - B.mbars.data());
    *bar = tag; // not memcpy: TSan would count it as this thread's write of the object
}

void mbar_inval(Site at, uint64_t *bar) {
    Mbar &m = mbar_lookup(at, "mbarrier.inval", bar);
    if (m.inflight)
        fault(at, "mbarrier.inval: %u TMA copies that complete on this barrier are still in flight",
              m.inflight);
    m.live = false;
}

// Wakes the threads waiting for the phase that just completed (as the waiter, each acquires its
// arrivals: TSan).
static void wake_waiters(Mbar &m, unsigned done_parity) {
    [[maybe_unused]] void *self = san::tsan_current();
    for (unsigned i = 0; i < B.n; i++) {
        Fiber &w = B.fibers[i];
        if (w.state != State::mbar || w.mbar != &m || w.mbar_parity != done_parity) continue;
        san::tsan_switch(w.tsan_fiber, false);
        san::acquire(&m.sync[done_parity]);
        san::tsan_switch(self, false);
        m.seen[i] = (int32_t)m.phase;
        m.observed = true;
        wake(&w);
    }
}

bool mbar_try_complete(Mbar &m, Fiber *landing, Site at) {
    if (m.pending || m.tx) return true;
    if (m.inflight) {
        const char *msg =
            "the phase of the mbarrier initialised at %s:%d completes while %u TMA copies that complete "
            "on it are still in flight: expect_tx (last at %s:%d) too small or missing (M3)";
        const Site tx = m.tx_at.file ? m.tx_at : at;
        if (!landing) fault(at, msg, m.init_at.file, m.init_at.line, m.inflight, tx.file, tx.line);
        fault_waiting(landing, tx, msg, m.init_at.file, m.init_at.line, m.inflight, tx.file, tx.line);
        return false;
    }
    const unsigned done = m.phase & 1;
    m.phase++;
    m.pending = m.expected;
    m.active = false;
    m.observed = false;
    m.tx_at = Site{nullptr, 0};
    stats.barriers++;
    wake_waiters(m, done);
    return true;
}

void mbar_arrive(Site at, uint64_t *bar, uint32_t tx_bytes, bool arrive) {
    const char *op = !arrive    ? "mbarrier.expect_tx"
                     : tx_bytes ? "mbarrier.arrive.expect_tx"
                                : "mbarrier.arrive";
    Mbar &m = mbar_lookup(at, op, bar);
    if (tx_bytes) {
        if (m.tx + tx_bytes > kTxMax)
            fault(at, "%s: %u bytes make the transaction count %lld, above 2^20 - 1", op, tx_bytes,
                  (long long)(m.tx + tx_bytes));
        m.tx += tx_bytes;
        m.tx_at = at;
    }
    if (arrive && !m.observed)
        fault(at,
              "%s in phase %u of the mbarrier initialised at %s:%d before any wait saw phase %u complete "
              "(the PTX ISA requires a test_wait or try_wait that returns true for each phase before an "
              "arrive-on in the next: more arrivals than the %u a phase counts, or a release before the "
              "previous one was waited for?)",
              op, m.phase, m.init_at.file, m.init_at.line, m.phase - 1, m.expected);
    m.active = true;
    if (arrive) {
        if (m.pending == 0)
            fault(at,
                  "%s: more arrivals than the %u the barrier expects per phase (initialised at %s:%d; phase "
                  "%u waits "
                  "for %lld transaction bytes)",
                  op, m.expected, m.init_at.file, m.init_at.line, m.phase, (long long)m.tx);
        m.pending--;
        san::release(&m.sync[m.phase & 1]);
    }
    mbar_try_complete(m, nullptr, at);
    // A thread that released others (a slot, a stage) must not be assumed to run first: yield.
    if (arrive) yield_now();
}

bool mbar_try_wait_parity(Site at, uint64_t *bar, unsigned parity) {
    static const char op[] = "mbarrier.try_wait.parity";
    Fiber *f = current();
    Mbar &m = mbar_lookup(at, op, bar);
    if (parity > 1) fault(at, "%s: parity %u (0 or 1)", op, parity);
    if ((m.phase & 1) != parity) { // the phase of this parity is the last completed one
        int32_t &seen = m.seen[f->linear];
        // Deliberately strict: a thread waits for each phase once (a ring's consumer that does not
        // flip its parity re-waits the phase it passed and reads the slot before it is refilled).
        if (seen == (int32_t)m.phase)
            fault(
                at,
                "%s %u: this thread already waited for that phase (%u) of the barrier initialised at %s:%d; "
                "the wait returns at once instead of waiting for phase %u: parity not flipped on a ring "
                "wrap? (M2)",
                op, parity, m.phase - 1, m.init_at.file, m.init_at.line, m.phase);
        seen = (int32_t)m.phase;
        m.observed = true;
        san::acquire(&m.sync[parity]);
        return true;
    }
    f->state = State::mbar;
    f->site = at;
    f->mbar = &m;
    f->mbar_parity = parity;
    wait_here(f); // until its phase completes (wake_waiters)
    return true;
}

// Publishes this thread's inits to the async proxy (TMA's complete_tx): M5.
static void publish_inits() {
    const unsigned me = current()->linear;
    for (Mbar &m : B.mbars)
        if (m.live && m.init_thread == me) m.fenced = true;
}
void fence_mbarrier_init(Site) { publish_inits(); }
void fence_proxy_async(Site) {
    publish_inits();
    async_fence();
}

void mbar_describe_wait(const Fiber &f, char *what, size_t n) {
    const Mbar &m = *f.mbar;
    int len = snprintf(
        what, n,
        "at mbarrier.try_wait.parity %u at %s:%d (barrier initialised at %s:%d, in phase %u: %u of %u "
        "arrivals missing",
        f.mbar_parity, f.site.file, f.site.line, m.init_at.file, m.init_at.line, m.phase, m.pending,
        m.expected);
    if (len < 0 || (size_t)len >= n) return;
    if (m.tx < 0)
        len += snprintf(
            what + len, n - len,
            ", the copies delivered %lld transaction bytes more than expect_tx (last at %s:%d) announced: "
            "too small? (M3)",
            (long long)-m.tx, m.tx_at.file ? m.tx_at.file : "?", m.tx_at.line);
    else if (m.tx > 0 && !m.inflight)
        len += snprintf(
            what + len, n - len,
            ", %lld transaction bytes expected (expect_tx at %s:%d) and no copy in flight to it: expect_tx "
            "too large? (M3)",
            (long long)m.tx, m.tx_at.file, m.tx_at.line);
    else if (m.tx > 0)
        len += snprintf(what + len, n - len, ", %lld transaction bytes expected", (long long)m.tx);
    const int32_t seen = m.seen[f.linear];
    if (len >= 0 && (size_t)len < n && seen >= 0 && seen < (int32_t)m.phase)
        len +=
            snprintf(what + len, n - len,
                     "; this thread last passed phase %d and now waits for phase %u, skipping %u: parity not "
                     "flipped on a ring wrap? (M2)",
                     seen - 1, m.phase, m.phase - (unsigned)seen);
    if (len >= 0 && (size_t)len < n && m.phase == 0 && f.mbar_parity == 0 && !m.active)
        snprintf(what + len, n - len,
                 "; nothing has arrived on it yet: a first wait that must pass on a fresh barrier takes "
                 "parity 1: M7)");
    else if (len >= 0 && (size_t)len < n)
        snprintf(what + len, n - len, ")");
}

} // namespace simt::rt
