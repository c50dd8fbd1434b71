/* Result tables of one experiment report (Markdown fragments in <run>/tables/):
 *   correctness.md  kernel-only matrix; end-to-end and legacy (labelled legacy) matrix
 *   cross.md        cross-variant bit-identity / bounded ULP differences
 *   performance.md  GPU timings, or a table labelled "emulated (CPU) timings, not GPU timings"
 *   ptxas.md        resources of this build beside the original's published values
 *   published.md    the original's published figures for this pair, and published vs reproduced */
#ifndef REPORT_RESULTS_H
#define REPORT_RESULTS_H

#include "report_buf.h"
#include "report_gates.h"
#include "report_run.h"

int table_correctness(report_t *r);
int table_cross(report_t *r);
int table_performance(report_t *r);
int table_ptxas(report_t *r);
int table_published(report_t *r, const gates_t *g);

/* Rows of the published timings (all when variant is NULL) under their header; for the paper. */
void published_timings_head(rbuf_t *b);
int published_timings(report_t *r, rbuf_t *b, const char *variant);

#endif
