/* The paper's "Measured on GPUs" part: OUT/gpu.md (every committed campaign, per device: device
 * line, steps, stage history, verdicts, published versus reproduced, ceilings, scaling with the
 * peers, sanitizers, profile; or the statement that none is committed), OUT/gpu-figures.txt
 * ("<tag> <script>" per figure to draw, for mk/report.mk) and the figures' inputs
 * (gpu_figdata.h). Skipped and failed entries show their reason, never a number. */
#ifndef GPU_TABLES_H
#define GPU_TABLES_H

#include <stddef.h>

#include "gpu_campaigns.h"
#include "textbuf.h"

/* Appends campaign c's published-versus-reproduced table to b (paper.c owns that table). */
typedef int (*gpu_ratios_fn)(void *ctx, const gpu_campaign_t *c, rbuf_t *b);

int gpu_tables_write(const gpu_data_t *g, const char *out, gpu_ratios_fn ratios, void *ctx, char *err,
                     size_t n);

#endif
