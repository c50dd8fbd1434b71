// A static model of shared-memory bank use for stage 6's V^T buffer (FP8_MMA rows): the addresses
// each warp-wide request touches, computed with the kernel's own functions (LoaderChunks, k32_pos,
// vt_row, Config's row stride and Smem's layout), and counted per bank. A request is conflict-free
// when no bank holds two distinct 32-bit words (32 banks of 4 bytes; lanes reading or writing the
// same word share it).
//   stores  the producers' transpose (repack_kv_staged): for each producer warp, chunk i and byte
//           d of the chunk, its 32 lanes store one byte each, at row vt_row(c + d), position
//           k32_pos(key): one request.
//   loads   the consumers' ldmatrix x4 of P.V (fp8_tile): 4 phases of 8 lanes, each a 16-byte row.
// The negative control applies the same model to V^T's rows unpermuted (row d at row d, the layout
// before vt_row): 4 words in one bank, a 4-way conflict, which the model must report.
// Built with the emulator's toolchain (the kernel headers as host code), run by make test.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

extern "C" {
#include <cmocka.h>
}

#include "sdpa_fp8.cuh"

namespace {

constexpr int kBanks = 32, kWord = 4;

// The largest number of distinct words that one bank serves in a request of n byte addresses.
int words_per_bank(const long *addr, int n) {
    int worst = 0;
    for (int b = 0; b < kBanks; ++b) {
        long words[64];
        int nw = 0;
        for (int i = 0; i < n; ++i) {
            const long w = addr[i] / kWord;
            if (w % kBanks != b) continue;
            bool seen = false;
            for (int k = 0; k < nw; ++k) seen |= words[k] == w;
            if (!seen) words[nw++] = w;
        }
        if (nw > worst) worst = nw;
    }
    return worst;
}

using RowFn = int (*)(int);
int rows_unpermuted(int d) { return d; }
int rows_kernel(int d) { return sdpa::vt_row(d); }

// Byte offset of V^T buffer `buf` from a 128-byte boundary (banks repeat every 128 bytes), taken
// from an instance of the kernel's Smem (128-aligned, as its members are).
template <class Cfg> long vt_base(int buf) {
    static sdpa::Smem<Cfg> sm;
    return (long)((uintptr_t)&sm.vt[buf][0][0] % 128);
}

// The worst store request of the transpose, over producer warps, chunks and bytes, both buffers.
template <class Cfg> int worst_store(RowFn row) {
    int worst = 0;
    for (int buf = 0; buf < Cfg::kHalfBufs; ++buf)
        for (int w = Cfg::kLoader0 / 32; w < Cfg::kWarps; ++w)
            for (int i = 0; i < sdpa::LoaderChunks<Cfg>::kPerThread; ++i)
                for (int d = 0; d < sdpa::CHUNK; ++d) {
                    long addr[32];
                    for (int lane = 0; lane < 32; ++lane) {
                        const sdpa::LoaderChunks<Cfg> m(32 * w + lane);
                        addr[lane] =
                            vt_base<Cfg>(buf) + (long)row(m.col(i) + d) * Cfg::LDVT + sdpa::k32_pos(m.row(i));
                    }
                    const int k = words_per_bank(addr, 32);
                    if (k > worst) worst = k;
                }
    return worst;
}

// The worst phase of the consumers' ldmatrix x4 reads of V^T (8 lanes x 16 bytes per phase).
template <class Cfg> int worst_load(RowFn row) {
    int worst = 0;
    for (int buf = 0; buf < Cfg::kHalfBufs; ++buf)
        for (int np = 0; np < Cfg::kD / 16; ++np)
            for (int mat = 0; mat < 4; ++mat) {
                long addr[32];
                int n = 0;
                for (int lane = 8 * mat; lane < 8 * mat + 8; ++lane) {
                    const int d = 16 * np + (lane & 7) + 8 * (lane >> 4), col = 16 * ((lane >> 3) & 1);
                    for (int b = 0; b < 16; b += kWord)
                        addr[n++] = vt_base<Cfg>(buf) + (long)row(d) * Cfg::LDVT + col + b;
                }
                const int k = words_per_bank(addr, n);
                if (k > worst) worst = k;
            }
    return worst;
}

// Every row of the registry (variants.def); the FP8_MMA ones are modelled.
struct RegistryRow {
    const char *id;
    int (*store)(RowFn);
    int (*load)(RowFn);
    bool fp8;
};
template <sdpa_switches_t SW> RegistryRow registry_row(const char *id) {
    using Cfg = sdpa::Config<SW, 64>;
    if constexpr (Cfg::kFp8Mma)
        return {id, worst_store<Cfg>, worst_load<Cfg>, true};
    else
        return {id, nullptr, nullptr, false};
}
#define SDPA_VARIANT(ident, id, parent, sw, summary) registry_row<(sw)>(id),
const RegistryRow kRows[] = {
#include "variants.def"
};
#undef SDPA_VARIANT

void stores_conflict_free(void **state) {
    (void)state;
    int n = 0;
    for (const RegistryRow &r : kRows) {
        if (!r.fp8) continue;
        ++n;
        const int k = r.store(rows_kernel);
        print_message("# %s: the V transpose's byte stores: at most %d word(s) per bank per request\n", r.id,
                      k);
        assert_int_equal(k, 1);
    }
    assert_true(n >= 1); // the registry has an FP8_MMA row to model
}

void loads_conflict_free(void **state) {
    (void)state;
    for (const RegistryRow &r : kRows) {
        if (!r.fp8) continue;
        const int k = r.load(rows_kernel);
        print_message("# %s: the ldmatrix reads of V^T: at most %d word(s) per bank per phase\n", r.id, k);
        assert_int_equal(k, 1);
    }
}

// Negative control: the model sees the 4-way store conflict of unpermuted rows (the layout before
// vt_row), and those rows' reads were conflict-free already (the rotation fixes the stores only).
void unpermuted_rows_conflict(void **state) {
    (void)state;
    for (const RegistryRow &r : kRows) {
        if (!r.fp8) continue;
        assert_int_equal(r.store(rows_unpermuted), 4);
        assert_int_equal(r.load(rows_unpermuted), 1);
    }
}

} // namespace

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stores_conflict_free),
        cmocka_unit_test(loads_conflict_free),
        cmocka_unit_test(unpermuted_rows_conflict),
    };
    return cmocka_run_group_tests_name("bank-model", tests, NULL, NULL);
}
