/* sdpa-report campaign-json (campaign_json.h):
 *
 *   sdpa-report campaign-json OUT.json --id ID --backend cuda|emu --device NAME --bundle TEXT
 *       --started UNIX_S --expected S --l4-factor F --steps STEPS.tsv [--checks CHECKS.tsv]
 *       [--budget NAME=S]... [--part P]... [--planned P]... [--completed P]... [--quick]
 *       [--time-limit S] [--interrupted SIGNAL] [--resumes ID]
 *
 * STEPS.tsv, one step a line in the order run: name, part ("-": every command's own steps),
 * exit status ("-": not run), seconds, expected seconds, reason ("-": none; with no exit status, why
 * the step was skipped; with one, a note such as the signal that interrupted it).
 * CHECKS.tsv, one variant a line: variant, status (ok|fail|fault|hang|error|not_supported), exit
 * status, seconds, log (a path inside the campaign).
 * --planned lists the parts the command set out to run, --completed those whose every step ran to
 * its end (a part skipped for the time limit, or interrupted, is planned but not completed). */
#include "campaign_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "json_file.h"
#include "tsv_in.h"

#define MAX_LIST 128

typedef struct {
    const char *out, *id, *backend, *device, *bundle, *steps, *checks, *interrupted, *resumes;
    long started;
    double expected, l4_factor, time_limit;
    bool quick, have_started, have_expected, have_l4;
    const char *parts[MAX_LIST], *planned[MAX_LIST], *completed[MAX_LIST], *budgets[MAX_LIST];
    int n_parts, n_planned, n_completed, n_budgets;
} campaign_args_t;

static int usage(const char *msg) {
    fprintf(
        stderr,
        "sdpa-report campaign-json: %s\n"
        "usage: sdpa-report campaign-json OUT.json --id ID --backend cuda|emu --device NAME --bundle TEXT\n"
        "           --started UNIX_S --expected S --l4-factor F --steps STEPS.tsv [--checks CHECKS.tsv]\n"
        "           [--budget NAME=S]... [--part P]... [--planned P]... [--completed P]... [--quick]\n"
        "           [--time-limit S] [--interrupted SIGNAL] [--resumes ID]\n",
        msg);
    return 2;
}

static bool id_ok(const char *id) {
    if (!*id || *id == '.') return false;
    for (const char *p = id; *p; p++)
        if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '.' ||
              *p == '_' || *p == '-'))
            return false;
    return true;
}

static int push(const char **list, int *n, const char *v, const char *opt) {
    if (*n == MAX_LIST) {
        fprintf(stderr, "sdpa-report campaign-json: more than %d %s\n", MAX_LIST, opt);
        return 2;
    }
    list[(*n)++] = v;
    return 0;
}

static int number(const char *opt, const char *v, double *out) {
    if (tsv_seconds(v, out) == 0) return 0;
    fprintf(stderr, "sdpa-report campaign-json: %s '%s': expected a number >= 0\n", opt, v);
    return 2;
}

