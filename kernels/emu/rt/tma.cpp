// tma.cpp: tensor maps and cp.async.bulk.tensor loads (TMA), completing as mbarrier transactions.
//
// Encoder: the arguments of cuTensorMapEncodeTiled pass the same documented checks as on CUDA
// (kernels/tensor_map.h); the emulator then keeps its own decoded form in the 128 opaque bytes, with
// a tag and a checksum, so that a map not made by the encoder or changed since is an invalid map
// (T2). The subset it models: element sizes of 1-8 bytes, no interleave, swizzle none/32/64/128 B,
// element strides 1, zero fill out of bounds.
//
// A load is checked and its destination poisoned when issued; it lands as late as the ISA allows:
// when no thread can run any more (sched.cpp), every copy in flight lands in issue order, writes its
// whole box (out-of-bounds elements as zeros, the 16-byte chunks XOR-swizzled by address bits [7,10)
// as wgmma reads them) and completes its bytes on the mbarrier. Under ThreadSanitizer the bytes are
// written by the issuing thread's copy engine fiber, ordered after the issue and before the threads
// that wait for the phase it completes, and after nothing else.
#include <string.h>

#include "../../tensor_map.h"
#include "../../wgmma_layout.h"
#include "internal.h"
#include "san.h"

namespace simt::rt {

static constexpr uint64_t kMapTag = 0x50414d54544d4953ull; // "SIMTTMAP"

// The decoded map, in opaque[1..14]; opaque[0] the tag, opaque[15] a checksum of the rest.
struct MapFields {
    uint64_t gaddr;
    uint32_t rank, esize, span; // span: swizzle span in bytes, 0 for none
    uint32_t box[5];
    uint64_t dims[5], strides[4]; // strides: bytes between indices of dimensions 1-4
};
static_assert(sizeof(MapFields) <= 14 * 8, "tensor map fields exceed the opaque bytes");

static uint64_t checksum(const uint64_t *q) {
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 15; i++) h = (h ^ q[i]) * 0x100000001b3ull;
    return h;
}

int tensor_map_encode_tiled(CUtensorMap *map, CUtensorMapDataType dtype, cuuint32_t rank, void *gaddr,
                            const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box,
                            const cuuint32_t *estrides, CUtensorMapInterleave il, CUtensorMapSwizzle sw,
                            CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob, char *err,
                            size_t errlen) {
    if (tmap_check_tiled(map, dtype, rank, gaddr, dims, strides, box, estrides, il, sw, l2, oob, err, errlen))
        return -1;
    const unsigned bits = tmap_elem_bits(dtype);
    const char *unmodelled = bits < 8                                   ? "packed 4- and 6-bit types"
                             : il != CU_TENSOR_MAP_INTERLEAVE_NONE      ? "interleaved layouts"
                             : sw > CU_TENSOR_MAP_SWIZZLE_128B          ? "the 128B_ATOM swizzle modes"
                             : oob != CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE ? "the NaN out-of-bounds fill"
                                                                        : nullptr;
    for (cuuint32_t i = 0; i < rank && !unmodelled; i++)
        if (estrides[i] != 1) unmodelled = "element strides other than 1";
    if (unmodelled) {
        snprintf(err, errlen, "valid, but the emulator does not model %s", unmodelled);
        return -1;
    }
    MapFields f;
    memset(&f, 0, sizeof f);
    f.gaddr = (uintptr_t)gaddr;
    f.rank = rank;
    f.esize = bits / 8;
    f.span = tmap_swizzle_span(sw);
    for (cuuint32_t i = 0; i < rank; i++) {
        f.box[i] = box[i];
        f.dims[i] = dims[i];
        if (i) f.strides[i - 1] = strides[i - 1];
    }
    memset(map, 0, sizeof *map);
    map->opaque[0] = kMapTag;
    memcpy(&map->opaque[1], &f, sizeof f);
    map->opaque[15] = checksum(map->opaque);
    return 0;
}

static bool decode(const CUtensorMap *map, MapFields *f) {
    if (((uintptr_t)map & 63) || map->opaque[0] != kMapTag || map->opaque[15] != checksum(map->opaque))
        return false;
    memcpy(f, &map->opaque[1], sizeof *f);
    return true;
}

