// The CUDA runtime behind backend.h: device memory, one explicit stream, cudaEvents, L2 flush and
// a per-sample SM clock. With device_probe.cu, the only host code that includes CUDA headers, so
// the harness core stays plain C11 and cannot tell which backend it drives.
//
// Module loading: since CUDA 12.2 kernels load lazily, at their first launch, and loading may
// synchronise the context. A first launch queued behind the blocking kernel would then wait for
// the spinning kernel, which waits for the host: a hang until the 10 s timeout (NVBench issues 136
// and 240). So nothing is launched for the first time inside a blocked region: open() loads the
// helper kernels (cudaFuncGetAttributes, then one unblocked launch of each), the harness checks
// every variant (an unblocked launch) before timing it, and warm-up samples never block.
// CUDA_MODULE_LOADING is left as the user set it.
//
// One timed sample (the order of NVBench's cold measurement, nvbench/detail/measure_cold*):
//   1. cold L2: cudaMemsetAsync over a buffer of 2 x cudaDevAttrL2CacheSize bytes. Twice the size
//      because L2 is split into address-hashed partitions: writing exactly its capacity does not
//      guarantee that every line of the kernel's working set is evicted. (warm L2: no flush.)
//   2. reset the timestamp slots; cudaStreamSynchronize: nothing of ours is still running.
//   3. a one-thread blocking kernel spins on a flag in mapped host memory, so the stream cannot
//      start the timed work before all of it is enqueued; otherwise the start event could fire
//      before the launch is queued and the sample would include host launch overhead. Not for
//      warm-ups, nor with --no-blocking-kernel (profilers that serialise launches would stall on
//      it until the timeout).
//   4. timestamps kernel (SM clock and %globaltimer on SM 0), start event, the launcher under
//      test, stop event, timestamps kernel;
//   5. release the flag, cudaStreamSynchronize, read the event interval and the timestamps.
// SM clock = delta clock64 / delta %globaltimer on SM 0. The timestamps kernel runs one one-thread
// block per SM and only the first block that lands on SM 0 writes, because clock64() is a per-SM
// counter: two readings are comparable only on the same SM. When no block landed on SM 0, or the
// interval is too short for %globaltimer's resolution, that sample's clock is NaN (unknown).
// cudaEventElapsedTime is documented to resolve about 0.5 us; what it returns are whole ticks of the
// device's timer (32 ns on the first H100: every sample of its campaigns within 5 ps of a multiple),
// which the backend rounds to the nanosecond. Short kernels' samples tie; the report names the tick.
//
// Every CUDA call is checked; a failure is reported with the call's text and the runtime's error
// name and string. Nothing about the device is assumed: what cannot be read is NaN or -1.
#include <cuda_runtime.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "backend.h"
#include "device_probe.h"

