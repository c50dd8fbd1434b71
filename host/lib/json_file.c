/* JSON result files (json_file.h, data/SCHEMA.md): the common document head and meta block, the
 * writers of the shared sub-objects, and a loader that checks the schema version, the kind and
 * the fields every reader relies on, naming the file and the dotted field path in every error. */
#include "json_file.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "build_info.h"
#include "fileio.h"

/* ---- writing ----------------------------------------------------------------------------- */

cJSON *json_add_u64(cJSON *obj, const char *key, uint64_t v) {
    char buf[24];
    snprintf(buf, sizeof buf, "%" PRIu64, v);
    return cJSON_AddStringToObject(obj, key, buf);
}

cJSON *json_add_num(cJSON *obj, const char *key, double v) {
    return isfinite(v) ? cJSON_AddNumberToObject(obj, key, v) : cJSON_AddNullToObject(obj, key);
}

static cJSON *num_or_null(double v) { return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull(); }

cJSON *json_add_doubles(cJSON *obj, const char *key, const double *v, size_t n) {
    cJSON *a = cJSON_AddArrayToObject(obj, key);
    for (size_t i = 0; a && i < n; i++) cJSON_AddItemToArray(a, num_or_null(v[i]));
    return a;
}

static cJSON *pair(double lo, double hi) {
    cJSON *a = cJSON_CreateArray();
    if (a) {
        cJSON_AddItemToArray(a, num_or_null(lo));
        cJSON_AddItemToArray(a, num_or_null(hi));
    }
    return a;
}

/* The first line of /proc/cpuinfo's "model name", or "unknown". */
static void cpu_model(char *out, size_t len) {
    snprintf(out, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) == 0 && colon) {
            colon++;
            while (*colon == ' ' || *colon == '\t') colon++;
            colon[strcspn(colon, "\n")] = '\0';
            snprintf(out, len, "%s", colon);
            break;
        }
    }
    fclose(f);
}

static cJSON *host_info(void) {
    cJSON *h = cJSON_CreateObject();
    if (!h) return NULL;
    char buf[512];
    if (gethostname(buf, sizeof buf) != 0) snprintf(buf, sizeof buf, "unknown");
    buf[sizeof buf - 1] = '\0';
    cJSON_AddStringToObject(h, "hostname", buf);
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(buf, sizeof buf, "%s %s %s", u.sysname, u.release, u.machine);
    else
        snprintf(buf, sizeof buf, "unknown");
    cJSON_AddStringToObject(h, "os", buf);
    cpu_model(buf, sizeof buf);
    cJSON_AddStringToObject(h, "cpu", buf);
    cJSON_AddNumberToObject(h, "cpus", (double)sysconf(_SC_NPROCESSORS_ONLN));
    return h;
}

static void add_time(cJSON *meta) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    char buf[32];
    gmtime_r(&ts.tv_sec, &tm);
    strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    cJSON_AddStringToObject(meta, "utc_time", buf);
    json_add_u64(meta, "unix_time_ns", (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec);
}

