/* Resource tables of one experiment report (Markdown fragments in <run>/tables/):
 *   ptxas.md        resources of this build beside the original's published values
 *   occupancy.md    CTAs per SM, limiter and waves of baseline and candidate on the device measured
 *                   (else modelled for the original's), and whether occupancy confounds the comparison
 * (the published figures themselves: published.h) */
#ifndef RESOURCE_TABLES_H
#define RESOURCE_TABLES_H

#include "gates.h"
#include "run.h"

int table_ptxas(report_t *r, const gates_t *g);
int table_occupancy(report_t *r, const gates_t *g);

#endif
