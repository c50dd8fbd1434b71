// smem.cpp: shared memory. Static __shared__ variables are in the section simt_shared (its bounds
// come from the linker's __start_/__stop_ symbols); dynamic shared memory is allocated per launch
// with its exact size, so that AddressSanitizer puts a redzone right after it. Both are filled
// with 0xFF before every block: NaN as f32, f16 and e4m3, so reading memory no thread of this
// block wrote shows up in the results.
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "san.h"

extern "C" {
extern char __start_simt_shared[] __attribute__((weak));
extern char __stop_simt_shared[] __attribute__((weak));
}

namespace simt::rt {

static char *dyn;
static size_t dyn_size;

static bool inside(const void *p, size_t n, const char *lo, const char *hi) {
    return lo && (const char *)p >= lo && (const char *)p + n <= hi;
}

void smem_launch(size_t bytes) {
    dyn_size = bytes;
    dyn = nullptr;
    if (bytes && posix_memalign((void **)&dyn, 128, bytes) != 0) abort();
}

void smem_launch_end() {
    free(dyn);
    dyn = nullptr;
    dyn_size = 0;
}

void smem_poison() {
    san::ignore_begin(); // the poison is not an access of any CUDA thread
#if defined(SIMT_SMEM_SECTION)
    if (__start_simt_shared)
        memset(__start_simt_shared, 0xff, (size_t)(__stop_simt_shared - __start_simt_shared));
#endif
    if (dyn) memset(dyn, 0xff, dyn_size);
    san::ignore_end();
}

void *dynamic_smem() { return dyn; }

bool is_shared(const void *p, size_t n, bool *known) {
#if defined(SIMT_SMEM_SECTION)
    *known = true;
    if (inside(p, n, __start_simt_shared, __stop_simt_shared)) return true;
#else
    *known = false; // static shared memory is ordinary storage in this build
#endif
    if (inside(p, n, dyn, dyn + dyn_size)) {
        *known = true;
        return true;
    }
    return false;
}

} // namespace simt::rt
