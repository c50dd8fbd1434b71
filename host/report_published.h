/* Published figures of the original study in one experiment's report (see report_published.c). */
#ifndef REPORT_PUBLISHED_H
#define REPORT_PUBLISHED_H

#include "report_buf.h"
#include "report_gates.h"
#include "report_run.h"

/* tables/published.md: the pair's published timings, the claim, published vs reproduced. */
int table_published(report_t *r, const gates_t *g);
/* Rows of the published timings (all when variant is NULL) under their header; for the paper. */
void published_timings_head(rbuf_t *b);
int published_timings(report_t *r, rbuf_t *b, const char *variant);

#endif
