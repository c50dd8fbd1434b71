// The wgmma layouts of kernels/wgmma_layout.h (implemented from the PTX ISA; what the emulator and
// prims.cuh use) against NVIDIA CuTe, compiled for the host (the headers of PyPI's nvidia-cutlass;
// tests/emu/cute-check.sh builds and runs this). CuTe is an independent implementation: its layouts
// are evaluated here, never called by the artifact. Prints TAP.
//   1. CLayout_64xN (accumulators) for every N of prims.cuh: thread, value -> (m, n), all 128 threads;
//   2. ALayout_64x32 (8-bit A from registers): thread, value -> (m, k);
//   3. the K-major swizzle atoms Layout_K_{INTER,SW32,SW64,SW128}_Atom<uint8_t> tiled to 64 x 32 / 64 x
//      (span) bytes: every (row, k-byte) -> byte offset, against wg_kmajor_address with the
//      descriptor fields that make_gmma_desc<Major::K> derives from the same tiles (LBO, SBO, layout
//      type; not the start address, which CuTe takes from the device-only shared-memory cast).
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <cute/tensor.hpp>

#include "wgmma_layout.h"

using namespace cute;

static int n_test;
static void tap(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tap(bool ok, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    printf("%sok %d - ", ok ? "" : "not ", ++n_test);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

template <int N> static void check_c_layout() {
    using L = SM90::GMMA::CLayout_64xN<N>;
    int bad = 0, first_t = -1, first_v = -1;
    for (int t = 0; t < 128; t++)
        for (int v = 0; v < N / 2; v++) {
            const int idx = L{}(t, v), m = idx % 64, n = idx / 64;
            if (m != (int)wg_acc_row(t, v) || n != (int)wg_acc_col(t, v)) {
                if (!bad++) first_t = t, first_v = v;
            }
        }
    tap(!bad,
        "CuTe CLayout_64x%d: every (thread, register) -> (m, n) equals wg_acc_row/col (%d differ; first t %d "
        "v %d)",
        N, bad, first_t, first_v);
}

static void check_a_layout() {
    using L = SM90::GMMA::ALayout_64x32;
    int bad = 0;
    for (int t = 0; t < 128; t++)
        for (int v = 0; v < 16; v++) {
            const int idx = L{}(t, v), m = idx % 64, k = idx / 64;
            bad += m != (int)wg_a_row(t, v) || k != (int)wg_a_k(t, v);
        }
    tap(!bad, "CuTe ALayout_64x32: every (thread, byte) -> (m, k) equals wg_a_row/a_k (%d differ)", bad);
}

// The descriptor fields CuTe derives for a 64-row K-major uint8 tile of `cols` bytes with this atom,
// and the byte offset of every (row, k-byte) of its first 32 columns against wg_kmajor_address.
template <class Atom, int COLS> static void check_atom(const char *name, unsigned span) {
    const int cols = COLS;
    static uint8_t smem[64 * 128] __attribute__((aligned(1024)));
    auto layout = tile_to_shape(Atom{}, make_shape(Int<64>{}, Int<COLS>{}));
    Tensor whole = make_tensor(make_smem_ptr(smem), layout);
    // one k-block of 32 bytes: what one wgmma reads
    Tensor tile = local_tile(whole, make_shape(Int<64>{}, Int<32>{}), make_coord(0, 0));
    // CuTe prints an error for the start address it cannot take on the host; keep it out of the TAP.
    fflush(stdout);
    const int saved = dup(1);
    freopen("/dev/null", "w", stdout);
    const GmmaDescriptor desc = SM90::GMMA::make_gmma_desc<SM90::GMMA::Major::K>(tile);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    const unsigned lbo = desc.bitfield.leading_byte_offset_ * 16u,
                   sbo = desc.bitfield.stride_byte_offset_ * 16u;
    const unsigned type = desc.bitfield.layout_type_;
    const unsigned want_type = span == 128 ? 1 : span == 64 ? 2 : span == 32 ? 3 : 0;
    int bad = 0;
    for (int r = 0; r < 64; r++)
        for (int e = 0; e < 32; e++) {
            const unsigned cute_off = (unsigned)(&tile(r, e) - smem);
            bad += cute_off != wg_kmajor_address(0, lbo, sbo, span, r, e);
        }
    tap(type == want_type && bad == 0,
        "CuTe %s, 64 x %d bytes: make_gmma_desc gives type %u (want %u), LBO %u, SBO %u bytes; every (row, "
        "k-byte) "
        "offset equals wg_kmajor_address (%d differ)",
        name, cols, type, want_type, lbo, sbo, bad);
    const uint64_t mine = wg_desc(0, lbo, sbo, span);
    tap((mine >> 16) == (desc.desc_ >> 16),
        "CuTe %s: wg_desc's fields above the start address equal CuTe's (0x%016llx vs 0x%016llx)", name,
        (unsigned long long)mine, (unsigned long long)desc.desc_);
    // The later k-blocks of a swizzled row: the descriptor's start advances by 32 bytes each.
    if constexpr (COLS > 32) {
        int bad_kb = 0;
        for (int kb = 1; kb < COLS / 32; kb++) {
            Tensor next = local_tile(whole, make_shape(Int<64>{}, Int<32>{}), make_coord(0, kb));
            for (int r = 0; r < 64; r++)
                for (int e = 0; e < 32; e++)
                    bad_kb +=
                        (unsigned)(&next(r, e) - smem) != wg_kmajor_address(32 * kb, lbo, sbo, span, r, e);
        }
        tap(!bad_kb,
            "CuTe %s: k-blocks 1-%d at start + 32 kb: every offset equals wg_kmajor_address (%d differ)",
            name, COLS / 32 - 1, bad_kb);
    }
}

int main() {
    check_c_layout<16>();
    check_c_layout<32>();
    check_c_layout<64>();
    check_c_layout<96>();
    check_c_layout<128>();
    check_c_layout<160>();
    check_c_layout<192>();
    check_c_layout<256>();
    check_a_layout();
    check_atom<SM90::GMMA::Layout_K_INTER_Atom<uint8_t>, 32>("Layout_K_INTER_Atom<uint8_t>", 0);
    check_atom<SM90::GMMA::Layout_K_SW32_Atom<uint8_t>, 32>("Layout_K_SW32_Atom<uint8_t>", 32);
    check_atom<SM90::GMMA::Layout_K_SW64_Atom<uint8_t>, 64>("Layout_K_SW64_Atom<uint8_t>", 64);
    check_atom<SM90::GMMA::Layout_K_SW128_Atom<uint8_t>, 128>("Layout_K_SW128_Atom<uint8_t>", 128);
    printf("1..%d\n", n_test);
    return 0;
}
