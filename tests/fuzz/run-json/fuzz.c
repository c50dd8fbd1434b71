/* libFuzzer harness: the run-JSON reader, as `make report` drives it. The input becomes run.json
 * of a scratch run directory and sdpa-report's own main runs `experiment` on it (results_load,
 * every field access of the gates, tables, figures' inputs and summary); the same bytes as
 * manifest.json go through the manifest check (check-run). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int sdpa_report_main(int argc, char **argv); /* host/report/main.c, compiled with -Dmain=... */

static char dir[256];

static void cleanup(void) {
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "fuzz-run-json: could not remove %s\n", dir);
}

static void put(const char *name, const uint8_t *data, size_t size) {
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!dir[0]) {
        /* tmpfs when there is one: the writers fsync every file */
        snprintf(dir, sizeof dir, "%s/fuzz-run-json.XXXXXX",
                 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
        if (!mkdtemp(dir)) abort();
        atexit(cleanup);
        FILE *devnull = freopen("/dev/null", "w", stdout); /* the verdict line, once per input */
        (void)devnull;
    }
    put("run.json", data, size);
    char *argv[] = {"sdpa-report",     "experiment",     "--run",       dir,
                    "--experiment",    "stage2-wmma-pv", "--title",     "fuzz",
                    "--baseline",      "stage1",         "--candidate", "stage2",
                    "--gate-speedup",  "1.15",           "--published", "data/published/seed-l4.json",
                    "--static-budget", "128,0,0,49152",  NULL};
    sdpa_report_main((int)(sizeof argv / sizeof argv[0]) - 1, argv);
    put("manifest.json", data, size);
    char *check[] = {"sdpa-report", "check-run", dir, NULL};
    sdpa_report_main(3, check);
    return 0;
}
