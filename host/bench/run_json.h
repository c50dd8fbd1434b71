/* The pieces of an sdpa-bench-run document (data/SCHEMA.md), one builder per block, each emitting
 * its fields in the schema's order so that equal content gives equal bytes. */
#ifndef RUN_JSON_H
#define RUN_JSON_H

#include <cjson/cJSON.h>

#include "backend.h"
#include "check.h"
#include "cli.h"
#include "roofline.h"
#include "stats.h"

typedef struct {
    const char *variant;
    const char *shape_name;
    sdpa_shape_t shape;
    uint64_t seed;
    const char *timing; /* "gpu" or "emulated" */
    const char *l2;     /* "cold" or "warm" */
    const double *samples_us;
    const double *clock_mhz; /* NULL: not measured (emulator) */
    size_t n;
    size_t discarded;
    const char *stop_reason;
    double wall_s;
    const backend_device_t *dev; /* NULL: no roofline (emulator) */
    roof_products_t products;    /* the tensor-core format of each product on dev (roofline.h) */
} timing_rec_t;

typedef struct {
    const char *baseline, *candidate, *shape_name, *timing;
    uint64_t seed;
    const double *base_us, *cand_us; /* paired by round */
    size_t rounds;
    const ab_result_t *ab; /* NULL when fewer than 2 rounds were kept */
} comparison_rec_t;

cJSON *bj_shape(const char *name, sdpa_shape_t s); /* SHAPE: {"name", "B", "H", "S", "D"} */
/* config.geometry (since 1.3.0): each variant's geometry per head dimension, from the kernel table
 * of the backend that runs it (a peer's entry has none). */
cJSON *bj_geometry(const sdpa_kernel_entry_t *const *run, size_t n_run);
/* throttle_threshold and its source: as resolved for the run (throttle.h). */
cJSON *bj_config(const cli_opts_t *o, const char *const *variants, size_t n_variants, size_t max_samples,
                 double throttle_threshold, const char *throttle_source);
cJSON *bj_device(const backend_device_t *d); /* sm_clock_measured_mhz starts null (bj_set_device_num) */
/* Replaces a number of the DEVICE block known only at the end of the run (sm_clock_measured_mhz,
 * sm_clock_end_mhz); NaN is written as null. */
void bj_set_device_num(cJSON *device, const char *key, double v);
cJSON *bj_emulator(const backend_emulator_t *e);
cJSON *bj_correctness(const problem_t *p, const check_t *c);
cJSON *bj_cross(const problem_t *p, const cross_t *x);
cJSON *bj_timing(const timing_rec_t *t);
cJSON *bj_comparison(const comparison_rec_t *c);
cJSON *bj_not_timed(const char *variant, const char *reason);
/* Marks a CORRECTNESS or TIMING entry as a peer's (peers.h): "peer": true and "library" (e.g.
 * "cuBLAS 13.1.0"), appended after the entry's own fields; variants' entries have neither. */
void bj_peer_fields(cJSON *entry, const char *library);

#endif
