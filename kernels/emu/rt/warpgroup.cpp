// warpgroup.cpp: the rendezvous of a warpgroup (4 consecutive warps whose first warp's index is a
// multiple of 4: 128 threads), behind wgmma.mma_async and setmaxnreg (.sync.aligned: all 128
// threads execute the same instruction with the same operands), and setmaxnreg's register pool.
//
// Checks: the warpgroup must be 4 whole warps of the block (W8); its threads must arrive at the same
// instruction (W8: divergent or misaligned warpgroups; a thread that exited or waits elsewhere is
// reported when nothing else can run); with the same warpgroup-uniform operands (W9: wgmma
// descriptors, setmaxnreg's count: R1). setmaxnreg: count in [24, 256], a multiple of 8 (R2); .dec
// may not raise and .inc may not lower the warpgroup's count; .inc waits until the block's pool has
// the registers, and one that never can is a deadlock report (R3). The pool is the registers the
// block started with: the emulator assumes each thread started with floor(65536 / threads / 8) * 8
// (at most 256), what ptxas gives a kernel using setmaxnreg under __launch_bounds__(threads, 1).
#include <stdio.h>

#include "internal.h"
#include "san.h"

namespace simt::rt {

static WgColl &record_of(const Fiber *f) { return B.wgs[f->warp / 4]; }

void warpgroups_prepare() {
    B.wgs.assign((B.nwarps + 3) / 4, WgColl{});
    const unsigned threads = B.n;
    unsigned entry = 65536 / threads / 8 * 8;
    if (entry > 256) entry = 256;
    B.reg_entry = entry;
}

void warpgroups_block_start() {
    for (WgColl &c : B.wgs) {
        c.arrived = 0;
        c.blocked = false;
        c.regs = B.reg_entry;
    }
    B.reg_pool = B.reg_entry * B.n;
    B.reg_used = B.reg_entry * B.n;
}

static void release_all(WgColl &c, unsigned wg) {
    for (unsigned t = 0; t < 128; t++) {
        Fiber &f = B.fibers[wg * 128 + t];
        san::release(&f.sync_wake);
        wake(&f);
    }
    c.arrived = 0;
    c.blocked = false;
    stats.collectives++;
}

void wg_collective(const WgOpKind &op, Site at, void *arg, uint64_t k0, uint64_t k1, uint64_t k2) {
    Fiber *f = current();
    const unsigned wg = f->warp / 4;
    if ((wg + 1) * 128 > B.n)
        fault(at, "%s: warpgroup %u (warps %u-%u) has only %u threads: a warpgroup is 4 whole warps (W8)",
              op.name, wg, 4 * wg, 4 * wg + 3, B.n - wg * 128);
    WgColl &c = record_of(f);
    const uint64_t key[3] = {k0, k1, k2};
    if (!c.arrived) {
        c.op = &op;
        c.at = at;
        c.first = f->linear;
        for (int i = 0; i < 3; i++) c.key[i] = key[i];
    } else if (c.op != &op || !same_site(c.at, at)) {
        fault(at,
              "%s: the threads of warpgroup %u execute different instructions: here and %s at %s:%d (thread "
              "%u): "
              "divergent or misaligned warpgroup (W8)",
              op.name, wg, c.op->name, c.at.file, c.at.line, c.first);
    } else if (c.key[0] != k0 || c.key[1] != k1 || c.key[2] != k2) {
        fault(at,
              "%s: the threads of warpgroup %u pass different operands (%s): thread %u: 0x%llx, 0x%llx, "
              "0x%llx; thread "
              "%u: 0x%llx, 0x%llx, 0x%llx (%s)",
              op.name, wg, op.keys, f->linear, (unsigned long long)k0, (unsigned long long)k1,
              (unsigned long long)k2, c.first, (unsigned long long)c.key[0], (unsigned long long)c.key[1],
              (unsigned long long)c.key[2], op.hazard);
    }
    c.arg[f->linear - wg * 128] = arg;
    c.arrived++;
    f->state = State::wgroup;
    f->site = at;
    san::release(&f->sync_arrive);
    if (c.arrived == 128) {
        for (unsigned t = 0; t < 128; t++) san::acquire(&B.fibers[wg * 128 + t].sync_arrive);
        if (op.complete(c, wg))
            release_all(c, wg);
        else
            c.blocked = true; // setmaxnreg.inc waiting for registers
    }
    wait_here(f);
    san::acquire(&f->sync_wake);
}

// ---- setmaxnreg --------------------------------------------------------------------------------------
static bool reg_complete(WgColl &c, unsigned wg) {
    const bool inc = c.key[0] != 0;
    const unsigned n = (unsigned)c.key[1];
    Fiber &first = B.fibers[c.first];
    if (inc ? n < c.regs : n > c.regs) {
        fault_waiting(&first, c.at,
                      "setmaxnreg.%s %u: warpgroup %u holds %u registers per thread; .%s may not %s it (R2)",
                      inc ? "inc" : "dec", n, wg, c.regs, inc ? "inc" : "dec", inc ? "lower" : "raise");
        return true;
    }
    if (inc && B.reg_used - 128 * c.regs + 128 * n > B.reg_pool) return false; // waits for registers
    B.reg_used = B.reg_used - 128 * c.regs + 128 * n;
    c.regs = n;
    if (!inc) // freed registers: a waiting .inc may now proceed
        for (unsigned o = 0; o < B.wgs.size(); o++) {
            WgColl &w = B.wgs[o];
            if (w.blocked && B.reg_used - 128 * w.regs + 128 * (unsigned)w.key[1] <= B.reg_pool) {
                B.reg_used = B.reg_used - 128 * w.regs + 128 * (unsigned)w.key[1];
                w.regs = (unsigned)w.key[1];
                release_all(w, o);
            }
        }
    return true;
}

void setmaxnreg(Site at, bool inc, unsigned n) {
    static const WgOpKind ops[2] = {
        {"setmaxnreg.dec.sync.aligned.u32", "the register count", "R1", reg_complete},
        {"setmaxnreg.inc.sync.aligned.u32", "the register count", "R1", reg_complete}};
    if (n < 24 || n > 256 || n % 8)
        fault(at, "%s %u: the count must be a multiple of 8 in [24, 256] (R2)", ops[inc].name, n);
    wg_collective(ops[inc], at, nullptr, inc, n, 0);
}

// ---- when nothing can run ------------------------------------------------------------------------------
bool wg_diagnose() {
    for (unsigned wg = 0; wg < B.wgs.size(); wg++) {
        WgColl &c = B.wgs[wg];
        if (!c.arrived) continue;
        Fiber &who = B.fibers[c.first];
        if (c.blocked) {
            fault_waiting(
                &who, c.at,
                "%s %llu by warpgroup %u can never get its registers: the block's pool has %u (%u threads x "
                "%u at launch), %u are held and no warpgroup can release any (R3)",
                c.op->name, (unsigned long long)c.key[1], wg, B.reg_pool, B.n, B.reg_entry, B.reg_used);
            return true;
        }
        for (unsigned t = 0; t < 128; t++) {
            const Fiber &o = B.fibers[wg * 128 + t];
            if (o.state == State::wgroup && same_site(o.site, c.at)) continue;
            char what[200];
            fault_waiting(&who, c.at, "%s: warpgroup %u: thread %u %s: divergent warpgroup (W8)", c.op->name,
                          wg, o.linear, describe_wait(&o, what, sizeof what));
            return true;
        }
    }
    return false;
}

} // namespace simt::rt
