/* Occupancy model (occupancy.h). Limits: CUDA C++ Programming Guide, "Compute Capabilities"
 * table (threads, blocks, registers, shared memory per SM and per block); cross-checked against
 * vendor figures for sm_89 (L4) and sm_90 (H100/H200). */
#include "occupancy.h"

#include <stddef.h>

static const arch_limits_t LIMITS[] = {
    /* arch, example, warps/SM, blocks/SM, regs/SM, regs/thread, smem/SM, smem/block opt-in, reserved,
     * barriers/SM (cuda_occupancy.h: 2 x blocks/SM from 9.0 on, not modelled before) */
    {80, "A100", 64, 32, 65536, 255, 164 * 1024, 163 * 1024, 1024, 0},
    {86, "RTX 3090", 48, 16, 65536, 255, 100 * 1024, 99 * 1024, 1024, 0},
    {89, "L4", 48, 24, 65536, 255, 100 * 1024, 99 * 1024, 1024, 0},
    {90, "H100", 64, 32, 65536, 255, 228 * 1024, 227 * 1024, 1024, 2 * 32},
};

const arch_limits_t *arch_limits(int arch) {
    for (size_t i = 0; i < sizeof LIMITS / sizeof LIMITS[0]; ++i)
        if (LIMITS[i].arch == arch) return &LIMITS[i];
    return NULL;
}

static long round_up(long x, long unit) { return (x + unit - 1) / unit * unit; }
static int min_int(int a, int b) { return a < b ? a : b; }

int occupancy_compute(int arch, int threads_per_block, int registers, long smem_bytes, int barriers,
                      occupancy_t *o) {
    const arch_limits_t *L = arch_limits(arch);
    if (!L || threads_per_block < 1 || registers < 0 || smem_bytes < 0) return -1;
    const int warps = (int)round_up(threads_per_block, 32) / 32;
    const long regs_per_warp = round_up(round_up(registers > 0 ? registers : 1, 8) * 32, 256);
    o->by_registers =
        registers > L->max_regs_per_thread ? 0 : (int)(L->regs_per_sm / (regs_per_warp * warps));
    o->by_smem = smem_bytes > L->smem_per_block_optin
                     ? 0
                     : (int)(L->smem_per_sm / (round_up(smem_bytes, 128) + L->smem_reserved_per_block));
    o->by_warps = L->max_warps_per_sm / warps;
    o->by_barriers =
        L->barriers_per_sm > 0 && barriers > 0 ? L->barriers_per_sm / barriers : L->max_blocks_per_sm;
    o->by_blocks = L->max_blocks_per_sm;
    o->blocks_per_sm = min_int(
        min_int(min_int(o->by_registers, o->by_smem), min_int(o->by_warps, o->by_barriers)), o->by_blocks);
    /* Name the binding limit; ties go to the first in this order. */
    o->limited_by = o->blocks_per_sm == o->by_registers  ? "registers"
                    : o->blocks_per_sm == o->by_smem     ? "shared_memory"
                    : o->blocks_per_sm == o->by_warps    ? "warps"
                    : o->blocks_per_sm == o->by_barriers ? "barriers"
                                                         : "blocks";
    o->max_warps_per_sm = L->max_warps_per_sm;
    o->warps_per_sm = o->blocks_per_sm * warps;
    o->occupancy = (double)o->warps_per_sm / L->max_warps_per_sm;
    return o->blocks_per_sm > 0 ? 0 : -1;
}
