/* The campaign parts of each device in the paper's GPU part: which parts came from which
 * campaign, which are still missing, and the INTERRUPTED mark of a campaign that was stopped
 * before its plan's end (campaign.json "interrupted", "parts_planned", "parts_completed"; a later
 * campaign of the same device adds the parts it lacked). A campaign without those fields ran its
 * "parts" (empty: every part of its bundle) to the end. */
#ifndef GPU_PARTS_H
#define GPU_PARTS_H

#include <stdbool.h>

#include "gpu_campaigns.h"
#include "textbuf.h"

/* Whether the campaign planned a part: "history", "probes", ...; "scaling" also for a slice
 * (scaling:S1,...), "experiment:" for any experiment. A campaign without a plan planned all. */
bool gpu_campaign_plans(const gpu_campaign_t *c, const char *part);
/* For a campaign that planned only some parts (campaign.sh --part): one sentence naming them, since
 * the sections of the others are left out. Nothing for a full campaign. */
void gpu_parts_only(const gpu_campaign_t *c, rbuf_t *b);
/* The INTERRUPTED banner of a stopped campaign (nothing for one that ran to its end). */
void gpu_parts_banner(const gpu_campaign_t *c, rbuf_t *b);
/* Before the first campaign of a device (campaigns are sorted by slug): the device's parts table,
 * each part with the campaign(s) that completed it, or missing with the campaign that planned it. */
void gpu_parts_table(const gpu_data_t *g, int i, rbuf_t *b);

#endif
