/* probes.h: the hardware probes (kernels/probes/README.md). Three tiny kernels whose inputs describe
 * their own coordinates, so that the output shows where the hardware put each element: a TMA box per
 * swizzle mode, the wgmma accumulator and A-register fragments, the wgmma shared-memory descriptor's
 * address function. The same source runs on an H100 (probe-main, JSON fixtures under data/) and on
 * the emulator (tests/emu/test_probes.c compares both with the ISA's formulas). Plain C interface;
 * each launcher returns 0 or the launch's error (the emulator's fault). */
#ifndef SDPA_PROBES_H
#define SDPA_PROBES_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* prims::tma_encode_tiled for C callers (the probe driver, the emulator's tests): 0, or -1 with err.
 * dtype and swizzle are a CUtensorMapDataType and a CUtensorMapSwizzle, checked before use. */
int probe_encode_tiled(CUtensorMap *map, int dtype, unsigned rank, const void *gaddr, const cuuint64_t *dims,
                       const cuuint64_t *strides, const cuuint32_t *box, int swizzle, char *err,
                       size_t errlen);

/* TMA: loads the box at (c0, c1, c2) of `map` (rank 2 or 3; c2 ignored for rank 2) into a 1024-byte
 * aligned shared tile with one cp.async.bulk.tensor, waits for its mbarrier phase, and copies the
 * tile's `bytes` (the box's size, at most PROBE_TMA_MAX_BYTES) to out as they lie in shared memory. */
#define PROBE_TMA_MAX_BYTES 16384
int probe_tma_box(const CUtensorMap *map, int rank, int c0, int c1, int c2, uint8_t *out, unsigned bytes);

#ifdef __cplusplus
}
#endif

#endif
