/* Run manifests (manifest.h). Listed: the top-level regular files a run produces (results,
 * experiment definition, ptxas.json). Not listed: what `make report` derives from them and
 * rewrites (tables/, *.tsv, plot-vars.gp, meta.yaml, summary.json), so that re-rendering never
 * invalidates the manifest; they are functions of the listed files, and reports rebuild them
 * byte for byte. */
#include "manifest.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fileio.h"
#include "json_file.h"
#include "names.h"
#include "sha256.h"
#include "textbuf.h"

/* What every finished run directory holds (experiments/run.sh); ptxas.json is optional. */
static const char *const REQUIRED[] = {"run.json", "run-timing.json", "experiment.mk", "hypothesis.md"};
#define NREQUIRED (sizeof REQUIRED / sizeof REQUIRED[0])

static int ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int listed(const struct dirent *e) {
    const char *n = e->d_name;
    if (n[0] == '.' || strstr(n, ".tmp.") || ends_with(n, ".tsv")) return 0;
    static const char *const derived[] = {MANIFEST_NAME, INCOMPLETE_NOTE, "meta.yaml", "summary.json",
                                          "plot-vars.gp"};
    for (size_t i = 0; i < sizeof derived / sizeof derived[0]; i++)
        if (strcmp(n, derived[i]) == 0) return 0;
    return 1;
}

static int is_file(const char *dir, const char *name) {
    char p[REPORT_PATH_MAX];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Appends ", name" for each required file missing; returns how many. */
static int missing_required(const char *dir, rbuf_t *b) {
    int n = 0;
    for (size_t i = 0; i < NREQUIRED; i++)
        if (!is_file(dir, REQUIRED[i])) rb_printf(b, "%s%s", n++ ? ", " : "", REQUIRED[i]);
    return n;
}

int manifest_write(const char *dir, int argc, char **argv, char *err, size_t errlen) {
    rbuf_t miss = {0};
    int rc = -1;
    if (missing_required(dir, &miss) > 0) {
        snprintf(err, errlen, "%s: not complete: missing %s", dir, miss.s);
        rb_free(&miss);
        return -1;
    }
    rb_free(&miss);
    if (is_file(dir, INCOMPLETE_NOTE)) {
        snprintf(err, errlen, "%s/%s: the run stopped early; resume it first (make resume RUN=%s)", dir,
                 INCOMPLETE_NOTE, dir);
        return -1;
    }
    struct dirent **ents = NULL;
    int n = scandir(dir, &ents, listed, alphasort);
    if (n < 0) {
        snprintf(err, errlen, "%s: cannot list: %s", dir, strerror(errno));
        return -1;
    }
    cJSON *doc = results_new("run-manifest", "sdpa-report", argc, argv);
    cJSON *files = doc ? cJSON_AddArrayToObject(doc, "files") : NULL;
    if (!files) snprintf(err, errlen, "%s: out of memory", dir);
    for (int i = 0; files && i < n; i++) {
        if (!is_file(dir, ents[i]->d_name)) continue;
        char p[REPORT_PATH_MAX], hex[65];
        snprintf(p, sizeof p, "%s/%s", dir, ents[i]->d_name);
        struct stat st;
        if (stat(p, &st) != 0 || sha256_file_hex(p, hex) != 0) {
            snprintf(err, errlen, "%s: cannot read: %s", p, strerror(errno));
            files = NULL;
            break;
        }
        cJSON *f = cJSON_CreateObject();
        cJSON_AddItemToArray(files, f);
        cJSON_AddStringToObject(f, "name", ents[i]->d_name);
        json_add_u64(f, "bytes", (uint64_t)st.st_size);
        cJSON_AddStringToObject(f, "sha256", hex);
    }
    if (files) {
        cJSON_AddBoolToObject(doc, "complete", 1);
        char p[REPORT_PATH_MAX];
        snprintf(p, sizeof p, "%s/%s", dir, MANIFEST_NAME);
        rc = results_write(doc, p, err, errlen);
    }
    for (int i = 0; i < n; i++) free(ents[i]);
    free(ents);
    cJSON_Delete(doc);
    return rc;
}

/* Compares the manifest's list with the files: each listed file present with its digest. */
static int check_listed(const char *dir, const cJSON *doc, rbuf_t *b) {
    const cJSON *files = cJSON_GetObjectItemCaseSensitive(doc, "files");
    if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc, "complete")) || !cJSON_IsArray(files)) {
        rb_puts(b, MANIFEST_NAME " does not say complete");
        return 1;
    }
    int bad = 0;
    bool has[NREQUIRED] = {false};
    const cJSON *f;
    cJSON_ArrayForEach(f, files) {
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "name"));
        const char *want = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "sha256"));
        char p[REPORT_PATH_MAX], hex[65];
        if (!name || !want || strchr(name, '/')) {
            rb_printf(b, "%s" MANIFEST_NAME ": a malformed entry", bad++ ? "; " : "");
            continue;
        }
        for (size_t i = 0; i < NREQUIRED; i++) has[i] |= strcmp(name, REQUIRED[i]) == 0;
        snprintf(p, sizeof p, "%s/%s", dir, name);
        if (sha256_file_hex(p, hex) != 0)
            rb_printf(b, "%s%s listed in " MANIFEST_NAME " is %s", bad++ ? "; " : "", name,
                      errno == EINVAL || errno == EISDIR ? "not a regular file (never read)" : "missing");
        else if (strcmp(hex, want) != 0)
            rb_printf(b, "%s%s does not match its SHA-256 in " MANIFEST_NAME, bad++ ? "; " : "", name);
    }
    /* A manifest that lists nothing (or not what every run has) vouches for nothing. */
    for (size_t i = 0; i < NREQUIRED; i++)
        if (!has[i]) rb_printf(b, "%s" MANIFEST_NAME " does not list %s", bad++ ? "; " : "", REQUIRED[i]);
    return bad ? 1 : 0;
}

