/* libFuzzer harness: what `make ingest` reads from a tarball before and after extraction
 * (host/report/ingest.h). The first byte picks the reader, the rest is its input:
 *   0  the tar stream (tar_walk): headers, long names, pax records, limits, member names
 *   1  a JSON document of the campaign: campaign.json's head, then the backend's evidence (meta,
 *      every timing label) against a cuda and an emu campaign
 *   2  a text that records the backend: as logs/probe.log, nvidia-smi.txt and a run's run.args
 *   3  a run's parameters: as experiment.mk and as run.args (params.h)
 *   4  SHA256SUMS against a scratch campaign of two files (ingest_check_sums)
 *   5  sdpa-report sweep-summary's command line (the Slurm collector's rows), argv split at NUL
 *      bytes, written to a scratch file */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ingest_check.h"
#include "params.h"
#include "sweep_summary.h"
#include "tar_read.h"

typedef struct {
    const uint8_t *p;
    size_t n;
} mem_t;

static ssize_t mem_read(void *ctx, void *buf, size_t n) {
    mem_t *m = ctx;
    size_t k = n < m->n ? n : m->n;
    memcpy(buf, m->p, k);
    m->p += k, m->n -= k;
    return (ssize_t)k;
}

static uint64_t bytes_seen;
static int count(void *ctx, const void *buf, size_t len, char *err, size_t n) {
    (void)ctx, (void)buf, (void)err, (void)n;
    bytes_seen += len;
    return 0;
}

static char dir[256];
static void cleanup(void) {
    char p[300];
    for (const char *f = "a.json\0logs/b.log\0logs\0summary.json\0"; *f; f += strlen(f) + 1) {
        snprintf(p, sizeof p, "%s/%s", dir, f);
        remove(p);
    }
    rmdir(dir);
}

static void scratch_campaign(void) {
    if (dir[0]) return;
    snprintf(dir, sizeof dir, "%s/fuzz-ingest.XXXXXX", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
    if (!mkdtemp(dir)) abort();
    atexit(cleanup);
    char p[300];
    snprintf(p, sizeof p, "%s/logs", dir);
    if (mkdir(p, 0755) != 0) abort();
    for (const char *f = "a.json\0logs/b.log\0"; *f; f += strlen(f) + 1) {
        snprintf(p, sizeof p, "%s/%s", dir, f);
        FILE *o = fopen(p, "w");
        if (!o || fputs("x\n", o) < 0 || fclose(o) != 0) abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    const uint8_t mode = data[0] % 6;
    const char *text = (const char *)data + 1;
    const size_t len = size - 1;
    char err[2048];
    if (mode == 0) {
        mem_t m = {data + 1, len};
        tar_limits_t lim = {1 << 20, 4 << 20, 1000};
        tar_sink_t sink = {NULL, count, NULL, NULL};
        tar_summary_t sum;
        bytes_seen = 0;
        if (tar_walk(mem_read, &m, &lim, &sink, &sum, NULL, err, sizeof err) == 0 && bytes_seen != sum.bytes)
            abort();
        return 0;
    }
    char *s = malloc(len + 1); /* as read from a file: len bytes (NULs included), then a NUL */
    if (!s) return 0;
    memcpy(s, text, len);
    s[len] = '\0';
    if (mode == 1) {
        cJSON *doc = cJSON_ParseWithLength(s, len);
        campaign_head_t h;
        (void)ingest_campaign_head(doc, "20260102T030405Z-x-1", &h, err, sizeof err);
        evidence_t cuda = {"cuda", "NVIDIA H100 80GB HBM3", 0}, emu = {"emu", "emulator", 0};
        (void)ingest_evidence_json(doc, "f.json", &cuda, err, sizeof err);
        (void)ingest_evidence_json(doc, "f.json", &emu, err, sizeof err);
        cJSON_Delete(doc);
    } else if (mode == 2) {
        static const char *const files[] = {"logs/probe.log", "nvidia-smi.txt", "runs/e/i/run.args"};
        for (size_t i = 0; i < 3; i++) {
            evidence_t cuda = {"cuda", "NVIDIA H100 80GB HBM3", 0}, emu = {"emu", "emulator", 0};
            (void)ingest_evidence_text(files[i], s, len, &cuda, err, sizeof err);
            (void)ingest_evidence_text(files[i], s, len, &emu, err, sizeof err);
        }
    } else if (mode == 3) {
        exp_def_t d;
        run_args_t a;
        (void)params_parse_experiment(s, len, "experiment.mk", &d, err, sizeof err);
        (void)params_check_run_args(s, len, "run.args", &a, err, sizeof err);
    } else if (mode == 4) {
        scratch_campaign();
        char *files[] = {"a.json", "logs/b.log"};
        (void)ingest_check_sums(dir, s, len, files, 2, err, sizeof err);
    } else {
        scratch_campaign();
        char out[300], *argv[64] = {"sdpa-report", "sweep-summary", "--out", out};
        snprintf(out, sizeof out, "%s/summary.json", dir);
        int argc = 4;
        /* A fuzzed --out would write wherever it names (the checkout, as "n" and "x" once): only
         * the scratch directory's summary.json is written; the fuzzed --out and its value are dropped. */
        for (size_t i = 0; i <= len && argc < 63; i += strlen(s + i) + 1) {
            if (!strcmp(s + i, "--out")) {
                i += strlen(s + i) + 1; /* its value: the loop's step passes over it */
                if (i > len) break;
                continue;
            }
            argv[argc++] = s + i;
        }
        argv[argc] = NULL;
        (void)sweep_summary_main(argc, argv);
    }
    free(s);
    return 0;
}
