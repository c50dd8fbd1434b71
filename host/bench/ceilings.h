/* sdpa-bench --ceilings: the measured ceilings of the roofline on the device of the run, in one
 * process (data/SCHEMA.md, kind "ceilings"):
 *   copy_d2d       device-to-device copy bandwidth (cudaMemcpyAsync of 1 GiB), GB/s counting the
 *                  bytes read and written (2 x the size copied, as CUDA's bandwidthTest);
 *   gemm_fp16      cublasLtMatmul, fp16 A, B, C, D, compute 32F, 8192^3, TFLOP/s of 2mnk;
 *   gemm_fp8_e4m3  cublasLtMatmul, E4M3 A and B (TN, as cuBLASLt requires for FP8), fp16 C and D,
 *                  compute 32F, unit scales through A/B_SCALE_POINTER, CUBLASLT_MATMUL_DESC_FAST_ACCUM
 *                  on (the tensor cores' own accumulation, without cuBLASLt's periodic promotion
 *                  of partial sums to a wider register, which costs throughput: the ceiling is
 *                  the device's FP8 rate, the roof the FP8 kernels are held against); sm_89 or
 *                  newer. Recorded as details.fast_accum (false for fp16, where it does not apply).
 * Sizes shrink (halving) until the buffers fit in half of the device memory. Each is timed like a
 * kernel (backend sample_work: cudaEvents, the blocking kernel, the run's --l2 setting): 3
 * warm-ups, then CEILING_SAMPLES samples; value = work / median time, ci = work / the median's
 * order-statistic CI (stats.h), raw samples kept. On the emulator every ceiling is "skipped"
 * ("emulated: no GPU"), never a number; without cuBLAS the GEMMs are "skipped" with the reason. */
#ifndef CEILINGS_H
#define CEILINGS_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "backend.h"

#define CEILING_WARMUPS 3
#define CEILING_SAMPLES 20
#define CEILING_COPY_BYTES (1ull << 30)
#define CEILING_GEMM_DIM 8192
#define CEILING_SKIP_EMULATED "emulated: no GPU"

/* Measures every ceiling on be (dev: the device, NULL on the emulator) and appends one object per
 * ceiling to out. A ceiling that cannot be measured is "skipped" (emulator, no cuBLAS, FP8 not on
 * this device, configuration refused) or "failed" (an error while measuring) with its reason; the
 * others are still measured. Progress on stderr unless quiet. */
void ceilings_measure(backend_t *be, const backend_device_t *dev, bool quiet, cJSON *out);

#endif
