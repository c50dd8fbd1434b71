/* sdpa-probes: runs the hardware probes (kernels/probes/README.md) and writes one JSON record (kind
 * "probes", never overwriting a file): on an H100 (`make probes`, the CUDA build) or on the CPU
 * emulator (the same driver linked with the emulator build; its tests use it). Also decodes the
 * record against the PTX ISA's formulas and says whether the device agrees.
 *   sdpa-probes --out FILE.json
 * Exit: 0 written (agreement or not: the record is the result), 1 a probe failed (the record is
 * written with what completed before it, marked "incomplete") or the write failed, 2 usage
 * or no device able to run sm_90a code. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "json_file.h"
#include "probe_run.h"
#include "probes.h"

/* probe_tma_unaligned in a child process, before this one touches CUDA (a fault ends a context; CUDA
 * does not survive fork): what the device said, as words, in buf. */
static void unaligned_in_child(char *buf, size_t n) {
    int p[2];
    snprintf(buf, n, "not run (pipe or fork failed)");
    if (pipe(p) != 0) return;
    fflush(NULL);
    const pid_t pid = fork();
    if (pid == 0) {
        close(p[0]);
        const int rc = probe_tma_unaligned();
        const char *s = rc == 0 ? "loaded" : probe_error_name(rc);
        if (write(p[1], s, strlen(s)) < 0) _exit(1);
        _exit(0);
    }
    close(p[1]);
    if (pid > 0) {
        const ssize_t k = read(p[0], buf, n - 1);
        int st;
        waitpid(pid, &st, 0);
        if (k > 0)
            buf[k] = 0;
        else
            snprintf(buf, n, "the child process died (status %d)", st);
    }
    close(p[0]);
}

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
    char name[256], err[512], unaligned[256];
    unaligned_in_child(unaligned, sizeof unaligned);
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
    cJSON *ua = cJSON_AddObjectToObject(doc, "tma_unaligned");
    cJSON_AddStringToObject(ua, "what", "16 x 8 uint16 box of a 64 x 16 tensor at x = 4 (8 bytes), y = 0");
    cJSON_AddStringToObject(ua, "result", unaligned);
    /* A fault keeps the parts measured before it: the record is written, marked incomplete, exit 1. */
    const int complete = probe_run_all(doc, err, sizeof err) != NULL;
    if (!complete) {
        fprintf(stderr, "sdpa-probes: %s\n", err);
        cJSON_AddStringToObject(cJSON_AddObjectToObject(doc, "incomplete"), "error", err);
    }
    const int bad = probe_check_isa(doc, err, sizeof err);
    cJSON *check = cJSON_AddObjectToObject(doc, "isa_check");
    cJSON_AddNumberToObject(check, "mismatches", bad);
    cJSON_AddStringToObject(check, "first", err);
    printf("sdpa-probes: %s (%s, %s): %s%s\n", name, cc, backend,
           bad == 0
               ? (complete ? "every probe agrees with the PTX ISA's layouts (and stage 7g's exponential with "
                             "its host twin)"
                           : "the probes that completed agree with the PTX ISA's layouts")
               : "DISAGREES with the PTX ISA, the host twin or stage 7's alignment: ",
           bad ? err : "");
    if (results_write(doc, out, err, sizeof err) != 0) {
        fprintf(stderr, "sdpa-probes: %s\n", err);
        cJSON_Delete(doc);
        return 1;
    }
    printf("sdpa-probes: wrote %s%s\n", out, complete ? "" : " (incomplete: a probe failed, above)");
    cJSON_Delete(doc);
    return complete ? 0 : 1;
}
