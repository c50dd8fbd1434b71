/* simt.h: the C interface of the CPU SIMT emulator (kernels/emu/README.md).
 *
 * Kernels are launched from C++ (simt::launch, or SDPA_LAUNCH in kernels/prims.cuh) inside an
 * extern "C" launcher; this header is what C code (test drivers, sdpa-bench) needs around those
 * launchers: the scheduling policy, the last fault message, counters. Plain C, no CUDA types. */
#ifndef SIMT_H
#define SIMT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Order in which runnable CUDA threads are resumed between rendezvous points (barriers, warp
 * collectives). A correct kernel gives identical results under every policy. The initial policy
 * comes from SIMT_SCHED=fwd|rev|rand and SIMT_SEED=N (default fwd, seed 1). */
typedef enum {
    SIMT_SCHED_FWD = 0,  /* ascending linear thread index */
    SIMT_SCHED_REV = 1,  /* descending */
    SIMT_SCHED_RAND = 2, /* a fresh pseudo-random permutation every round, from the seed */
} simt_sched_t;

/* Sets the policy; the seed (used by SIMT_SCHED_RAND) restarts the random sequence. */
void simt_set_schedule(simt_sched_t policy, uint64_t seed);
simt_sched_t simt_get_schedule(uint64_t *seed_out /* may be NULL */);
/* "fwd" | "rev" | "rand" -> policy; returns 0 on success, -1 for an unknown name. */
int simt_parse_schedule(const char *name, simt_sched_t *out);
const char *simt_schedule_name(simt_sched_t policy);

/* The last fault, formatted as printed on stderr but without the trailing newline:
 * "simt: FILE:LINE: WHAT (block (x,y,z), thread (x,y,z))". "" when there was none since the
 * start or the last simt_clear_error(). The pointer stays valid until the next launch. */
const char *simt_last_error(void);
void simt_clear_error(void);

/* Non-zero: a fault aborts the process (in the faulting thread's context when possible) instead
 * of abandoning the launch; for a debugger. Initialised from SIMT_ABORT. */
void simt_set_abort_on_fault(int on);

typedef struct {
    uint64_t launches;    /* simt::launch calls */
    uint64_t blocks;      /* blocks run to completion */
    uint64_t switches;    /* fiber context switches (a resume and a yield count two) */
    uint64_t barriers;    /* __syncthreads released */
    uint64_t collectives; /* warp collectives completed (shuffles, votes, WMMA, __syncwarp) */
    uint64_t faults;      /* faults detected */
} simt_stats_t;

void simt_get_stats(simt_stats_t *out);

#ifdef __cplusplus
}
#endif

#endif
