/* compute-sanitizer's text output, read as data: the summary (memcheck, synccheck, initcheck:
 * "ERROR SUMMARY: N errors"; racecheck: "RACECHECK SUMMARY: N hazards displayed (E errors, W
 * warnings)"), each reported record attributed to the variant whose kernel it names
 * (sdpa_<variant>_<codec>, kernels/stages.cu), and whether the tool could attach to the device at
 * all ("Error: Device not supported", "Failed to initialize ...", or cudaErrorUnknown (error 999)
 * before anything else). Every line the tool prints starts with "========= "; the application's
 * own output between them is ignored. */
#ifndef SANITIZER_LOG_H
#define SANITIZER_LOG_H

#include <stdbool.h>
#include <stddef.h>

#define SAN_MAX_VARIANTS 64

typedef struct {
    bool banner;      /* "COMPUTE-SANITIZER" was printed: the tool started */
    bool summary;     /* a summary line was found */
    bool racecheck;   /* ... and it was racecheck's */
    long errors;      /* from the summary */
    long warnings;    /* racecheck's warnings (0 for the other tools) */
    bool unavailable; /* the tool could not attach to the device */
    char first[256];  /* the first reported line (without the prefix), "" if none */
    long var_errors[SAN_MAX_VARIANTS], var_warnings[SAN_MAX_VARIANTS];
    long unattributed; /* error records in no listed variant's kernel (harness kernels, API calls) */
} san_log_t;

/* Parses text (NUL-terminated) for the n variant ids (n <= SAN_MAX_VARIANTS). */
void san_log_parse(const char *text, const char *const *variants, size_t n, san_log_t *out);

#endif
