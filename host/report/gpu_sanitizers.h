/* A campaign's compute-sanitizer section in the paper's GPU part (sanitizers.json): every variant
 * under memcheck, racecheck, synccheck and initcheck, with its reason where not run. */
#ifndef GPU_SANITIZERS_H
#define GPU_SANITIZERS_H

#include "gpu_campaigns.h"
#include "textbuf.h"

void gpu_sanitizers_section(const gpu_campaign_t *c, rbuf_t *b);

#endif
