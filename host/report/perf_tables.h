/* The timing table of one experiment report: <run>/tables/performance.md, GPU timings (with the
 * throughput and roofline table) or a table labelled "emulated (CPU) timings, not GPU timings". */
#ifndef PERF_TABLES_H
#define PERF_TABLES_H

#include "gates.h"
#include "run.h"

int table_performance(report_t *r, const gates_t *g);

#endif
