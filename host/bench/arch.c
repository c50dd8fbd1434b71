/* Build-versus-device architecture check (arch.h). */
#include "arch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int arch_build_parse(const char *list, arch_build_t *out) {
    memset(out, 0, sizeof *out);
    const char *p = list ? list : "";
    while (*p) {
        while (*p == ' ') p++;
        if (!*p) break;
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 10 || v > 999 || out->n_sass == ARCH_MAX || (*end && *end != ' ')) return -1;
        out->sass[out->n_sass++] = (int)v;
        if (v > out->ptx) out->ptx = (int)v;
        p = end;
    }
    return out->n_sass ? 0 : -1;
}

int arch_cc_from_string(const char *cc) {
    int major, minor;
    char extra;
    if (!cc || sscanf(cc, "%d.%d%c", &major, &minor, &extra) != 2 || major < 1 || minor < 0 || minor > 9)
        return -1;
    return major * 10 + minor;
}

bool arch_runnable(const arch_build_t *b, int cc, char *why, size_t whylen) {
    for (size_t i = 0; i < b->n_sass; i++)
        if (b->sass[i] / 10 == cc / 10 && b->sass[i] <= cc) return true;
    if (b->ptx && b->ptx <= cc) return true;
    size_t n = (size_t)snprintf(why, whylen, "the device is sm_%d; this build has SASS for", cc);
    for (size_t i = 0; i < b->n_sass && n < whylen; i++)
        n += (size_t)snprintf(why + n, whylen - n, " sm_%d", b->sass[i]);
    if (n < whylen)
        snprintf(why + n, whylen - n,
                 " and PTX for compute_%d, none of which runs on it: rebuild with CUDA_ARCHS "
                 "including %d (make CUDA_ARCHS='%d ...')",
                 b->ptx, cc, cc);
    return false;
}
