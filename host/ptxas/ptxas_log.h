/* ptxas resource usage: parse `nvcc -Xptxas -v` logs, gate them, compute occupancy.
 * The log format (per kernel and architecture):
 *   ptxas info    : Compiling entry function 'NAME' for 'sm_89'
 *   ptxas info    : Function properties for NAME
 *       128 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
 *   ptxas info    : Used 88 registers, used 1 barriers, 30976 bytes smem, 428 bytes cmem[0]
 * Every field of the "Used" line is optional (sm_90 omits cmem[0]; "N bytes lmem" appears only when
 * local arrays exist), so each is parsed independently and a missing one is -1. */
#ifndef PTXAS_LOG_H
#define PTXAS_LOG_H

#include <stddef.h>

typedef struct {
    char kernel[128];
    int arch;        /* 89 for sm_89, 90 for sm_90a */
    char target[16]; /* the code ptxas compiled for, as it names it: "sm_89", "sm_90a" */
    int registers, barriers;
    long smem, cmem0, lmem, stack, spill_stores, spill_loads; /* bytes; -1 when absent */
} ptxas_kernel_t;

/* Parses a whole log. Returns the number of kernels found (<= max), or -1 on a malformed record
 * (message in err: the line number and what was expected). */
int ptxas_parse(const char *log, ptxas_kernel_t *out, int max, char *err, size_t errlen);

/* Local memory of a kernel: stack frame plus lmem (either may be absent = 0). */
long ptxas_local_bytes(const ptxas_kernel_t *k);

typedef struct {
    int max_registers;    /* 128 */
    long max_spill_bytes; /* 0 */
    long max_local_bytes; /* 0 */
    long max_static_smem; /* 48 KiB: the static shared memory limit per block */
} ptxas_gates_t;
extern const ptxas_gates_t PTXAS_GATES;
/* The register cap of a D = 128 instance (launch bounds of 256 threads per SM: kernels/config.cuh). */
#define PTXAS_MAX_REGISTERS_D128 255

typedef struct {
    int registers, spills, local, smem, pass;
} ptxas_gate_result_t;
ptxas_gate_result_t ptxas_gate(const ptxas_kernel_t *k, const ptxas_gates_t *g);

#endif
