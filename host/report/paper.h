/* sdpa-report paper: the whole-study fragments (see paper.c). */
#ifndef PAPER_H
#define PAPER_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "run.h"

int report_paper_main(int argc, char **argv);

/* Loads an experiment run directory that holds its summary.json (sdpa-report experiment): the
 * summary, then the run's files with the baseline and candidate the summary names. 0, or -1 with
 * err naming the file and field. */
int paper_load_run(report_t *r, cJSON **summary, const char *dir, const char *name, const char *published,
                   char *err, size_t n);

#endif
