// sched.cpp: launches, blocks and rounds.
//
// A launch runs its blocks one after another. A block runs in rounds: every ready fiber is
// resumed once, in the policy's order, and runs until it waits, exits or faults; fibers woken
// during a round (a completed warp collective) run in the next one. When a round ends with no
// fiber ready, asynchronous work lands (wgmma results, TMA copies), the block is done, a barrier is released,
// or nothing can ever run again: a deadlock, reported as a fault.
#include <mutex>
#include <unordered_map>

#include "internal.h"
#include "san.h"

namespace simt::rt {

// splitmix64: small, seedable, identical on every platform.
static uint64_t rng_state;
void rng_seed(uint64_t seed) { rng_state = seed; }
static uint64_t rng_next() {
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void run_round() {
    std::vector<uint64_t> &now = B.ready_now;
    unsigned words = (unsigned)now.size();
    switch (config.policy) {
    case SIMT_SCHED_FWD:
        for (unsigned w = 0; w < words; w++)
            while (uint64_t bits = now[w]) {
                now[w] = bits & (bits - 1);
                resume(&B.fibers[w * 64 + __builtin_ctzll(bits)]);
                if (B.faulted) return;
            }
        break;
    case SIMT_SCHED_REV:
        for (unsigned w = words; w-- > 0;)
            while (uint64_t bits = now[w]) {
                unsigned i = 63 - __builtin_clzll(bits);
                now[w] = bits & ~(1ull << i);
                resume(&B.fibers[w * 64 + i]);
                if (B.faulted) return;
            }
        break;
    case SIMT_SCHED_RAND: {
        static std::vector<unsigned> order;
        order.clear();
        for (unsigned w = 0; w < words; w++) {
            for (uint64_t bits = now[w]; bits; bits &= bits - 1)
                order.push_back(w * 64 + __builtin_ctzll(bits));
            now[w] = 0;
        }
        for (size_t i = order.size(); i > 1; i--) std::swap(order[i - 1], order[rng_next() % i]);
        for (unsigned i : order) {
            resume(&B.fibers[i]);
            if (B.faulted) return;
        }
        break;
    }
    }
}

static bool none_ready() {
    for (uint64_t w : B.ready_next)
        if (w) return false;
    return true;
}

static void run_block(void (*body)(void *), void *ctx) {
    fibers_reset(body, ctx);
    smem_poison();
    san::release(&B.block_start); // the launch and the poisoning happen before every thread starts
    for (;;) {
        run_round();
        if (B.faulted) break;
        if (none_ready()) {
            if (B.n_exited == B.n) {
                if (tma_block_end()) named_block_end();
                break;
            }
            // Asynchronous work lands as late as it may: when no thread can run any more, first the
            // wgmma results of threads waiting in wait_group, then the TMA copies in flight.
            if (wgmma_wake_waiters() || tma_land_all()) {
                if (B.faulted) break;
                B.ready_now.swap(B.ready_next);
                continue;
            }
            if (wg_diagnose()) break;
            bool in_collective = false;
            for (unsigned w = 0; w < B.nwarps; w++) in_collective |= B.warps[w].used != 0;
            if (in_collective) {
                diagnose_collective();
                break;
            }
            if (!release_barrier()) break;
        }
        B.ready_now.swap(B.ready_next);
    }
    san::acquire(&B.block_sync); // the block's accesses happen before the next block's
}

// Dynamic shared memory opted in per kernel (set_max_dynamic_smem), as the CUDA runtime keeps it.
static std::mutex opt_in_lock;
static std::unordered_map<const void *, size_t> &opt_in() {
    static std::unordered_map<const void *, size_t> m;
    return m;
}
static constexpr size_t kSmemDefault = 48 * 1024, kSmemOptInMax = 227 * 1024;

int set_max_dynamic_smem(const void *kernel, size_t bytes) {
    if (bytes > kSmemOptInMax) {
        report_launch("cudaFuncSetAttribute(MaxDynamicSharedMemorySize, %zu): above 227 KB", bytes);
        return 1;
    }
    std::lock_guard<std::mutex> lock(opt_in_lock);
    opt_in()[kernel] = bytes;
    return 0;
}

static bool valid_config(const void *kernel, dim3 grid, dim3 block, size_t smem) {
    uint64_t threads = (uint64_t)block.x * block.y * block.z;
    if (threads == 0 || threads > 1024 || block.z > 64) {
        report_launch("invalid block (%u,%u,%u): 1 to 1024 threads, blockDim.z <= 64", block.x, block.y,
                      block.z);
        return false;
    }
    if (grid.x == 0 || grid.y == 0 || grid.z == 0 || grid.x > 0x7fffffffu || grid.y > 65535 ||
        grid.z > 65535) {
        report_launch("invalid grid (%u,%u,%u)", grid.x, grid.y, grid.z);
        return false;
    }
    // Above 48 KB a kernel must have opted in (as the CUDA runtime requires); the largest opt-in of
    // sm_80/89/90 is 227 KB (sm_90). The per-architecture limits are launch-time checks of the nvcc
    // build (README).
    if (smem > kSmemOptInMax) {
        report_launch("dynamic shared memory of %zu bytes exceeds 227 KB", smem);
        return false;
    }
    if (smem > kSmemDefault) {
        size_t allowed = kSmemDefault;
        {
            std::lock_guard<std::mutex> lock(opt_in_lock);
            auto it = opt_in().find(kernel);
            if (it != opt_in().end() && it->second > allowed) allowed = it->second;
        }
        if (smem > allowed) {
            report_launch(
                "dynamic shared memory of %zu bytes exceeds the kernel's %zu (48 KB unless it opted in: "
                "cudaFuncSetAttribute(MaxDynamicSharedMemorySize))",
                smem, allowed);
            return false;
        }
    }
    return true;
}

int launch(void (*body)(void *), void *ctx, const void *kernel, dim3 grid, dim3 block, size_t smem,
           const int *flavour) {
    (void)flavour; // referenced only so that mixing sanitizer flavours fails to link
    static thread_local bool launching;
    if (launching) {
        report_launch("a launch from inside a kernel (dynamic parallelism) is not supported");
        return 1;
    }
    // Shared memory and the fiber pool are process-wide: launches from several OS threads queue.
    static std::mutex one_launch_at_a_time;
    std::lock_guard<std::mutex> lock(one_launch_at_a_time);
    struct Flag {
        Flag() { launching = true; }
        ~Flag() { launching = false; }
    } flag;
    config_init();
    stats.launches++;
    if (!valid_config(kernel, grid, block, smem)) return 1;
    block_dim = block;
    grid_dim = grid;
    fibers_prepare(block.x * block.y * block.z, block);
    smem_launch(smem);
    uint64_t total = (uint64_t)grid.x * grid.y * grid.z;
    uint64_t start = config.policy == SIMT_SCHED_RAND ? rng_next() % total : 0;
    for (uint64_t k = 0; k < total; k++) {
        // Block order follows the policy too: rev runs the last block first, rand starts anywhere.
        uint64_t i = config.policy == SIMT_SCHED_REV ? total - 1 - k : (start + k) % total;
        block_idx =
            uint3{(unsigned)(i % grid.x), (unsigned)(i / grid.x % grid.y), (unsigned)(i / grid.x / grid.y)};
        run_block(body, ctx);
        if (B.faulted) break;
        stats.blocks++;
    }
    smem_launch_end();
    return B.faulted ? 1 : 0;
}

} // namespace simt::rt
