/* Stage 7g's go/no-go (paper/methods.md#prereg-stage7g): the XU (MUFU) pipe's share of stage 7f's
 * issue at its gate shape, read from a campaign's profile-gate.json; at least STAGE7G_GO_PCT says
 * go (build the polynomial exp2), below says no-go (the predicted negative result), no figure
 * leaves it open with the reason. The earliest campaign with a figure decides; the synthetic test
 * fixture never does. */
#ifndef GPU_STAGE7G_H
#define GPU_STAGE7G_H

#include <stddef.h>

#include "gpu_campaigns.h"
#include "textbuf.h"

#define STAGE7G_VARIANT "stage7f"
#define STAGE7G_METRIC "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active"
#define STAGE7G_GO_PCT 85.0 /* pre-registered in paper/methods.md, table row 7g */

typedef enum { STAGE7G_OPEN, STAGE7G_GO, STAGE7G_NO_GO } stage7g_t;

/* c's verdict; *pct its figure (NaN when open), why the reason when open. */
stage7g_t gpu_stage7g_verdict(const gpu_campaign_t *c, double *pct, char *why, size_t n);
/* Stage 7f's value of any metric in c's profile at the gate shape (the same checks as the verdict's
 * but the metric's), NaN when there is none. */
double gpu_stage7g_value(const gpu_campaign_t *c, const char *metric);
/* The paragraph under a campaign's profile at the gate shape. */
void gpu_stage7g_section(const gpu_campaign_t *c, rbuf_t *b);
/* gpu-stage7g.md, the paper's sentences on the decision over every committed campaign. 0 or -1
 * with err. */
int gpu_stage7g_write(const gpu_data_t *g, const char *out, char *err, size_t n);

#endif
