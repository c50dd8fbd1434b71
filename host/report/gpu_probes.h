/* The paper's section on a campaign's hardware probes (probes/probes.json, kernels/probes): whether
 * the device put each wgmma and TMA element where the PTX ISA says, and what it did with the TMA
 * load the emulator refuses. */
#ifndef GPU_PROBES_H
#define GPU_PROBES_H

#include "gpu_campaigns.h"
#include "textbuf.h"

void gpu_probes_section(const gpu_campaign_t *c, rbuf_t *b);

#endif
