// fiber.cpp: the pool of fibers (one per CUDA thread of a block, reused block after block and
// launch after launch) and the two directions of a switch, with the sanitizer annotations.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>

#include "internal.h"
#include "san.h"

namespace simt::rt {

ThreadRegs *cur = nullptr;
uint3 block_idx;
dim3 block_dim, grid_dim;
Block B;

static void (*g_body)(void *); // the launch's kernel closure
static void *g_body_ctx;
static const void *sched_stack_bottom; // ASan: the scheduler's stack, learnt at the first switch
static size_t sched_stack_size;

// Fiber stacks are filled with 0xFF before every block (NaN as f32, f16, e4m3, like shared memory), so
// a kernel reading a register it never set (an accumulator never zeroed) reads NaN, not a dead local
// or the previous block's value. Only the part that was in use: from a margin below the lowest stack
// pointer seen at a switch (kernel frames deeper than every switch point within the margin) to the
// top; a fresh stack's top kFirstPoison bytes.
static constexpr size_t kFirstPoison = 64 * 1024, kPoisonMargin = 16 * 1024;
static void poison_stack(Fiber &f) {
    char *lo = (char *)f.stack_lo, *top = lo + f.stack_size;
    char *from = f.stack_dirty - lo > (ptrdiff_t)kPoisonMargin ? f.stack_dirty - kPoisonMargin : lo;
    san::ignore_begin(); // not an access of any CUDA thread
    memset(from, 0xff, (size_t)(top - from));
    san::ignore_end();
    f.stack_dirty = top;
}

static void fiber_main(void *p) {
    Fiber *f = static_cast<Fiber *>(p);
    san::asan_finish(nullptr, &sched_stack_bottom, &sched_stack_size);
    san::acquire(&B.block_start);
    g_body(g_body_ctx);
    cp_thread_exit(f); // faults if copies are still in flight
    wgmma_thread_exit(f);
    f->state = State::exited;
    B.n_exited++;
    B.warps[f->warp].exited |= 1u << f->lane;
    leave(f);
}

void fibers_prepare(unsigned n, dim3 block) {
    size_t old = B.fibers.size();
    if (old < n) {
        guard_install();
        B.fibers.resize(n); // only between launches: no fiber is live
        for (size_t i = old; i < n; i++) {
            Fiber &f = B.fibers[i];
            f.stack_size = config.stack_bytes;
            f.stack_lo = stack_alloc(f.stack_size);
            // A fresh stack reads as zeros: poison its top the first time too.
            f.stack_dirty =
                (char *)f.stack_lo + (f.stack_size > kFirstPoison ? f.stack_size - kFirstPoison : 0);
            f.tsan_fiber = san::tsan_create();
            f.tsan_engine = san::tsan_create();
        }
    }
    B.n = n;
    for (unsigned i = 0; i < n; i++) {
        Fiber &f = B.fibers[i];
        f.linear = i;
        f.tid = uint3{i % block.x, i / block.x % block.y, i / (block.x * block.y)};
        f.warp = i / 32;
        f.lane = i % 32;
    }
    B.nwarps = (n + 31) / 32;
    B.warps.resize(B.nwarps);
    for (unsigned w = 0; w < B.nwarps; w++) {
        unsigned lanes = n - w * 32 < 32 ? n - w * 32 : 32;
        B.warps[w].exists = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
    }
    B.ready_now.assign((n + 63) / 64, 0);
    B.ready_next.assign((n + 63) / 64, 0);
    B.sched_tsan = san::tsan_current();
    warpgroups_prepare();
}

void fibers_reset(void (*body)(void *), void *ctx) {
    g_body = body;
    g_body_ctx = ctx;
    std::fill(B.ready_now.begin(), B.ready_now.end(), 0);
    std::fill(B.ready_next.begin(), B.ready_next.end(), 0);
    for (unsigned i = 0; i < B.n; i++) {
        Fiber &f = B.fibers[i];
        f.state = State::ready;
        f.coll = nullptr;
        f.copies.clear();
        f.group = 0;
        f.wg_fenced = false;
        f.wg_group = 0;
        f.wg_npending = 0;
        f.asan_fake_stack = nullptr;
        san::asan_unpoison(f.stack_lo, f.stack_size);
        poison_stack(f);
        ctx_make(&f.ctx, f.stack_lo, f.stack_size, fiber_main, &f);
        B.ready_now[i / 64] |= 1ull << (i % 64);
#if defined(SIMT_TSAN)
        char who[64], name[96]; // how TSan reports name the fibers
        snprintf(who, sizeof who, "block (%u,%u,%u) thread (%u,%u,%u)", block_idx.x, block_idx.y, block_idx.z,
                 f.tid.x, f.tid.y, f.tid.z);
        san::tsan_name(f.tsan_fiber, who);
        snprintf(name, sizeof name, "cp.async copies of %s", who);
        san::tsan_name(f.tsan_engine, name);
#endif
    }
    for (unsigned w = 0; w < B.nwarps; w++) {
        B.warps[w].exited = B.warps[w].used = 0;
        for (unsigned id = 0; id < 16; id++) B.warps[w].named_len[id] = 0;
    }
    for (NamedBar &nb : B.named) nb.n = nb.count = nb.n_arrived = 0;
    B.n_exited = 0;
    B.bar_gen = 0;
    B.sync_epoch = 0;
    mbar_block_start();
    tma_block_start();
    wgmma_block_start();
    warpgroups_block_start();
    B.faulted = false;
    B.abort_in = nullptr;
}

// TSan: no synchronising switch: what the launching thread did reaches the fibers through
// block_start (acquired once, when a fiber starts), and fibers are ordered only by the emulator's
// own release/acquire pairs, never by the order in which the scheduler happened to run them.
void resume(Fiber *f) {
    cur = f;
    san::tsan_switch(f->tsan_fiber, false);
    void *fake = nullptr;
    san::asan_start(&fake, f->stack_lo, f->stack_size);
    ctx_swap(&B.sched_ctx, &f->ctx);
    san::asan_finish(fake, nullptr, nullptr);
    cur = nullptr;
    stats.switches += 2;
}

// Everything a fiber did so far happens before the end of its block (the scheduler acquires
// block_sync there, and only there, before it reuses shared memory for the next block).
static void to_scheduler(Fiber *f, void **fake_save) {
    char here;
    if (&here < f->stack_dirty) f->stack_dirty = &here;
    san::release(&B.block_sync);
    san::tsan_switch(B.sched_tsan, false);
    san::asan_start(fake_save, sched_stack_bottom, sched_stack_size);
    ctx_swap(&f->ctx, &B.sched_ctx);
}

void wait_here(Fiber *f) {
    to_scheduler(f, &f->asan_fake_stack);
    san::asan_finish(f->asan_fake_stack, &sched_stack_bottom, &sched_stack_size);
    if (B.abort_in == f) abort(); // SIMT_ABORT: stop here, with this thread's stack
}

void leave(Fiber *f) {
    to_scheduler(f, nullptr);
    abort(); // an exited or faulted fiber is never resumed
}

void wake(Fiber *f) {
    f->state = State::ready;
    B.ready_next[f->linear / 64] |= 1ull << (f->linear % 64);
}

void yield_now() {
    Fiber *f = current();
    wake(f);
    wait_here(f);
}

} // namespace simt::rt
