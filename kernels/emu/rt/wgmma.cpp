// wgmma.cpp: wgmma.mma_async m64nNk32 f32 += e4m3 x e4m3 (A from shared memory by descriptor, SS, or
// from registers, RS; B from shared memory by descriptor), wgmma.fence, commit_group, wait_group
// (PTX ISA "Asynchronous Warpgroup Level Matrix Multiply-Accumulate Instructions").
//
// Asynchrony is modelled as cp.async is: at issue (a warpgroup collective, rt/warpgroup.cpp) the
// operands are read - shared memory through the descriptor's address function, each 16-byte chunk
// checked against the async proxy's view (W7) and, where TMA wrote it, against how TMA laid it out
// (W10) - the product is computed, and each thread's accumulators are poisoned (a NaN pattern). The
// results land at the thread's wait_group that retires the group, as late as possible: the waiting
// thread runs again only when no other thread can (sched.cpp). At the first retirement the operand
// bytes are compared with their values at issue (W6: released or overwritten before completion; a
// TMA copy or another asynchronous write into them while in flight is a fault where it is issued);
// at each thread's retirement its accumulators must still hold the poison (W4: written in flight)
// and, for RS, its A registers their values at issue (W5). wait_group must name the accumulators
// the thread reads next, and none of them may still be in flight after it (W3). A wgmma needs a
// wgmma.fence since the thread's last wait_group (W1; stricter than the ISA, which asks for one only
// where registers were accessed in between).
//
// Fragments, descriptor fields and the K-major shared-memory address function are those of
// kernels/wgmma_layout.h (from the PTX ISA; checked against CuTe in tests/emu/cute/ and against the
// ISA's figures in tests/emu/test_isa.c).
// Numerics: products of e4m3 values are exact in float; D = C + sum over k in ascending order,
// rounded to float after every addition (the tensor core's own order and width are not modelled).
#include <stdio.h>
#include <string.h>

#include "../../wgmma_layout.h"
#include "internal.h"
#include "san.h"

