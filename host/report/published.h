/* Published figures of the original study in one experiment's report (see published.c). */
#ifndef PUBLISHED_H
#define PUBLISHED_H

#include "textbuf.h"
#include "gates.h"
#include "run.h"

/* The reproduced speedup ratio and latency reduction of comparison cmp (of the timing document)
 * as table cells, "1.161 [1.150, 1.172]" and "13.8 % [12.9 %, 14.6 %]"; emulated comparisons read
 * "not evaluated: <why>" in both, and x (the six numbers) is NaN. *kind: the comparison's timing.
 * 0, or -1 with r->err set. */
int published_speedup_cells(const report_t *r, int cmp, char *sp, char *lr, size_t n, double x[6],
                            const char **kind);
/* The index of the original study's claim for `experiment` in the published figures' "claims"
 * (data/published/seed-l4.json), or -1 when it made none. */
int published_find_claim(const cJSON *published, const char *experiment);
/* tables/published.md: the pair's published timings, the claim, published vs reproduced. */
int table_published(report_t *r, const gates_t *g);
/* Rows of the published timings (all when variant is NULL) under their header; for the paper. */
void published_timings_head(rbuf_t *b);
int published_timings(report_t *r, rbuf_t *b, const char *variant);

#endif