static int parse_args(int argc, char **argv, campaign_args_t *a) {
    for (int i = 2; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int rc = 0;
        if (o[0] != '-') {
            if (a->out) return usage("more than one OUT.json");
            a->out = o;
            continue;
        }
        if (!strcmp(o, "--quick")) {
            a->quick = true;
            continue;
        }
        if (!v) return usage("an option lacks its value");
        double d;
        if (!strcmp(o, "--id"))
            a->id = v;
        else if (!strcmp(o, "--backend"))
            a->backend = v;
        else if (!strcmp(o, "--device"))
            a->device = v;
        else if (!strcmp(o, "--bundle"))
            a->bundle = v;
        else if (!strcmp(o, "--steps"))
            a->steps = v;
        else if (!strcmp(o, "--checks"))
            a->checks = v;
        else if (!strcmp(o, "--interrupted"))
            a->interrupted = v;
        else if (!strcmp(o, "--resumes"))
            a->resumes = v;
        else if (!strcmp(o, "--started")) {
            if ((rc = number(o, v, &d)) == 0) a->started = (long)d, a->have_started = true;
        } else if (!strcmp(o, "--expected")) {
            if ((rc = number(o, v, &a->expected)) == 0) a->have_expected = true;
        } else if (!strcmp(o, "--l4-factor")) {
            if ((rc = number(o, v, &a->l4_factor)) == 0) a->have_l4 = true;
        } else if (!strcmp(o, "--time-limit"))
            rc = number(o, v, &a->time_limit);
        else if (!strcmp(o, "--budget")) {
            const char *eq = strchr(v, '=');
            if (!eq || eq == v || tsv_seconds(eq + 1, &d) != 0) {
                fprintf(stderr, "sdpa-report campaign-json: --budget '%s': expected NAME=SECONDS\n", v);
                return 2;
            }
            rc = push(a->budgets, &a->n_budgets, v, "--budget");
        } else if (!strcmp(o, "--part"))
            rc = push(a->parts, &a->n_parts, v, "--part");
        else if (!strcmp(o, "--planned"))
            rc = push(a->planned, &a->n_planned, v, "--planned");
        else if (!strcmp(o, "--completed"))
            rc = push(a->completed, &a->n_completed, v, "--completed");
        else {
            fprintf(stderr, "sdpa-report campaign-json: unknown option '%s'\n", o);
            return 2;
        }
        if (rc) return rc;
        i++;
    }
    if (!a->out || !a->id || !a->backend || !a->device || !a->bundle || !a->steps || !a->have_started ||
        !a->have_expected || !a->have_l4)
        return usage("OUT.json, --id, --backend, --device, --bundle, --started, --expected, --l4-factor and "
                     "--steps are required");
    if (!id_ok(a->id)) {
        fprintf(stderr,
                "sdpa-report campaign-json: --id '%s': use letters, digits, '.', '_', '-' (not first '.')\n",
                a->id);
        return 2;
    }
    if (a->resumes && !id_ok(a->resumes)) {
        fprintf(stderr, "sdpa-report campaign-json: --resumes '%s': not a campaign id\n", a->resumes);
        return 2;
    }
    if (strcmp(a->backend, "cuda") != 0 && strcmp(a->backend, "emu") != 0) {
        fprintf(stderr, "sdpa-report campaign-json: --backend '%s': accepted values are cuda and emu\n",
                a->backend);
        return 2;
    }
    return 0;
}

static cJSON *string_list(const char *const *v, int n) {
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; a && i < n; i++) cJSON_AddItemToArray(a, cJSON_CreateString(v[i]));
    return a;
}

static void add_str_or_null(cJSON *o, const char *key, const char *v) {
    if (v && !tsv_absent(v))
        cJSON_AddStringToObject(o, key, v);
    else
        cJSON_AddNullToObject(o, key);
}

/* The steps: name, part, exit, seconds, expected, reason. */
static int add_steps(cJSON *doc, const char *path, char *err, size_t errlen) {
    tsv_in_t t;
    if (tsv_open(&t, path, err, errlen) != 0) return 1;
    cJSON *steps = cJSON_AddArrayToObject(doc, "steps");
    char *f[6];
    int r;
    while ((r = tsv_next(&t, f, 6, err, errlen)) == 1) {
        long exit_status = 0;
        double secs, expected;
        const bool ran = !tsv_absent(f[2]);
        if (!*f[0] || tsv_absent(f[0]) || (ran && tsv_long(f[2], 0, 255, &exit_status) != 0) ||
            tsv_seconds(f[3], &secs) != 0 || tsv_seconds(f[4], &expected) != 0 ||
            (!ran && tsv_absent(f[5]))) {
            snprintf(err, errlen,
                     "%s:%zu: expected name, part, exit status (0-255 or -), seconds, expected seconds, "
                     "reason (a skipped step needs one)",
                     path, t.line);
            r = -1;
            break;
        }
        cJSON *s = cJSON_CreateObject();
        cJSON_AddStringToObject(s, "name", f[0]);
        add_str_or_null(s, "part", f[1]);
        if (ran)
            cJSON_AddNumberToObject(s, "exit_status", (double)exit_status);
        else
            cJSON_AddNullToObject(s, "exit_status");
        cJSON_AddNumberToObject(s, "seconds", secs);
        cJSON_AddNumberToObject(s, "expected_seconds", expected);
        if (!ran)
            cJSON_AddStringToObject(s, "skipped", f[5]);
        else if (!tsv_absent(f[5]))
            cJSON_AddStringToObject(s, "note", f[5]);
        cJSON_AddItemToArray(steps, s);
    }
    tsv_close(&t);
    return r < 0 ? 2 : 0;
}

static const char *const CHECK_STATUS[] = {"ok", "fail", "fault", "hang", "error", "not_supported"};

