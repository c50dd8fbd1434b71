// fault.cpp: fault messages. One format everywhere, also kept for simt_last_error():
//   simt: FILE:LINE: WHAT (block (x,y,z), thread (x,y,z))
// A fault abandons the launch (the remaining blocks do not run) and makes it return non-zero;
// with SIMT_ABORT=1 it aborts instead, inside the faulting thread when there is one.
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

namespace simt::rt {

char last_error[2560];

static void vreport(Site at, const Fiber *who, const char *fmt, va_list ap) {
    char what[2048];
    vsnprintf(what, sizeof what, fmt, ap);
    snprintf(last_error, sizeof last_error, "simt: %s:%d: %s (block (%u,%u,%u), thread (%u,%u,%u))", at.file,
             at.line, what, block_idx.x, block_idx.y, block_idx.z, who->tid.x, who->tid.y, who->tid.z);
    fprintf(stderr, "%s\n", last_error);
    fflush(stderr);
    stats.faults++;
    B.faulted = true;
}

void fault(Site at, const char *fmt, ...) {
    Fiber *f = current();
    if (!f) {
        fprintf(stderr, "simt: %s:%d: a device function was called outside a kernel\n", at.file, at.line);
        abort();
    }
    va_list ap;
    va_start(ap, fmt);
    vreport(at, f, fmt, ap);
    va_end(ap);
    if (config.abort_on_fault) abort();
    leave(f);
}

void fault_waiting(Fiber *who, Site at, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vreport(at, who, fmt, ap);
    va_end(ap);
    if (config.abort_on_fault) {
        if (who->state == State::exited) abort(); // no stack left to show
        B.abort_in = who; // it aborts when its wait returns: a debugger shows its stack
        resume(who);
    }
}

void report_launch(const char *fmt, ...) {
    char what[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(last_error, sizeof last_error, "simt: launch: %s", what);
    fprintf(stderr, "%s\n", last_error);
    stats.faults++;
    if (config.abort_on_fault) abort();
}

} // namespace simt::rt
