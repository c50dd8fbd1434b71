/* sdpa-report sanitizers-json (sanitizers_json.h):
 *
 *   sdpa-report sanitizers-json OUT.json --root DIR --shape NAME [--tool-version TEXT]
 *       (--runs RUNS.tsv | --skipped REASON) --variant ID...
 *
 * RUNS.tsv, one compute-sanitizer process a line: tool (memcheck|racecheck|synccheck|initcheck),
 * the variants it checked (space-separated), its exit status ("-": not run), its log (a path under
 * DIR; "-" when not run), a reason ("-"; for a run not made, why; for one made, a note), the shapes it
 * ran (space-separated; "-": --shape alone; a faulted variant's memcheck adds the deep check's, where
 * its fault was found; a hung one's does not, its note saying why).
 * 124 or 137 is a run that `timeout` stopped at its share of the step's budget. With --skipped
 * nothing ran, for that reason.
 * Every (tool, --variant) pair gets one entry of `results`; one that no run covers is skipped. */
#include "sanitizers_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "json_file.h"
#include "params.h"
#include "sanitizer_log.h"
#include "tsv_in.h"

#define MAX_RUNS 32
static const char *const TOOLS[] = {"memcheck", "racecheck", "synccheck", "initcheck"};
#define N_TOOLS (sizeof TOOLS / sizeof TOOLS[0])

typedef enum { RUN_NOT_RUN, RUN_UNAVAILABLE, RUN_TIMEOUT, RUN_ERROR, RUN_RAN } run_status_t;
static const char *const RUN_STATUS[] = {"not_run", "unavailable", "timeout", "error", "ran"};

typedef struct {
    char tool[16], log[512], reason[512], shapes[256]; /* shapes: "" for --shape alone */
    char variants[SAN_MAX_VARIANTS][64];
    size_t n_variants;
    long exit_status; /* -1: not run */
    run_status_t status;
    san_log_t log_data;
} san_run_t;

typedef struct {
    const char *out, *root, *shape, *tool_version, *runs, *skipped;
    const char *variants[SAN_MAX_VARIANTS];
    size_t n_variants;
    san_run_t run[MAX_RUNS];
    size_t n_runs;
} san_args_t;

static int usage(const char *msg) {
    fprintf(stderr,
            "sdpa-report sanitizers-json: %s\n"
            "usage: sdpa-report sanitizers-json OUT.json --root DIR --shape NAME [--tool-version TEXT]\n"
            "           (--runs RUNS.tsv | --skipped REASON) --variant ID...\n",
            msg);
    return 2;
}

static int parse_args(int argc, char **argv, san_args_t *a) {
    for (int i = 2; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (o[0] != '-') {
            if (a->out) return usage("more than one OUT.json");
            a->out = o;
            continue;
        }
        if (!v) return usage("an option lacks its value");
        if (!strcmp(o, "--root"))
            a->root = v;
        else if (!strcmp(o, "--shape"))
            a->shape = v;
        else if (!strcmp(o, "--tool-version"))
            a->tool_version = v;
        else if (!strcmp(o, "--runs"))
            a->runs = v;
        else if (!strcmp(o, "--skipped"))
            a->skipped = v;
        else if (!strcmp(o, "--variant")) {
            if (a->n_variants == SAN_MAX_VARIANTS) return usage("too many --variant");
            a->variants[a->n_variants++] = v;
        } else {
            fprintf(stderr, "sdpa-report sanitizers-json: unknown option '%s'\n", o);
            return 2;
        }
        i++;
    }
    if (!a->out || !a->root || !a->shape || a->n_variants == 0 || !a->runs == !a->skipped)
        return usage("OUT.json, --root, --shape, --variant and one of --runs or --skipped are required");
    return 0;
}

static int tool_index(const char *t) {
    for (size_t i = 0; i < N_TOOLS; i++)
        if (!strcmp(TOOLS[i], t)) return (int)i;
    return -1;
}

