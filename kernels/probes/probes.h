/* probes.h: the hardware probes (kernels/probes/README.md). Three tiny kernels whose inputs describe
 * their own coordinates, so that the output shows where the hardware put each element: a TMA box per
 * swizzle mode, the wgmma accumulator and A-register fragments, the wgmma shared-memory descriptor's
 * address function; stage 7g's exponential, whose device bits must equal its host twin's; and stage 7h's
 * flushed exponential, whose codes must equal __expf's on the same device; stage 7k's stmatrix
 * fragment; and where stage 7's dynamic shared memory starts. The same
 * source runs on an H100 (probe-main, JSON fixtures under data/) and on
 * the emulator (tests/emu/test_probes.c compares both with the ISA's formulas). Plain C interface;
 * each launcher returns 0 or the launch's error (the emulator's fault; on CUDA after synchronising). */
#ifndef SDPA_PROBES_H
#define SDPA_PROBES_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Buffers the probes read and write (device memory on CUDA): pointers passed to the probes and to
 * probe_encode_tiled as the tensor's address must come from here. put/get return 0 or an error. */
void *probe_alloc(size_t n);
void probe_free(void *p);
int probe_put(void *dst, const void *src, size_t n);
int probe_get(void *dst, const void *src, size_t n);

/* The device the probes run on: its backend ("cuda" or "emulator"), name and compute capability; NULL
 * with err when there is none. */
const char *probe_device(char *name, size_t n, int *major, int *minor, char *err, size_t errlen);

/* prims::tma_encode_tiled for C callers (the probe driver, the emulator's tests): 0, or -1 with err.
 * dtype and swizzle are a CUtensorMapDataType and a CUtensorMapSwizzle, checked before use. */
int probe_encode_tiled(CUtensorMap *map, int dtype, unsigned rank, const void *gaddr, const cuuint64_t *dims,
                       const cuuint64_t *strides, const cuuint32_t *box, int swizzle, char *err,
                       size_t errlen);

/* TMA: loads the box at (c0, c1, c2) of `map` (rank 2 or 3; c2 ignored for rank 2) into a 1024-byte
 * aligned shared tile with one cp.async.bulk.tensor, waits for its mbarrier phase, and copies the
 * tile's `bytes` (the box's size, at most PROBE_TMA_MAX_BYTES) to out as they lie in shared memory. */
#define PROBE_TMA_MAX_BYTES 16384
/* The one TMA load an H100 refuses (kernels/probes/README.md): a 16 x 8 uint16 box of a 64 x 16
 * tensor at innermost coordinate x = 4 (8 bytes, not a multiple of 16). 0 if it loaded, else the
 * error (on CUDA a sticky one: call it in a process of its own). */
#define PROBE_UNALIGNED_X 4
int probe_tma_unaligned(void);
/* A probe's nonzero return as words: the CUDA error's name (cudaErrorLaunchFailure, ...), or the
 * emulator's verdict. */
const char *probe_error_name(int rc);
int probe_tma_box(const CUtensorMap *map, int rank, int c0, int c1, int c2, uint8_t *out, unsigned bytes);

/* wgmma SS, m64n256k32: out[128 t + i] = accumulator register i of thread t, where D[m][n] = m + 64 n. */
int probe_wgmma_acc(float *out);
/* wgmma RS, m64n32k32, B selecting columns: out[16 t + i] = accumulator register i of thread t =
 * A[m][n] for its (m, n), where A byte i of thread t holds what = 0: i, 1: t % 8, 2: t / 8. */
int probe_wgmma_a(int what, float *out);
/* wgmma SS over a 16 KB region whose byte x holds nibble `nibble` of x, read as A through a descriptor
 * (start offset in the region, LBO, SBO, swizzle 0/32/64/128 bytes): out[32 m + k] = that nibble of
 * the address A's element (m, k) was read from. */
int probe_wgmma_desc(unsigned start, unsigned lbo, unsigned sbo, unsigned swizzle, int nibble, float *out);

/* Stage 7g's exponential (kernels/exp2_poly.h) on the device: y[i] = exp2_poly(x[i]) for i < n, x and y
 * from probe_alloc; the driver compares y with the same function compiled for the host, bit for bit. */
int probe_exp2_poly(const float *x, float *y, unsigned n);

/* Stage 7h's flushed exponential (prims::expf_ftz) beside __expf on the device, as the kernels use them
 * for P: out[3 i] and out[3 i + 1] the bits of __expf(x[i]) and expf_ftz(x[i]); out[3 i + 2] the e4m3
 * codes of 448 times each (low byte __expf's), by the kernels' conversion (prims::pack_e4m3x2). The
 * driver checks paper/methods.md#prereg-stage7h on the device: the same codes everywhere, the same
 * weight wherever __expf's is at least 2^-126, +0 below. */
int probe_exp_ftz(const float *x, uint32_t *out, unsigned n);

/* Stage 7k's store: one warp's stmatrix.sync.aligned.m8n8.x4.shared.b16 into a zeroed 512-byte shared
 * tile, lane l's register m holding the 16-bit codes PROBE_STSM_CODE(l, m, 0) (low half) and
 * PROBE_STSM_CODE(l, m, 1) (high half), lane 8 m + i giving row i of matrix m at PROBE_STSM_ROW(m, i)
 * bytes (a permutation of the 32 rows); out: the tile's 256 halves as they lie. The driver checks the
 * PTX ISA's layout: row i of matrix m, half c, from lane 4 i + c / 2, register m, half c % 2. */
#define PROBE_STSM_CODE(l, m, h) (0x1000u + 256u * (unsigned)(h) + 32u * (unsigned)(m) + (unsigned)(l))
#define PROBE_STSM_ROW(m, i) (16 * ((7 * (8 * (m) + (i))) % 32))
int probe_stmatrix(uint16_t *out);

/* Stage 7's shared memory: the shared-window address of the dynamic shared memory of a kernel declared
 * as stage 7's are (no static shared memory, the extern array's __align__ 1024), launched with `bytes`
 * of it (opted in above 48 KiB), written to *out (from probe_alloc). Stage 7's kernels stop unless it
 * is a multiple of their tiles' alignment, at most 1024 (prims::smem_check_aligned). */
#define PROBE_SMEM_BASE_BYTES 148480 /* stage 7e-7k's at D = 128, the largest */
int probe_smem_base(unsigned bytes, uint32_t *out);

#ifdef __cplusplus
}
#endif

#endif
