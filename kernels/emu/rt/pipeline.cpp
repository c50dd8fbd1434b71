// pipeline.cpp: cp.async with deferred copies (simt_pipeline.h explains why they are deferred).
//
// Under ThreadSanitizer the copies land in a separate TSan fiber, the thread's copy engine, which
// is ordered after the issue (group sync objects) and before the rest of the thread after the
// wait (sync_landed), but not after anything else: a read not ordered after the wait - a missing
// wait, a wait that leaves the group in flight, a missing barrier after the wait - races with the
// landing copy and is reported at the reading line.
#include <string.h>

#include "internal.h"
#include "san.h"

namespace simt::rt {

void cp_async(Site at, void *dst, const void *src, size_t size, size_t zfill) {
    Fiber *f = current();
    if (size != 4 && size != 8 && size != 16)
        fault(at, "__pipeline_memcpy_async: size %zu (must be 4, 8 or 16)", size);
    if (zfill > size) fault(at, "__pipeline_memcpy_async: zfill %zu exceeds the size %zu", zfill, size);
    if (((uintptr_t)dst | (uintptr_t)src) & (size - 1))
        fault(at, "__pipeline_memcpy_async: dst %p and src %p must be aligned to the size %zu", dst, src,
              size);
    bool known;
    if (is_shared(src, size, &known))
        fault(at, "__pipeline_memcpy_async: source %p is shared memory (cp.async copies global to shared)",
              src);
    if (known && !is_shared(dst, size, &known))
        fault(at, "__pipeline_memcpy_async: destination %p is not shared memory", dst);
    san::write_range(dst, size);
    memset(dst, 0xff, size); // undefined until the wait: poison (NaN in f32, f16 and e4m3)
    san::release(&f->sync_group[f->group % 16]);
    f->copies.push_back(Copy{dst, src, (uint32_t)size, (uint32_t)zfill, f->group, at});
}

void cp_commit(Site) { current()->group++; }

void cp_wait_prior(Site, size_t prior) {
    Fiber *f = current();
    // The toolkit waits for 8 groups at most (cp.async.wait_group with N capped at 8).
    uint64_t keep = prior < 8 ? prior : 8;
    uint64_t limit = f->group > keep ? f->group - keep : 0; // groups below it are retired
    size_t kept = 0;
    bool landed = false;
    for (const Copy &c : f->copies) { // in issue order
        if (c.group >= limit) {
            f->copies[kept++] = c;
            continue;
        }
        if (!landed) san::tsan_switch(f->tsan_engine, false);
        landed = true;
        san::acquire(&f->sync_group[c.group % 16]);
        san::read_range(c.src, c.size - c.zfill);
        san::write_range(c.dst, c.size);
        memcpy(c.dst, c.src, c.size - c.zfill);
        memset((char *)c.dst + (c.size - c.zfill), 0, c.zfill);
    }
    f->copies.resize(kept);
    if (landed) {
        san::release(&f->sync_landed);
        san::tsan_switch(f->tsan_fiber, false);
        san::acquire(&f->sync_landed);
    }
}

void cp_thread_exit(Fiber *f) {
    if (f->copies.empty()) return;
    const Copy &c = f->copies.front();
    fault(c.at, "cp.async issued here was never %s (%zu copies in flight when the thread exited)",
          c.group == f->group ? "committed nor waited for" : "waited for", f->copies.size());
}

} // namespace simt::rt
