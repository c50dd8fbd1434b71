/* Correctness tables of one experiment report (Markdown fragments in <run>/tables/):
 *   correctness.md  kernel-only matrix; end-to-end and legacy (labelled legacy) matrix
 *   correctness-summary.md  the same per variant, beside the rounding model's prediction
 *   cross.md        cross-variant bit-identity / bounded ULP differences */
#ifndef CORRECTNESS_TABLES_H
#define CORRECTNESS_TABLES_H

#include "gates.h"
#include "run.h"

int table_correctness(report_t *r, const gates_t *g);
/* correctness-summary.md: one row per variant over every case (worst kernel-only and end-to-end
 * rel-L2 against their bars, max |err|, worst err/bar, lowest cosine) beside what the rounding model
 * of paper/methods.md predicts for its arithmetic (ROUNDING_MODEL_TSV, normal inputs). */
int table_correctness_summary(report_t *r, const gates_t *g);
#define ROUNDING_MODEL_TSV "paper/derivation/rounding-model.tsv"
int table_cross(report_t *r, const gates_t *g);

#endif
