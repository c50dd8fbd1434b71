// smem.cpp: shared memory. Static __shared__ variables are in the section simt_shared (its bounds
// come from the linker's __start_/__stop_ symbols); dynamic shared memory is allocated per launch
// with its exact size, so that AddressSanitizer puts a redzone right after it, 1024-byte aligned
// (the repeat of the 128-byte swizzle, whose XOR takes address bits) unless SIMT_DYN_SMEM_OFFSET
// moves it (a runtime may: CUDA promises 16 bytes). Both are filled with 0xFF
// before every block: NaN as f32, f16 and e4m3, so reading memory no thread of this block wrote
// shows up in the results.
//
// The async proxy's view (Hopper: TMA and wgmma read and write shared memory through it): a shadow
// copy of shared memory that only async-proxy writes (TMA) and fence.proxy.async update. A wgmma
// operand whose bytes differ from the shadow was written by ordinary stores that no fence published
// (W7). A fence publishes every thread's stores so far, not only its own, and takes effect lazily,
// at the next async-proxy read: more permissive than the hardware (README).
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "san.h"

extern "C" {
extern char __start_simt_shared[] __attribute__((weak));
extern char __stop_simt_shared[] __attribute__((weak));
}

namespace simt::rt {

static char *dyn, *dyn_alloc;
static size_t dyn_size;
static uint32_t dyn_window; // dynamic shared memory's window address (config.dyn_smem_offset)
static std::vector<char> shadow_static, shadow_dyn;
static bool fence_pending;

static bool inside(const void *p, size_t n, const char *lo, const char *hi) {
    return lo && (const char *)p >= lo && (const char *)p + n <= hi;
}

void smem_launch(size_t bytes) {
    dyn_size = bytes;
    dyn = dyn_alloc = nullptr;
    // At window address dyn_window, with the host address's low 10 bits the window address's (the
    // swizzles XOR them): the allocation starts on 1024 bytes and dyn lies dyn_window % 1024 into it.
    dyn_window = config.dyn_smem_offset;
    const size_t lead = dyn_window % 1024;
    if (bytes && posix_memalign((void **)&dyn_alloc, 1024, lead + bytes) != 0) abort();
    if (dyn_alloc) dyn = dyn_alloc + lead;
    if (dyn_alloc && lead) san::asan_poison(dyn_alloc, lead); // an underrun is still an ASan report
    shadow_dyn.assign(bytes, 0);
#if defined(SIMT_SMEM_SECTION)
    shadow_static.assign(__start_simt_shared ? (size_t)(__stop_simt_shared - __start_simt_shared) : 0, 0);
#endif
}

void smem_launch_end() {
    if (dyn_alloc && dyn > dyn_alloc) san::asan_unpoison(dyn_alloc, (size_t)(dyn - dyn_alloc));
    free(dyn_alloc);
    dyn = dyn_alloc = nullptr;
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
    if (!shadow_static.empty()) memset(shadow_static.data(), 0xff, shadow_static.size());
    if (!shadow_dyn.empty()) memset(shadow_dyn.data(), 0xff, shadow_dyn.size());
    fence_pending = false;
    B.n_async_reads = 0;
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

// ---- the async proxy's view ---------------------------------------------------------------------
// The shadow bytes of [p, p + n), or null when they are not known shared memory.
static char *shadow_of(const void *p, size_t n) {
#if defined(SIMT_SMEM_SECTION)
    if (inside(p, n, __start_simt_shared, __stop_simt_shared))
        return shadow_static.data() + ((const char *)p - __start_simt_shared);
#endif
    if (inside(p, n, dyn, dyn + dyn_size)) return shadow_dyn.data() + ((const char *)p - dyn);
    return nullptr;
}

// The shadow is the runtime's bookkeeping: hidden from ThreadSanitizer (internal.h).
void async_shadow_store(const void *p, size_t n) {
    if (char *s = shadow_of(p, n)) {
        san::ignore_begin();
        memcpy(s, p, n);
        san::ignore_end();
    }
}

void async_fence() { fence_pending = true; }

void async_check_read(Site at, const char *what, const void *p, size_t n, Fiber *who) {
    san::ignore_begin();
    if (fence_pending) {
        fence_pending = false;
#if defined(SIMT_SMEM_SECTION)
        if (!shadow_static.empty()) memcpy(shadow_static.data(), __start_simt_shared, shadow_static.size());
#endif
        if (dyn_size) memcpy(shadow_dyn.data(), dyn, dyn_size);
    }
    const char *s = shadow_of(p, n);
    const bool same = !s || memcmp(s, p, n) == 0;
    san::ignore_end();
    if (same) return;
    size_t i = 0;
    while (s[i] == ((const char *)p)[i]) i++;
    const char *msg =
        "%s reads shared memory at %p written by ordinary stores that no fence.proxy.async published "
        "to the async proxy (W7)";
    if (who)
        fault_waiting(who, at, msg, what, (const void *)((const char *)p + i));
    else
        fault(at, msg, what, (const void *)((const char *)p + i));
}

void async_check_overwrite(Site at, const char *what, uintptr_t lo, uintptr_t hi) {
    for (unsigned i = 0; i < B.n_async_reads; i++) {
        const AsyncRead &r = B.async_reads[i];
        if (lo < r.hi && r.lo < hi)
            fault(at, "%s writes shared memory [%p, %p) that the %s issued at %s:%d still reads (W6/T4)",
                  what, (void *)lo, (void *)hi, r.what, r.at.file, r.at.line);
    }
}

// ---- the shared window ------------------------------------------------------------------------------
// Dynamic shared memory at [dyn_window, dyn_window + dyn_size) (dyn_window 0 unless
// SIMT_DYN_SMEM_OFFSET says otherwise), static shared memory after it from its start rounded down to
// 1024 bytes, at an offset that is a multiple of 1024: the low 10 bits (those the swizzles XOR) are
// the host address's. Static shared memory is ordinary storage in the ASan build: not in it.
[[maybe_unused]] static uint32_t static_window_base() {
    return (uint32_t)((dyn_window + dyn_size + 1023) & ~(size_t)1023);
}

bool smem_window(const void *p, uint32_t *addr) {
    const char *c = (const char *)p;
    if (dyn && c >= dyn && c < dyn + dyn_size) {
        *addr = dyn_window + (uint32_t)(c - dyn);
        return true;
    }
#if defined(SIMT_SMEM_SECTION)
    if (__start_simt_shared && c >= __start_simt_shared && c < __stop_simt_shared) {
        const char *base = (const char *)((uintptr_t)__start_simt_shared & ~(uintptr_t)1023);
        *addr = static_window_base() + (uint32_t)(c - base);
        return true;
    }
#endif
    return false;
}

uint32_t smem_address(Site at, const void *p) {
    uint32_t a;
    if (!smem_window(p, &a))
        fault(at, "__cvta_generic_to_shared: %p is not shared memory%s", p,
#if defined(SIMT_SMEM_SECTION)
              ""
#else
              " (static shared memory is ordinary storage in this build: use dynamic shared memory, "
              "SMEM_DYNAMIC)"
#endif
        );
    if (a >= (1u << 18))
        fault(at, "__cvta_generic_to_shared: %p lies beyond the emulator's 256 KB shared window", p);
    return a;
}

void *smem_from_window(uint32_t addr, size_t n) {
    if (dyn && addr >= dyn_window && addr - dyn_window + n <= dyn_size) return dyn + (addr - dyn_window);
#if defined(SIMT_SMEM_SECTION)
    const uint32_t sb = static_window_base();
    if (__start_simt_shared && addr >= sb) {
        char *p = (char *)((uintptr_t)__start_simt_shared & ~(uintptr_t)1023) + (addr - sb);
        if (inside(p, n, __start_simt_shared, __stop_simt_shared)) return p;
    }
#endif
    return nullptr;
}

} // namespace simt::rt
