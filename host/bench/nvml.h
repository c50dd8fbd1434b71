/* What the CUDA runtime does not say about a GPU, read from NVML when the driver provides it:
 * the driver release ("580.65.06", not only the CUDA API version), SM clock now, the enforced
 * power limit and the MIG mode. NVML ships with the NVIDIA driver (libnvidia-ml.so.1), not with
 * the CUDA toolkit, so it is loaded with dlopen: a machine without it (or a container without the
 * library) still runs, with these fields unknown and the reason recorded. Nothing here changes a
 * setting: only queries. The library path can be overridden with SDPA_NVML_LIB (the tests load a
 * fake library with known answers). */
#ifndef NVML_INFO_H
#define NVML_INFO_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    bool available; /* NVML loaded and the device found by its PCI bus id */
    char why[256];  /* when not available: why */
    char driver_release[32];
    double sm_clock_mhz;  /* current SM clock; NaN unknown */
    double power_limit_w; /* enforced power limit; NaN unknown */
    int mig_mode;         /* 1 enabled, 0 disabled, -1 unknown or not supported */
} nvml_info_t;

/* Queries the GPU at pci_bus_id ("0000:65:00.0", cudaDeviceGetPCIBusId's form). Always fills
 * *out (unknowns NaN / -1 / ""); returns 0 when NVML answered, -1 with out->why otherwise. */
int nvml_query(const char *pci_bus_id, nvml_info_t *out);
/* The driver release from a /proc/driver/nvidia/version-style file ("... Kernel Module  580.65.06
 * ..."), the fallback when NVML is absent; 0, or -1 when the file has none. */
int nvml_driver_release_from_proc(const char *path, char *out, size_t outlen);

#endif
