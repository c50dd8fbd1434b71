/* Parser and gates for ptxas -v output (ptxas_log.h). */
#include "ptxas_log.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const ptxas_gates_t PTXAS_GATES = {128, 0, 0, 48 * 1024};

/* A number of the log, saturated at INT_MAX: no real ptxas figure comes near it, and the cap keeps
 * the sums of the gates (stack + lmem, spill stores + loads) from overflowing on a damaged log
 * (found by fuzzing: tests/fuzz/ptxas-log/corpus/regress-*). */
static long capped(const char *s) {
    long v = strtol(s, NULL, 10);
    return v > INT_MAX ? INT_MAX : v < 0 ? 0 : v;
}

/* The number just before `unit` on this line (e.g. "30976 bytes smem"), or -1. */
static long field_before(const char *line, const char *end, const char *unit) {
    size_t ul = strlen(unit);
    for (const char *p = line; p + ul <= end; ++p) {
        if (memcmp(p, unit, ul) != 0) continue;
        const char *q = p;
        while (q > line && q[-1] == ' ') --q;
        const char *digits_end = q;
        while (q > line && q[-1] >= '0' && q[-1] <= '9') --q;
        if (q == digits_end) continue;
        return capped(q);
    }
    return -1;
}

static int starts_with(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

int ptxas_parse(const char *log, ptxas_kernel_t *out, int max, char *err, size_t errlen) {
    int n = 0, lineno = 0;
    ptxas_kernel_t *cur = NULL;
    for (const char *line = log; *line;) {
        const char *end = strchr(line, '\n');
        if (!end) end = line + strlen(line);
        ++lineno;
        const char *body = line;
        while (body < end && (*body == ' ' || *body == '\t')) ++body;
        const char *entry = strstr(line, "Compiling entry function '");
        if (entry && entry < end) {
            if (n == max) {
                snprintf(err, errlen, "line %d: more than %d kernels", lineno, max);
                return -1;
            }
            cur = &out[n++];
            memset(cur, 0, sizeof *cur);
            cur->registers = cur->barriers = -1;
            cur->smem = cur->cmem0 = cur->lmem = cur->stack = cur->spill_stores = cur->spill_loads = -1;
            const char *name = entry + strlen("Compiling entry function '");
            const char *q = memchr(name, '\'', (size_t)(end - name));
            const char *arch = q ? strstr(q, "'sm_") : NULL;
            if (!q || !arch || arch > end || (size_t)(q - name) >= sizeof cur->kernel) {
                snprintf(err, errlen, "line %d: expected \"Compiling entry function 'NAME' for 'sm_NN'\"",
                         lineno);
                return -1;
            }
            memcpy(cur->kernel, name, (size_t)(q - name));
            cur->arch = (int)capped(arch + 4);
            /* the target as named ("sm_90a": architecture-specific code runs on sm_90 devices only) */
            const char *t = arch + 1, *tq = memchr(t, '\'', (size_t)(end - t));
            if (!tq || (size_t)(tq - t) >= sizeof cur->target) {
                snprintf(err, errlen, "line %d: expected \"Compiling entry function 'NAME' for 'sm_NN'\"",
                         lineno);
                return -1;
            }
            memcpy(cur->target, t, (size_t)(tq - t));
        } else if (cur && strstr(line, "bytes stack frame") && strstr(line, "bytes stack frame") < end) {
            cur->stack = field_before(body, end, " bytes stack frame");
            cur->spill_stores = field_before(body, end, " bytes spill stores");
            cur->spill_loads = field_before(body, end, " bytes spill loads");
        } else if (cur && starts_with(body, "ptxas info") && strstr(line, ": Used ") &&
                   strstr(line, ": Used ") < end) {
            cur->registers = (int)field_before(body, end, " registers");
            cur->barriers = (int)field_before(body, end, " barriers");
            cur->smem = field_before(body, end, " bytes smem");
            cur->cmem0 = field_before(body, end, " bytes cmem[0]");
            cur->lmem = field_before(body, end, " bytes lmem");
            if (cur->registers < 0) {
                snprintf(err, errlen, "line %d: \"Used\" line without a register count", lineno);
                return -1;
            }
        }
        line = *end ? end + 1 : end;
    }
    for (int i = 0; i < n; ++i)
        if (out[i].registers < 0) {
            snprintf(err, errlen, "kernel %s (sm_%d): no \"Used N registers\" line", out[i].kernel,
                     out[i].arch);
            return -1;
        }
    return n;
}

static long zero_if_absent(long v) { return v < 0 ? 0 : v; }

long ptxas_local_bytes(const ptxas_kernel_t *k) { return zero_if_absent(k->stack) + zero_if_absent(k->lmem); }

ptxas_gate_result_t ptxas_gate(const ptxas_kernel_t *k, const ptxas_gates_t *g) {
    ptxas_gate_result_t r;
    r.registers = k->registers <= g->max_registers;
    r.spills = zero_if_absent(k->spill_stores) + zero_if_absent(k->spill_loads) <= g->max_spill_bytes;
    r.local = ptxas_local_bytes(k) <= g->max_local_bytes;
    r.smem = zero_if_absent(k->smem) <= g->max_static_smem;
    r.pass = r.registers && r.spills && r.local && r.smem;
    return r;
}