/* One line of RUNS.tsv into r, its log read and parsed. */
static int read_run(san_args_t *a, char **f, san_run_t *r, const tsv_in_t *t, char *err, size_t errlen) {
    memset(r, 0, sizeof *r);
    const bool ran = !tsv_absent(f[2]);
    if (tool_index(f[0]) < 0 || (ran && (tsv_long(f[2], 0, 255, &r->exit_status) != 0 || tsv_absent(f[3]))) ||
        (!ran && tsv_absent(f[4])) || strstr(f[3], "..") || f[3][0] == '/') {
        snprintf(err, errlen,
                 "%s:%zu: expected tool (memcheck|racecheck|synccheck|initcheck), variants, exit status "
                 "(0-255, or - with a reason), log (a path under --root), reason, shapes",
                 t->path, t->line);
        return 2;
    }
    snprintf(r->tool, sizeof r->tool, "%s", f[0]);
    for (char *v = strtok(f[1], " "); v; v = strtok(NULL, " ")) {
        if (r->n_variants == SAN_MAX_VARIANTS || strlen(v) >= sizeof r->variants[0]) {
            snprintf(err, errlen, "%s:%zu: too many or too long variant ids", t->path, t->line);
            return 2;
        }
        snprintf(r->variants[r->n_variants++], sizeof r->variants[0], "%s", v);
    }
    snprintf(r->reason, sizeof r->reason, "%s", tsv_absent(f[4]) ? "" : f[4]);
    if (!tsv_absent(f[5])) {
        /* shapes as experiment.mk's SHAPES takes them: they are printed into the report's tables */
        if (strlen(f[5]) >= sizeof r->shapes || !params_shapes_ok(f[5])) {
            snprintf(err, errlen, "%s:%zu: shapes '%.80s': shape names, space-separated, or -", t->path,
                     t->line, f[5]);
            return 2;
        }
        snprintf(r->shapes, sizeof r->shapes, "%s", f[5]);
    }
    if (!ran) {
        r->exit_status = -1;
        r->status = RUN_NOT_RUN;
        return 0;
    }
    snprintf(r->log, sizeof r->log, "%s", f[3]);
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", a->root, r->log);
    size_t n;
    char *text = file_read_all(path, &n);
    if (!text) {
        snprintf(err, errlen, "%s:%zu: cannot read the log %s", t->path, t->line, path);
        return 1;
    }
    const char *ids[SAN_MAX_VARIANTS];
    for (size_t v = 0; v < a->n_variants; v++) ids[v] = a->variants[v];
    san_log_parse(text, ids, a->n_variants, &r->log_data);
    free(text);
    const san_log_t *L = &r->log_data;
    if (L->unavailable)
        r->status = RUN_UNAVAILABLE, snprintf(r->reason, sizeof r->reason, "%s", L->first);
    else if (r->exit_status == 124 || r->exit_status == 137)
        r->status = RUN_TIMEOUT,
        snprintf(r->reason, sizeof r->reason, "stopped at its share of the step's budget (exit %ld)",
                 r->exit_status);
    else if (!L->summary)
        r->status = RUN_ERROR,
        snprintf(r->reason, sizeof r->reason, "no %s line (exit %ld)",
                 strcmp(r->tool, "racecheck") ? "ERROR SUMMARY" : "RACECHECK SUMMARY or ERROR SUMMARY",
                 r->exit_status);
    else if (L->errors == 0 && r->exit_status != 0)
        r->status = RUN_ERROR,
        snprintf(r->reason, sizeof r->reason, "0 errors, but exit %ld", r->exit_status);
    else
        r->status = RUN_RAN;
    return 0;
}

static int read_runs(san_args_t *a, char *err, size_t errlen) {
    tsv_in_t t;
    if (tsv_open(&t, a->runs, err, errlen) != 0) return 1;
    char *f[6];
    int r, rc = 0;
    while (rc == 0 && (r = tsv_next(&t, f, 6, err, errlen)) == 1) {
        if (a->n_runs == MAX_RUNS) {
            snprintf(err, errlen, "%s: more than %d runs", a->runs, MAX_RUNS);
            rc = 2;
        } else if ((rc = read_run(a, f, &a->run[a->n_runs], &t, err, errlen)) == 0)
            a->n_runs++;
    }
    if (rc == 0 && r < 0) rc = 2;
    tsv_close(&t);
    return rc;
}

static void str_or_null(cJSON *o, const char *k, const char *v) {
    if (v && *v)
        cJSON_AddStringToObject(o, k, v);
    else
        cJSON_AddNullToObject(o, k);
}

/* "shapes": what run r's process ran (its own list, else --shape alone); null for no run made. */
static void add_shapes(cJSON *o, const san_args_t *a, const san_run_t *r) {
    if (!r || r->status == RUN_NOT_RUN) {
        cJSON_AddNullToObject(o, "shapes");
        return;
    }
    cJSON *sh = cJSON_AddArrayToObject(o, "shapes");
    if (!r->shapes[0]) {
        cJSON_AddItemToArray(sh, cJSON_CreateString(a->shape));
        return;
    }
    char buf[sizeof r->shapes], *save = NULL;
    snprintf(buf, sizeof buf, "%s", r->shapes);
    for (char *n = strtok_r(buf, " ", &save); n; n = strtok_r(NULL, " ", &save))
        cJSON_AddItemToArray(sh, cJSON_CreateString(n));
}

static cJSON *run_json(const san_args_t *a, const san_run_t *r) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "tool", r->tool);
    cJSON *vs = cJSON_AddArrayToObject(o, "variants");
    for (size_t v = 0; v < r->n_variants; v++) cJSON_AddItemToArray(vs, cJSON_CreateString(r->variants[v]));
    cJSON_AddStringToObject(o, "status", RUN_STATUS[r->status]);
    const bool ran = r->status != RUN_NOT_RUN, counted = ran && r->log_data.summary;
    if (ran)
        cJSON_AddNumberToObject(o, "exit_status", (double)r->exit_status);
    else
        cJSON_AddNullToObject(o, "exit_status");
    if (counted) {
        cJSON_AddNumberToObject(o, "errors", (double)r->log_data.errors);
        cJSON_AddNumberToObject(o, "warnings", (double)r->log_data.warnings);
        cJSON_AddNumberToObject(o, "unattributed", (double)r->log_data.unattributed);
    } else {
        cJSON_AddNullToObject(o, "errors");
        cJSON_AddNullToObject(o, "warnings");
        cJSON_AddNullToObject(o, "unattributed");
    }
    str_or_null(o, "first_report", ran ? r->log_data.first : NULL);
    str_or_null(o, "reason", r->reason);
    str_or_null(o, "log", ran ? r->log : NULL);
    add_shapes(o, a, r);
    return o;
}

