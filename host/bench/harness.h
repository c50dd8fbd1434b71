/* One sdpa-bench invocation after parsing: correctness of every variant on every (shape, seed),
 * cross-variant comparisons, then timing of the variants that passed (or all, with --force),
 * interleaved against the baseline with --vs. Results accumulate in the JSON document; a
 * human-readable summary goes to stdout and progress to stderr (unless --quiet). */
#ifndef HARNESS_H
#define HARNESS_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "backend.h"
#include "cli.h"
#include "peers.h"

#define HARNESS_MAX_RUN (CLI_MAX_VARIANTS + CLI_MAX_PEERS + 1)

typedef struct {
    const cli_opts_t *opt;
    backend_t *be;
    const sdpa_kernel_entry_t *run[HARNESS_MAX_RUN]; /* the baseline first (with --vs), then the variants,
                                                      * then the peers (peers.h: their entry) */
    peer_session_t *peer[HARNESS_MAX_RUN];           /* run[i]'s peer session; NULL for a variant */
    size_t n_run;
    bool passed[HARNESS_MAX_RUN]; /* every correctness check of run[i] passed */
    bool any_failed;              /* some correctness or cross-variant check failed */
    bool have_device;
    backend_device_t dev;
    double throttle;           /* the threshold in use (throttle.h: flag, environment, device table) */
    char throttle_source[512]; /* where it came from */
    /* the document's arrays (owned by the document) */
    cJSON *correctness, *cross, *timing, *comparisons, *not_timed, *not_supported;
    double *clocks; /* every kept sample's SM clock, for sm_clock_measured_mhz */
    size_t n_clocks, cap_clocks;
    char err[1024];
} harness_t;

/* Both return 0, EXIT_USAGE (2) or EXIT_RUNTIME (3) with h->err. */
int harness_correctness(harness_t *h);
int harness_timing(harness_t *h);
/* Median SM clock over every kept sample (NaN if none was measured). */
double harness_measured_clock(const harness_t *h);
void harness_free(harness_t *h);

#endif
