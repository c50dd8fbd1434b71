/* The speed of light of one attention forward pass on one device: the least time its DRAM traffic,
 * its two matrix products on the tensor cores and its exponentials on the special-function unit
 * (MUFU) can take, each at the device's peak rate. Each term alone is a lower bound on a kernel's
 * time; the three units work in parallel, so the floor is the largest known term, and the term
 * that sets it is the bound the kernel is held to.
 *
 * Why three terms: with the fp16 tensor peak alone, the Hopper line's FP8 products (wgmma at about
 * twice the fp16 rate) would be held to a floor above their real one, and a fast FP8 kernel would
 * read more than 100 % of the "speed of light"; at D = 64 the exponentials (16 per clock per SM,
 * one per score) cap FP8 attention near half the FP8 tensor peak (FlashAttention-3, section 3.1;
 * ../shared/reference notes). Pure logic, tested with a table of devices (tests/bench/test_roofline.c).
 */
#ifndef ROOFLINE_H
#define ROOFLINE_H

#include <stdint.h>

#include "backend.h"
#include "inputs.h"
#include "sdpa_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The number format a product's tensor-core instruction runs at on a device: what its peak is. */
typedef enum { ROOF_FMT_UNKNOWN = 0, ROOF_FMT_FP16, ROOF_FMT_FP8 } roof_fmt_t;

typedef struct {
    roof_fmt_t qk, pv; /* Q.K^T and P.V, each half of the FLOPs */
} roof_products_t;

typedef struct {
    double dram_us, tensor_us, exp2_us; /* each term, NaN where the device's peak is unknown */
    double floor_us;                    /* the largest known term; NaN when none is */
    const char *bound;                  /* "dram", "tensor", "exp2"; NULL when none is known */
} roof_t;

/* Work counts of one forward pass (FlashAttention's convention): 4*B*H*S*S*D FLOPs, half when
 * causal; minimum bytes = Q, K, V read once in fp8 + O written once in fp16; one exponential per
 * score, half when causal (the scores a causal mask keeps). */
uint64_t bench_flops(sdpa_shape_t s);
uint64_t bench_bytes_min(sdpa_shape_t s);
uint64_t bench_exps(sdpa_shape_t s);

/* Dense tensor-core peaks (TFLOP/s) from vendor datasheets, for the devices the study names and a
 * few common boards (roofline.c), matched on the exact device name (an H200 NVL or an H100 NVL has
 * other peaks than its SXM namesake); NaN otherwise, and for FP8 on a board without it (A100). */
double roof_fp16_peak_tflops(const char *device_name);
double roof_fp8_peak_tflops(const char *device_name);
/* Exponentials per second (10^12) of the MUFU at the device's default (maximum) clock: 16 per clock
 * per SM on compute capability 8.0 to 9.0 (the CUDA C++ Programming Guide's throughput table,
 * exp2f), NaN on others or with an unknown clock. cc = major*10 + minor. */
double roof_exp2_tps(int cc, int sm_count, double clock_mhz);
/* The format each product of a variant with switches sw runs at on a device of capability cc:
 * mma.sync e4m3 (FP8_MMA) is native FP8 (QMMA) on sm_89 but unpacked to fp16 HMMA on sm_90
 * (cuobjdump, ../shared/reference/fp8-mma-notes.md) and unknown on the others; wgmma e4m3
 * (WGMMA_QK, WGMMA_PV) is FP8; every other product is fp16 or slower (WMMA, mma.sync f16, stage
 * 0's scalar P.V: the fp16 peak is a loose but true bound there). A peer has sw = 0. */
roof_products_t roof_products(sdpa_switches_t sw, int cc);
/* The terms for shape s on dev (NULL: nothing known) with products p. Every variant of this build
 * computes each exponential with __expf (one MUFU.EX2); one that moved exponentials off the MUFU
 * (stage 7g's polynomial) would need its own exp2 term. */
roof_t roof_floor(sdpa_shape_t s, const backend_device_t *dev, roof_products_t p);
/* "fp16", "fp8", or NULL for ROOF_FMT_UNKNOWN (JSON null). */
const char *roof_fmt_name(roof_fmt_t f);

#ifdef __cplusplus
}
#endif

#endif
