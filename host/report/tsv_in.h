/* Reading the small tab-separated files a shell script hands to sdpa-report (campaign.sh's step and
 * check records, gpu-checks.sh's sanitizer runs): one record a line, fields split at tabs, "-" for
 * an absent field. The script keeps tabs and newlines out of its fields; a line that does not have
 * the expected field count is an error naming the file and the line. */
#ifndef TSV_IN_H
#define TSV_IN_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char *text;       /* the whole file, split in place */
    char *next;       /* the next line to read */
    const char *path; /* for messages */
    size_t line;      /* the number of the line last read */
} tsv_in_t;

/* Opens path; 0, or -1 with "<path>: cannot read: <strerror>" in err. */
int tsv_open(tsv_in_t *t, const char *path, char *err, size_t errlen);
/* The next non-empty line split into exactly n fields (f[0..n-1]): 1; 0 at the end; -1 with
 * "<path>:<line>: <k> fields, expected <n>" in err. */
int tsv_next(tsv_in_t *t, char **f, int n, char *err, size_t errlen);
void tsv_close(tsv_in_t *t);

/* A field that is "-" (absent). */
bool tsv_absent(const char *field);
/* A decimal integer in [lo, hi] (the whole field): 0, else -1. */
int tsv_long(const char *field, long lo, long hi, long *out);
/* A finite decimal number >= 0 (the whole field): 0, else -1. */
int tsv_seconds(const char *field, double *out);

#endif
