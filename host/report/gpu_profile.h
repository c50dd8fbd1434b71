/* A campaign's Nsight Compute profile in the paper's GPU part: profile.json (every variant at the
 * mission shape, with its legend and figure) or profile-gate.json (the Hopper line at stage 7f's
 * gate shape, followed by stage 7g's go/no-go). */
#ifndef GPU_PROFILE_H
#define GPU_PROFILE_H

#include "gpu_campaigns.h"
#include "textbuf.h"

void gpu_profile_section(const gpu_campaign_t *c, rbuf_t *b, unsigned figs, const cJSON *doc,
                         const char *stem);

#endif
