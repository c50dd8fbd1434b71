/* sdpa-report sweep-summary (sweep_summary.h): the sweep collector's summary.json, kind
 * sweep-summary (data/SCHEMA.md), through the library's JSON writer instead of shell printf. */
#include "sweep_summary.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_file.h"

#define MAX_OUT 4
static const char *const ROW_KEYS[] = {"kind", "part", "status", "slurm_state", "task", "ingested", "reason"};
#define ROW_N (int)(sizeof ROW_KEYS / sizeof ROW_KEYS[0])

static int usage(const char *msg) {
    fprintf(stderr,
            "sdpa-report sweep-summary: %s\n"
            "usage: sdpa-report sweep-summary --out FILE [--out FILE]... --sweep NAME --collected STAMP "
            "--paper NOTE\n"
            "           [--row KIND PART complete|missing SLURM_STATE TASK INGESTED REASON]... [--report "
            "PATH]...\n",
            msg);
    return 2;
}

int sweep_summary_main(int argc, char **argv) {
    const char *out[MAX_OUT], *sweep = NULL, *collected = NULL, *paper = NULL;
    int n_out = 0, complete = 0, missing = 0;
    cJSON *doc = results_new("sweep-summary", "collect.sh", argc, argv);
    cJSON *parts = cJSON_CreateArray(), *reports = cJSON_CreateArray();
    int rc = 2;
    if (!doc || !parts || !reports) {
        fprintf(stderr, "sdpa-report sweep-summary: out of memory\n");
        rc = 1;
        goto out;
    }
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--row")) {
            if (i + ROW_N >= argc) {
                rc = usage("--row takes 7 values: KIND PART STATUS SLURM_STATE TASK INGESTED REASON");
                goto out;
            }
            const char *status = argv[i + 3];
            if (strcmp(status, "complete") && strcmp(status, "missing")) {
                rc = usage("--row: STATUS must be complete or missing");
                goto out;
            }
            cJSON *row = cJSON_CreateObject();
            cJSON_AddItemToArray(parts, row);
            for (int k = 0; k < ROW_N; k++) cJSON_AddStringToObject(row, ROW_KEYS[k], argv[i + 1 + k]);
            complete += !strcmp(status, "complete"), missing += !strcmp(status, "missing");
            i += ROW_N;
            continue;
        }
        if (!v) {
            rc = usage("an option lacks its value");
            goto out;
        }
        if (!strcmp(a, "--out") && n_out < MAX_OUT)
            out[n_out++] = v;
        else if (!strcmp(a, "--sweep"))
            sweep = v;
        else if (!strcmp(a, "--collected"))
            collected = v;
        else if (!strcmp(a, "--paper"))
            paper = v;
        else if (!strcmp(a, "--report"))
            cJSON_AddItemToArray(reports, cJSON_CreateString(v));
        else {
            rc = usage(strcmp(a, "--out") ? "unknown option" : "at most 4 --out");
            goto out;
        }
        i++;
    }
    if (!n_out || !sweep || !collected || !paper) {
        rc = usage("--out, --sweep, --collected and --paper are required");
        goto out;
    }
    cJSON_AddStringToObject(doc, "sweep", sweep);
    cJSON_AddStringToObject(doc, "collected", collected);
    cJSON_AddNumberToObject(doc, "complete", complete);
    cJSON_AddNumberToObject(doc, "missing", missing);
    cJSON_AddItemToObject(doc, "parts", parts);
    cJSON_AddItemToObject(doc, "reports", reports);
    parts = reports = NULL;
    cJSON_AddStringToObject(doc, "paper", paper);
    rc = 0;
    for (int i = 0; rc == 0 && i < n_out; i++) {
        char err[2048];
        if (results_write_replace(doc, out[i], err, sizeof err) != 0) {
            fprintf(stderr, "sdpa-report sweep-summary: %s\n", err);
            rc = 1;
        }
    }
out:
    cJSON_Delete(parts);
    cJSON_Delete(reports);
    cJSON_Delete(doc);
    return rc;
}
