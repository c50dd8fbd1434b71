/* A stand-in for the driver's NVML (libnvidia-ml.so.1) with known answers, loaded by test_nvml
 * through SDPA_NVML_LIB: one GPU at PCI 0000:65:00.0, driver 580.65.06, SM clock 1755 MHz,
 * power limit 72 W (an L4's default), MIG enabled. Only the entry points host/bench/nvml.c uses. */
#include <string.h>

typedef void *nvml_device_t;
static int the_gpu;

int nvmlInit_v2(void) { return 0; }
int nvmlShutdown(void) { return 0; }
int nvmlSystemGetDriverVersion(char *v, unsigned n) {
    if (n < 10) return 7; /* NVML_ERROR_INSUFFICIENT_SIZE */
    strcpy(v, "580.65.06");
    return 0;
}
int nvmlDeviceGetHandleByPciBusId_v2(const char *bus, nvml_device_t *dev) {
    if (strcmp(bus, "0000:65:00.0") != 0) return 6; /* NVML_ERROR_NOT_FOUND */
    *dev = &the_gpu;
    return 0;
}
int nvmlDeviceGetClockInfo(nvml_device_t dev, int type, unsigned *mhz) {
    if (dev != &the_gpu || type != 1) return 2; /* NVML_ERROR_INVALID_ARGUMENT */
    *mhz = 1755;
    return 0;
}
int nvmlDeviceGetEnforcedPowerLimit(nvml_device_t dev, unsigned *mw) {
    if (dev != &the_gpu) return 2;
    *mw = 72000;
    return 0;
}
int nvmlDeviceGetMigMode(nvml_device_t dev, unsigned *current, unsigned *pending) {
    if (dev != &the_gpu) return 2;
    *current = 1;
    *pending = 1;
    return 0;
}
