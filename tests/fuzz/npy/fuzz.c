/* libFuzzer harness: the .npy header reader (npy_read_header) on a file holding the input. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "npy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char path[256];
    if (!path[0])
        snprintf(path, sizeof path, "%s/fuzz-npy.%ld.npy",
                 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) abort();
    npy_header_t h;
    char err[512];
    if (npy_read_header(path, &h, err, sizeof err) == 0 && (h.ndim < 0 || h.ndim > 8)) abort();
    unlink(path);
    return 0;
}
