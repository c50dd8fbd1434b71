/* sdpa-probes: runs the hardware probes (kernels/probes/README.md) and writes one JSON record (kind
 * "probes", never overwriting a file): on an H100 (`make probes`, the CUDA build) or on the CPU
 * emulator (the same driver linked with the emulator build; its tests use it). Also decodes the
 * record against the PTX ISA's formulas and says whether the device agrees.
 *   sdpa-probes --out FILE.json
 * Exit: 0 written (agreement or not: the record is the result), 1 a probe or the write failed, 2 usage
 * or no device able to run sm_90a code. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_file.h"
#include "probe_run.h"
#include "probes.h"

int main(int argc, char **argv) {
    const char *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
            out = argv[++i];
        else {
            fprintf(stderr, "sdpa-probes: unknown argument '%s'\nusage: sdpa-probes --out FILE.json\n",
                    argv[i]);
            return 2;
        }
    }
    if (!out) {
        fprintf(stderr, "sdpa-probes: --out FILE.json is required\n");
        return 2;
    }
    char name[256], err[512];
    int major = 0, minor = 0;
    const char *backend = probe_device(name, sizeof name, &major, &minor, err, sizeof err);
    if (!backend) {
        fprintf(stderr, "sdpa-probes: %s\n", err);
        return 2;
    }
    if (major != 9 || minor != 0) {
        fprintf(
            stderr,
            "sdpa-probes: the device (%s) is sm_%d%d; the probes are sm_90a code (compute capability 9.0)\n",
            name, major, minor);
        return 2;
    }
    cJSON *doc = results_new("probes", "sdpa-probes", argc, argv);
    cJSON *dev = cJSON_AddObjectToObject(results_meta(doc), "device");
    cJSON_AddStringToObject(results_meta(doc), "backend", backend);
    cJSON_AddStringToObject(dev, "name", name);
    char cc[16];
    snprintf(cc, sizeof cc, "%d.%d", major, minor);
    cJSON_AddStringToObject(dev, "cc", cc);
    if (!probe_run_all(doc, err, sizeof err)) {
        fprintf(stderr, "sdpa-probes: %s\n", err);
        cJSON_Delete(doc);
        return 1;
    }
    const int bad = probe_check_isa(doc, err, sizeof err);
    cJSON *check = cJSON_AddObjectToObject(doc, "isa_check");
    cJSON_AddNumberToObject(check, "mismatches", bad);
    cJSON_AddStringToObject(check, "first", err);
    printf("sdpa-probes: %s (%s, %s): %s%s\n", name, cc, backend,
           bad == 0 ? "every probe agrees with the PTX ISA's layouts" : "DISAGREES with the PTX ISA: ",
           bad ? err : "");
    if (results_write(doc, out, err, sizeof err) != 0) {
        fprintf(stderr, "sdpa-probes: %s\n", err);
        cJSON_Delete(doc);
        return 1;
    }
    printf("sdpa-probes: wrote %s\n", out);
    cJSON_Delete(doc);
    return 0;
}
