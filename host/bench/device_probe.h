// What the CUDA backend needs to know before and about the device: whether one is usable, its
// metadata (data/SCHEMA.md DEVICE), and the error helper every CUDA call of the backend uses.
// C++ for nvcc only (backend_cuda.cu, device_probe.cu): no C11 file includes it.
#ifndef DEVICE_PROBE_H
#define DEVICE_PROBE_H

#include <cuda_runtime.h>
#include <stddef.h>

#include "backend.h"

// Writes "call: cudaErrorName (description)" into err; returns -1.
int cuda_fail(char *err, size_t errlen, const char *call, cudaError_t e);

// On failure, returns -1 from the enclosing function with the failed call named in err (needs err, errlen).
#define CUDA_TRY(call)                                                                                       \
    do {                                                                                                     \
        const cudaError_t e_ = (call);                                                                       \
        if (e_ != cudaSuccess) return cuda_fail(err, errlen, #call, e_);                                     \
    } while (0)

// 1 when a CUDA device is usable; 0 with the reason in why (no driver, no device, runtime error).
// The device must exist (opt->device within CUDA_VISIBLE_DEVICES), be able to run this build's
// code (arch.h: a T4 is told it is sm_75 and what the build carries, instead of failing every
// variant's launch), and accept a context and a first allocation (exclusive mode, a tool that
// cannot attach).
int cuda_device_probe(const backend_options_t *opt, char *why, size_t whylen);
// Fills *d for device dev (unknown numbers NaN, unknown tri-states -1); 0 or -1 with err.
int cuda_device_info(int dev, backend_device_t *d, char *err, size_t errlen);

#endif