static int variant_pos(const san_args_t *a, const char *v) {
    for (size_t i = 0; i < a->n_variants; i++)
        if (!strcmp(a->variants[i], v)) return (int)i;
    return -1;
}

/* The run of tool t that covers variant v (the first listed), or NULL. */
static const san_run_t *covering(const san_args_t *a, const char *t, const char *v) {
    for (size_t i = 0; i < a->n_runs; i++)
        if (!strcmp(a->run[i].tool, t))
            for (size_t k = 0; k < a->run[i].n_variants; k++)
                if (!strcmp(a->run[i].variants[k], v)) return &a->run[i];
    return NULL;
}

/* One (tool, variant) entry; *bad when it is fail or error. */
static cJSON *result_json(const san_args_t *a, const char *tool, size_t v, bool *bad) {
    const char *variant = a->variants[v];
    const san_run_t *r = covering(a, tool, variant);
    const char *status = "skipped";
    char reason[600] = "";
    long errors = -1, warnings = -1;
    if (!r)
        snprintf(reason, sizeof reason, "%s", a->skipped ? a->skipped : "not run");
    else if (r->status == RUN_NOT_RUN)
        snprintf(reason, sizeof reason, "%s", r->reason);
    else if (r->status == RUN_UNAVAILABLE)
        status = "unavailable",
        snprintf(reason, sizeof reason, "compute-sanitizer could not check on this device");
    else if (r->status == RUN_ERROR)
        status = "error", snprintf(reason, sizeof reason, "%s", r->reason);
    else {
        const int k = variant_pos(a, variant);
        errors = r->log_data.var_errors[k], warnings = r->log_data.var_warnings[k];
        if (errors > 0)
            status = "fail", snprintf(reason, sizeof reason, "%ld error(s) in its kernel%s", errors,
                                      r->status == RUN_TIMEOUT ? " before the run timed out" : "");
        else if (r->status == RUN_TIMEOUT)
            errors = warnings = -1, snprintf(reason, sizeof reason, "%s", r->reason);
        else
            status = "pass";
    }
    *bad |= !strcmp(status, "fail") || !strcmp(status, "error");
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "tool", tool);
    cJSON_AddStringToObject(o, "variant", variant);
    cJSON_AddStringToObject(o, "status", status);
    if (errors >= 0)
        cJSON_AddNumberToObject(o, "errors", (double)errors);
    else
        cJSON_AddNullToObject(o, "errors");
    if (warnings >= 0)
        cJSON_AddNumberToObject(o, "warnings", (double)warnings);
    else
        cJSON_AddNullToObject(o, "warnings");
    str_or_null(o, "reason", reason);
    str_or_null(o, "log", r && r->status != RUN_NOT_RUN ? r->log : NULL);
    add_shapes(o, a, r);
    return o;
}

int sanitizers_json_main(int argc, char **argv) {
    static san_args_t a; /* large: the runs' parsed logs */
    memset(&a, 0, sizeof a);
    int rc = parse_args(argc, argv, &a);
    char err[2048] = "";
    if (rc == 0 && a.runs) rc = read_runs(&a, err, sizeof err);
    if (rc) {
        if (err[0]) fprintf(stderr, "sdpa-report sanitizers-json: %s\n", err);
        return rc;
    }
    cJSON *doc = results_new("sanitizers", "gpu-checks.sh", argc, argv);
    if (!doc) return 1;
    cJSON_AddStringToObject(doc, "shape", a.shape);
    str_or_null(doc, "tool_version", a.tool_version);
    str_or_null(doc, "skipped", a.skipped);
    bool bad = false;
    cJSON *runs = cJSON_AddArrayToObject(doc, "runs");
    for (size_t i = 0; i < a.n_runs; i++) {
        cJSON_AddItemToArray(runs, run_json(&a, &a.run[i]));
        bad |= a.run[i].status == RUN_RAN && a.run[i].log_data.unattributed > 0;
    }
    cJSON *results = cJSON_AddArrayToObject(doc, "results");
    for (size_t t = 0; t < N_TOOLS; t++)
        for (size_t v = 0; v < a.n_variants; v++)
            cJSON_AddItemToArray(results, result_json(&a, TOOLS[t], v, &bad));
    rc = results_write(doc, a.out, err, sizeof err) == 0 ? (bad ? 3 : 0) : 1;
    if (rc == 1) fprintf(stderr, "sdpa-report sanitizers-json: %s\n", err);
    cJSON_Delete(doc);
    return rc;
}