cJSON *results_new(const char *kind, const char *tool, int argc, char **argv) {
    cJSON *doc = cJSON_CreateObject();
    if (!doc) return NULL;
    cJSON_AddStringToObject(doc, "schema_version", RESULTS_SCHEMA_VERSION);
    cJSON_AddStringToObject(doc, "kind", kind);
    cJSON *meta = cJSON_AddObjectToObject(doc, "meta");
    if (!meta) {
        cJSON_Delete(doc);
        return NULL;
    }
    cJSON_AddStringToObject(meta, "tool", tool);
    cJSON_AddStringToObject(meta, "tool_version", RESULTS_TOOL_VERSION);
    cJSON_AddStringToObject(meta, "git_sha", BUILD_GIT_SHA);
    if (BUILD_GIT_DIRTY < 0)
        cJSON_AddNullToObject(meta, "git_dirty");
    else
        cJSON_AddBoolToObject(meta, "git_dirty", BUILD_GIT_DIRTY != 0);
    cJSON_AddStringToObject(meta, "cc", BUILD_CC_VERSION);
    if (BUILD_NVCC_VERSION[0])
        cJSON_AddStringToObject(meta, "nvcc", BUILD_NVCC_VERSION);
    else
        cJSON_AddNullToObject(meta, "nvcc");
    cJSON_AddStringToObject(meta, "cflags", BUILD_CFLAGS);
    cJSON_AddStringToObject(meta, "nvcc_flags", BUILD_NVCC_FLAGS);
    cJSON_AddItemToObject(meta, "host", host_info());
    add_time(meta);
    cJSON *cmd = cJSON_AddArrayToObject(meta, "command_line");
    for (int i = 0; cmd && argv && i < argc; i++) cJSON_AddItemToArray(cmd, cJSON_CreateString(argv[i]));
    return doc;
}

cJSON *results_meta(cJSON *doc) { return cJSON_GetObjectItemCaseSensitive(doc, "meta"); }

cJSON *json_stats_summary(const stats_summary_t *s) {
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    cJSON_AddNumberToObject(o, "n", (double)s->n);
    json_add_num(o, "min", s->min);
    json_add_num(o, "q1", s->q1);
    json_add_num(o, "median", s->median);
    json_add_num(o, "q3", s->q3);
    json_add_num(o, "max", s->max);
    json_add_num(o, "mean", s->mean);
    json_add_num(o, "std", s->std);
    json_add_num(o, "p90", s->p90);
    json_add_num(o, "p99", s->p99);
    json_add_num(o, "iqr", s->iqr);
    json_add_num(o, "rel_iqr", s->rel_iqr);
    cJSON_AddBoolToObject(o, "ci_available", s->ci_available);
    json_add_num(o, "ci_lo", s->ci_available ? s->ci_lo : NAN);
    json_add_num(o, "ci_hi", s->ci_available ? s->ci_hi : NAN);
    json_add_num(o, "ci_coverage", s->ci_available ? s->ci_coverage : NAN);
    return o;
}

cJSON *json_err_metrics(const err_metrics_t *m) {
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    cJSON_AddNumberToObject(o, "n", (double)m->n);
    cJSON_AddNumberToObject(o, "nonfinite", (double)m->nonfinite);
    cJSON_AddNumberToObject(o, "n_bad", (double)m->n_bad);
    json_add_num(o, "pct_bad", m->pct_bad);
    json_add_num(o, "max_abs", m->max_abs);
    json_add_num(o, "mean_abs", m->mean_abs);
    json_add_num(o, "max_rel", m->max_rel);
    json_add_num(o, "rel_l2", m->rel_l2);
    json_add_num(o, "cosine", m->cosine);
    json_add_num(o, "rel_l1", m->rel_l1);
    json_add_num(o, "rmse", m->rmse);
    json_add_num(o, "worst_ratio", m->worst_ratio);
    cJSON_AddNumberToObject(o, "worst_index", (double)m->worst_index);
    json_add_num(o, "atol_min", m->atol_min);
    json_add_num(o, "atol_max", m->atol_max);
    json_add_num(o, "rtol", m->rtol);
    return o;
}

/* The statistics of a COMPARISON (data/SCHEMA.md); the caller adds the names, shape, seed, timing
 * and the paired samples. */