namespace {

constexpr unsigned long long kBlockTimeoutNs = 10ull * 1000ull * 1000ull * 1000ull; // 10 s
// Below this interval %globaltimer (updated every 32 ns to 1 us depending on the GPU) gives no
// meaningful clock rate.
constexpr unsigned long long kMinClockIntervalNs = 2000ull;

// Host-written, device-read flag of the blocking kernel (pinned, mapped host memory).
struct BlockFlag {
    int32_t release;   // host sets 1: the blocking kernel may finish
    int32_t timed_out; // the blocking kernel sets 1 when it gave up waiting
};

// Device-written timestamps of one sample (device memory, copied back after the sample).
struct Stamps {
    unsigned long long ns[2];
    unsigned long long clk[2];
    int claimed[2];
};

struct CudaBackend {
    int device;
    bool l2_cold, blocking_kernel;
    cudaStream_t stream;
    cudaEvent_t start, stop;
    void *flush;
    size_t flush_bytes;
    Stamps *d_stamps;
    BlockFlag *h_flag, *d_flag; // NULL when mapped host memory is unavailable (then: sync only)
    backend_device_t info;
};

// ---- helper kernels (host-side measurement code, not kernels under study) ---------------------
__device__ __forceinline__ unsigned long long global_ns() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__device__ __forceinline__ unsigned sm_id() {
    unsigned s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

__global__ void block_stream_kernel(BlockFlag *flag, unsigned long long timeout_ns) {
    const volatile int32_t *release = &flag->release;
    const unsigned long long t0 = global_ns();
    while (*release == 0) {
        if (global_ns() - t0 > timeout_ns) {
            *(volatile int32_t *)&flag->timed_out = 1;
            __threadfence_system();
            return;
        }
    }
}

__global__ void sm0_timestamps_kernel(Stamps *s, int slot) {
    if (sm_id() != 0) return;
    if (atomicCAS(&s->claimed[slot], 0, 1) != 0) return; // several blocks may land on SM 0
    s->clk[slot] = (unsigned long long)clock64();
    s->ns[slot] = global_ns();
}

// ---- backend operations ----------------------------------------------------------------------------
const sdpa_kernel_entry_t *cuda_kernels() { return sdpa_kernels_cuda; }

void cuda_close(void *self) {
    CudaBackend *b = static_cast<CudaBackend *>(self);
    if (!b) return;
    // Teardown: errors here cannot change any result already measured, so they are not reported.
    if (b->stream) (void)cudaStreamSynchronize(b->stream);
    if (b->h_flag) (void)cudaFreeHost(b->h_flag);
    if (b->d_stamps) (void)cudaFree(b->d_stamps);
    if (b->flush) (void)cudaFree(b->flush);
    if (b->start) (void)cudaEventDestroy(b->start);
    if (b->stop) (void)cudaEventDestroy(b->stop);
    if (b->stream) (void)cudaStreamDestroy(b->stream);
    free(b);
}

// Loads the helper kernels' module now, outside any blocked region (see the top of this file).
int preload_helpers(CudaBackend *b, char *err, size_t errlen) {
    cudaFuncAttributes fa;
    CUDA_TRY(cudaFuncGetAttributes(&fa, block_stream_kernel));
    CUDA_TRY(cudaFuncGetAttributes(&fa, sm0_timestamps_kernel));
    sm0_timestamps_kernel<<<1, 1, 0, b->stream>>>(b->d_stamps, 0);
    CUDA_TRY(cudaGetLastError());
    if (b->d_flag) {
        b->h_flag->release = 1; // returns at once: nothing is held
        block_stream_kernel<<<1, 1, 0, b->stream>>>(b->d_flag, kBlockTimeoutNs);
        CUDA_TRY(cudaGetLastError());
    }
    CUDA_TRY(cudaStreamSynchronize(b->stream));
    return 0;
}

int open_device(CudaBackend *b, char *err, size_t errlen) {
    // The index is within CUDA_VISIBLE_DEVICES (the runtime renumbers), as nvidia-smi -i is not.
    CUDA_TRY(cudaSetDevice(b->device));
    CUDA_TRY(cudaFree(nullptr)); // creates the context now, not inside the first measurement
    if (cuda_device_info(b->device, &b->info, err, errlen) != 0) return -1;
    CUDA_TRY(cudaStreamCreateWithFlags(&b->stream, cudaStreamNonBlocking));
    CUDA_TRY(cudaEventCreate(&b->start));
    CUDA_TRY(cudaEventCreate(&b->stop));
    CUDA_TRY(cudaMalloc(reinterpret_cast<void **>(&b->d_stamps), sizeof(Stamps)));
    // Cleared before its first use (preload_helpers' launch reads `claimed`): initcheck reports a
    // read of never-written device memory, and the harness must give it nothing to report.
    CUDA_TRY(cudaMemset(b->d_stamps, 0, sizeof(Stamps)));
    b->flush_bytes = b->info.l2_bytes > 0 ? 2 * (size_t)b->info.l2_bytes : 0;
    if (b->l2_cold && b->flush_bytes == 0) {
        snprintf(err, errlen, "--l2 cold: the device reports no L2 cache size (cudaDevAttrL2CacheSize = 0)");
        return -1;
    }
    if (b->flush_bytes) CUDA_TRY(cudaMalloc(&b->flush, b->flush_bytes));
    b->info.l2_flush_bytes = b->l2_cold ? b->flush_bytes : 0;
    int can_map = 0;
    CUDA_TRY(cudaDeviceGetAttribute(&can_map, cudaDevAttrCanMapHostMemory, b->device));
    if (can_map) {
        CUDA_TRY(
            cudaHostAlloc(reinterpret_cast<void **>(&b->h_flag), sizeof(BlockFlag), cudaHostAllocMapped));
        CUDA_TRY(cudaHostGetDevicePointer(reinterpret_cast<void **>(&b->d_flag), b->h_flag, 0));
    } else if (b->blocking_kernel) {
        fprintf(stderr, "sdpa-bench: the device cannot map host memory: no blocking kernel; the stream "
                        "is synchronised before each start event instead\n");
        b->blocking_kernel = false;
    }
    return preload_helpers(b, err, errlen);
}

void *cuda_open(const backend_options_t *opt, char *err, size_t errlen) {
    CudaBackend *b = static_cast<CudaBackend *>(calloc(1, sizeof(CudaBackend)));
    if (!b) {
        snprintf(err, errlen, "cuda backend: out of memory");
        return nullptr;
    }
    b->l2_cold = opt->l2_cold;
    b->blocking_kernel = opt->blocking_kernel;
    b->device = opt->device;
    if (open_device(b, err, errlen) != 0) {
        cuda_close(b);
        return nullptr;
    }
    return b;
}

void *cuda_alloc(void *self, size_t bytes, char *err, size_t errlen) {
    (void)self;
    void *p = nullptr;
    const cudaError_t e = cudaMalloc(&p, bytes ? bytes : 1);
    if (e != cudaSuccess) {
        cuda_fail(err, errlen, "cudaMalloc", e);
        return nullptr;
    }
    return p;
}

void cuda_release(void *self, void *dev) {
    (void)self;
    if (dev) (void)cudaFree(dev); // teardown, see cuda_close
}

int cuda_copy(CudaBackend *b, void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, char *err,
              size_t errlen) {
    // The stream is non-blocking, so a legacy-stream cudaMemcpy would not be ordered after its work.
    CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, kind, b->stream));
    CUDA_TRY(cudaStreamSynchronize(b->stream));
    return 0;
}

