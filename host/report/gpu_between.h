/* The same stage timed by several campaigns of one device: how far the medians of two processes
 * (minutes or days apart) lie from each other, against the 95 % interval each process gives its own
 * median, and whether the speedup ratios against the history's baseline agree better than the
 * absolute times. An interval describes the samples of one process; this is the measured run-to-run
 * spread it leaves out. Campaigns measured on a GPU only (never emulated, never the fixture). */
#ifndef GPU_BETWEEN_H
#define GPU_BETWEEN_H

#include <stddef.h>

#include "gpu_campaigns.h"
#include "textbuf.h"

/* The section "Between campaigns" of gpu.md: per device with two or more campaigns holding a stage
 * history, a row per variant, shape and L2 state that two or more of them timed. */
void gpu_between_section(const gpu_data_t *g, rbuf_t *b);
/* gpu-between-lead.md: one generated paragraph for the Limitations (what the spread is, or that no
 * device has two campaigns yet). 0, or -1 with err set. */
int gpu_between_write(const gpu_data_t *g, const char *out, char *err, size_t n);

#endif
