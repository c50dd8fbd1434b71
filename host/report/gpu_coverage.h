/* What has run on a GPU, variant by variant: for every variant of this checkout's registry
 * (kernels/variants.def), on each device of the committed campaigns, how many correctness checks
 * ran on the GPU and passed, at which head dimensions and masks, and in how many campaigns it was
 * timed; a variant no campaign ran says "never on a GPU". Emulated campaigns (ingested with
 * --allow-emulated) never count; the synthetic test fixture is marked. The paper's limitations
 * section includes it, so that what the GPU part does not cover is stated, not left to be noticed. */
#ifndef GPU_COVERAGE_H
#define GPU_COVERAGE_H

#include <stddef.h>

#include "gpu_campaigns.h"
#include "textbuf.h"

/* The coverage sentence and table, appended to b. */
void gpu_coverage(const gpu_data_t *g, rbuf_t *b);
/* OUT/gpu-coverage.md: gpu_coverage's text. 0 or -1 with err. */
int gpu_coverage_write(const gpu_data_t *g, const char *out, char *err, size_t n);

#endif
