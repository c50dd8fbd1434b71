/* A campaign's Nsight Compute profile in the paper's GPU part, by its file's stem: profile.json
 * (every variant at the mission shape, with its legend and figure), profile-gate.json (the Hopper
 * line at stage 7f's gate shape, followed by stage 7g's go/no-go), profile-gate-d128.json (at
 * stage 7j's gate shape, D = 128, followed by what 7j's failure reading takes from it) or
 * profile-gate-causal.json (at stage 7m's causal gate shape, followed by 7m's failure reading). */
#ifndef GPU_PROFILE_H
#define GPU_PROFILE_H

#include "gpu_campaigns.h"
#include "textbuf.h"

void gpu_profile_section(const gpu_campaign_t *c, rbuf_t *b, unsigned figs, const cJSON *doc,
                         const char *stem);

#endif
