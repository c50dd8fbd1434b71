/* NVML through dlopen (nvml.h). The few entry points used are declared here with the types of
 * NVML's stable C ABI (nvml.h of the driver): opaque device handle, unsigned int results, an int
 * return code where 0 is NVML_SUCCESS. */
#include "nvml.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void *nvml_device_t;
enum { NVML_OK = 0, NVML_CLOCK_SM = 1 };

typedef struct {
    void *lib;
    int (*init)(void);
    int (*shutdown)(void);
    int (*driver_version)(char *, unsigned);
    int (*by_pci)(const char *, nvml_device_t *);
    int (*clock)(nvml_device_t, int, unsigned *);
    int (*power_limit)(nvml_device_t, unsigned *);
    int (*mig_mode)(nvml_device_t, unsigned *, unsigned *);
} nvml_api_t;

/* dlsym returns void *; converting it to a function pointer is what POSIX guarantees works. */
#define NVML_SYM(api, field, name) (*(void **)&(api)->field = dlsym((api)->lib, name))

static int load(nvml_api_t *api, char *why, size_t whylen) {
    const char *path = getenv("SDPA_NVML_LIB");
    if (!path || !*path) path = "libnvidia-ml.so.1";
    memset(api, 0, sizeof *api);
    api->lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!api->lib) {
        snprintf(why, whylen, "NVML not loaded (%s: %s)", path, dlerror());
        return -1;
    }
    /* Optional entry points may be missing on old drivers: those fields stay unknown. */
    NVML_SYM(api, init, "nvmlInit_v2");
    NVML_SYM(api, shutdown, "nvmlShutdown");
    NVML_SYM(api, driver_version, "nvmlSystemGetDriverVersion");
    NVML_SYM(api, by_pci, "nvmlDeviceGetHandleByPciBusId_v2");
    NVML_SYM(api, clock, "nvmlDeviceGetClockInfo");
    NVML_SYM(api, power_limit, "nvmlDeviceGetEnforcedPowerLimit");
    NVML_SYM(api, mig_mode, "nvmlDeviceGetMigMode");
    if (!api->init || !api->shutdown || !api->by_pci) {
        snprintf(why, whylen, "NVML at %s lacks nvmlInit_v2/nvmlDeviceGetHandleByPciBusId_v2", path);
        dlclose(api->lib);
        return -1;
    }
    return 0;
}

int nvml_query(const char *pci_bus_id, nvml_info_t *out) {
    memset(out, 0, sizeof *out);
    out->sm_clock_mhz = NAN;
    out->power_limit_w = NAN;
    out->mig_mode = -1;
    nvml_api_t api;
    if (load(&api, out->why, sizeof out->why) != 0) return -1;
    int rc = -1;
    nvml_device_t dev;
    int e = api.init();
    if (e != NVML_OK) {
        snprintf(out->why, sizeof out->why, "nvmlInit_v2 failed (NVML error %d)", e);
    } else {
        if (api.driver_version &&
            api.driver_version(out->driver_release, sizeof out->driver_release) != NVML_OK)
            out->driver_release[0] = '\0';
        if ((e = api.by_pci(pci_bus_id ? pci_bus_id : "", &dev)) != NVML_OK) {
            snprintf(out->why, sizeof out->why, "NVML does not know the device at PCI %s (NVML error %d)",
                     pci_bus_id ? pci_bus_id : "?", e);
        } else {
            unsigned v = 0, pending = 0;
            if (api.clock && api.clock(dev, NVML_CLOCK_SM, &v) == NVML_OK) out->sm_clock_mhz = v;
            if (api.power_limit && api.power_limit(dev, &v) == NVML_OK) out->power_limit_w = v / 1000.0;
            if (api.mig_mode && api.mig_mode(dev, &v, &pending) == NVML_OK) out->mig_mode = v ? 1 : 0;
            out->available = true;
            rc = 0;
        }
        api.shutdown();
    }
    dlclose(api.lib);
    return rc;
}

int nvml_driver_release_from_proc(const char *path, char *out, size_t outlen) {
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[512];
    int rc = -1;
    while (rc != 0 && fgets(line, sizeof line, f)) {
        const char *k = strstr(line, "Kernel Module");
        char rel[64];
        if (k && sscanf(k + strlen("Kernel Module"), " %63s", rel) == 1 && rel[0] >= '0' && rel[0] <= '9') {
            snprintf(out, outlen, "%s", rel);
            rc = 0;
        }
    }
    fclose(f);
    return rc;
}
