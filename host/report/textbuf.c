/* See textbuf.h. */
#include "textbuf.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"

static bool rb_reserve(rbuf_t *b, size_t extra) {
    if (b->oom) return false;
    if (b->len + extra + 1 <= b->cap) return true;
    size_t cap = b->cap ? b->cap : 1024;
    while (cap < b->len + extra + 1) cap *= 2;
    char *p = realloc(b->s, cap);
    if (!p) {
        b->oom = true;
        return false;
    }
    b->s = p;
    b->cap = cap;
    return true;
}

void rb_printf(rbuf_t *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !rb_reserve(b, (size_t)n)) {
        b->oom = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void rb_puts(rbuf_t *b, const char *s) { rb_printf(b, "%s", s); }

void rb_cell(rbuf_t *b, const char *s) {
    for (; s && *s; s++) {
        if (*s == '|')
            rb_puts(b, "\\|");
        else if (*s == '\n' || *s == '\r')
            rb_puts(b, " ");
        else
            rb_printf(b, "%c", *s);
    }
}

void rb_free(rbuf_t *b) {
    free(b->s);
    *b = (rbuf_t){0};
}

int rb_save(rbuf_t *b, const char *dir, const char *name, char *err, size_t errlen) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int rc = -1;
    if (b->oom) {
        snprintf(err, errlen, "%s: out of memory while generating", path);
    } else {
        char *slash = strrchr(path, '/');
        *slash = '\0';
        if (mkdir_p(path) != 0)
            snprintf(err, errlen, "%s: cannot create directory: %s", path, strerror(errno));
        else {
            *slash = '/';
            rc = file_write_replace(path, b->s ? b->s : "", b->len, err, errlen);
        }
    }
    rb_free(b);
    return rc;
}

const char *fmt_num(char *dst, size_t n, const char *fmt, double v) {
    if (!isfinite(v))
        snprintf(dst, n, "%s", NA_MARK);
    else
        snprintf(dst, n, fmt, v);
    return dst;
}

const char *fmt_bar(char *dst, size_t n, double v) {
    return fmt_num(dst, n, fabs(v * 100 - round(v * 100)) < 1e-9 ? "%.2f" : "%.6g", v);
}

const char *fmt_int(char *dst, size_t n, double v) {
    if (!isfinite(v) || v < 0) {
        snprintf(dst, n, "%s", NA_MARK);
        return dst;
    }
    char digits[32];
    snprintf(digits, sizeof digits, "%.0f", v);
    size_t len = strlen(digits), o = 0;
    for (size_t i = 0; i < len && o + 2 < n; i++) {
        if (i > 0 && (len - i) % 3 == 0) dst[o++] = ',';
        dst[o++] = digits[i];
    }
    dst[o] = '\0';
    return dst;
}

void md_table_head(rbuf_t *b, const md_col_t *cols, size_t ncols) {
    rb_puts(b, "\n|");
    for (size_t i = 0; i < ncols; i++) {
        rb_puts(b, " ");
        rb_cell(b, cols[i].header);
        rb_puts(b, " |");
    }
    rb_puts(b, "\n|");
    for (size_t i = 0; i < ncols; i++) {
        int w = cols[i].width < 3 ? 3 : cols[i].width;
        for (int k = 0; k < w - 1; k++) rb_puts(b, "-");
        rb_puts(b, cols[i].align == 'r' ? ":|" : "-|");
    }
    rb_puts(b, "\n");
}

void md_row(rbuf_t *b, size_t n, ...) {
    va_list ap;
    va_start(ap, n);
    rb_puts(b, "|");
    for (size_t i = 0; i < n; i++) {
        rb_puts(b, " ");
        rb_cell(b, va_arg(ap, const char *));
        rb_puts(b, " |");
    }
    va_end(ap);
    rb_puts(b, "\n");
}

void md_table_caption(rbuf_t *b, const char *id, const char *caption) {
    rb_printf(b, "\nTable: %s {#%s}\n\n", caption, id);
}

void md_table_end(rbuf_t *b, size_t at, const char *id, const char *caption, const char *none) {
    size_t lines = 0; /* the head is a blank line, the header row and the separator */
    for (size_t i = at; !b->oom && i < b->len; i++) lines += b->s[i] == '\n';
    if (!b->oom && lines <= 3) {
        b->len = at;
        b->s[at] = '\0';
        rb_printf(b, "\n%s\n\n", none);
        return;
    }
    md_table_caption(b, id, caption);
}
