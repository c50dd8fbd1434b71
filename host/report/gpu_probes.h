/* The paper's section on a campaign's hardware probes (probes/probes.json, kernels/probes): whether
 * the device put each wgmma and TMA element where the PTX ISA says, and what it did with the TMA
 * load the emulator refuses. */
#ifndef GPU_PROBES_H
#define GPU_PROBES_H

#include "gpu_campaigns.h"
#include "textbuf.h"

void gpu_probes_section(const gpu_campaign_t *c, rbuf_t *b);
/* The paper's sentences on what the probes have checked on a device, from which committed campaigns'
 * records hold which probe (the exponentials' probes came after the first campaigns):
 * gpu-exp-probes.md (stage 7g's section) and gpu-probes-limits.md (the limitations). Emulated
 * campaigns never count; the synthetic fixture is named as such. 0, or -1 with err set. */
int gpu_probes_write(const gpu_data_t *g, const char *out, char *err, size_t n);

#endif
