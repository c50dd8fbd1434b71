/* Backend selection and the small helpers every backend shares (names, clock, pause). */
#include "backend.h"
#include "backend_names.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static const char *const kind_names[BACKEND_COUNT] = BACKEND_NAMES;
_Static_assert(BACKEND_EMU + 1 == BACKEND_COUNT, "backend_kind_t follows BACKEND_NAMES (backend_names.h)");
static const char *const sched_names[] = {"fwd", "rev", "rand"};

static int index_of(const char *const *names, int n, const char *name) {
    for (int i = 0; name && i < n; i++)
        if (strcmp(names[i], name) == 0) return i;
    return -1;
}

const char *backend_kind_name(backend_kind_t kind) {
    return (unsigned)kind < BACKEND_COUNT ? kind_names[kind] : "?";
}

int backend_kind_from_name(const char *name, backend_kind_t *out) {
    const int i = backend_name_index(name);
    if (i < 0) return -1;
    *out = (backend_kind_t)i;
    return 0;
}

const char *emu_schedule_name(emu_schedule_t s) { return (unsigned)s < 3 ? sched_names[s] : "?"; }

int emu_schedule_from_name(const char *name, emu_schedule_t *out) {
    const int i = index_of(sched_names, 3, name);
    if (i < 0) return -1;
    *out = (emu_schedule_t)i;
    return 0;
}

double backend_now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void backend_pause_s(double seconds) {
    if (!(seconds > 0)) return;
    struct timespec req = {(time_t)seconds, (long)((seconds - floor(seconds)) * 1e9)}, rem;
    while (nanosleep(&req, &rem) != 0 && errno == EINTR) req = rem;
}

const sdpa_kernel_entry_t *backend_kernels(backend_kind_t kind) {
    const backend_ops_t *ops = kind == BACKEND_CUDA ? &backend_cuda_ops : &backend_emu_ops;
    return ops->kernels ? ops->kernels() : NULL;
}

static int open_ops(const backend_ops_t *ops, const backend_options_t *opt, backend_t *out, char *err,
                    size_t errlen) {
    out->ops = ops;
    out->self = ops->open(opt, err, errlen);
    return out->self ? 0 : 3;
}

bool backend_gpu_visible(const char *dev_dir) {
    DIR *d = opendir(dev_dir);
    if (!d) return false;
    bool seen = false;
    for (struct dirent *e; !seen && (e = readdir(d)) != NULL;)
        seen = strncmp(e->d_name, "nvidia", 6) == 0 && e->d_name[6] >= '0' && e->d_name[6] <= '9';
    closedir(d);
    return seen;
}

int backend_select(backend_kind_t kind, const backend_options_t *opt, backend_t *out, char *err,
                   size_t errlen) {
    char why[512] = "";
    memset(out, 0, sizeof *out);
    if (kind == BACKEND_EMU) return open_ops(&backend_emu_ops, opt, out, err, errlen);
    if (backend_cuda_ops.probe(opt, why, sizeof why))
        return open_ops(&backend_cuda_ops, opt, out, err, errlen);
    if (kind == BACKEND_CUDA) {
        snprintf(err, errlen, "--backend cuda: %s; use --backend emu (or auto) for the CPU emulator", why);
        return 2;
    }
    /* auto: the fallback is announced whatever --quiet says; the reason follows on its own line,
     * and is kept for the end of the run and the result file. */
    const char *dev_dir = getenv("SDPA_DEV_DIR");
    out->fell_back = true;
    out->gpu_visible = backend_gpu_visible(dev_dir && *dev_dir ? dev_dir : "/dev");
    snprintf(out->fallback_reason, sizeof out->fallback_reason, "%s", why);
    fprintf(stderr, "%s\n", BACKEND_FALLBACK_MSG);
    fprintf(stderr, "sdpa-bench: (CUDA unavailable: %s)\n", why);
    return open_ops(&backend_emu_ops, opt, out, err, errlen);
}

void backend_close(backend_t *b) {
    if (b->ops && b->self) b->ops->close(b->self);
    b->ops = NULL;
    b->self = NULL;
}
