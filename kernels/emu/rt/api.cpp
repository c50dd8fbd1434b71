// api.cpp: configuration from the environment and the C interface of simt.h.
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

namespace simt::rt {

Config config;
simt_stats_t stats;
extern char last_error[];

static uint64_t env_u64(const char *name, uint64_t dflt) {
    const char *v = getenv(name);
    return v && *v ? strtoull(v, nullptr, 0) : dflt;
}

void config_init() {
    static bool done;
    if (done) return;
    done = true;
    config.policy = SIMT_SCHED_FWD;
    const char *s = getenv("SIMT_SCHED");
    if (s && *s && simt_parse_schedule(s, &config.policy) != 0) {
        fprintf(stderr, "simt: SIMT_SCHED=%s: expected fwd, rev or rand\n", s);
        exit(2);
    }
    config.seed = env_u64("SIMT_SEED", 1);
    rng_seed(config.seed);
    config.abort_on_fault = (int)env_u64("SIMT_ABORT", 0);
    config.wmma_seed = env_u64("SIMT_WMMA_SEED", 0x5eed);
    wmma_init(config.wmma_seed);
    config.stack_bytes = (size_t)env_u64("SIMT_STACK_KB", 128) * 1024;
    // Where dynamic shared memory starts in the shared window: 0 by default (aligned to every
    // swizzle's repeat); a multiple of 16 below 4096 models a runtime that places it elsewhere (CUDA
    // promises 16 bytes), to test the kernels that need more (prims::smem_check_aligned).
    const char *o = getenv("SIMT_DYN_SMEM_OFFSET");
    char *end = nullptr;
    const bool given = o && *o;
    const uint64_t off = given && isdigit((unsigned char)*o) ? strtoull(o, &end, 10) : 0;
    if ((given && (!isdigit((unsigned char)*o) || *end)) || off % 16 != 0 || off >= 4096) {
        fprintf(stderr, "simt: SIMT_DYN_SMEM_OFFSET=%s: expected a decimal multiple of 16 below 4096\n", o);
        exit(2);
    }
    config.dyn_smem_offset = (uint32_t)off;
}

} // namespace simt::rt

// Every kernel object references the symbol of the flavour it was compiled for (simt_rt.h).
extern "C" const int SIMT_FLAVOUR_SYMBOL = 1;

using namespace simt::rt;

extern "C" {

void simt_set_schedule(simt_sched_t policy, uint64_t seed) {
    config_init();
    config.policy = policy;
    config.seed = seed;
    rng_seed(seed);
}

simt_sched_t simt_get_schedule(uint64_t *seed_out) {
    config_init();
    if (seed_out) *seed_out = config.seed;
    return config.policy;
}

static const char *const sched_names[] = {"fwd", "rev", "rand"};

int simt_parse_schedule(const char *name, simt_sched_t *out) {
    for (int i = 0; i < 3; i++)
        if (strcmp(name, sched_names[i]) == 0) {
            *out = (simt_sched_t)i;
            return 0;
        }
    return -1;
}

const char *simt_schedule_name(simt_sched_t policy) {
    return (unsigned)policy < 3 ? sched_names[policy] : "?";
}

const char *simt_last_error(void) { return last_error; }
void simt_clear_error(void) { last_error[0] = 0; }

void simt_set_abort_on_fault(int on) {
    config_init();
    config.abort_on_fault = on;
}

void simt_get_stats(simt_stats_t *out) { *out = stats; }
}
