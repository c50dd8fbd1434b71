/* Theoretical occupancy from ptxas resources and an architecture's limits, as the CUDA occupancy
 * calculator computes it, so that reports never guess it (the original claimed "~50%" where the
 * figures give 17% on an L4).
 * Model: registers are allocated per warp in units of 256 (per-thread count rounded up to 8);
 * shared memory per block is rounded up to 128 bytes plus 1 KiB reserved by the system per block,
 * against the largest shared-memory carveout of the SM; from sm_90 on, named barriers are a per-SM
 * resource too (the CUDA toolkit's cuda_occupancy.h, cudaOccMaxBlocksPerSMBlockBarrierLimit: 2 x the
 * block limit per SM on 9.x, i.e. 64; it applies no barrier limit before compute capability 9),
 * each CTA taking as many as ptxas reports it uses ("used N barriers": ids 0..N-1); blocks per SM
 * are the minimum over registers, shared memory, warps, barriers and the block limit. */
#ifndef OCCUPANCY_H
#define OCCUPANCY_H

typedef struct {
    int arch;            /* 80, 86, 89, 90 */
    const char *example; /* a GPU of that architecture */
    int max_warps_per_sm, max_blocks_per_sm;
    int regs_per_sm, max_regs_per_thread;
    long smem_per_sm, smem_per_block_optin, smem_reserved_per_block;
    int barriers_per_sm; /* named barriers shared by the resident CTAs; 0: no barrier limit modelled */
} arch_limits_t;

const arch_limits_t *arch_limits(int arch); /* NULL if unknown */

typedef struct {
    int blocks_per_sm, warps_per_sm, max_warps_per_sm;
    double occupancy;       /* warps_per_sm / max_warps_per_sm */
    const char *limited_by; /* "registers", "shared_memory", "warps", "barriers" or "blocks" */
    int by_registers, by_smem, by_warps, by_barriers, by_blocks; /* blocks each resource allows */
} occupancy_t;

/* The original's CTA: 4 warps, and __syncthreads its only barrier (seed-system; kernels/README).
 * Its published rows give registers and shared memory only; sdpa-report models its occupancy with
 * these too. */
#define ORIGINAL_THREADS 128
#define ORIGINAL_HEAD_DIM 64
#define ORIGINAL_TILE_M 32
#define ORIGINAL_BARRIERS 1

/* barriers: what ptxas reports the kernel uses (0 or less: none counted). Returns 0, or -1 for an
 * unknown arch or a kernel that cannot launch (too many registers, too much shared memory or too
 * many barriers: blocks_per_sm = 0). */
int occupancy_compute(int arch, int threads_per_block, int registers, long smem_bytes, int barriers,
                      occupancy_t *out);

#endif
