/* The speed-of-light model of one attention forward pass (roofline.h). */
#include "roofline.h"

#include <math.h>
#include <string.h>

uint64_t bench_flops(sdpa_shape_t s) {
    const uint64_t full = 4u * (uint64_t)s.B * (uint64_t)s.H * (uint64_t)s.S * (uint64_t)s.S * (uint64_t)s.D;
    return s.causal ? full / 2 : full; /* FlashAttention's benchmarks count a causal run as half */
}

uint64_t bench_bytes_min(sdpa_shape_t s) {
    return 5u * (uint64_t)s.B * (uint64_t)s.H * (uint64_t)s.S * (uint64_t)s.D; /* 3 x 1 B in, 2 B out */
}

uint64_t bench_exps(sdpa_shape_t s) {
    const uint64_t full = (uint64_t)s.B * (uint64_t)s.H * (uint64_t)s.S * (uint64_t)s.S;
    return s.causal ? full / 2 : full;
}

/* Dense peaks: half the datasheets' "with sparsity" figures. The study's devices: L4 242 fp16, 485
 * FP8; H100 SXM5 and H200 SXM 1979 fp16, 3958 FP8. Common boards its users may measure on: H100
 * PCIe 1513 fp16, 3026 FP8 (the H100 datasheet's PCIe column); L40S 733 fp16, 1466 FP8 (its
 * datasheet; dense 362.05 fp16 as printed there); A100, every board (SXM4 and PCIe, 40 and 80 GB),
 * 624 fp16 and no FP8 (the A100 datasheet). Names as the CUDA driver reports them. */
static const struct {
    const char *name;
    double fp16, fp8;
} known_peaks[] = {
    {"NVIDIA L4", 121.0, 242.5},           {"NVIDIA H100 80GB HBM3", 989.0, 1979.0},
    {"NVIDIA H200", 989.0, 1979.0},        {"NVIDIA H100 PCIe", 756.5, 1513.0},
    {"NVIDIA L40S", 362.05, 733.0},        {"NVIDIA A100-SXM4-40GB", 312.0, NAN},
    {"NVIDIA A100-SXM4-80GB", 312.0, NAN}, {"NVIDIA A100-PCIE-40GB", 312.0, NAN},
    {"NVIDIA A100 80GB PCIe", 312.0, NAN},
};

static double known_peak(const char *name, int fp8) {
    for (size_t i = 0; name && i < sizeof known_peaks / sizeof known_peaks[0]; i++)
        if (strcmp(known_peaks[i].name, name) == 0) return fp8 ? known_peaks[i].fp8 : known_peaks[i].fp16;
    return NAN;
}

double roof_fp16_peak_tflops(const char *device_name) { return known_peak(device_name, 0); }
double roof_fp8_peak_tflops(const char *device_name) { return known_peak(device_name, 1); }

double roof_exp2_tps(int cc, int sm_count, double clock_mhz) {
    if (cc < 80 || cc > 90 || sm_count <= 0 || !(clock_mhz > 0)) return NAN;
    return 16.0 * sm_count * clock_mhz * 1e6 / 1e12;
}

static roof_fmt_t product_fmt(sdpa_switches_t sw, unsigned wgmma_bit, int cc) {
    if (sw & wgmma_bit) return ROOF_FMT_FP8;
    if (!(sw & SDPA_SW(FP8_MMA))) return ROOF_FMT_FP16;
    if (cc == 89) return ROOF_FMT_FP8;
    if (cc == 90) return ROOF_FMT_FP16;
    return ROOF_FMT_UNKNOWN;
}

roof_products_t roof_products(sdpa_switches_t sw, int cc) {
    roof_products_t p = {product_fmt(sw, SDPA_SW(WGMMA_QK), cc), product_fmt(sw, SDPA_SW(WGMMA_PV), cc)};
    return p;
}

const char *roof_fmt_name(roof_fmt_t f) {
    return f == ROOF_FMT_FP16 ? "fp16" : f == ROOF_FMT_FP8 ? "fp8" : NULL;
}

static double fmt_peak(const backend_device_t *dev, roof_fmt_t f) {
    return f == ROOF_FMT_FP16  ? dev->peak_fp16_tensor_tflops
           : f == ROOF_FMT_FP8 ? dev->peak_fp8_tensor_tflops
                               : NAN;
}

roof_t roof_floor(sdpa_shape_t s, const backend_device_t *dev, roof_products_t p) {
    roof_t r = {NAN, NAN, NAN, NAN, NULL};
    if (!dev) return r;
    r.dram_us = (double)bench_bytes_min(s) / (dev->peak_dram_gbs * 1e3);
    /* Half the FLOPs in each product; the two share the tensor cores, so their times add. */
    const double half = (double)bench_flops(s) / 2.0;
    r.tensor_us = half / (fmt_peak(dev, p.qk) * 1e6) + half / (fmt_peak(dev, p.pv) * 1e6);
    r.exp2_us = (double)bench_exps(s) / (dev->peak_exp2_tps * 1e6);
    double *const t[3] = {&r.dram_us, &r.tensor_us, &r.exp2_us};
    static const char *const name[3] = {"dram", "tensor", "exp2"};
    for (int i = 0; i < 3; i++) {
        if (!isfinite(*t[i]) || *t[i] <= 0) {
            *t[i] = NAN; /* an unknown peak (or none given) */
            continue;
        }
        if (!r.bound || *t[i] > r.floor_us) r.floor_us = *t[i], r.bound = name[i];
    }
    return r;
}
