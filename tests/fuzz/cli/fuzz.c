/* libFuzzer harness: sdpa-bench's command line (cli_parse, no side effects). The input is split at
 * NUL bytes into argv[1..]; argv[0] is the program name. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench/backend.h"
#include "bench/cli.h"

/* The emulator backend is not linked (cli_parse only names backends). */
const backend_ops_t backend_emu_ops;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    enum { MAX_ARGS = 128 };
    char *buf = malloc(size + 1), *argv[MAX_ARGS + 1];
    if (!buf) return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    int argc = 0;
    argv[argc++] = "sdpa-bench";
    for (size_t i = 0; i < size && argc < MAX_ARGS; i += strlen(buf + i) + 1) argv[argc++] = buf + i;
    argv[argc] = NULL;
    static cli_opts_t o;
    char err[2048];
    (void)cli_parse(argc, argv, &o, err, sizeof err);
    free(buf);
    return 0;
}
