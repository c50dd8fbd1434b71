/* Field access for sdpa-report: every read names the file and the full dotted path of the field
 * on failure ("data/x/run.json: field 'timing.1.summary.median' missing"), so a corrupted or
 * incomplete result file stops the report with a message a user can act on. Paths are printf
 * formats, so array elements are addressed by index ("correctness.%zu.kernel_only.rel_l2").
 * Thin wrappers over json_get* of json_file.h. */
#ifndef FIELDS_H
#define FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

typedef struct {
    const cJSON *root;
    const char *file; /* for messages */
    char *err;        /* where the first failure's message goes */
    size_t errlen;
} rj_t;

/* Numbers: JSON null reads as NaN (non-finite numbers are written as null), and so does a number
 * inside a null field (an interval written as null when too few rounds gave none). */
int rj_num(const rj_t *d, double *out, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Strings; NULL on failure. */
const char *rj_str(const rj_t *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A string, or NULL without error when the field is JSON null (e.g. meta.nvcc). */
const char *rj_str_or_null(const rj_t *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int rj_bool(const rj_t *d, bool *out, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Length of an array field; -1 on failure (missing or not an array). */
int rj_len(const rj_t *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The node itself (any type, null included); NULL on failure. */
const cJSON *rj_node(const rj_t *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* True when the field exists and is not null; never an error. */
bool rj_present(const rj_t *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* out[k] = the number at the path fmt(index, fields[k]) for every k < n, e.g.
 * rj_nums(d, x, "timing.%d.summary.%s", i, (const char *[]){ "median", "p90" }, 2). */
int rj_nums(const rj_t *d, double *out, const char *fmt, int index, const char *const *fields, size_t n);

/* Lenient lookups for optional content (never an error): a member, its string (NULL unless a
 * string), its number (NaN unless a number), and whether its string equals s. */
const cJSON *jo(const cJSON *obj, const char *key);
const char *jo_str(const cJSON *obj, const char *key);
double jo_num(const cJSON *obj, const char *key);
bool jo_eq(const cJSON *obj, const char *key, const char *s);
/* Its string, or fallback when it is absent or not a string ("not recorded", "?"). */
const char *jo_str_or(const cJSON *obj, const char *key, const char *fallback);
/* The entry of an sdpa-bench run document's config.shapes whose name is `name` (what a correctness
 * or timing entry's "shape" names); NULL when absent. */
const cJSON *jo_run_shape(const cJSON *run_doc, const char *name);
/* The comparison of candidate `cand` at the shape named `shape` in a run document; NULL when absent. */
const cJSON *jo_run_comparison(const cJSON *run_doc, const char *cand, const char *shape);
/* The arms' order within a round of a run document (config.arm_order, schema 2.1.0): "rotated",
 * "fixed", or what the file says; absent (an older file): "fixed", the baseline first every round. */
const char *jo_run_arm_order(const cJSON *run_doc);
/* Whether two shape objects of run documents are the same problem: B, H, S, D and the mask (a
 * dimension not recorded is not the same). */
bool jo_same_shape(const cJSON *a, const cJSON *b);

/* Propagates a failed read (its message is already in the report's err). */
#define TRY(x)                                                                                               \
    do {                                                                                                     \
        if ((x) < 0) return -1;                                                                              \
    } while (0)

#endif
