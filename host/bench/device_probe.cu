// Device probe and metadata for the CUDA backend (device_probe.h).
#include "device_probe.h"

#include "arch.h"
#include "roofline.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

int cuda_fail(char *err, size_t errlen, const char *call, cudaError_t e) {
    snprintf(err, errlen, "%s: %s (%s)", call, cudaGetErrorName(e), cudaGetErrorString(e));
    return -1;
}

// The architectures this binary carries (mk/bench.mk passes CUDA_ARCHS).
#ifndef SDPA_CUDA_ARCHS
#error "SDPA_CUDA_ARCHS (the CUDA_ARCHS the kernels were built for) must be defined"
#endif

int cuda_device_probe(const backend_options_t *opt, char *why, size_t whylen) {
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
    const char *visible = getenv("CUDA_VISIBLE_DEVICES");
    if (opt->device < 0 || opt->device >= n) {
        snprintf(why, whylen, "--device %d: %d CUDA device(s) visible (0 to %d; CUDA_VISIBLE_DEVICES=%s)",
                 opt->device, n, n - 1, visible ? visible : "unset");
        return 0;
    }
    int major = 0, minor = 0;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, opt->device) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, opt->device) != cudaSuccess) {
        snprintf(why, whylen, "device %d: its compute capability cannot be read", opt->device);
        return 0;
    }
    arch_build_t build;
    char arch_why[400];
    if (arch_build_parse(SDPA_CUDA_ARCHS, &build) != 0) {
        snprintf(why, whylen, "this build records no CUDA architectures (SDPA_CUDA_ARCHS='%s')",
                 SDPA_CUDA_ARCHS);
        return 0;
    }
    cudaDeviceProp prop;
    const bool named = cudaGetDeviceProperties(&prop, opt->device) == cudaSuccess;
    if (!arch_runnable(&build, major * 10 + minor, arch_why, sizeof arch_why)) {
        snprintf(why, whylen, "device %d (%s): %s", opt->device, named ? prop.name : "?", arch_why);
        return 0;
    }
    // Listed is not usable: a context and a first allocation are where a device held in exclusive
    // mode, a driver/runtime mismatch or a tool that cannot attach (error 999) show up.
    void *p = nullptr;
    cudaError_t ce = cudaSetDevice(opt->device);
    const char *step = "cudaSetDevice";
    if (ce == cudaSuccess) ce = cudaFree(nullptr), step = "creating its context (cudaFree(0))";
    if (ce == cudaSuccess) ce = cudaMalloc(&p, 256), step = "a first allocation (cudaMalloc)";
    if (p) (void)cudaFree(p);
    if (ce != cudaSuccess) {
        snprintf(why, whylen, "device %d (%s): %s failed: %s (%s)", opt->device, named ? prop.name : "?",
                 step, cudaGetErrorName(ce), cudaGetErrorString(ce));
        return 0;
    }
    return 1;
}

namespace {

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
    d->peak_fp16_tensor_tflops = roof_fp16_peak_tflops(d->name);
    d->peak_fp8_tensor_tflops = roof_fp8_peak_tflops(d->name);
    d->peak_exp2_tps = roof_exp2_tps(major * 10 + minor, sms, d->sm_clock_default_mhz);
    int drv = 0, rt = 0;
    CUDA_TRY(cudaDriverGetVersion(&drv));
    CUDA_TRY(cudaRuntimeGetVersion(&rt));
    version_string(drv, d->driver_version, sizeof d->driver_version);
    version_string(rt, d->runtime_version, sizeof d->runtime_version);
    d->device_index = dev;
    const unsigned char *u = reinterpret_cast<const unsigned char *>(prop.uuid.bytes);
    snprintf(d->uuid, sizeof d->uuid,
             "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2],
             u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
    CUDA_TRY(cudaDeviceGetPCIBusId(d->pci_bus_id, (int)sizeof d->pci_bus_id, dev));
    // Under MIG the CUDA device is an instance whose name ends in its profile ("... MIG 1g.10gb");
    // its share of memory bandwidth is not the chip's, so the roofline's DRAM peak is unknown.
    const char *mig = strstr(d->name, "MIG ");
    d->mig = mig ? 1 : -1; // NVML may still say 0 or 1 (host/bench/nvml.c)
    snprintf(d->mig_profile, sizeof d->mig_profile, "%s", mig ? mig + 4 : "");
    if (mig) d->peak_dram_gbs = NAN;
    d->power_limit_w = d->sm_clock_start_mhz = d->sm_clock_end_mhz = NAN;
    return 0;
}
