/* Inputs of the figures (figures/NAME.gp) and the Markdown that places them in the report.
 * In the run directory:
 *   samples-<variant>-<shape>.tsv   sorted samples and their ECDF (latency.gp)
 *   speedup.tsv                     speedup with CI per compared shape, and the gate (speedup.gp)
 *   correctness.tsv                 errors per case and variant (correctness.gp)
 *   ptxas.tsv                       registers and shared memory, this build and published (ptxas.gp)
 *   plot-vars.gp                    gnuplot variables: labels, budgets, the EMULATED flag
 * and tables/fig-{latency,speedup,correctness,ptxas}.md with captions naming backend and device.
 * Image paths use the {figdir} placeholder, resolved by paper/filters/include.lua. */
#ifndef FIGURES_H
#define FIGURES_H

#include "textbuf.h"
#include "gates.h"
#include "run.h"

int figs_write(report_t *r, const gates_t *g);

/* Appends `name = "value"` as a gnuplot assignment (escapes \ and "); shared with the paper mode. */
void gp_assign_str(rbuf_t *b, const char *name, const char *value);

#endif