int cuda_copy_to(void *self, void *dev, const void *host, size_t bytes, char *err, size_t errlen) {
    return cuda_copy(static_cast<CudaBackend *>(self), dev, host, bytes, cudaMemcpyHostToDevice, err, errlen);
}

int cuda_copy_from(void *self, void *host, const void *dev, size_t bytes, char *err, size_t errlen) {
    return cuda_copy(static_cast<CudaBackend *>(self), host, dev, bytes, cudaMemcpyDeviceToHost, err, errlen);
}

int cuda_fill(void *self, void *dev, uint8_t value, size_t bytes, char *err, size_t errlen) {
    CudaBackend *b = static_cast<CudaBackend *>(self);
    CUDA_TRY(cudaMemsetAsync(dev, value, bytes, b->stream));
    CUDA_TRY(cudaStreamSynchronize(b->stream));
    return 0;
}

// The launcher's status as a message: for SDPA_ERR_LAUNCH the CUDA error it left set
// (SDPA_LAUNCH peeks, so cudaGetLastError still holds it), by name and text.
void launch_message(sdpa_status_t st, char *err, size_t errlen) {
    const cudaError_t e = st == SDPA_ERR_LAUNCH ? cudaGetLastError() : cudaSuccess;
    if (e != cudaSuccess)
        cuda_fail(err, errlen, "kernel launch", e);
    else
        snprintf(err, errlen, "%s", sdpa_status_str(st));
}

sdpa_status_t cuda_launch(void *self, sdpa_launch_fn fn, sdpa_args_t *args, char *err, size_t errlen) {
    CudaBackend *b = static_cast<CudaBackend *>(self);
    args->stream = b->stream;
    const sdpa_status_t st = fn(args);
    if (st != SDPA_OK) {
        launch_message(st, err, errlen);
        return st;
    }
    // Execution errors (illegal address, ...) surface only when the stream is synchronised.
    const cudaError_t e = cudaStreamSynchronize(b->stream);
    if (e != cudaSuccess) {
        cuda_fail(err, errlen, "kernel execution (cudaStreamSynchronize)", e);
        return SDPA_ERR_LAUNCH;
    }
    return SDPA_OK;
}

// A kernel launcher with its arguments as work (backend_work_t), so that kernels, peers and
// ceilings are timed by one code path.
struct KernelWork {
    sdpa_launch_fn fn;
    sdpa_args_t *args;
};

int run_kernel(void *ctx, void *stream, char *err, size_t errlen) {
    KernelWork *k = static_cast<KernelWork *>(ctx);
    k->args->stream = stream;
    const sdpa_status_t st = k->fn(k->args);
    if (st == SDPA_OK) return 0;
    launch_message(st, err, errlen);
    return -1;
}

// Steps 3-4 of a sample: everything enqueued while the stream is blocked (block: false for
// warm-ups and --no-blocking-kernel). On failure the caller still releases the blocking kernel and
// drains the stream.
int enqueue_timed(CudaBackend *b, bool block, const backend_work_t *w, char *err, size_t errlen) {
    if (block) {
        block_stream_kernel<<<1, 1, 0, b->stream>>>(b->d_flag, kBlockTimeoutNs);
        CUDA_TRY(cudaGetLastError());
    }
    sm0_timestamps_kernel<<<(unsigned)b->info.sm_count, 1, 0, b->stream>>>(b->d_stamps, 0);
    CUDA_TRY(cudaGetLastError());
    CUDA_TRY(cudaEventRecord(b->start, b->stream));
    if (w->run(w->ctx, b->stream, err, errlen) != 0) return -1;
    CUDA_TRY(cudaEventRecord(b->stop, b->stream));
    sm0_timestamps_kernel<<<(unsigned)b->info.sm_count, 1, 0, b->stream>>>(b->d_stamps, 1);
    CUDA_TRY(cudaGetLastError());
    return 0;
}

