/* libFuzzer harness: the ptxas -v log parser (ptxas_parse) on the input as a NUL-terminated log. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptxas/ptxas_log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *log = malloc(size + 1);
    if (!log) return 0;
    memcpy(log, data, size);
    log[size] = '\0';
    ptxas_kernel_t k[8];
    char err[512];
    int n = ptxas_parse(log, k, 8, err, sizeof err);
    if (n > 8) abort();
    for (int i = 0; i < n; i++) (void)ptxas_local_bytes(&k[i]);
    free(log);
    return 0;
}
