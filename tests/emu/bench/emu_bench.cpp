// make emu-bench: the emulator's micro-benchmark. Prints fiber switches per second (the bar is
// 20 million on one core) for the raw context switch and for the emulator's rendezvous, and the
// time of a workload shaped like the SDPA kernel at the mission shape (128 CTAs x 16 KV tiles), and
// the cost of one FP8 mma.sync collective (bar: 10 us) and of one m64n64k32 FP8 wgmma with its fence,
// commit and wait (bar: 50 us).
// A benchmark, not a test: it prints and always exits 0 unless a launch faults.
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../../../kernels/emu/rt/ctx.h"
#include "emu/simt.h"

extern "C" int bench_barrier_loop(int blocks, int threads, int iters);
extern "C" int bench_shuffle_loop(float *out, int blocks, int iters);
extern "C" int bench_mma_fp8_loop(float *out, int iters);
extern "C" int bench_wgmma_fp8_loop(float *out, int iters);
extern "C" int bench_tile_loop(const uint8_t *kv, float *out, int blocks, int tiles);

using simt::rt::Ctx;

static double now() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
// This process's CPU time: what a collective costs when other jobs share the cores (wall time then
// includes their turns).
static double cpu_now() {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// Raw switches: main <-> one fiber, which switches straight back forever.
static Ctx main_ctx, fiber_ctx;
static void ping(void *) {
    for (;;) simt::rt::ctx_swap(&fiber_ctx, &main_ctx);
}

static double raw_switches_per_s(long rounds) {
    void *stack = simt::rt::stack_alloc(64 * 1024);
    simt::rt::ctx_make(&fiber_ctx, stack, 64 * 1024, ping, nullptr);
    double t0 = now();
    for (long i = 0; i < rounds; i++) simt::rt::ctx_swap(&main_ctx, &fiber_ctx);
    double dt = now() - t0;
    simt::rt::stack_free(stack, 64 * 1024);
    return 2.0 * (double)rounds / dt;
}

// Runs fn, returns seconds; prints the emulator's switch rate during it.
template <class F> static double timed(const char *what, F fn) {
    simt_stats_t a, b;
    simt_get_stats(&a);
    double t0 = now();
    if (fn() != 0) {
        fprintf(stderr, "emu-bench: %s faulted: %s\n", what, simt_last_error());
        exit(1);
    }
    double dt = now() - t0;
    simt_get_stats(&b);
    double sw = (double)(b.switches - a.switches);
    printf("  %-44s %8.3f s  %6.1f M switches/s  (%.0f barriers, %.0f collectives)\n", what, dt,
           sw / dt / 1e6, (double)(b.barriers - a.barriers), (double)(b.collectives - a.collectives));
    return dt;
}

int main() {
    simt_set_schedule(SIMT_SCHED_FWD, 1);
    printf("emu-bench (%s fiber switch)\n",
#if defined(SIMT_FIBER_UCONTEXT)
           "ucontext"
#else
           "hand-written"
#endif
    );
    double raw = raw_switches_per_s(5000000);
    printf("  raw context switches (main <-> fiber)      %6.1f M switches/s (%.1f ns each)  [bar: 20 M/s]\n",
           raw / 1e6, 1e9 / raw);
    timed("__syncthreads, 4 blocks x 128 threads x 5000", [] { return bench_barrier_loop(4, 128, 5000); });
    float *out = (float *)aligned_alloc(256, 128 * 128 * sizeof(float));
    timed("warp_sum (5 shuffles), 4 blocks x 2000", [&] { return bench_shuffle_loop(out, 4, 2000); });
    const int mma_iters = 100000;
    const double mma_s =
        timed("mma.sync m16n8k32 e4m3, 1 warp x 100000", [&] { return bench_mma_fp8_loop(out, mma_iters); });
    printf("  m16n8k32 e4m3 collective                   %8.2f us each  [bar: 10 us]\n",
           mma_s / mma_iters * 1e6);
    const int wgmma_iters = 2000;
    const double wgmma_cpu0 = cpu_now();
    const double wgmma_s = timed("wgmma m64n64k32 e4m3 (SS), 1 warpgroup x 2000",
                                 [&] { return bench_wgmma_fp8_loop(out, wgmma_iters); });
    printf("  m64n64k32 e4m3 wgmma collective            %8.2f us CPU each (%.2f us wall)  [bar: 50 us]\n",
           (cpu_now() - wgmma_cpu0) / wgmma_iters * 1e6, wgmma_s / wgmma_iters * 1e6);
    uint8_t *kv = (uint8_t *)aligned_alloc(256, 4096);
    for (int i = 0; i < 4096; i++) kv[i] = (uint8_t)(i * 13);
    timed("SDPA-shaped CTA loop, 128 blocks x 16 tiles", [&] { return bench_tile_loop(kv, out, 128, 16); });
    free(out);
    free(kv);
    return 0;
}
