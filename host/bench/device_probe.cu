// Device probe and metadata for the CUDA backend (device_probe.h).
#include "device_probe.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

int cuda_fail(char *err, size_t errlen, const char *call, cudaError_t e) {
    snprintf(err, errlen, "%s: %s (%s)", call, cudaGetErrorName(e), cudaGetErrorString(e));
    return -1;
}

int cuda_device_probe(char *why, size_t whylen) {
    int n = 0;
    const cudaError_t e = cudaGetDeviceCount(&n);
    int driver = 0;
    if (e == cudaErrorInsufficientDriver && cudaDriverGetVersion(&driver) == cudaSuccess && driver == 0) {
        // The runtime says "insufficient driver" also when there is no driver at all.
        snprintf(why, whylen, "no CUDA device (no NVIDIA driver is installed: libcuda not found)");
        return 0;
    }
    if (e != cudaSuccess) {
        snprintf(why, whylen, "no usable CUDA device (cudaGetDeviceCount: %s: %s)", cudaGetErrorName(e),
                 cudaGetErrorString(e));
        return 0;
    }
    if (n < 1) {
        snprintf(why, whylen, "no CUDA device (cudaGetDeviceCount returned 0)");
        return 0;
    }
    return 1;
}

namespace {

// Dense FP16 tensor-core peaks of the devices the study names (vendor datasheet figures), matched
// on the exact device name: similar names (L40S, H100 PCIe, H200 NVL) have other peaks, and an
// unknown device gets NaN rather than a guess.
struct KnownPeak {
    const char *name;
    double fp16_tensor_tflops;
};
const KnownPeak kKnownPeaks[] = {
    {"NVIDIA L4", 121.0},
    {"NVIDIA H100 80GB HBM3", 989.0},
    {"NVIDIA H200", 989.0},
};

double known_fp16_peak(const char *name) {
    for (const KnownPeak &k : kKnownPeaks)
        if (strcmp(k.name, name) == 0) return k.fp16_tensor_tflops;
    return NAN;
}

void version_string(int v, char *out, size_t n) { snprintf(out, n, "%d.%d", v / 1000, (v % 1000) / 10); }

int attr(int *v, cudaDeviceAttr a, int dev, const char *what, char *err, size_t errlen) {
    const cudaError_t e = cudaDeviceGetAttribute(v, a, dev);
    if (e != cudaSuccess) return cuda_fail(err, errlen, what, e);
    return 0;
}

#define ATTR(var, a)                                                                                         \
    if (attr(&(var), a, dev, "cudaDeviceGetAttribute(" #a ")", err, errlen) != 0) return -1

} // namespace

int cuda_device_info(int dev, backend_device_t *d, char *err, size_t errlen) {
    cudaDeviceProp prop;
    CUDA_TRY(cudaGetDeviceProperties(&prop, dev));
    snprintf(d->name, sizeof d->name, "%s", prop.name);
    int major = 0, minor = 0, sms = 0, clk_khz = 0, mem_khz = 0, bus = 0, l2 = 0, ecc = 0;
    ATTR(major, cudaDevAttrComputeCapabilityMajor);
    ATTR(minor, cudaDevAttrComputeCapabilityMinor);
    ATTR(sms, cudaDevAttrMultiProcessorCount);
    ATTR(clk_khz, cudaDevAttrClockRate);
    ATTR(mem_khz, cudaDevAttrMemoryClockRate);
    ATTR(bus, cudaDevAttrGlobalMemoryBusWidth);
    ATTR(l2, cudaDevAttrL2CacheSize);
    ATTR(ecc, cudaDevAttrEccEnabled);
    snprintf(d->cc, sizeof d->cc, "%d.%d", major, minor);
    d->sm_count = sms;
    d->sm_clock_default_mhz = clk_khz > 0 ? clk_khz / 1000.0 : NAN;
    d->mem_clock_mhz = mem_khz > 0 ? mem_khz / 1000.0 : NAN;
    d->mem_bus_bits = bus;
    d->l2_bytes = (uint64_t)(l2 > 0 ? l2 : 0);
    d->ecc = ecc ? 1 : 0;
    d->clocks_locked = -1; // would need NVML (absent from the CUDA 13 toolkit) and is never assumed
    // Double data rate: two transfers per memory clock, bus width in bits.
    d->peak_dram_gbs = (mem_khz > 0 && bus > 0) ? 2.0 * mem_khz * 1e3 * (bus / 8.0) / 1e9 : NAN;
    d->peak_fp16_tensor_tflops = known_fp16_peak(d->name);
    int drv = 0, rt = 0;
    CUDA_TRY(cudaDriverGetVersion(&drv));
    CUDA_TRY(cudaRuntimeGetVersion(&rt));
    version_string(drv, d->driver_version, sizeof d->driver_version);
    version_string(rt, d->runtime_version, sizeof d->runtime_version);
    return 0;
}