double clock_mhz(const Stamps &s) {
    if (!s.claimed[0] || !s.claimed[1] || s.ns[1] <= s.ns[0]) return NAN;
    const unsigned long long dns = s.ns[1] - s.ns[0];
    if (dns < kMinClockIntervalNs) return NAN;
    return (double)(s.clk[1] - s.clk[0]) / (double)dns * 1e3; // cycles per ns = GHz
}

int cuda_sample_work(void *self, const backend_work_t *w, bool warmup, backend_sample_t *out, char *err,
                     size_t errlen) {
    CudaBackend *b = static_cast<CudaBackend *>(self);
    const bool block = b->d_flag && b->blocking_kernel && !warmup;
    if (b->l2_cold) CUDA_TRY(cudaMemsetAsync(b->flush, 0, b->flush_bytes, b->stream));
    CUDA_TRY(cudaMemsetAsync(b->d_stamps, 0, sizeof(Stamps), b->stream));
    CUDA_TRY(cudaStreamSynchronize(b->stream));
    if (block) {
        // The stream is idle (synchronised above), so no blocking kernel is reading the flag.
        b->h_flag->release = 0;
        b->h_flag->timed_out = 0;
        std::atomic_thread_fence(std::memory_order_seq_cst);
    }
    const int rc = enqueue_timed(b, block, w, err, errlen);
    if (block) {
        *reinterpret_cast<volatile int32_t *>(&b->h_flag->release) = 1;
        std::atomic_thread_fence(std::memory_order_seq_cst);
    }
    const cudaError_t sync = cudaStreamSynchronize(b->stream);
    if (rc != 0) return -1;
    if (sync != cudaSuccess) return cuda_fail(err, errlen, "cudaStreamSynchronize (timed sample)", sync);
    if (block && *reinterpret_cast<volatile int32_t *>(&b->h_flag->timed_out)) {
        snprintf(err, errlen,
                 "the blocking kernel timed out after %.0f s before the host released it: "
                 "the sample cannot be trusted",
                 kBlockTimeoutNs * 1e-9);
        return -1;
    }
    float ms = 0.0f;
    CUDA_TRY(cudaEventElapsedTime(&ms, b->start, b->stop));
    Stamps s;
    CUDA_TRY(cudaMemcpyAsync(&s, b->d_stamps, sizeof s, cudaMemcpyDeviceToHost, b->stream));
    CUDA_TRY(cudaStreamSynchronize(b->stream));
    out->elapsed_us = backend_keep_us((double)ms * 1e3);
    out->sm_clock_mhz = backend_keep_mhz(clock_mhz(s));
    return 0;
}

int cuda_sample(void *self, sdpa_launch_fn fn, sdpa_args_t *args, bool warmup, backend_sample_t *out,
                char *err, size_t errlen) {
    KernelWork k = {fn, args};
    const backend_work_t w = {run_kernel, &k};
    return cuda_sample_work(self, &w, warmup, out, err, errlen);
}

int cuda_run_work(void *self, const backend_work_t *w, char *err, size_t errlen) {
    CudaBackend *b = static_cast<CudaBackend *>(self);
    const int rc = w->run(w->ctx, b->stream, err, errlen);
    const cudaError_t e = cudaStreamSynchronize(b->stream); // drained even when the work failed
    if (rc != 0) return -1;
    if (e != cudaSuccess) return cuda_fail(err, errlen, "work execution (cudaStreamSynchronize)", e);
    return 0;
}

int cuda_copy_d2d(void *self, void *dst, const void *src, size_t bytes, void *stream, char *err,
                  size_t errlen) {
    (void)self;
    CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, static_cast<cudaStream_t>(stream)));
    return 0;
}

uint64_t cuda_mem_bytes(void *self) {
    (void)self;
    size_t free_b = 0, total = 0;
    return cudaMemGetInfo(&free_b, &total) == cudaSuccess ? (uint64_t)total : 0;
}

int cuda_device(void *self, backend_device_t *out) {
    *out = static_cast<CudaBackend *>(self)->info;
    return 0;
}

int cuda_emulator(void *self, backend_emulator_t *out) {
    (void)self;
    (void)out;
    return -1;
}

} // namespace

extern "C" const backend_ops_t backend_cuda_ops = {
    "cuda",         "gpu",        cuda_kernels,  cuda_device_probe, cuda_open,        cuda_close,
    cuda_alloc,     cuda_release, cuda_copy_to,  cuda_copy_from,    cuda_fill,        cuda_launch,
    cuda_sample,    cuda_device,  cuda_emulator, cuda_run_work,     cuda_sample_work, cuda_copy_d2d,
    cuda_mem_bytes,
};
