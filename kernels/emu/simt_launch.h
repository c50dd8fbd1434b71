// simt_launch.h: the emulator's replacement for kernel<<<grid, block, smem>>>(args...), which a
// host compiler cannot parse. kernels/prims.cuh's SDPA_LAUNCH and SMEM_DYNAMIC expand to these.
#pragma once

#include <stddef.h>
#include <tuple>
#include <type_traits>
#include <utility>

namespace simt {

// The block's dynamic shared memory (the smem_bytes of the launch), 1024-byte aligned and
// poisoned before each block; null when the launch asked for none.
inline void *dynamic_smem() { return rt::dynamic_smem(); }

// Runs kernel over the grid, one block at a time. Arguments are converted to the kernel's
// parameter types and copied once, as CUDA copies kernel parameters. Returns 0 on success,
// non-zero when a fault was detected (printed on stderr; simt_last_error() in simt.h).
template <class... P, class... A>
int launch(void (*kernel)(P...), dim3 grid, dim3 block, size_t smem_bytes, A &&...args) {
    static_assert(sizeof...(P) == sizeof...(A),
                  "simt::launch: the number of arguments does not match the kernel's parameters");
    struct Closure {
        void (*kernel)(P...);
        std::tuple<std::decay_t<P>...> params;
        static void run(void *self) {
            Closure *c = static_cast<Closure *>(self);
            std::apply(c->kernel, c->params);
        }
    };
    Closure c{kernel, std::tuple<std::decay_t<P>...>(std::forward<A>(args)...)};
    return rt::launch(&Closure::run, &c, reinterpret_cast<const void *>(kernel), grid, block, smem_bytes,
                      &SIMT_FLAVOUR_SYMBOL);
}

// The emulator's cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes).
template <class... P> int set_max_dynamic_smem(void (*kernel)(P...), size_t bytes) {
    return rt::set_max_dynamic_smem(reinterpret_cast<const void *>(kernel), bytes);
}

} // namespace simt
