/* Which throttle threshold a run uses (sampling.h: samples whose SM clock is under threshold x the
 * default clock are discarded). The default clock is the device's maximum (cudaDevAttrClockRate),
 * which a power-capped board does not hold under sustained load, so one fraction does not fit
 * every device: a small table keyed by the device name gives each known kind its own, with the
 * reason. In order of precedence: --throttle-threshold F; the environment's
 * SDPA_THROTTLE_THRESHOLD (how campaign.sh's --throttle-threshold reaches every sdpa-bench it
 * starts); the table; NVBench's 0.75. "auto" (the flag's default) means "not given". The value and
 * its source go into config.throttle_threshold and config.throttle_threshold_source. */
#ifndef THROTTLE_H
#define THROTTLE_H

#include <stddef.h>

#define THROTTLE_ENV "SDPA_THROTTLE_THRESHOLD"

typedef struct {
    const char *token; /* a word of the device name ("L4" matches "NVIDIA L4", not "NVIDIA L40S") */
    double threshold;
    const char *why;
} throttle_kind_t;

extern const throttle_kind_t throttle_kinds[];
extern const size_t throttle_kinds_count;

/* The table's row for a device name, or NULL. */
const throttle_kind_t *throttle_kind_for(const char *device_name);

/* "auto" -> NaN, or a fraction in [0, 1]; 0 or -1 (bad text). */
int throttle_parse(const char *text, double *out);

/* The threshold of a run: given (NaN: auto), env_value (NULL: unset), device_name (NULL: no
 * device). *threshold and source ("--throttle-threshold", "SDPA_THROTTLE_THRESHOLD", "device
 * table: ...", "default: ...") are set; -1 with err naming the variable when env_value is bad. */
int throttle_resolve(double given, const char *env_value, const char *device_name, double *threshold,
                     char *source, size_t srclen, char *err, size_t errlen);

#endif