// The swizzle's XOR (kernels/wgmma_layout.h: the same bits wgmma reads).
uintptr_t swizzle_address(uintptr_t a, unsigned span) {
    return (a & ~(uintptr_t)0x3ff) | wg_swizzle((uint32_t)(a & 0x3ff), span);
}

struct TmaCopy {
    uint8_t *dst;
    uint32_t bytes;
    MapFields map;
    int32_t c[5];
    Mbar *bar;
    unsigned thread;
    Site at;
};
// The block's copies in flight, in issue order (fixed storage: written inside threads, internal.h).
static constexpr unsigned kMaxInFlight = 256;
static TmaCopy pending[kMaxInFlight];
static unsigned n_pending;
static std::vector<TmaRegion> regions; // where copies landed in this block (only the scheduler writes it)

void tma_block_start() {
    n_pending = 0;
    regions.clear();
}
const std::vector<TmaRegion> &tma_regions() { return regions; }

void tma_load(Site at, void *dst, const CUtensorMap *map, unsigned n, const int32_t *coords, uint64_t *bar) {
    static const char *const names[] = {"",
                                        "cp.async.bulk.tensor.1d",
                                        "cp.async.bulk.tensor.2d",
                                        "cp.async.bulk.tensor.3d",
                                        "cp.async.bulk.tensor.4d",
                                        "cp.async.bulk.tensor.5d"};
    const char *op = names[n];
    Fiber *f = current();
    MapFields m;
    if (!decode(map, &m))
        fault(at, "%s: %p is not a tensor map made by prims::tma_encode_tiled, or it changed since (T2)", op,
              (const void *)map);
    if (m.rank != n) fault(at, "%s: the tensor map has rank %u (T2)", op, m.rank);
    // Measured on an H100 (kernels/probes; campaign 20261127T093955Z's record and the note in
    // kernels/probes/README.md): an innermost coordinate whose byte offset is
    // not a multiple of 16 stops the kernel with an illegal instruction, in or out of bounds, 2-D or
    // 3-D, any swizzle; the PTX ISA and the driver's encoder do not say so.
    if (((int64_t)coords[0] * (int64_t)m.esize) % 16 != 0)
        fault(at,
              "%s: innermost coordinate %d x %u-byte elements is not a multiple of 16 bytes: an H100 stops "
              "with an illegal instruction (T1, measured)",
              op, (int)coords[0], m.esize);
    if ((uintptr_t)dst % 128) fault(at, "%s: destination %p is not 128-byte aligned (T1)", op, dst);
    if (m.span && (uintptr_t)dst % (8 * m.span))
        fault(at,
              "%s: destination %p is not aligned to the %u-byte repeat of the %u-byte swizzle: the layout "
              "would "
              "depend on where the tile sits (T1; deliberately stricter than the hardware's 128 bytes)",
              op, dst, 8 * m.span, m.span);
    uint32_t bytes = m.esize;
    for (unsigned i = 0; i < n; i++) bytes *= m.box[i];
    bool known;
    if (!is_shared(dst, bytes, &known) && known)
        fault(at, "%s: destination [%p, +%u) is not shared memory (T1)", op, dst, bytes);
    Mbar &mb = mbar_lookup(at, op, bar);
    if (!mb.fenced)
        fault(
            at,
            "%s: the mbarrier initialised at %s:%d was not published to the async proxy (fence.mbarrier_init "
            "or fence.proxy.async after its init: M5)",
            op, mb.init_at.file, mb.init_at.line);
    const uintptr_t lo = (uintptr_t)dst, hi = lo + bytes;
    if (n_pending == kMaxInFlight) fault(at, "%s: more than %u TMA copies in flight", op, kMaxInFlight);
    for (unsigned i = 0; i < n_pending; i++) {
        const TmaCopy &o = pending[i];
        if (lo < (uintptr_t)o.dst + o.bytes && (uintptr_t)o.dst < hi)
            fault(at,
                  "%s: its destination overlaps that of the TMA copy issued at %s:%d, still in flight (T4)",
                  op, o.at.file, o.at.line);
    }
    async_check_overwrite(at, op, lo, hi);
    san::write_range(dst, bytes);
    memset(dst, 0xff, bytes); // undefined until the phase completes: poison
    async_shadow_store(dst, bytes);
    mb.inflight++;
    mb.active = true;
    san::release(&f->sync_tma);
    san::ignore_begin(); // the record is bookkeeping (a struct copy may call memcpy)
    TmaCopy &c = pending[n_pending++];
    c = TmaCopy{(uint8_t *)dst, bytes, m, {0, 0, 0, 0, 0}, &mb, f->linear, at};
    for (unsigned i = 0; i < n; i++) c.c[i] = coords[i];
    san::ignore_end();
}

