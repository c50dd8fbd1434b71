/* Inputs of the GPU figures of the paper (figures/scaling.gp, roofline.gp, ecdf.gp, profile.gp),
 * per campaign, into OUT/gpu/<tag>/: scaling.tsv, roofline.tsv, ecdf.tsv, profile.tsv and
 * plot-vars.gp (roofline-measured.tsv: the profiled variants by measured DRAM bytes). Only figures with data are listed: *figs gets one GPU_FIG_* bit per figure. */
#ifndef GPU_FIGDATA_H
#define GPU_FIGDATA_H

#include <stddef.h>

#include "gpu_campaigns.h"

enum { GPU_FIG_SCALING = 1, GPU_FIG_ROOFLINE = 2, GPU_FIG_ECDF = 4, GPU_FIG_PROFILE = 8 };
#define GPU_FIG_COUNT 4
/* Script name of figure k (0 .. GPU_FIG_COUNT-1): "scaling", "roofline", "ecdf", "profile". */
const char *gpu_fig_name(int k);

/* The profile's DRAM traffic ("dram__bytes.sum", else the sum of "dram__bytes_read.sum" and
 * "dram__bytes_write.sum"), or NULL: with it the roofline also places the history's variants at the
 * profile's shape by their measured DRAM bytes. */
const char *gpu_dram_metric(const gpu_campaign_t *c);

/* The exponentials' roof of the roofline (TFLOP/s; NaN when unknown): the MUFU's rate (the device's
 * peak_exp2_tps, or for files before schema 1.5.0 the same model from its cc, SM count and default
 * clock: host/bench/roofline.h) times 4 D FLOPs per exponential, for a sweep of one head dimension
 * D. A model, not a measurement; *D and *rate_tps (10^12/s) say what it was computed from. */
double gpu_exp2_roof(const gpu_campaign_t *c, double *D, double *rate_tps);

int gpu_figdata_write(const gpu_campaign_t *c, const char *out, unsigned *figs, char *err, size_t n);

#endif
