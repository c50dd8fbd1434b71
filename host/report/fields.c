/* See fields.h. */
#include "fields.h"

#include <math.h>
#include <string.h>
#include <stdarg.h>
#include <stdio.h>

#include "json_file.h"

#define PATH_FMT(buf, fmt)                                                                                   \
    char buf[256];                                                                                           \
    do {                                                                                                     \
        va_list ap_;                                                                                         \
        va_start(ap_, fmt);                                                                                  \
        vsnprintf(buf, sizeof buf, fmt, ap_);                                                                \
        va_end(ap_);                                                                                         \
    } while (0)

/* The number at path; NaN when it, or a field that encloses it, is null: sdpa-bench writes a
 * statistic it could not compute as null, an interval as a whole (speedup_ci: null with one round). */
static int num_at(const rj_t *d, const char *path, double *out) {
    char prefix[256], scratch[8];
    for (size_t i = 0; path[i] && i < sizeof prefix; i++) {
        if (path[i] != '.') continue;
        memcpy(prefix, path, i);
        prefix[i] = '\0';
        const cJSON *n = json_get(d->root, prefix, d->file, scratch, sizeof scratch);
        if (n && cJSON_IsNull(n)) {
            *out = NAN;
            return 0;
        }
    }
    return json_get_num(d->root, path, out, d->file, d->err, d->errlen);
}

int rj_num(const rj_t *d, double *out, const char *fmt, ...) {
    PATH_FMT(path, fmt);
    return num_at(d, path, out);
}

int rj_nums(const rj_t *d, double *out, const char *fmt, int index, const char *const *fields, size_t n) {
    for (size_t k = 0; k < n; k++) {
        char path[256];
        snprintf(path, sizeof path, fmt, index, fields[k]);
        if (num_at(d, path, &out[k]) < 0) return -1;
    }
    return 0;
}

const char *rj_str(const rj_t *d, const char *fmt, ...) {
    PATH_FMT(path, fmt);
    return json_get_str(d->root, path, d->file, d->err, d->errlen);
}

const char *rj_str_or_null(const rj_t *d, const char *fmt, ...) {
    PATH_FMT(path, fmt);
    const cJSON *n = json_get(d->root, path, d->file, d->err, d->errlen);
    if (!n || cJSON_IsNull(n)) return NULL;
    return json_get_str(d->root, path, d->file, d->err, d->errlen);
}

int rj_bool(const rj_t *d, bool *out, const char *fmt, ...) {
    PATH_FMT(path, fmt);
    return json_get_bool(d->root, path, out, d->file, d->err, d->errlen);
}

int rj_len(const rj_t *d, const char *fmt, ...) {
    PATH_FMT(path, fmt);
    const cJSON *n = json_get(d->root, path, d->file, d->err, d->errlen);
    if (!n) return -1;
    if (!cJSON_IsArray(n)) {
        snprintf(d->err, d->errlen, "%s: field '%s' is not an array", d->file, path);
        return -1;
    }
    return cJSON_GetArraySize(n);
}

const cJSON *rj_node(const rj_t *d, const char *fmt, ...) {
    PATH_FMT(path, fmt);
    return json_get(d->root, path, d->file, d->err, d->errlen);
}

bool rj_present(const rj_t *d, const char *fmt, ...) {
    PATH_FMT(path, fmt);
    char scratch[8];
    const cJSON *n = json_get(d->root, path, d->file, scratch, sizeof scratch);
    return n && !cJSON_IsNull(n);
}

const cJSON *jo(const cJSON *obj, const char *key) {
    return obj ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
}

const char *jo_str(const cJSON *obj, const char *key) { return cJSON_GetStringValue(jo(obj, key)); }

double jo_num(const cJSON *obj, const char *key) {
    const cJSON *n = jo(obj, key);
    return cJSON_IsNumber(n) ? n->valuedouble : NAN;
}

const char *jo_str_or(const cJSON *obj, const char *key, const char *fallback) {
    const char *s = jo_str(obj, key);
    return s ? s : fallback;
}

bool jo_eq(const cJSON *obj, const char *key, const char *s) {
    const char *v = jo_str(obj, key);
    return v && s && strcmp(v, s) == 0;
}

const cJSON *jo_run_shape(const cJSON *run_doc, const char *name) {
    const cJSON *e;
    cJSON_ArrayForEach(e, jo(jo(run_doc, "config"), "shapes")) {
        if (name && jo_eq(e, "name", name)) return e;
    }
    return NULL;
}

const cJSON *jo_run_comparison(const cJSON *run_doc, const char *cand, const char *shape) {
    const cJSON *e;
    cJSON_ArrayForEach(e, jo(run_doc, "comparisons")) {
        if (jo_eq(e, "candidate", cand) && jo_eq(e, "shape", shape)) return e;
    }
    return NULL;
}

const char *jo_run_arm_order(const cJSON *run_doc) {
    return jo_str_or(jo(run_doc, "config"), "arm_order", "fixed");
}

bool jo_same_shape(const cJSON *a, const cJSON *b) {
    static const char *const k[] = {"B", "H", "S", "D"};
    if (!a || !b) return false;
    for (int i = 0; i < 4; i++)
        if (!(jo_num(a, k[i]) == jo_num(b, k[i]))) return false; /* NaN: not recorded, not the same */
    return cJSON_IsTrue(jo(a, "causal")) == cJSON_IsTrue(jo(b, "causal"));
}
