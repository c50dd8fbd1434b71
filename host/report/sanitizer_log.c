/* compute-sanitizer's output (sanitizer_log.h). A record is a line "========= <text>" followed by
 * its indented lines ("=========     at sdpa_stage1_e4m3+0x1a0 in ...", "by thread ...", the
 * backtrace); racecheck names both accesses on the first line. */
#include "sanitizer_log.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PREFIX "========="

typedef struct {
    bool open, warning;
    int variant; /* -1: none named yet */
} record_t;

static bool ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* The variant whose kernel (sdpa_<id with '-' as '_'>_e4m3|_seedlin, a whole identifier) s names. */
static int variant_in(const char *s, const char *const *variants, size_t n) {
    for (const char *p = strstr(s, "sdpa_"); p; p = strstr(p + 1, "sdpa_")) {
        if (p > s && ident_char(p[-1])) continue;
        size_t len = 0;
        while (ident_char(p[len])) len++;
        for (size_t v = 0; v < n; v++) {
            char want[160];
            int w = snprintf(want, sizeof want, "sdpa_%s_", variants[v]);
            if (w <= 0 || (size_t)w >= sizeof want) continue;
            for (char *c = want; *c; c++)
                if (*c == '-') *c = '_';
            const size_t wl = (size_t)w;
            if (len > wl && !strncmp(p, want, wl) &&
                ((len - wl == 4 && !strncmp(p + wl, "e4m3", 4)) ||
                 (len - wl == 7 && !strncmp(p + wl, "seedlin", 7))))
                return (int)v;
        }
    }
    return -1;
}

static void close_record(record_t *r, san_log_t *o) {
    if (!r->open) return;
    if (r->variant >= 0)
        (r->warning ? o->var_warnings : o->var_errors)[r->variant]++;
    else if (!r->warning)
        o->unattributed++;
    r->open = false;
}

/* "<digits>" at s: the number, or -1. */
static long leading_number(const char *s) {
    if (!isdigit((unsigned char)*s)) return -1;
    errno = 0;
    const long v = strtol(s, NULL, 10);
    return errno == ERANGE ? -1 : v;
}

/* A summary line: true when s is one (and then recorded). */
static bool summary_line(const char *s, san_log_t *o) {
    static const char err_sum[] = "ERROR SUMMARY: ", race_sum[] = "RACECHECK SUMMARY: ";
    if (!strncmp(s, race_sum, sizeof race_sum - 1)) {
        const char *p = s + sizeof race_sum - 1, *paren = strchr(p, '(');
        long hazards = leading_number(p), e = paren ? leading_number(paren + 1) : -1, w = -1;
        const char *comma = paren ? strchr(paren, ',') : NULL;
        if (comma) {
            comma++;
            while (*comma == ' ') comma++;
            w = leading_number(comma);
        }
        if (hazards < 0 || e < 0 || w < 0) return false; /* not the form documented: a plain record */
        o->summary = o->racecheck = true;
        o->errors = e;
        o->warnings = w;
        return true;
    }
    if (!strncmp(s, err_sum, sizeof err_sum - 1)) {
        const long n = leading_number(s + sizeof err_sum - 1);
        if (n < 0) return false;
        o->summary = true;
        if (!o->racecheck) o->errors = n; /* racecheck's own summary counts its hazards */
        return true;
    }
    return false;
}

static bool cannot_attach(const char *s, bool first_record) {
    return strstr(s, "Device not supported") || !strncmp(s, "Error: Failed to initialize", 27) ||
           (first_record && strstr(s, "(error 999)"));
}

void san_log_parse(const char *text, const char *const *variants, size_t n, san_log_t *o) {
    memset(o, 0, sizeof *o);
    if (n > SAN_MAX_VARIANTS) n = SAN_MAX_VARIANTS;
    record_t r = {false, false, -1};
    bool any_record = false;
    for (const char *line = text; line && *line;) {
        const char *nl = strchr(line, '\n');
        const size_t len = nl ? (size_t)(nl - line) : strlen(line);
        char buf[2048];
        snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), line);
        line = nl ? nl + 1 : NULL;
        size_t bl = strlen(buf);
        while (bl && (buf[bl - 1] == '\r' || buf[bl - 1] == ' ')) buf[--bl] = '\0';
        if (strncmp(buf, PREFIX, sizeof PREFIX - 1) != 0 || (buf[9] != ' ' && buf[9] != '\0')) {
            close_record(&r, o); /* the application's output ends a record */
            continue;
        }
        const char *s = buf + 9;
        if (*s == ' ' && s[1] == ' ') { /* an indented line of the current record */
            if (r.open && r.variant < 0) r.variant = variant_in(s, variants, n);
            continue;
        }
        while (*s == ' ') s++;
        close_record(&r, o);
        if (!*s) continue;
        if (!strcmp(s, "COMPUTE-SANITIZER")) {
            o->banner = true;
            continue;
        }
        if (summary_line(s, o)) continue;
        if (cannot_attach(s, !any_record)) o->unavailable = true;
        if (!o->first[0]) snprintf(o->first, sizeof o->first, "%.*s", (int)sizeof o->first - 1, s);
        any_record = true;
        r = (record_t){true, !strncmp(s, "Warning:", 8), variant_in(s, variants, n)};
    }
    close_record(&r, o);
}
