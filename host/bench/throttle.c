/* The throttle threshold per device kind (throttle.h). */
#include "throttle.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sampling.h"

/* Device kinds with a threshold of their own. The figures are choices, not measurements of this
 * project: the first campaign on each kind records every kept sample's clock, against which they
 * are to be revisited. */
const throttle_kind_t throttle_kinds[] = {
    {"L4", 0.5,
     "power-capped at 72 W: under sustained tensor load its clock is expected under 75 % of the 2040 MHz "
     "maximum in normal operation (its FP16 GEMM rate was measured at 43-59 % of peak, "
     "zzc0721/torch-performance-test-data#120), so 0.75 would discard normal samples; 0.5 still "
     "catches a thermal or power brake"},
    {"H100", BENCH_DEFAULT_THROTTLE,
     "NVBench's default, for a 350-700 W board with no known reason to differ"},
    {"H200", BENCH_DEFAULT_THROTTLE, "NVBench's default, for a 700 W board with no known reason to differ"},
};
const size_t throttle_kinds_count = sizeof throttle_kinds / sizeof throttle_kinds[0];

static bool word_boundary(char c) { return c == '\0' || c == ' ' || c == '-' || c == '_' || c == '('; }

const throttle_kind_t *throttle_kind_for(const char *name) {
    for (size_t i = 0; name && i < throttle_kinds_count; i++) {
        const size_t n = strlen(throttle_kinds[i].token);
        for (const char *p = strstr(name, throttle_kinds[i].token); p;
             p = strstr(p + 1, throttle_kinds[i].token))
            if ((p == name || word_boundary(p[-1])) && word_boundary(p[n])) return &throttle_kinds[i];
    }
    return NULL;
}

int throttle_parse(const char *text, double *out) {
    if (strcmp(text, "auto") == 0) {
        *out = NAN;
        return 0;
    }
    char *end;
    errno = 0;
    const double v = strtod(text, &end);
    if (errno || end == text || *end || !isfinite(v) || v < 0.0 || v > 1.0) return -1;
    *out = v;
    return 0;
}

int throttle_resolve(double given, const char *env_value, const char *device_name, double *threshold,
                     char *source, size_t srclen, char *err, size_t errlen) {
    double env = NAN;
    if (env_value && *env_value && throttle_parse(env_value, &env) != 0) {
        snprintf(err, errlen, "%s=%s: accepted: auto, or a fraction of the default SM clock, 0 (off) to 1",
                 THROTTLE_ENV, env_value);
        return -1;
    }
    const throttle_kind_t *k = throttle_kind_for(device_name);
    if (!isnan(given)) {
        *threshold = given;
        snprintf(source, srclen, "--throttle-threshold");
    } else if (!isnan(env)) {
        *threshold = env;
        snprintf(source, srclen, "%s (campaign.sh --throttle-threshold)", THROTTLE_ENV);
    } else if (k) {
        *threshold = k->threshold;
        snprintf(source, srclen, "device table (host/bench/throttle.c), %s: %s", k->token, k->why);
    } else {
        *threshold = BENCH_DEFAULT_THROTTLE;
        snprintf(source, srclen, "default: NVBench's %g (%s)", BENCH_DEFAULT_THROTTLE,
                 device_name ? "device not in the table" : "no device: no clock to judge");
    }
    return 0;
}
