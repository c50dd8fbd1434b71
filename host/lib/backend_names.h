/* The backends a run may name, in one place: sdpa-bench's --backend (host/bench/backend.c, whose
 * backend_kind_t follows this order), the backend= of a run's parameters (sdpa-report params),
 * and through `sdpa-report params check backend=...` make's BACKEND (experiments/run.sh),
 * campaign.sh's --backend and a sweep file's backend. */
#ifndef BACKEND_NAMES_H
#define BACKEND_NAMES_H

#include <string.h>

#define BACKEND_NAMES                                                                                        \
    { "auto", "cuda", "emu" }
#define BACKEND_COUNT 3
#define BACKEND_NAMES_TEXT "auto, cuda or emu" /* for messages: what is accepted */

/* The index of name in BACKEND_NAMES, or -1. */
static inline int backend_name_index(const char *name) {
    static const char *const names[BACKEND_COUNT] = BACKEND_NAMES;
    for (int i = 0; name && i < BACKEND_COUNT; i++)
        if (strcmp(names[i], name) == 0) return i;
    return -1;
}

#endif