const Site *tma_in_flight(const void *p, size_t n) {
    const uintptr_t lo = (uintptr_t)p, hi = lo + n;
    for (unsigned i = 0; i < n_pending; i++)
        if (lo < (uintptr_t)pending[i].dst + pending[i].bytes && (uintptr_t)pending[i].dst < hi)
            return &pending[i].at;
    return nullptr;
}

// Writes the box of c into shared memory: element (i_{n-1}, ..., i_0) at the dense box offset, the
// 16-byte chunks swizzled by absolute address bits, out-of-range elements as zeros.
static void write_box(const TmaCopy &c) {
    const MapFields &m = c.map;
    const uint32_t row = m.box[0] * m.esize;
    uint32_t rows = 1;
    for (unsigned d = 1; d < m.rank; d++) rows *= m.box[d];
    for (uint32_t r = 0; r < rows; r++) {
        int64_t g[5] = {0, 0, 0, 0, 0};
        bool row_in = true;
        uint64_t src_row = m.gaddr;
        for (unsigned d = 1, rest = r; d < m.rank; rest /= m.box[d], d++) {
            g[d] = (int64_t)c.c[d] + rest % m.box[d];
            row_in &= g[d] >= 0 && (uint64_t)g[d] < m.dims[d];
            src_row += (uint64_t)g[d] * m.strides[d - 1];
        }
        const uintptr_t base = (uintptr_t)c.dst + (uintptr_t)r * row;
        for (uint32_t e = 0; e < m.box[0]; e++) {
            const int64_t g0 = (int64_t)c.c[0] + e;
            const bool in = row_in && g0 >= 0 && (uint64_t)g0 < m.dims[0];
            uint8_t *to = (uint8_t *)swizzle_address(base + (uintptr_t)e * m.esize, m.span);
            if (in) {
                const uint8_t *from = (const uint8_t *)(uintptr_t)(src_row + (uint64_t)g0 * m.esize);
                san::read_range(from, m.esize);
                memcpy(to, from, m.esize);
            } else {
                memset(to, 0, m.esize);
            }
        }
        san::write_range((void *)swizzle_address(base, 0), row);
    }
}

static bool land(const TmaCopy &c) {
    Fiber &who = B.fibers[c.thread];
    san::tsan_switch(who.tsan_engine, false);
    san::acquire(&who.sync_tma);
    write_box(c);
    async_shadow_store(c.dst, c.bytes);
    san::release(&c.bar->sync[c.bar->phase & 1]);
    san::tsan_switch(B.sched_tsan, false);
    const uintptr_t lo = (uintptr_t)c.dst, hi = lo + c.bytes;
    size_t kept = 0;
    for (const TmaRegion &r : regions)
        if (r.hi <= lo || r.lo >= hi) regions[kept++] = r;
    regions.resize(kept);
    regions.push_back(TmaRegion{lo, hi, c.map.span, c.map.box[0] * c.map.esize, c.at});
    Mbar &m = *c.bar;
    m.inflight--;
    m.tx -= c.bytes;
    return mbar_try_complete(m, &who, c.at);
}

bool tma_land_all() {
    if (!n_pending) return false;
    static TmaCopy batch[kMaxInFlight]; // landing may not issue new copies, but keeps the list simple
    const unsigned n = n_pending;
    memcpy(batch, pending, n * sizeof *batch);
    n_pending = 0;
    for (unsigned i = 0; i < n; i++)
        if (!land(batch[i])) break;
    return true;
}

bool tma_block_end() {
    if (!n_pending) return true;
    const TmaCopy &c = pending[0];
    fault_waiting(&B.fibers[c.thread], c.at,
                  "TMA copy issued here is still in flight when the block ends (%u copies; wait for its "
                  "mbarrier phase before exiting: T3)",
                  n_pending);
    return false;
}

} // namespace simt::rt