namespace simt::rt {

static constexpr uint32_t kPoison = 0x7fbadbadu; // a signalling NaN: accumulators in flight

struct MmaIssue {
    float *d;
    const uint32_t *a; // RS: the A registers; null for SS
};

struct Chunk {
    const uint8_t *p;
    uint8_t bytes[16];
};

struct WgOp {
    bool live, checked, rs;
    unsigned n, wg, retired, nchunks;
    Site at;
    float *d[128];
    const uint32_t *a[128];
    uint32_t a_snap[128][4];
    float res[128][128];
    Chunk chunks[2 * 64 + 2 * 256];
};
static constexpr unsigned kMaxOps = 32;
static WgOp ops[kMaxOps];

void wgmma_block_start() {
    for (WgOp &o : ops) o.live = false;
}

// ---- descriptors (the layouts: kernels/wgmma_layout.h) -------------------------------------------------
struct Desc {
    uint32_t start, lbo, sbo;
    unsigned base, swz; // base offset; swizzle in bytes (0: none)
};
static Desc decode(uint64_t d) {
    return Desc{wg_desc_start(d), wg_desc_lbo(d), wg_desc_sbo(d), wg_desc_base(d), wg_desc_swizzle(d)};
}
static uint32_t chunk_address(const Desc &d, unsigned r, unsigned c) {
    return wg_kmajor_address(d.start, d.lbo, d.sbo, d.swz, r, 16 * c);
}

// W10: a chunk TMA wrote must sit where the descriptor's address function expects it: row r and
// k-bytes [16c, 16c+16) of the operand at box row row0 + r, column col0 + 16c of the box, the same
// (row0, col0) for every chunk of the operand in that box.
struct BoxOrigin {
    const TmaRegion *region;
    long row0, col0;
};
static void check_tma_layout(Site at, const char *which, const Desc &d, uint64_t desc, const uint8_t *p,
                             unsigned r, unsigned c, BoxOrigin *seen, unsigned *nseen) {
    const uintptr_t a = (uintptr_t)p;
    for (const TmaRegion &t : tma_regions()) {
        if (a < t.lo || a >= t.hi) continue;
        const uintptr_t off = swizzle_address(a, t.span) - t.lo;
        const long row = (long)(off / t.inner), col = (long)(off % t.inner);
        if (d.swz != t.span)
            fault(at,
                  "wgmma: the %s operand's descriptor 0x%016llx uses %s swizzle, but the TMA copy issued at "
                  "%s:%d wrote "
                  "the tile with %s swizzle (W10)",
                  which, (unsigned long long)desc,
                  d.swz == 128  ? "128-byte"
                  : d.swz == 64 ? "64-byte"
                  : d.swz == 32 ? "32-byte"
                                : "no",
                  t.at.file, t.at.line,
                  t.span == 128  ? "128-byte"
                  : t.span == 64 ? "64-byte"
                  : t.span == 32 ? "32-byte"
                                 : "no");
        BoxOrigin *o = nullptr;
        for (unsigned i = 0; i < *nseen; i++)
            if (seen[i].region == &t) o = &seen[i];
        if (!o && *nseen < 8) {
            o = &seen[(*nseen)++];
            *o = BoxOrigin{&t, row - (long)r, col - 16 * (long)c};
        }
        if (o && (row != o->row0 + (long)r || col != o->col0 + 16 * (long)c))
            fault(at,
                  "wgmma: the %s operand's descriptor 0x%016llx (LBO %u, SBO %u bytes) reads its row %u, "
                  "k-bytes "
                  "[%u, %u) from row %ld, bytes [%ld, %ld) of the box the TMA copy issued at %s:%d wrote "
                  "(rows of %u "
                  "bytes): expected row %ld, bytes [%ld, ...) - descriptor and TMA layout disagree (W10)",
                  which, (unsigned long long)desc, d.lbo, d.sbo, r, 16 * c, 16 * c + 16, row, col, col + 16,
                  t.at.file, t.at.line, t.inner, o->row0 + (long)r, o->col0 + 16 * (long)c);
        return;
    }
}

// Reads `rows` rows of 32 e4m3 codes of a K-major operand into m, checking each chunk.
static void read_operand(Site at, const char *which, WgOp &op, uint64_t desc, unsigned rows, float (*m)[32]) {
    const Desc d = decode(desc);
    if (d.base)
        fault(at,
              "wgmma: the %s operand's descriptor 0x%016llx has base offset %u: not modelled (a tile aligned "
              "to its "
              "swizzle repeat has 0)",
              which, (unsigned long long)desc, d.base);
    // A swizzle XORs address bits [4, 4 + log2(span/16)) with bits [7, 7 + log2(span/16)): a start
    // with any of the latter set lies inside the pattern's repeat (8 rows of span bytes) and needs the
    // base-offset field, (start >> 7) & 7, which is not modelled; with base offset 0 the GPU's
    // behaviour there is not probed. Refused rather than emulated with a guess (k-steps of 32, 64, 96
    // bytes within a row are fine: bits 4-6).
    if (d.swz && ((d.start >> 7) & (d.swz / 16 - 1)))
        fault(at,
              "wgmma: the %s operand's descriptor 0x%016llx starts at shared address 0x%x, inside its "
              "swizzle's %u-byte repeat (address bits 7 and up, under the %u-byte swizzle): that needs "
              "the base-offset field, not modelled; start each swizzled operand on a %u-byte boundary "
              "(plus a k-step of less than 128 bytes)",
              which, (unsigned long long)desc, d.start, 8 * d.swz, d.swz, 8 * d.swz);
    const float *dec = e4m3_values();
    BoxOrigin seen[8];
    unsigned nseen = 0;
    for (unsigned r = 0; r < rows; r++)
        for (unsigned c = 0; c < 2; c++) {
            const uint32_t wa = chunk_address(d, r, c);
            const uint8_t *p = (const uint8_t *)smem_from_window(wa, 16);
            if (!p)
                fault(at,
                      "wgmma: the %s operand's row %u, k-bytes [%u, %u) are at shared address 0x%x, outside "
                      "shared "
                      "memory (descriptor 0x%016llx)",
                      which, r, 16 * c, 16 * c + 16, wa, (unsigned long long)desc);
            if (const Site *copy = tma_in_flight(p, 16))
                fault(at,
                      "wgmma: the %s operand's row %u, k-bytes [%u, %u) are the destination of the TMA copy "
                      "issued at "
                      "%s:%d, still in flight: its mbarrier phase was not waited for (M1)",
                      which, r, 16 * c, 16 * c + 16, copy->file, copy->line);
            async_check_read(at, "wgmma.mma_async", p, 16, nullptr);
            check_tma_layout(at, which, d, desc, p, r, c, seen, &nseen);
            san::read_range(p, 16);
            Chunk &ch = op.chunks[op.nchunks++];
            ch.p = p;
            memcpy(ch.bytes, p, 16);
            for (unsigned j = 0; j < 16; j++) m[r][16 * c + j] = dec[p[j]];
        }
}

// The operands' extent, registered so that writes into it while the op is in flight fault (W6, T4).
static void register_reads(const WgOp &op, unsigned from, unsigned to, Site at) {
    if (from == to) return;
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    for (unsigned i = from; i < to; i++) {
        const uintptr_t p = (uintptr_t)op.chunks[i].p;
        lo = p < lo ? p : lo;
        hi = p + 16 > hi ? p + 16 : hi;
    }
    if (B.n_async_reads == sizeof B.async_reads / sizeof B.async_reads[0])
        fault(at, "wgmma: more asynchronous reads in flight than the emulator tracks");
    B.async_reads[B.n_async_reads++] = AsyncRead{lo, hi, at, "wgmma.mma_async", &op};
}

static void unregister_reads(const WgOp *op) {
    unsigned kept = 0;
    for (unsigned i = 0; i < B.n_async_reads; i++)
        if (B.async_reads[i].owner != op) B.async_reads[kept++] = B.async_reads[i];
    B.n_async_reads = kept;
}

// ---- fragments -------------------------------------------------------------------------------------------
static inline unsigned acc_row(unsigned t, unsigned i) { return wg_acc_row(t, i); }
static inline unsigned acc_col(unsigned t, unsigned i) { return wg_acc_col(t, i); }
static inline unsigned a_row(unsigned t, unsigned i) { return wg_a_row(t, i); }
static inline unsigned a_k(unsigned t, unsigned i) { return wg_a_k(t, i); }

static WgPending *pending_on(Fiber &f, const float *d) {
    for (unsigned i = f.wg_npending; i-- > 0;)
        if (f.wg_pending[i].op->d[f.linear % 128] == d) return &f.wg_pending[i];
    return nullptr;
}

// ---- issue ---------------------------------------------------------------------------------------------
// d[j] += a[k] b[k][j] for k = 0..31 in order, J columns (b rows 256 apart).
template <unsigned J> static inline void accumulate(float *d, const float *a, const float *b) {
    float acc[J];
    for (unsigned j = 0; j < J; j++) acc[j] = d[j];
    for (unsigned k = 0; k < 32; k++) {
        const float ak = a[k];
        for (unsigned j = 0; j < J; j++) acc[j] += ak * b[256 * k + j];
    }
    for (unsigned j = 0; j < J; j++) d[j] = acc[j];
}

static bool mma_complete(WgColl &c, unsigned wg) {
    const uint64_t desc_a = c.key[0], desc_b = c.key[1];
    const unsigned n = (unsigned)(c.key[2] & 0x1ff);
    const bool rs = (c.key[2] >> 9) & 1, scale_d = (c.key[2] >> 10) & 1;
    WgOp *op = nullptr;
    for (WgOp &o : ops)
        if (!o.live) {
            op = &o;
            break;
        }
    if (!op) fault(c.at, "wgmma.mma_async: more than %u in flight", kMaxOps);
    op->live = true;
    op->checked = false;
    op->rs = rs;
    op->n = n;
    op->wg = wg;
    op->retired = 0;
    op->nchunks = 0;
    op->at = c.at;
    static float A[64][32], Bm[256][32], Bt[32][256], D[64][256];
    MmaIssue *const *args = (MmaIssue *const *)c.arg;
    if (rs) {
        const float *dec = e4m3_values();
        for (unsigned t = 0; t < 128; t++)
            for (unsigned i = 0; i < 16; i++)
                A[a_row(t, i)][a_k(t, i)] = dec[(args[t]->a[i / 4] >> (8 * (i % 4))) & 0xff];
    } else {
        read_operand(c.at, "A", *op, desc_a, 64, A);
    }
    const unsigned a_chunks = op->nchunks;
    read_operand(c.at, "B", *op, desc_b, n, Bm);
    for (unsigned k = 0; k < 32; k++)
        for (unsigned j = 0; j < n; j++) Bt[k][j] = Bm[j][k];
    // C: the accumulators' values at issue, or the result of this thread's wgmma still in flight on
    // them (accumulator chaining); zero without scale-d.
    static uint16_t at_rc[128][128]; // row * 256 + column of accumulator i of thread t
    static bool at_rc_ready;
    if (!at_rc_ready) {
        for (unsigned t = 0; t < 128; t++)
            for (unsigned i = 0; i < 128; i++) at_rc[t][i] = (uint16_t)(acc_row(t, i) * 256 + acc_col(t, i));
        at_rc_ready = true;
    }
    float *const dflat = &D[0][0];
    for (unsigned t = 0; t < 128; t++) {
        Fiber &f = B.fibers[wg * 128 + t];
        WgPending *prev = pending_on(f, args[t]->d);
        if (prev && prev->op->n != n)
            fault(
                c.at,
                "wgmma.mma_async: thread %u chains m64n%uk32 on the accumulators of the m64n%uk32 issued at "
                "%s:%d, still in flight",
                f.linear, n, prev->op->n, prev->op->at.file, prev->op->at.line);
        const float *src = !scale_d ? nullptr : prev ? prev->op->res[t] : args[t]->d;
        const uint16_t *rc = at_rc[t];
        if (src)
            for (unsigned i = 0; i < n / 2; i++) dflat[rc[i]] = src[i];
        else
            for (unsigned i = 0; i < n / 2; i++) dflat[rc[i]] = 0.0f;
        if (prev) prev->writes_d = false; // the later wgmma writes them
    }
    // Columns in blocks held in registers, 32 at a time where N allows (independent chains: the adds'
    // latency overlaps); each element still adds its 32 products in k order.
    for (unsigned r = 0; r < 64; r++) {
        unsigned j0 = 0;
        for (; j0 + 32 <= n; j0 += 32) accumulate<32>(D[r] + j0, A[r], &Bt[0][j0]);
        for (; j0 < n; j0 += 8) accumulate<8>(D[r] + j0, A[r], &Bt[0][j0]);
    }
    for (unsigned t = 0; t < 128; t++) {
        Fiber &f = B.fibers[wg * 128 + t];
        float *d = args[t]->d;
        op->d[t] = d;
        const uint16_t *rc = at_rc[t];
        for (unsigned i = 0; i < n / 2; i++) op->res[t][i] = dflat[rc[i]];
        uint32_t *bits = (uint32_t *)(void *)d;
        for (unsigned i = 0; i < n / 2; i++) bits[i] = kPoison;
        if (rs) {
            op->a[t] = args[t]->a;
            memcpy(op->a_snap[t], args[t]->a, 16);
        }
        if (f.wg_npending == sizeof f.wg_pending / sizeof f.wg_pending[0])
            fault(c.at, "wgmma.mma_async: thread %u has more than %zu wgmma in flight", f.linear,
                  sizeof f.wg_pending / sizeof f.wg_pending[0]);
        f.wg_pending[f.wg_npending++] = WgPending{op, f.wg_group, true};
    }
    register_reads(*op, 0, a_chunks, c.at);
    register_reads(*op, a_chunks, op->nchunks, c.at);
    stats.collectives++;
    return true;
}

void wgmma_mma(Site at, unsigned n, float *d, const uint32_t *a, uint64_t desc_a, uint64_t desc_b,
               bool scale_d) {
    static const WgOpKind ops_[2] = {{"wgmma.mma_async.sync.aligned.m64nNk32.f32.e4m3.e4m3 (SS)",
                                      "descriptors A, B; N, RS, scale-d", "W9", mma_complete},
                                     {"wgmma.mma_async.sync.aligned.m64nNk32.f32.e4m3.e4m3 (RS)",
                                      "descriptors A, B; N, RS, scale-d", "W9", mma_complete}};
    const WgOpKind &op = ops_[a != nullptr];
    Fiber *f = current();
    if (n < 8 || n > 256 || n % 8) fault(at, "%s: N = %u (8 to 256, a multiple of 8)", op.name, n);
    if (!f->wg_fenced)
        fault(at,
              "%s: no wgmma.fence since this thread's last wait_group (or the start): registers may be "
              "accessed "
              "in flight (W1)",
              op.name);
    MmaIssue arg{d, a};
    wg_collective(op, at, &arg, a ? 0 : desc_a, desc_b,
                  n | (uint64_t)(a != nullptr) << 9 | (uint64_t)scale_d << 10);
}

void wgmma_fence(Site) { current()->wg_fenced = true; }

void wgmma_commit(Site) { current()->wg_group++; }

// ---- retire --------------------------------------------------------------------------------------------
static void retire(Site at, Fiber &f, const WgPending &e) {
    WgOp &op = *e.op;
    const unsigned t = f.linear % 128;
    if (!op.checked) { // the first retirement: the operation has completed
        op.checked = true;
        unregister_reads(&op);
        for (unsigned i = 0; i < op.nchunks; i++)
            if (memcmp(op.chunks[i].p, op.chunks[i].bytes, 16) != 0)
                fault(at,
                      "wgmma: shared memory at %p, an operand of the wgmma issued at %s:%d, changed before "
                      "that wgmma "
                      "completed (released or overwritten too early: W6)",
                      (const void *)op.chunks[i].p, op.at.file, op.at.line);
    }
    if (op.rs && memcmp(op.a[t], op.a_snap[t], 16) != 0)
        fault(at,
              "wgmma: the A registers of the wgmma (RS) issued at %s:%d were overwritten while it was in "
              "flight (W5)",
              op.at.file, op.at.line);
    if (e.writes_d) {
        for (unsigned i = 0; i < op.n / 2; i++) {
            uint32_t bits;
            memcpy(&bits, &op.d[t][i], 4);
            if (bits != kPoison)
                fault(at,
                      "wgmma: accumulator %u of the wgmma issued at %s:%d was written while it was in flight "
                      "(W4)",
                      i, op.at.file, op.at.line);
        }
        memcpy(op.d[t], op.res[t], 4 * (op.n / 2));
    }
    if (++op.retired == 128) op.live = false;
}

void wgmma_wait(Site at, unsigned n, float *const *acc, const unsigned *len, unsigned nacc) {
    Fiber *f = current();
    f->wg_fenced = false;
    const uint32_t limit = f->wg_group > n ? f->wg_group - n : 0; // groups below it retire
    for (unsigned i = 0; i < f->wg_npending; i++) {
        const WgPending &e = f->wg_pending[i];
        if (e.group < limit) continue;
        const float *d = e.op->d[f->linear % 128];
        for (unsigned k = 0; k < nacc; k++)
            if (d < acc[k] + len[k] && acc[k] < d + e.op->n / 2)
                fault(at,
                      "wgmma.wait_group %u leaves the wgmma issued at %s:%d in flight (%s), but names its "
                      "accumulators as read after the wait (W3)",
                      n, e.op->at.file, e.op->at.line,
                      e.group == f->wg_group ? "not committed" : "a newer group than the wait retires");
    }
    bool any = false;
    for (unsigned i = 0; i < f->wg_npending; i++) any |= f->wg_pending[i].group < limit;
    if (!any) return;
    f->state = State::wgwait; // the results land as late as possible
    f->site = at;
    wait_here(f);
    unsigned kept = 0;
    for (unsigned i = 0; i < f->wg_npending; i++) {
        const WgPending e = f->wg_pending[i];
        if (e.group < limit)
            retire(at, *f, e);
        else
            f->wg_pending[kept++] = e;
    }
    f->wg_npending = kept;
}

bool wgmma_wake_waiters() {
    bool any = false;
    for (unsigned i = 0; i < B.n; i++)
        if (B.fibers[i].state == State::wgwait) {
            wake(&B.fibers[i]);
            any = true;
        }
    return any;
}

void wgmma_thread_exit(Fiber *f) {
    if (!f->wg_npending) return;
    const WgOp &op = *f->wg_pending[0].op;
    fault(op.at, "wgmma issued here is still in flight when the thread exits (wgmma.wait_group 0 first)");
}

} // namespace simt::rt