/* The variants' own checks: variant, status, exit, seconds, log. */
static int add_checks(cJSON *doc, const char *path, char *err, size_t errlen) {
    cJSON *checks = cJSON_AddArrayToObject(doc, "variant_checks");
    if (!path) return 0;
    tsv_in_t t;
    if (tsv_open(&t, path, err, errlen) != 0) return 1;
    char *f[5];
    int r;
    while ((r = tsv_next(&t, f, 5, err, errlen)) == 1) {
        long exit_status;
        double secs;
        bool known = false;
        for (size_t k = 0; k < sizeof CHECK_STATUS / sizeof CHECK_STATUS[0]; k++)
            known |= !strcmp(f[1], CHECK_STATUS[k]);
        if (!id_ok(f[0]) || !known || tsv_long(f[2], 0, 255, &exit_status) != 0 ||
            tsv_seconds(f[3], &secs) != 0) {
            snprintf(
                err, errlen,
                "%s:%zu: expected variant, status (ok|fail|fault|hang|error|not_supported), exit status, "
                "seconds, log",
                path, t.line);
            r = -1;
            break;
        }
        cJSON *c = cJSON_CreateObject();
        cJSON_AddStringToObject(c, "variant", f[0]);
        cJSON_AddStringToObject(c, "status", f[1]);
        cJSON_AddNumberToObject(c, "exit_status", (double)exit_status);
        cJSON_AddNumberToObject(c, "seconds", secs);
        add_str_or_null(c, "log", f[4]);
        cJSON_AddItemToArray(checks, c);
    }
    tsv_close(&t);
    return r < 0 ? 2 : 0;
}

static cJSON *plan(const campaign_args_t *a) {
    cJSON *p = cJSON_CreateObject();
    cJSON_AddNumberToObject(p, "expected_seconds_h100", a->expected);
    cJSON_AddNumberToObject(p, "l4_factor", a->l4_factor);
    if (a->time_limit > 0)
        cJSON_AddNumberToObject(p, "time_limit_seconds", a->time_limit);
    else
        cJSON_AddNullToObject(p, "time_limit_seconds");
    cJSON *b = cJSON_AddObjectToObject(p, "budgets");
    for (int i = 0; i < a->n_budgets; i++) {
        const char *eq = strchr(a->budgets[i], '=');
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(eq - a->budgets[i]), a->budgets[i]);
        cJSON_AddNumberToObject(b, name, strtod(eq + 1, NULL));
    }
    return p;
}

static cJSON *build(const campaign_args_t *a, int argc, char **argv) {
    cJSON *doc = results_new("gpu-campaign", "campaign.sh", argc, argv);
    if (!doc) return NULL;
    cJSON_AddStringToObject(doc, "campaign_id", a->id);
    cJSON_AddStringToObject(doc, "bundle", a->bundle);
    cJSON_AddStringToObject(doc, "backend", a->backend);
    cJSON_AddStringToObject(doc, "device", a->device);
    cJSON_AddBoolToObject(doc, "quick", a->quick);
    cJSON_AddItemToObject(doc, "parts", string_list(a->parts, a->n_parts));
    cJSON_AddItemToObject(doc, "plan", plan(a));
    cJSON_AddNumberToObject(doc, "started_unix", (double)a->started);
    const long now = (long)time(NULL);
    cJSON_AddNumberToObject(doc, "seconds", (double)(now > a->started ? now - a->started : 0));
    cJSON_AddBoolToObject(doc, "interrupted", a->interrupted != NULL);
    add_str_or_null(doc, "interruption", a->interrupted);
    cJSON_AddItemToObject(doc, "parts_planned", string_list(a->planned, a->n_planned));
    cJSON_AddItemToObject(doc, "parts_completed", string_list(a->completed, a->n_completed));
    add_str_or_null(doc, "resumes", a->resumes);
    return doc;
}

int campaign_json_main(int argc, char **argv) {
    campaign_args_t a;
    memset(&a, 0, sizeof a);
    int rc = parse_args(argc, argv, &a);
    if (rc) return rc;
    for (int i = 0; i < a.n_completed; i++) {
        bool planned = false;
        for (int j = 0; j < a.n_planned; j++) planned |= !strcmp(a.completed[i], a.planned[j]);
        if (!planned) {
            fprintf(stderr, "sdpa-report campaign-json: --completed %s: not among the --planned parts\n",
                    a.completed[i]);
            return 2;
        }
    }
    char err[2048];
    cJSON *doc = build(&a, argc, argv);
    if (!doc) return 1;
    rc = add_steps(doc, a.steps, err, sizeof err);
    if (rc == 0) rc = add_checks(doc, a.checks, err, sizeof err);
    if (rc == 0 && results_write(doc, a.out, err, sizeof err) != 0) rc = 1;
    if (rc) fprintf(stderr, "sdpa-report campaign-json: %s\n", err);
    cJSON_Delete(doc);
    return rc;
}
