/* The paper's section on a campaign's correctness matrix (matrix/<file>.json, the campaign part
 * "matrix"): per file, the checks passed, the worst error against its bar, and the cross-variant
 * claims (bit-identical where the stages promise it, bounded otherwise) as the device met them. */
#ifndef GPU_MATRIX_H
#define GPU_MATRIX_H

#include "gpu_campaigns.h"
#include "textbuf.h"

void gpu_matrix_section(const gpu_campaign_t *c, rbuf_t *b);

#endif