cJSON *json_ab_result(const ab_result_t *r) {
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    cJSON_AddNumberToObject(o, "rounds", (double)r->rounds);
    json_add_num(o, "base_median", r->base_median);
    json_add_num(o, "cand_median", r->cand_median);
    json_add_num(o, "ratio", r->ratio);
    cJSON_AddItemToObject(o, "ratio_ci", pair(r->ratio_ci_lo, r->ratio_ci_hi));
    json_add_num(o, "speedup", r->speedup);
    cJSON_AddItemToObject(o, "speedup_ci", pair(r->speedup_ci_lo, r->speedup_ci_hi));
    json_add_num(o, "latency_reduction", r->latency_reduction);
    cJSON_AddItemToObject(o, "latency_reduction_ci",
                          pair(r->latency_reduction_ci_lo, r->latency_reduction_ci_hi));
    json_add_num(o, "epsilon", r->epsilon);
    cJSON_AddNumberToObject(o, "resamples", (double)r->resamples);
    json_add_u64(o, "bootstrap_seed", r->seed);
    cJSON_AddStringToObject(o, "verdict", verdict_name(r->verdict));
    return o;
}

static int write_doc(const cJSON *doc, const char *path, bool replace, char *err, size_t errlen) {
    char *text = cJSON_Print(doc);
    if (!text) {
        if (err && errlen) snprintf(err, errlen, "%s: cannot serialise the document (out of memory)", path);
        errno = ENOMEM;
        return -1;
    }
    size_t n = strlen(text);
    char *buf = realloc(text, n + 2);
    if (!buf) {
        free(text);
        if (err && errlen) snprintf(err, errlen, "%s: out of memory", path);
        errno = ENOMEM;
        return -1;
    }
    buf[n] = '\n';
    buf[n + 1] = '\0';
    int rc = replace ? file_write_replace(path, buf, n + 1, err, errlen)
                     : file_write_new(path, buf, n + 1, err, errlen);
    free(buf);
    return rc;
}

int results_write(const cJSON *doc, const char *path, char *err, size_t errlen) {
    return write_doc(doc, path, false, err, errlen);
}

int results_write_replace(const cJSON *doc, const char *path, char *err, size_t errlen) {
    return write_doc(doc, path, true, err, errlen);
}

/* ---- reading ----------------------------------------------------------------------------- */

/* Field types a check accepts (a mask). */
enum { JT_STR = 1, JT_NUM = 2, JT_BOOL = 4, JT_NULL = 8, JT_OBJ = 16, JT_ARR = 32 };

static int type_of(const cJSON *j) {
    if (cJSON_IsString(j)) return JT_STR;
    if (cJSON_IsNumber(j)) return JT_NUM;
    if (cJSON_IsBool(j)) return JT_BOOL;
    if (cJSON_IsNull(j)) return JT_NULL;
    if (cJSON_IsObject(j)) return JT_OBJ;
    if (cJSON_IsArray(j)) return JT_ARR;
    return 0;
}

static const char *type_words(int mask) {
    switch (mask) {
    case JT_STR: return "a string";
    case JT_NUM: return "a number";
    case JT_NUM | JT_NULL: return "a number or null";
    case JT_BOOL: return "a boolean";
    case JT_BOOL | JT_NULL: return "a boolean or null";
    case JT_STR | JT_NULL: return "a string or null";
    case JT_OBJ: return "an object";
    case JT_OBJ | JT_NULL: return "an object or null";
    case JT_ARR: return "an array";
    case JT_ARR | JT_NULL: return "an array or null";
    default: return "of the expected type";
    }
}

static void path_err(char *err, size_t errlen, const char *file, const char *path, const char *what) {
    if (err && errlen) snprintf(err, errlen, "%s: field '%s' %s", file ? file : "(json)", path, what);
}

const cJSON *json_get(const cJSON *root, const char *path, const char *file, char *err, size_t errlen) {
    const cJSON *cur = root;
    const char *p = path;
    while (cur && *p) {
        size_t len = strcspn(p, ".");
        char key[128];
        if (len == 0 || len >= sizeof key) {
            cur = NULL;
            break;
        }
        memcpy(key, p, len);
        key[len] = '\0';
        if (cJSON_IsArray(cur) && strspn(key, "0123456789") == len)
            cur = cJSON_GetArrayItem(cur, atoi(key));
        else if (cJSON_IsObject(cur))
            cur = cJSON_GetObjectItemCaseSensitive(cur, key);
        else
            cur = NULL;
        p += len;
        if (*p == '.') p++;
    }
    if (!cur) path_err(err, errlen, file, path, "missing");
    return cur;
}

