/* JSON result files (schema in data/SCHEMA.md). Written with cJSON; 64-bit integers (seeds,
 * nanosecond times) are strings; non-finite doubles are written as null (cJSON does this).
 * Every file carries "schema_version" and a "meta" block. */
#ifndef JSON_FILE_H
#define JSON_FILE_H

#include <stdbool.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "stats.h"
#include "metrics.h"

#define RESULTS_SCHEMA_VERSION "2.1.0"
/* The oldest major version the readers accept (data/SCHEMA.md: what 2.0.0 left out of 1.x files is
 * read from elsewhere in the same file, so the committed 1.x campaigns stay readable). */
#define RESULTS_SCHEMA_OLDEST_MAJOR 1
/* Added: meta.tool_version of every file the artifact's tools write (override with -D). */
#ifndef RESULTS_TOOL_VERSION
#define RESULTS_TOOL_VERSION "0.1.0"
#endif

/* --- writing ------------------------------------------------------------------------------ */
/* A new document: {"schema_version": ..., "kind": kind, "meta": {...}}. meta holds the tool name
 * and version, git SHA and dirty flag, compiler and nvcc versions and flags (build_info.h),
 * host name, OS, CPU model and count, UTC time (ISO 8601) and unix time in ns (string), and the
 * command line (array of strings). Returns NULL on allocation failure. */
cJSON *results_new(const char *kind, const char *tool, int argc, char **argv);
cJSON *results_meta(cJSON *doc); /* the "meta" object */

cJSON *json_add_u64(cJSON *obj, const char *key, uint64_t v); /* as a decimal string */
cJSON *json_add_num(cJSON *obj, const char *key, double v);   /* non-finite -> null */
cJSON *json_add_doubles(cJSON *obj, const char *key, const double *v, size_t n);
cJSON *json_stats_summary(const stats_summary_t *s); /* object */
cJSON *json_err_metrics(const err_metrics_t *m);     /* object */
cJSON *json_ab_result(const ab_result_t *r);         /* object */

/* Serialise (pretty, deterministic key order) and write with file_write_new: never overwrites.
 * Returns 0, or -1 with a message in err. */
int results_write(const cJSON *doc, const char *path, char *err, size_t errlen);
/* The same with file_write_replace: for a summary that a later run of its writer replaces whole. */
int results_write_replace(const cJSON *doc, const char *path, char *err, size_t errlen);

/* --- reading ------------------------------------------------------------------------------ */
/* Loads a result file and checks "schema_version" (a major version from RESULTS_SCHEMA_OLDEST_MAJOR
 * to this build's) and that "kind" equals expected_kind (NULL: any). On failure returns NULL and
 * writes "<path>: <what>" into err, e.g. "data/x/run.json: field 'meta.backend' missing" or
 * "...: schema_version 3.0.0, expected 1.x to 2.x". */
cJSON *results_load(const char *path, const char *expected_kind, char *err, size_t errlen);

/* Field access by dotted path ("meta.device.name", "timing.0.summary.median"); on a missing field
 * or wrong type they return -1/NULL and write "<file>: field '<path>' missing" (or "... is not a
 * number|string|...") into err. file is only used in the message. A path component made of digits
 * indexes an array. json_get_num reads null as NaN (non-finite numbers are written as null). */
const cJSON *json_get(const cJSON *root, const char *path, const char *file, char *err, size_t errlen);
int json_get_num(const cJSON *root, const char *path, double *out, const char *file, char *err,
                 size_t errlen);
const char *json_get_str(const cJSON *root, const char *path, const char *file, char *err, size_t errlen);
int json_get_bool(const cJSON *root, const char *path, bool *out, const char *file, char *err, size_t errlen);

#endif
