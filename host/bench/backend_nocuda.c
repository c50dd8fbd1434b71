/* Stand-in for backend_cuda.cu in builds without nvcc: it links, says why CUDA is unavailable, and
 * can never be opened (backend_select only opens a backend whose probe succeeded). */
#include "backend.h"

#include <stdio.h>

static int nocuda_probe(const backend_options_t *opt, char *why, size_t whylen) {
    (void)opt;
    snprintf(why, whylen, "built without CUDA (nvcc not found at build time)");
    return 0;
}

const backend_ops_t backend_cuda_ops = {
    .name = "cuda",
    .timing = "gpu",
    .kernels = NULL,
    .probe = nocuda_probe,
};
