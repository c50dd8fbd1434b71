// internal.h: the runtime's shared state. One block runs at a time on one OS thread; each of its
// CUDA threads is a Fiber that runs until it waits (barrier, warp collective), exits or faults,
// then hands control back to the scheduler (sched.cpp), which resumes the ready fibers in the
// order of the scheduling policy.
#pragma once

#include <stdint.h>

#include <vector>

#include "../simt.h"
#include "../simt_rt.h"
#include "ctx.h"

namespace simt::rt {

enum class State : uint8_t { ready, barrier, collective, named, mbar, wgroup, wgwait, exited };

struct Coll;
struct Mbar;
struct WgOp;

// A wgmma in flight as one thread sees it: retired by this thread's wait_group (rt/wgmma.cpp).
struct WgPending {
    WgOp *op;
    uint32_t group; // the thread's commit group it belongs to
    bool writes_d;  // false once a later wgmma of this thread chains on the same accumulators
};

// One cp.async copy in flight: it lands when its thread retires its group.
struct Copy {
    void *dst;
    const void *src;
    uint32_t size, zfill;
    uint64_t group;
    Site at;
};

struct Fiber : ThreadRegs {
    Ctx ctx;
    State state;
    Site site; // where it waits
    // __syncthreads
    unsigned bar_gen;
    int bar_pred;
    unsigned named_id; // the named barrier it waits at (State::named)
    Mbar *mbar;        // the mbarrier it waits at (State::mbar), for the phase of parity mbar_parity
    unsigned mbar_parity;
    // warp collectives
    Coll *coll; // the collective it waits in
    void *carg; // its own argument to it
    void *cpc;  // the kernel code address it called the collective from (TSan reports)
    // cp.async
    std::vector<Copy> copies;
    uint64_t group; // id of the open (not yet committed) group
    // wgmma (rt/wgmma.cpp)
    bool wg_fenced;    // wgmma.fence since the last wait_group
    uint32_t wg_group; // the open (uncommitted) group
    unsigned wg_npending;
    WgPending wg_pending[32];
    // stack and sanitizer state
    void *stack_lo;
    size_t stack_size;
    char *stack_dirty; // the lowest stack address seen in use (at a switch); poisoned from below it
    void *tsan_fiber;
    void *tsan_engine; // TSan: the fiber that lands this thread's cp.async copies
    void *asan_fake_stack;
    // Addresses only: TSan happens-before objects (collectives; cp.async issue and landing).
    char sync_arrive, sync_wake, sync_group[16], sync_landed, sync_tma;
    char sync_named[16][4]; // its arrivals at each named barrier (by WarpArrival::seq % 4)
};

// A warp collective waiting for its lanes.
struct Coll {
    const CollOp *op;
    Site at;
    unsigned mask, arrived;
    uint64_t key[3];
};

// One arrival of a warp at a named barrier, collecting its lanes: the warp counts once all its lanes
// have arrived at the same instruction (bar is .aligned: the whole warp executes it). A lane that
// does not wait (bar.arrive) may run ahead of its warp into the next arrival: up to 4 are queued.
struct WarpArrival {
    unsigned lanes;
    bool wait; // bar.sync (true) or bar.arrive
    unsigned n;
    uint32_t seq; // per warp and id; seq % 4 picks the lanes' TSan objects
    Site at;
};

struct Warp {
    unsigned exists; // lanes present (a partial last warp has fewer)
    unsigned exited;
    unsigned used;            // records of `pending` in use
    Coll pending[32];         // a lane waits in at most one collective
    WarpArrival named[16][4]; // pending arrivals per barrier id, oldest first
    uint8_t named_len[16];
    uint32_t named_seq[16];
};

// A named barrier (ids 1-15) in its current phase.
struct NamedBar {
    unsigned n;     // thread count of the phase, set by its first arrival; 0 when none yet
    unsigned count; // threads counted so far, 32 per arrived warp
    Site at;        // the first arrival of the phase
    // The threads counted in this phase (at most n <= 1024), with the TSan object of that arrival
    // and whether they wait; a fixed array: the TSan runtime sees the allocator's accesses even from
    // the uninstrumented runtime.
    struct Arrival {
        uint16_t thread;
        uint8_t slot;
        bool wait;
    } arrived[1024];
    unsigned n_arrived;
};

// Bookkeeping the runtime changes from inside a CUDA thread lives in fixed storage, not in containers
// that allocate there: ThreadSanitizer sees the allocator and memcpy even from the uninstrumented
// runtime, and a buffer allocated in one fiber and freed in another is a report.
//
// An mbarrier object (rt/mbarrier.cpp): the state the hardware keeps in the 8 shared bytes, which
// hold the emulator's tag (magic | index into Block::mbars) instead, so that an ordinary store to
// them is noticed at the next mbarrier operation.
struct Mbar {
    uint64_t *addr;
    unsigned expected, pending; // arrivals per phase, arrivals still missing in this one
    int64_t tx;                 // transaction bytes still expected in this phase
    uint32_t phase;             // phases completed so far (the current phase's number)
    bool live;                  // initialised and not invalidated
    bool fenced;                // fence.mbarrier_init / fence.proxy.async by its initialiser since init
    bool active;                // the current phase saw an arrival or an expect_tx
    bool observed;              // a wait returned true for the last completed phase (or none completed)
    unsigned init_thread;
    uint64_t init_epoch; // Block::sync_epoch at init
    Site init_at, tx_at; // the init; the last expect_tx of the current phase
    unsigned inflight;   // TMA copies in flight that complete on it
    int32_t seen[1024];  // per thread: the phase after the last one it saw complete, -1: none
    char sync[2];        // TSan: arrivals of phases of parity 0 / 1 -> their waiters
};

// Shared memory an asynchronous operation in flight reads (a wgmma's operands): written by anything
// else before it completes is a fault (W6, T4).
struct AsyncRead {
    uintptr_t lo, hi;
    Site at;
    const char *what;
    const void *owner;
};

// Where a TMA copy landed in this block, and how (rt/tma.cpp; wgmma's descriptor check, W10).
struct TmaRegion {
    uintptr_t lo, hi;
    unsigned span;  // swizzle span in bytes, 0 for none
    unsigned inner; // bytes per box row
    Site at;
};

// A warpgroup collective (rt/warpgroup.cpp): its kind, and the work done once all 128 threads arrived;
// complete returns false to keep them waiting (setmaxnreg.inc until the pool has the registers).
struct WgColl;
struct WgOpKind {
    const char *name;
    const char *keys;   // what the uniform operands are, for messages
    const char *hazard; // the hazard class when they differ
    bool (*complete)(WgColl &c, unsigned wg);
};
struct WgColl {
    const WgOpKind *op;
    Site at;
    unsigned first; // the first thread to arrive
    uint64_t key[3];
    unsigned arrived;
    bool blocked;
    unsigned regs; // setmaxnreg: registers per thread the warpgroup holds
    void *arg[128];
};

// The running launch and block.
struct Block {
    std::vector<Fiber> fibers; // the pool; the first n belong to this launch
    std::vector<Warp> warps;
    unsigned n = 0, nwarps = 0;
    std::vector<uint64_t> ready_now, ready_next; // bitmaps by linear thread index
    unsigned n_exited = 0;
    unsigned bar_gen = 0;
    unsigned bar_count[2] = {0, 0};
    NamedBar named[16];
    std::vector<Mbar> mbars;   // the block's mbarrier objects, in order of their first init
    uint64_t sync_epoch = 0;   // block and named barrier phases completed in this block
    AsyncRead async_reads[64]; // shared memory read by asynchronous operations in flight (fixed: internal.h)
    unsigned n_async_reads = 0;
    char bar_sync[2], block_sync, block_start;          // TSan happens-before objects
    std::vector<WgColl> wgs;                            // per warpgroup
    unsigned reg_entry = 0, reg_pool = 0, reg_used = 0; // setmaxnreg: per thread at launch; the block's pool
    bool faulted = false;
    Fiber *abort_in = nullptr; // SIMT_ABORT: the fiber that aborts when resumed
    Ctx sched_ctx;
    void *sched_tsan = nullptr;
};
extern Block B;
extern simt_stats_t stats;

// Configuration (api.cpp).
struct Config {
    simt_sched_t policy;
    uint64_t seed;
    int abort_on_fault;
    uint64_t wmma_seed;
    size_t stack_bytes;
    uint32_t dyn_smem_offset; // SIMT_DYN_SMEM_OFFSET: the dynamic shared memory's window address
};
extern Config config;
void config_init();           // reads the environment once
void rng_seed(uint64_t seed); // sched.cpp: the random policy's generator

inline Fiber *current() { return static_cast<Fiber *>(cur); }
inline bool same_site(Site a, Site b) {
    return a.line == b.line && (a.file == b.file || __builtin_strcmp(a.file, b.file) == 0);
}

// fiber.cpp
void fibers_prepare(unsigned n, dim3 block);        // pool, ids, warps for a launch
void fibers_reset(void (*body)(void *), void *ctx); // fresh stacks for a block
void resume(Fiber *f);                              // scheduler -> fiber, until it yields
void wait_here(Fiber *f);                           // fiber -> scheduler, until resumed
[[noreturn]] void leave(Fiber *f);                  // fiber -> scheduler, for good
void wake(Fiber *f);                                // ready in the next round

// fault.cpp: faults are formatted "simt: FILE:LINE: WHAT (block (..), thread (..))", recorded
// for simt_last_error() and counted. This one is found by the scheduler while no fiber runs;
// `who` is the thread it is charged to.
void fault_waiting(Fiber *who, Site at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void report_launch(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

// barrier.cpp / warp.cpp: resolving a round in which no fiber could run.
bool release_barrier();     // false after a fault
void diagnose_collective(); // faults: some collective can never complete
bool named_block_end();     // false after a fault: a warp arrived at a named barrier in part
// What a thread is doing, for fault messages (warp.cpp).
const char *describe_wait(const Fiber *f, char *buf, size_t n);

// pipeline.cpp
void cp_thread_exit(Fiber *f);

// mbarrier.cpp: waits that can no longer complete, for the deadlock report (appends to what).
void mbar_describe_wait(const Fiber &f, char *what, size_t n);
void mbar_block_start();
// Completes the phase when no arrival and no byte is missing (a fault when TMA copies that complete on
// it are still in flight: expect_tx too small, M3); false after a fault. `landing`: the issuing thread
// of the copy that just landed (the scheduler runs it), null inside a thread.
bool mbar_try_complete(Mbar &m, Fiber *landing, Site at);
Mbar &mbar_lookup(Site at, const char *op, uint64_t *bar);

// tma.cpp
void tma_block_start();
bool tma_land_all();  // lands every copy in flight; false when there was none
bool tma_block_end(); // false after a fault: copies in flight at the end of the block (T3)
const std::vector<TmaRegion> &tma_regions();
uintptr_t swizzle_address(uintptr_t a, unsigned span);
const Site *tma_in_flight(const void *p, size_t n); // the issue of a copy in flight into [p, p + n), or null

// warpgroup.cpp, wgmma.cpp
void wg_collective(const WgOpKind &op, Site at, void *arg, uint64_t k0, uint64_t k1, uint64_t k2);
void warpgroups_prepare();     // per launch
void warpgroups_block_start(); // per block
bool wg_diagnose();            // nothing can run: true after reporting a stuck warpgroup collective
bool wgmma_wake_waiters();     // nothing can run: wakes the threads waiting in wait_group; false if none
void wgmma_thread_exit(Fiber *f);
void wgmma_block_start();
const float *e4m3_values(); // rt/mma.cpp: the 256 E4M3 codes decoded

// smem.cpp: the async proxy's view of shared memory (W7) and the reads of operations in flight (W6).
void async_shadow_store(const void *p, size_t n);
void async_fence();
void async_check_read(Site at, const char *what, const void *p, size_t n, Fiber *who);
void async_check_overwrite(Site at, const char *what, uintptr_t lo, uintptr_t hi);
// The emulator's shared-memory window (what __cvta_generic_to_shared gives on a GPU): dynamic shared
// memory from 0 (or SIMT_DYN_SMEM_OFFSET), static shared memory after it; the low 10 bits equal the
// host address's.
bool smem_window(const void *p, uint32_t *addr);
void *smem_from_window(uint32_t addr, size_t n);

// guard.cpp: a clear message for a fiber stack overflow.
void guard_install();

// smem.cpp
void smem_launch(size_t dynamic_bytes);
// Whether [p, p+n) lies in shared memory; `known` is false when the build cannot tell (ASan).
bool is_shared(const void *p, size_t n, bool *known);
void smem_poison();
void smem_launch_end();

// wmma.cpp
void wmma_init(uint64_t seed);

// san.h wraps the sanitizer interfaces.

} // namespace simt::rt
