// simt_rt.h: the part of the emulator's runtime (libsimt) that kernel code reaches through the
// shim's inline functions and macros. Everything here is internal to the emulator: kernels use
// CUDA names (threadIdx, __syncthreads, __shfl_sync, wmma::, __pipeline_*), never simt::rt.
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <cuda.h>
#include <vector_types.h>

// Flavour of the build, so that a kernel compiled with a sanitizer cannot be linked with a
// runtime built without it (the fiber switches would be invisible to the sanitizer).
// The runtime library of the TSan flavour is compiled without instrumentation but with
// SIMT_TSAN_RUNTIME: its own bookkeeping, shared by every fiber and the scheduler, must stay
// invisible to TSan (rt/san.h announces the accesses it makes on behalf of a CUDA thread).
#if defined(SIMT_TSAN_RUNTIME)
#define SIMT_TSAN 1
#endif
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SIMT_TSAN 1
#endif
#if __has_feature(address_sanitizer)
#define SIMT_ASAN 1
#endif
#endif
#if defined(SIMT_TSAN) && defined(SIMT_ASAN)
#error "simt: build with either ThreadSanitizer or AddressSanitizer, not both"
#endif
#if defined(SIMT_TSAN)
#define SIMT_FLAVOUR_SYMBOL simt_flavour_tsan
#elif defined(SIMT_ASAN)
#define SIMT_FLAVOUR_SYMBOL simt_flavour_asan
#else
#define SIMT_FLAVOUR_SYMBOL simt_flavour_plain
#endif
extern "C" const int SIMT_FLAVOUR_SYMBOL;

// Static __shared__ variables live in the section "simt_shared" so that the runtime can find,
// poison and bounds-check them. AddressSanitizer puts no redzones on globals in a section named
// like a C identifier, so the ASan flavour leaves them in ordinary storage (no poisoning of
// static shared memory, no "destination is shared" check for cp.async there).
#if !defined(SIMT_ASAN) && !defined(SIMT_NO_SMEM_SECTION)
#define SIMT_SMEM_SECTION 1
#endif

