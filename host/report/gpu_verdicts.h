/* The GPU part's opening table: every experiment's performance gate and verdict in every committed
 * campaign, grouped by experiment, so that a stage measured on two devices, or twice on one, reads
 * on adjacent rows (each campaign's own section has the gates in full). */
#ifndef GPU_VERDICTS_H
#define GPU_VERDICTS_H

#include "gpu_campaigns.h"
#include "textbuf.h"

/* Nothing when no campaign ran an experiment. */
void gpu_verdicts_across(const gpu_data_t *g, rbuf_t *b);

#endif
