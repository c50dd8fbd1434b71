/* A campaign's scaling section in the paper's GPU part: the measured ceilings, the sweep of every
 * variant and peer over S (measured, or why not), the sampled-reference note, and its figures. */
#ifndef GPU_SCALING_H
#define GPU_SCALING_H

#include "gpu_campaigns.h"
#include "textbuf.h"

void gpu_scaling_section(const gpu_campaign_t *c, rbuf_t *b, unsigned figs);

#endif
