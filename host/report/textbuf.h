/* Growable text buffers for sdpa-report's generated files (Markdown, TSV, YAML, gnuplot
 * variables), number formatting with an explicit "not available" mark, and Markdown tables whose
 * column widths survive into pandoc's LaTeX output (relative widths come from the dashes of the
 * separator line once a row is wider than pandoc's --columns). */
#ifndef TEXTBUF_H
#define TEXTBUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char *s;
    size_t len, cap;
    bool oom; /* an allocation failed: rb_save refuses to write a truncated file */
} rbuf_t;

void rb_printf(rbuf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rb_puts(rbuf_t *b, const char *s);
/* Markdown-safe cell text: '|' escaped, newlines folded to spaces. */
void rb_cell(rbuf_t *b, const char *s);
void rb_free(rbuf_t *b);
/* Writes dir/name (replacing a previous derived file atomically) and frees the buffer.
 * Returns 0, or -1 with "<path>: <reason>" in err. */
int rb_save(rbuf_t *b, const char *dir, const char *name, char *err, size_t errlen);

/* A number for a table: NaN (JSON null) prints NA_MARK. fmt is a printf double format. */
#define NA_MARK "n/a"
const char *fmt_num(char *dst, size_t n, const char *fmt, double v);
/* A gate's bar as the experiment gives it: two decimals ("1.10"), more where two would round it
 * (GATE_SPEEDUP 0.9524, 1/1.05, is not "0.95"). */
const char *fmt_bar(char *dst, size_t n, double v);
/* Thousands separators for byte counts ("37,120"); negative or NaN prints NA_MARK. */
const char *fmt_int(char *dst, size_t n, double v);

/* Markdown pipe tables. widths are relative column widths (dashes in the separator line). */
typedef struct {
    const char *header;
    int width;
    char align; /* 'l' or 'r' */
} md_col_t;
void md_table_head(rbuf_t *b, const md_col_t *cols, size_t ncols);
/* One row of n cells (const char *), each escaped with rb_cell. */
void md_row(rbuf_t *b, size_t n, ...);
/* Caption line after the table; id (e.g. "tbl:gates") is numbered by paper/filters/numbering.lua. */
void md_table_caption(rbuf_t *b, const char *id, const char *caption);
/* Ends the table whose head md_table_head wrote at offset `at` of b: its caption when it has a row;
 * else the head is taken back and `none` (a sentence: "None published.") stands in its place, so
 * that no table is ever printed with headers only. */
void md_table_end(rbuf_t *b, size_t at, const char *id, const char *caption, const char *none);

/* TRY for writers that own a buffer named b: frees it before propagating the failure. */
#define TRY_B(x)                                                                                             \
    do {                                                                                                     \
        if ((x) < 0) {                                                                                       \
            rb_free(&b);                                                                                     \
            return -1;                                                                                       \
        }                                                                                                    \
    } while (0)

#endif
