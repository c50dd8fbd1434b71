// wmma.cpp: the scrambled fragment maps and the pointer rules of load/store_matrix_sync.
//
// The real element -> (lane, index) map of a WMMA fragment is unspecified, so the emulator uses a
// seeded random one (SIMT_WMMA_SEED): code that reads fragment elements by position gets wrong
// results here instead of working by accident. The accumulator map does not depend on the element
// type, so converting a float accumulator to a half one element by element stays valid.
#include "internal.h"

namespace simt::rt {

static uint8_t map_a[512], map_b[512], map_acc[256];

// A/B fragments hold every element twice (32 lanes x 16 = 2 x 256): slot s holds element
// perm[s] mod 256. The accumulator holds each element once (32 x 8).
static void scramble(uint8_t *map, unsigned slots, uint64_t &state) {
    unsigned perm[512];
    for (unsigned i = 0; i < slots; i++) perm[i] = i;
    for (unsigned i = slots; i > 1; i--) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        unsigned j = (unsigned)((state >> 33) % i);
        unsigned t = perm[i - 1];
        perm[i - 1] = perm[j];
        perm[j] = t;
    }
    for (unsigned i = 0; i < slots; i++) map[i] = (uint8_t)(perm[i] & 255);
}

void wmma_init(uint64_t seed) {
    uint64_t state = seed;
    scramble(map_a, 512, state);
    scramble(map_b, 512, state);
    scramble(map_acc, 256, state);
}

const uint8_t *wmma_map(WmmaUse use) { return use == WMMA_A ? map_a : use == WMMA_B ? map_b : map_acc; }

void wmma_check(Site at, const char *what, const void *p, unsigned ldm, size_t elem_bytes) {
    if ((uintptr_t)p & 31) fault(at, "%s: pointer %p is not 256-bit (32-byte) aligned", what, p);
    if ((ldm * elem_bytes) % 16)
        fault(at, "%s: ldm %u is not a multiple of 16 bytes (%zu-byte elements: a multiple of %zu)", what,
              ldm, elem_bytes, 16 / elem_bytes);
}

} // namespace simt::rt