namespace simt {

// The registers of one CUDA thread that kernel code reads (threadIdx and its derived ids).
struct ThreadRegs {
    uint3 tid;       // threadIdx
    unsigned linear; // x + y*blockDim.x + z*blockDim.x*blockDim.y
    unsigned warp;   // linear / 32
    unsigned lane;   // linear % 32
};

namespace rt {

extern ThreadRegs *cur; // the running CUDA thread; null outside a kernel
extern uint3 block_idx;
extern dim3 block_dim, grid_dim;

// A source position: every intrinsic that can fault or wait records its caller's.
struct Site {
    const char *file;
    int line;
};

// Reports a fault at `at` for the current thread and abandons the launch (never returns).
[[noreturn]] void fault(Site at, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

// ---- block barrier ----------------------------------------------------------------------------
// Waits until every thread of the block arrives at the same barrier; returns how many threads
// passed a non-zero predicate (for __syncthreads_count/_and/_or).
unsigned block_barrier(Site at, int pred);

// ---- warp collectives ---------------------------------------------------------------------------
// What the lane that completes a collective sees: every participant's own argument (a pointer
// into its stack frame, indexed by lane) and the arguments all of them had to pass identically.
struct Gather {
    unsigned mask;
    uint64_t key[3];
    void *arg[32];
};
// One kind of collective: its name in messages and the work done once all lanes have arrived.
// per_lane: the collective orders no memory between its lanes (ldmatrix, stmatrix, mma.sync, movmatrix,
// WMMA: CUDA orders memory between lanes only through __syncwarp or a barrier); the memory it touches
// is announced to ThreadSanitizer as each lane's own access (access_as_lane), at the kernel line.
// Without it (shuffles, votes, reductions, __syncwarp) the lanes synchronise.
struct CollOp {
    const char *name;
    void (*complete)(const Gather &g);
    bool per_lane = false;
};
// Rendezvous of exactly the lanes in `mask` at the same call (same site, op and mask); faults when
// a named lane is elsewhere. `key` values must agree across lanes.
void warp_collective(const CollOp &op, Site at, unsigned mask, void *arg, uint64_t k0 = 0, uint64_t k1 = 0,
                     uint64_t k2 = 0, void *pc = nullptr);
// Inside a per-lane collective's completion: announces [p, p + n) as read (or written) by `lane` of
// the completing warp, at the code address that lane's collective was called from (TSan; nothing
// otherwise).
void access_as_lane(unsigned lane, const void *p, size_t n, bool write);
// ThreadSanitizer ignores the running thread's accesses between tsan_ignore(true) and (false).
void tsan_ignore(bool on);

enum ShflMode { SHFL_IDX, SHFL_UP, SHFL_DOWN, SHFL_XOR };
// Shuffles 64 bits; a source lane outside the mask yields all-ones bits (NaN as float or half).
uint64_t shfl(Site at, unsigned mask, uint64_t bits, ShflMode mode, int b, int width);
enum VoteMode { VOTE_BALLOT, VOTE_ANY, VOTE_ALL };
unsigned vote(Site at, unsigned mask, int pred, VoteMode mode);
enum ReduceOp { RED_ADD, RED_MIN, RED_MAX, RED_AND, RED_OR, RED_XOR };
uint32_t reduce(Site at, unsigned mask, uint32_t v, ReduceOp op, bool is_signed);
void syncwarp(Site at, unsigned mask);
// Lanes of the current warp that have not exited (see README: there is no lock-step).
unsigned active_mask();
// A scheduling point that is not a rendezvous (__nanosleep): lets the other threads run.
void yield_now();

// ---- cp.async -----------------------------------------------------------------------------------
void cp_async(Site at, void *dst, const void *src, size_t size, size_t zfill);
void cp_commit(Site at);
void cp_wait_prior(Site at, size_t prior);

// ---- WMMA support -------------------------------------------------------------------------------
enum WmmaUse { WMMA_A = 0, WMMA_B = 1, WMMA_ACC = 2 };
// The emulator's deliberately scrambled element map: for fragment use `use`, the matrix element
// (row * 16 + col) held by slot lane * per_lane + i.
const uint8_t *wmma_map(WmmaUse use);
// Pointer (256-bit aligned) and ldm (a multiple of 16 bytes) rules of load/store_matrix_sync.
void wmma_check(Site at, const char *what, const void *p, unsigned ldm, size_t elem_bytes);

// ---- mma.sync, ldmatrix, movmatrix (rt/mma.cpp): PTX fragment layouts, warp collectives --------
enum MmaKind { MMA_F16_K16 = 0, MMA_E4M3_K32 = 1, MMA_E5M2_K32 = 2 };
// D = A B + C for one m16n8k16 (f16) or m16n8k32 (e4m3, e5m2) tile, f32 accumulators; d may alias c.
void mma_tile(Site at, MmaKind kind, float d[4], const uint32_t a[4], const uint32_t b[2], const float c[4]);
// ldmatrix .x1/.x2/.x4 (num 1, 2, 4), optionally .trans: `row` is this lane's row address.
void ldmatrix(Site at, unsigned num, bool trans, uint32_t *r, const void *row);
uint32_t movmatrix_trans(Site at, uint32_t x);

// ---- named barriers (rt/barrier.cpp): bar.sync / bar.arrive id, n -------------------------------
void named_barrier(Site at, unsigned id, unsigned n, bool wait);

// ---- mbarrier (rt/mbarrier.cpp): mbarrier.init / arrive / expect_tx / try_wait.parity / inval ------
void mbar_init(Site at, uint64_t *bar, unsigned count);
void mbar_inval(Site at, uint64_t *bar);
// arrive: count this thread (and first add tx_bytes to the transaction count: arrive.expect_tx);
// without arrive only expect_tx.
void mbar_arrive(Site at, uint64_t *bar, uint32_t tx_bytes, bool arrive);
// try_wait.parity: true once the phase of that parity completed; blocks this thread until then.
bool mbar_try_wait_parity(Site at, uint64_t *bar, unsigned parity);
void fence_mbarrier_init(Site at);
void fence_proxy_async(Site at);

// ---- TMA (rt/tma.cpp) -------------------------------------------------------------------------------
// cuTensorMapEncodeTiled's arguments, checked as the driver documents (kernels/tensor_map.h), encoded
// in the emulator's own form; 0, or -1 with a message in err.
int tensor_map_encode_tiled(CUtensorMap *map, CUtensorMapDataType dtype, cuuint32_t rank, void *gaddr,
                            const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box,
                            const cuuint32_t *estrides, CUtensorMapInterleave il, CUtensorMapSwizzle sw,
                            CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob, char *err, size_t errlen);
// cp.async.bulk.tensor.Nd (n = 1-5 coordinates) into shared memory, completing on bar.
void tma_load(Site at, void *dst, const CUtensorMap *map, unsigned n, const int32_t *coords, uint64_t *bar);

// ---- wgmma (rt/wgmma.cpp), setmaxnreg (rt/warpgroup.cpp), stmatrix (rt/mma.cpp) -----------------------
// The shared-window address of p (__cvta_generic_to_shared): what wgmma descriptors encode.
uint32_t smem_address(Site at, const void *p);
void wgmma_fence(Site at);
void wgmma_commit(Site at);
// wait_group n; acc[k] (len[k] floats) are the accumulators the thread reads after the wait.
void wgmma_wait(Site at, unsigned n, float *const *acc, const unsigned *len, unsigned nacc);
// m64nNk32 e4m3: d has n/2 floats; a (RS: 4 registers) or null with desc_a (SS).
void wgmma_mma(Site at, unsigned n, float *d, const uint32_t *a, uint64_t desc_a, uint64_t desc_b,
               bool scale_d);
void setmaxnreg(Site at, bool inc, unsigned n);
// stmatrix .x1/.x2/.x4 (num), optionally .trans: `row` is this lane's row address.
void stmatrix(Site at, unsigned num, bool trans, const uint32_t *r, void *row);

// ---- shared memory --------------------------------------------------------------------------------
void *dynamic_smem();

// ---- launch ---------------------------------------------------------------------------------------
// kernel: the __global__ function's address, which the dynamic shared memory opt-in is keyed by.
int launch(void (*body)(void *ctx), void *ctx, const void *kernel, dim3 grid, dim3 block, size_t smem_bytes,
           const int *flavour);
// cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes): a launch of
// this kernel may then ask for up to `bytes` of dynamic shared memory (without it, 48 KB). 0, or
// non-zero (reported) above the largest opt-in of the supported architectures (227 KB).
int set_max_dynamic_smem(const void *kernel, size_t bytes);

} // namespace rt
} // namespace simt

#define SIMT_HERE (::simt::rt::Site{__FILE__, __LINE__})