int manifest_check(const char *dir, char *why, size_t whylen) {
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(why, whylen, "%s: not a directory", dir);
        return -1;
    }
    char p[REPORT_PATH_MAX], err[1024];
    snprintf(p, sizeof p, "%s/%s", dir, MANIFEST_NAME);
    rbuf_t b = {0};
    int rc = 1;
    if (is_file(dir, MANIFEST_NAME)) {
        cJSON *doc = results_load(p, "run-manifest", err, sizeof err);
        if (!doc)
            rb_puts(&b, err);
        else
            rc = check_listed(dir, doc, &b);
        cJSON_Delete(doc);
    } else {
        rb_puts(&b, "no " MANIFEST_NAME);
        rbuf_t miss = {0};
        if (missing_required(dir, &miss) > 0) rb_printf(&b, "; missing %s", miss.s);
        rb_free(&miss);
        snprintf(p, sizeof p, "%s/%s", dir, INCOMPLETE_NOTE);
        char *note = file_read_all(p, NULL);
        if (note) {
            note[strcspn(note, "\n")] = '\0';
            rb_printf(&b, "; why: %s", note);
            free(note);
        } else {
            rb_puts(&b, "; why: unknown (still running, or stopped without a trace)");
        }
    }
    snprintf(why, whylen, "%s", rc == 0 ? "complete" : b.s ? b.s : "incomplete");
    rb_free(&b);
    return rc;
}

static int not_dot(const struct dirent *e) { return e->d_name[0] != '.'; }

int manifest_latest_run(const char *expdir, char *out, size_t n, FILE *log) {
    struct dirent **ents = NULL;
    int k = scandir(expdir, &ents, not_dot, alphasort), found = 0;
    for (int i = k - 1; i >= 0; i--) {
        char dir[REPORT_PATH_MAX], why[2048];
        int len = snprintf(dir, sizeof dir, "%s/%s", expdir, ents[i]->d_name);
        struct stat st;
        if (found || len < 0 || (size_t)len >= sizeof dir || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        /* The path goes on to make and to shells: a directory of another name (one copied in
         * from elsewhere) is never printed. */
        if (!name_id_ok(ents[i]->d_name)) {
            if (log) fprintf(log, "[paper] skipping %s: not a run id\n", dir);
        } else if (manifest_check(dir, why, sizeof why) != 0) {
            if (log) fprintf(log, "[paper] skipping %s: incomplete: %s\n", dir, why);
        } else {
            snprintf(out, n, "%s", dir);
            found = 1;
        }
    }
    for (int i = 0; i < k; i++) free(ents[i]);
    free(ents);
    return found;
}

int table_incomplete(report_t *r, const gates_t *g) {
    (void)g;
    rbuf_t b = {0};
    char why[2048];
    if (manifest_check(r->dir, why, sizeof why) != 0)
        rb_printf(&b,
                  "::: {.banner .incomplete}\n**INCOMPLETE RUN.** This run directory is not complete: %s. "
                  "What follows shows only what the run recorded; missing results are not failures. "
                  "Finish it with `make resume RUN=%s`.\n:::\n",
                  why, r->dir);
    else
        rb_puts(&b, "");
    return rb_save(&b, r->dir, "tables/incomplete.md", r->err, sizeof r->err);
}