/* The field at path if its type is in mask; else NULL with "missing" or "is not ..." in err. */
static const cJSON *get_typed(const cJSON *root, const char *path, int mask, const char *file, char *err,
                              size_t errlen) {
    const cJSON *j = json_get(root, path, file, err, errlen);
    if (!j) return NULL;
    if (!(type_of(j) & mask)) {
        char what[64];
        snprintf(what, sizeof what, "is not %s", type_words(mask));
        path_err(err, errlen, file, path, what);
        return NULL;
    }
    return j;
}

int json_get_num(const cJSON *root, const char *path, double *out, const char *file, char *err,
                 size_t errlen) {
    const cJSON *j = get_typed(root, path, JT_NUM | JT_NULL, file, err, errlen);
    if (!j) return -1;
    *out = cJSON_IsNull(j) ? NAN : j->valuedouble;
    return 0;
}

const char *json_get_str(const cJSON *root, const char *path, const char *file, char *err, size_t errlen) {
    const cJSON *j = get_typed(root, path, JT_STR, file, err, errlen);
    return j ? j->valuestring : NULL;
}

int json_get_bool(const cJSON *root, const char *path, bool *out, const char *file, char *err,
                  size_t errlen) {
    const cJSON *j = get_typed(root, path, JT_BOOL, file, err, errlen);
    if (!j) return -1;
    *out = cJSON_IsTrue(j);
    return 0;
}

typedef struct {
    const char *path;
    int mask;
} field_rule_t;

/* The meta fields every tool writes (results_new). */
static const field_rule_t META_RULES[] = {
    {"meta.tool", JT_STR},
    {"meta.tool_version", JT_STR},
    {"meta.git_sha", JT_STR},
    {"meta.git_dirty", JT_BOOL | JT_NULL},
    {"meta.cc", JT_STR},
    {"meta.nvcc", JT_STR | JT_NULL},
    {"meta.cflags", JT_STR},
    {"meta.nvcc_flags", JT_STR},
    {"meta.host", JT_OBJ},
    {"meta.utc_time", JT_STR},
    {"meta.unix_time_ns", JT_STR},
    {"meta.command_line", JT_ARR},
    {NULL, 0},
};

/* Per kind, the top-level fields of data/SCHEMA.md. The hand-transcribed published-figures file
 * is checked only for its meta object, since no tool writes it. */
typedef struct {
    const char *kind;
    int tool_meta;
    const field_rule_t *rules;
} kind_rules_t;

static const field_rule_t BENCH_RULES[] = {
    {"meta.backend", JT_STR},
    {"meta.timing", JT_STR},
    {"meta.device", JT_OBJ | JT_NULL},
    {"meta.emulator", JT_OBJ | JT_NULL},
    {"config", JT_OBJ},
    {"correctness", JT_ARR},
    {"cross_variant", JT_ARR},
    {"timing", JT_ARR},
    {"comparisons", JT_ARR},
    {"ptxas", JT_OBJ | JT_NULL},
    {NULL, 0},
};
static const field_rule_t PTXAS_RULES[] = {
    {"gates", JT_OBJ},
    {"kernels", JT_ARR},
    {"published", JT_ARR | JT_NULL},
    {NULL, 0},
};
static const field_rule_t SUMMARY_RULES[] = {
    {"experiment", JT_STR}, {"run_id", JT_STR}, {"gates", JT_ARR}, {"verdict", JT_STR}, {NULL, 0},
};
static const field_rule_t NO_RULES[] = {{NULL, 0}};

