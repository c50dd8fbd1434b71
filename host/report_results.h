/* Result tables of one experiment report (Markdown fragments in <run>/tables/):
 *   correctness.md  kernel-only matrix; end-to-end and legacy (labelled legacy) matrix
 *   cross.md        cross-variant bit-identity / bounded ULP differences
 *   performance.md  GPU timings, or a table labelled "emulated (CPU) timings, not GPU timings"
 *   ptxas.md        resources of this build beside the original's published values
 * (the published figures themselves: report_published.h) */
#ifndef REPORT_RESULTS_H
#define REPORT_RESULTS_H

#include "report_gates.h"
#include "report_run.h"

int table_correctness(report_t *r);
int table_cross(report_t *r);
int table_performance(report_t *r);
int table_ptxas(report_t *r);

#endif
