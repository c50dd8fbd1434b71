/* A campaign's mission-shape stage history in the paper's GPU part: the history table (median with
 * CI per variant and shape, speedup ratio and latency reduction against stage 0, named separately)
 * and its figures, the warm-L2 history, the A/A control, and the campaign's experiment verdicts. */
#ifndef GPU_HISTORY_H
#define GPU_HISTORY_H

#include "gpu_campaigns.h"
#include "textbuf.h"

int gpu_history_section(const gpu_campaign_t *c, rbuf_t *b, unsigned figs);
/* history-warm.json: the same history with warm L2, beside the cold one. */
void gpu_warm_section(const gpu_campaign_t *c, rbuf_t *b);
/* aa-control.json: stage 0 against itself, the spread a null effect shows. */
void gpu_aa_section(const gpu_campaign_t *c, rbuf_t *b);
/* Each experiment of the campaign: its performance gate and verdict (summary.json). */
void gpu_campaign_verdicts(const gpu_campaign_t *c, rbuf_t *b);

#endif
