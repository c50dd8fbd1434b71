/* sdpa-report paper: the whole-study fragments (see paper.c). */
#ifndef PAPER_H
#define PAPER_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "run.h"

int report_paper_main(int argc, char **argv);

#endif
