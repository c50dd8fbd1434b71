// warp_ops.cpp: shuffles, votes, reductions and __syncwarp on top of warp_collective.
#include "internal.h"

namespace simt::rt {

// ---- shuffles: the source lane follows the PTX shfl.sync rules (segments of `width` lanes) ----
struct ShflArg {
    uint64_t in, out;
    unsigned src;
};

static void shfl_complete(const Gather &g) {
    for (unsigned m = g.mask; m; m &= m - 1) {
        ShflArg *a = static_cast<ShflArg *>(g.arg[__builtin_ctz(m)]);
        // A source lane that does not take part gives an undefined value on the GPU: poison.
        a->out = (g.mask >> a->src) & 1 ? static_cast<ShflArg *>(g.arg[a->src])->in : ~0ull;
    }
}

uint64_t shfl(Site at, unsigned mask, uint64_t bits, ShflMode mode, int b, int width) {
    static const CollOp ops[4] = {{"__shfl_sync", shfl_complete},
                                  {"__shfl_up_sync", shfl_complete},
                                  {"__shfl_down_sync", shfl_complete},
                                  {"__shfl_xor_sync", shfl_complete}};
    if (width < 1 || width > 32 || (width & (width - 1)))
        fault(at, "%s: width %d is not a power of two in [1, 32]", ops[mode].name, width);
    int lane = (int)current()->lane;
    int lo = lane & ~(width - 1), hi = lo + width - 1, j;
    switch (mode) {
    case SHFL_IDX: j = lo + (b & (width - 1)); break;
    case SHFL_UP:
        j = lane - b;
        j = j < lo ? lane : j;
        break;
    case SHFL_DOWN:
        j = lane + b;
        j = j > hi ? lane : j;
        break;
    default:
        j = lane ^ b;
        j = j > hi ? lane : j;
        break;
    }
    ShflArg a{bits, 0, (unsigned)j & 31};
    warp_collective(ops[mode], at, mask, &a);
    return a.out;
}

// ---- votes -----------------------------------------------------------------------------------------
struct VoteArg {
    int pred;
    unsigned out;
};

static void vote_complete(const Gather &g) {
    unsigned ballot = 0;
    for (unsigned m = g.mask; m; m &= m - 1)
        if (static_cast<VoteArg *>(g.arg[__builtin_ctz(m)])->pred) ballot |= 1u << __builtin_ctz(m);
    unsigned out = g.key[0] == VOTE_BALLOT ? ballot : g.key[0] == VOTE_ANY ? ballot != 0 : ballot == g.mask;
    for (unsigned m = g.mask; m; m &= m - 1) static_cast<VoteArg *>(g.arg[__builtin_ctz(m)])->out = out;
}

unsigned vote(Site at, unsigned mask, int pred, VoteMode mode) {
    static const CollOp ops[3] = {
        {"__ballot_sync", vote_complete}, {"__any_sync", vote_complete}, {"__all_sync", vote_complete}};
    VoteArg a{pred, 0};
    warp_collective(ops[mode], at, mask, &a, mode);
    return a.out;
}

// ---- __reduce_*_sync -------------------------------------------------------------------------------
struct ReduceArg {
    uint32_t in, out;
};

static uint32_t combine(ReduceOp op, bool is_signed, uint32_t a, uint32_t b) {
    switch (op) {
    case RED_ADD: return a + b;
    case RED_MIN: return (is_signed ? (int32_t)b < (int32_t)a : b < a) ? b : a;
    case RED_MAX: return (is_signed ? (int32_t)b > (int32_t)a : b > a) ? b : a;
    case RED_AND: return a & b;
    case RED_OR: return a | b;
    default: return a ^ b;
    }
}

static void reduce_complete(const Gather &g) {
    ReduceOp op = (ReduceOp)g.key[0];
    uint32_t acc = static_cast<ReduceArg *>(g.arg[__builtin_ctz(g.mask)])->in;
    for (unsigned m = g.mask & (g.mask - 1); m; m &= m - 1)
        acc = combine(op, g.key[1] != 0, acc, static_cast<ReduceArg *>(g.arg[__builtin_ctz(m)])->in);
    for (unsigned m = g.mask; m; m &= m - 1) static_cast<ReduceArg *>(g.arg[__builtin_ctz(m)])->out = acc;
}

uint32_t reduce(Site at, unsigned mask, uint32_t v, ReduceOp op, bool is_signed) {
    static const CollOp ops[6] = {
        {"__reduce_add_sync", reduce_complete}, {"__reduce_min_sync", reduce_complete},
        {"__reduce_max_sync", reduce_complete}, {"__reduce_and_sync", reduce_complete},
        {"__reduce_or_sync", reduce_complete},  {"__reduce_xor_sync", reduce_complete}};
    ReduceArg a{v, 0};
    warp_collective(ops[op], at, mask, &a, op, is_signed);
    return a.out;
}

// ---- __syncwarp --------------------------------------------------------------------------------------
static void nothing(const Gather &) {}

void syncwarp(Site at, unsigned mask) {
    static const CollOp op{"__syncwarp", nothing};
    warp_collective(op, at, mask, nullptr);
}

} // namespace simt::rt
