/* A campaign's peers at the mission shape in the paper's GPU part (peers/<peer>-<shape>.json: the cuBLAS peer and
 * PyTorch's SDPA backends): each peer's median with its CI, its library, and the fastest stage of the
 * campaign's history at the same shape beside it, as a ratio; a peer not run with its reason. */
#ifndef GPU_PEERS_H
#define GPU_PEERS_H

#include "gpu_campaigns.h"
#include "textbuf.h"

/* 0, or -1 with the campaign's error buffer set (a peer file's field missing). */
int gpu_peers_section(const gpu_campaign_t *c, rbuf_t *b);
/* Whether a peer was timed at the mission shape in the campaign (a file of its peers/). */
bool gpu_peers_timed(const gpu_campaign_t *c);

#endif
