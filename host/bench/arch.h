/* Which devices a build can run on, decided before anything is launched, so that an old GPU gets
 * a sentence naming what it is and what the build carries instead of a wall of "failed
 * correctness" (a launch with no kernel image fails every variant).
 *
 * A build carries SASS for the architectures of CUDA_ARCHS and PTX of the newest (mk/kernels.mk).
 * A device of compute capability M.m runs it when the build has SASS for M.x with x <= m (binary
 * compatibility within a major version; sm_90a-style variants are not built here), or PTX for an
 * architecture <= M.m (the driver JIT-compiles it). Pure logic, tested with a table of devices. */
#ifndef ARCH_H
#define ARCH_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ARCH_MAX 16

typedef struct {
    int sass[ARCH_MAX]; /* e.g. 80, 89, 90 */
    size_t n_sass;
    int ptx; /* the PTX embedded (the newest of sass), 0 when none */
} arch_build_t;

/* Parses "80 89 90" (CUDA_ARCHS as make passes it); the PTX is the newest. 0, or -1 when the list
 * is empty or malformed. */
int arch_build_parse(const char *list, arch_build_t *out);
/* Whether the build runs on a device of capability cc (major*10+minor); when it does not, why
 * names the device's architecture and what the build has ("the device is sm_75; this build has
 * SASS for sm_80 sm_89 sm_90 and PTX for compute_90: rebuild with CUDA_ARCHS including 75"). */
bool arch_runnable(const arch_build_t *b, int cc, char *why, size_t whylen);
/* "8.9" -> 89; -1 when malformed. */
int arch_cc_from_string(const char *cc);

#ifdef __cplusplus
}
#endif

#endif
