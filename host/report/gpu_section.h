/* What every section of a campaign in the paper's GPU part shares: the test fixture's marks (every
 * table and figure of a test fixture says so in its caption, and its verdicts and timing labels in
 * their cells: a reader who lands on one table must not take it for a measurement) and the cells
 * of recorded numbers. */
#ifndef GPU_SECTION_H
#define GPU_SECTION_H

#include <stddef.h>

#include "gpu_campaigns.h"
#include "tables.h"
#include "textbuf.h"

#define GPU_FIXTURE_MARK "SYNTHETIC FIXTURE, NOT A MEASUREMENT: "

/* "SYNTHETIC " for a cell of the fixture, "" otherwise. */
const char *gpu_mark(const gpu_campaign_t *c);
/* A table's caption, after GPU_FIXTURE_MARK for the fixture. */
void gpu_caption(const gpu_campaign_t *c, rbuf_t *b, const char *id, const char *text);
/* The text to put before a figure's caption: GPU_FIXTURE_MARK for the fixture, "" otherwise. */
const char *gpu_fig_mark(const gpu_campaign_t *c);
/* A number field with its unit as text, "2040 MHz" ("not recorded" when absent or null). */
const char *gpu_num_or(char *dst, size_t n, const cJSON *o, const char *key, const char *unit);
/* A file's "library" object as "torch 2.11.0, cuda 13.0, cudnn 91900" (its string members in the
 * file's order) into dst; the length written, 0 when it has none (absent, not an object). */
size_t gpu_library_text(const cJSON *lib, char *dst, size_t n);
/* A JSON number node's value; NaN for anything else (null, missing). */
double gpu_node_num(const cJSON *x);

#endif