static const kind_rules_t KIND_RULES[] = {
    {"sdpa-bench-run", 1, BENCH_RULES},
    {"ptxas-resources", 1, PTXAS_RULES},
    {"experiment-summary", 1, SUMMARY_RULES},
    {"published-figures", 0, NO_RULES},
};

static int check_rules(const cJSON *doc, const field_rule_t *rules, const char *path, char *err,
                       size_t errlen) {
    for (const field_rule_t *r = rules; r->path; r++)
        if (!get_typed(doc, r->path, r->mask, path, err, errlen)) return -1;
    return 0;
}

/* "1.2.3" -> 1; -1 if the string does not start with a decimal major version and a dot. */
static long major_version(const char *v) {
    char *end;
    errno = 0;
    long major = strtol(v, &end, 10);
    if (end == v || *end != '.' || errno || major < 0) return -1;
    return major;
}

static int check_document(const cJSON *doc, const char *expected_kind, const char *path, char *err,
                          size_t errlen) {
    if (!cJSON_IsObject(doc)) {
        if (err && errlen) snprintf(err, errlen, "%s: not a JSON object at the top level", path);
        return -1;
    }
    const char *version = json_get_str(doc, "schema_version", path, err, errlen);
    if (!version) return -1;
    long major = major_version(version);
    long want = major_version(RESULTS_SCHEMA_VERSION);
    if (major < RESULTS_SCHEMA_OLDEST_MAJOR || major > want) {
        if (err && errlen)
            snprintf(err, errlen, "%s: schema_version %s, expected %d.x to %ld.x", path, version,
                     RESULTS_SCHEMA_OLDEST_MAJOR, want);
        return -1;
    }
    const char *kind = json_get_str(doc, "kind", path, err, errlen);
    if (!kind) return -1;
    if (expected_kind && strcmp(kind, expected_kind) != 0) {
        if (err && errlen) snprintf(err, errlen, "%s: kind '%s', expected '%s'", path, kind, expected_kind);
        return -1;
    }
    if (!get_typed(doc, "meta", JT_OBJ, path, err, errlen)) return -1;
    for (size_t i = 0; i < sizeof KIND_RULES / sizeof KIND_RULES[0]; i++) {
        if (strcmp(kind, KIND_RULES[i].kind) != 0) continue;
        if (KIND_RULES[i].tool_meta && check_rules(doc, META_RULES, path, err, errlen) != 0) return -1;
        return check_rules(doc, KIND_RULES[i].rules, path, err, errlen);
    }
    return 0; /* a kind this reader has no rules for: only the common head is checked */
}

/* Line and column (1-based) of byte offset off in text, for parse errors. */
static void line_col(const char *text, size_t off, size_t *line, size_t *col) {
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < off && text[i]; i++) {
        if (text[i] == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

cJSON *results_load(const char *path, const char *expected_kind, char *err, size_t errlen) {
    size_t len = 0;
    char *text = file_read_all(path, &len);
    if (!text) {
        if (err && errlen)
            snprintf(err, errlen, "%s: cannot read: %s", path,
                     errno == EINVAL ? "not a regular file (a fifo or device is never read)"
                                     : strerror(errno));
        return NULL;
    }
    const char *end = NULL;
    cJSON *doc = cJSON_ParseWithOpts(text, &end, 1);
    if (!doc) {
        size_t off = end && end >= text ? (size_t)(end - text) : 0;
        const char *ep = cJSON_GetErrorPtr();
        if (ep && ep >= text && ep <= text + len) off = (size_t)(ep - text);
        size_t line, col;
        line_col(text, off, &line, &col);
        if (err && errlen)
            snprintf(err, errlen, "%s: not valid JSON (line %zu, column %zu)", path, line, col);
        free(text);
        return NULL;
    }
    free(text);
    if (check_document(doc, expected_kind, path, err, errlen) != 0) {
        cJSON_Delete(doc);
        return NULL;
    }
    return doc;
}
