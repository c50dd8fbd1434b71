/* Tab-separated records from the campaign's scripts (tsv_in.h). */
#include "tsv_in.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"

int tsv_open(tsv_in_t *t, const char *path, char *err, size_t errlen) {
    memset(t, 0, sizeof *t);
    size_t n;
    t->text = file_read_all(path, &n);
    if (!t->text) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    if (memchr(t->text, '\0', n)) { /* a NUL would end a field early and hide the rest of the line */
        snprintf(err, errlen, "%s: a NUL byte: not a text file", path);
        free(t->text);
        t->text = NULL;
        return -1;
    }
    t->next = t->text;
    t->path = path;
    return 0;
}

int tsv_next(tsv_in_t *t, char **f, int n, char *err, size_t errlen) {
    while (t->next && *t->next) {
        char *s = t->next, *nl = strchr(s, '\n');
        t->next = nl ? nl + 1 : NULL;
        if (nl) *nl = '\0';
        t->line++;
        size_t len = strlen(s);
        if (len && s[len - 1] == '\r') s[--len] = '\0';
        if (len == 0) continue;
        int k = 0;
        for (char *p = s;; k++) {
            char *tab = strchr(p, '\t');
            if (k < n) f[k] = p;
            if (!tab) break;
            *tab = '\0';
            p = tab + 1;
        }
        if (k + 1 != n) {
            snprintf(err, errlen, "%s:%zu: %d fields, expected %d (tab-separated)", t->path, t->line, k + 1,
                     n);
            return -1;
        }
        return 1;
    }
    return 0;
}

void tsv_close(tsv_in_t *t) {
    free(t->text);
    t->text = t->next = NULL;
}

bool tsv_absent(const char *field) { return strcmp(field, "-") == 0; }

int tsv_long(const char *field, long lo, long hi, long *out) {
    char *end;
    errno = 0;
    const long v = strtol(field, &end, 10);
    if (end == field || *end != '\0' || errno == ERANGE || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

int tsv_seconds(const char *field, double *out) {
    char *end;
    errno = 0;
    const double v = strtod(field, &end);
    if (end == field || *end != '\0' || errno == ERANGE || !isfinite(v) || v < 0) return -1;
    *out = v;
    return 0;
}
