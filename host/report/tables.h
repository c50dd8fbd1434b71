/* Markdown fragments of one experiment report, written to <run>/tables/ and included by
 * paper/report.md (paper/filters/include.lua). Each function writes one file:
 *   banner.md       what kind of run this is (EMULATED prominently when so; a GPU seen but not used)
 *   gates.md        gate summary table and the verdict line
 *   verdict.md      verdict; for "merge deferred" the negative-result section
 *   environment.md  device, emulator, build, host and harness settings of both invocations
 *   reproduce.md    exact commands
 * (correctness_tables.h, perf_tables.h and resource_tables.h write the result tables, figures.h the
 * figure fragments and TSV.) */
#ifndef TABLES_H
#define TABLES_H

#include "textbuf.h"
#include "gates.h"
#include "run.h"

int table_banner(report_t *r, const gates_t *g);
int table_gates(report_t *r, const gates_t *g);
int table_verdict(report_t *r, const gates_t *g);
int table_environment(report_t *r, const gates_t *g);
int table_reproduce(report_t *r, const gates_t *g);
/* prereg.md: when this experiment's hypothesis and the bars that judge its variants were fixed,
 * and the first kernel each judged (PREREG_TSV, written from git by paper/prereg.sh). */
int table_prereg(report_t *r, const gates_t *g);

/* paper/prereg.sh's output, committed: kind, item, what, fixed, fixed_date, first_kernel,
 * kernel_date, order per line. */
#define PREREG_TSV "paper/prereg.tsv"
#define PREREG_COLS 8
typedef char prereg_row_t[PREREG_COLS][256];
/* Calls fn on every row of PREREG_TSV (kind "" matches all); 0, or -1 when the file cannot be read
 * (why in err). */
int prereg_each(const char *kind, void (*fn)(const prereg_row_t row, void *ctx), void *ctx, char *err,
                size_t n);
/* The bar family that judges a variant: "fp8p family", "stages 3b-5" or "fp16 family". */
const char *prereg_bar_family(const char *variant);

/* Shared by the fragment writers: "<run>/tables". */
int tables_save(report_t *r, rbuf_t *b, const char *name);
/* Latency in microseconds with a precision that suits its size (emulated samples are seconds). */
const char *fmt_us(char *dst, size_t n, double us);
/* The verdict rule on the speedup ratio's CI [lo, hi] for equivalence band eps (the comparison's
 * "epsilon", on the latency ratio t_new/t_base): one sentence for a caption, TeX math. */
const char *verdict_rule(char *dst, size_t n, double eps);
/* A fraction as a percentage, "1.3 %", or n/a. */
const char *fmt_pct(char *dst, size_t n, double x);
/* "[lo, hi]" with fmt, or n/a. */
const char *fmt_ci(char *dst, size_t n, const char *fmt, double lo, double hi);

#endif
