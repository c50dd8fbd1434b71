/* libFuzzer harness: the readers behind the campaign's own files, as campaign.sh and gpu-checks.sh
 * drive them through sdpa-report's main. The first byte picks the reader:
 *   even: sanitizers-json: the rest, split at its first NUL, is the runs file (tool, variants,
 *         exit status, log, reason per line) and the compute-sanitizer log every run names
 *         (without a NUL, the whole rest is the log, under four fixed runs)
 *   odd:  campaign-json: the rest, split at its first NUL, is the steps file and the checks file
 * Each input writes its JSON afresh (the writer never overwrites, so the last one is removed). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int sdpa_report_main(int argc, char **argv); /* host/report/main.c, compiled with -Dmain=... */

static char dir[256], runs[300], log_[300], steps[300], checks[300], out[300];

static void cleanup(void) {
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "fuzz-campaign-files: could not remove %s\n", dir);
}

static void put(const char *path, const uint8_t *data, size_t size) {
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) abort();
}

static const char FIXED_RUNS[] = "memcheck\tstage3b\t99\tlog.txt\t-\tragged mission\n"
                                 "memcheck\tstage0 stage3a-swz\t0\tlog.txt\t-\t-\n"
                                 "racecheck\tstage0 stage3a-swz\t124\tlog.txt\t-\t-\n"
                                 "synccheck\tstage0\t-\t-\tthe step's budget was spent\t-\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!dir[0]) {
        /* tmpfs when there is one: the writers fsync every file */
        snprintf(dir, sizeof dir, "%s/fuzz-campaign-files.XXXXXX",
                 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
        if (!mkdtemp(dir)) abort();
        atexit(cleanup);
        snprintf(runs, sizeof runs, "%s/runs.tsv", dir);
        snprintf(log_, sizeof log_, "%s/log.txt", dir);
        snprintf(steps, sizeof steps, "%s/steps.tsv", dir);
        snprintf(checks, sizeof checks, "%s/checks.tsv", dir);
        snprintf(out, sizeof out, "%s/out.json", dir);
    }
    if (size == 0) return 0;
    const uint8_t *rest = data + 1, *nul = memchr(rest, 0, size - 1);
    const size_t n = size - 1, first = nul ? (size_t)(nul - rest) : n;
    unlink(out);
    if (data[0] % 2 == 0) {
        if (nul) {
            put(runs, rest, first);
            put(log_, nul + 1, n - first - 1);
        } else {
            put(runs, (const uint8_t *)FIXED_RUNS, sizeof FIXED_RUNS - 1);
            put(log_, rest, n);
        }
        char *argv[] = {"sdpa-report", "sanitizers-json", out,       "--root",    dir,      "--shape",
                        "ragged",      "--runs",          runs,      "--variant", "stage0", "--variant",
                        "stage3a-swz", "--variant",       "stage3b", NULL};
        sdpa_report_main((int)(sizeof argv / sizeof argv[0]) - 1, argv);
    } else {
        put(steps, rest, first);
        put(checks, nul ? nul + 1 : rest, nul ? n - first - 1 : 0);
        char *argv[] = {
            "sdpa-report", "campaign-json", out,           "--id",    "fuzz-1",    "--backend", "emu",
            "--device",    "emulator",      "--bundle",    "fuzz",    "--started", "1",         "--expected",
            "10",          "--l4-factor",   "2.4",         "--steps", steps,       "--checks",  checks,
            "--planned",   "history",       "--completed", "history", NULL};
        sdpa_report_main((int)(sizeof argv / sizeof argv[0]) - 1, argv);
    }
    return 0;
}
