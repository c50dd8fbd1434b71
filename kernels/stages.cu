// stages.cu: one kernel and one launcher per row of kernels/variants.def, and the table of them.
//
// Each row's switches select the building blocks of sdpa_fp8.cuh (the headers by role) through a
// Config, which also fixes the row's geometry (geometry.h): rows per CTA, keys per tile, warps, and
// the shared memory the launcher asks for. The rows' own comments (in variants.def) say what
// changed, the hypothesis and what the original measured. Every variant exists twice, once per
// codec: E4M3 (the default, what the gates and timings use) and the original's seed-linear code
// (to reproduce its published error figures). The kernels have C names, sdpa_<variant>_<codec>,
// so ptxas output and profiles name them plainly.
//
// It compiles on its own (make adds only the generated custom-variant header, when switches are
// given, and the architectures of CUDA_ARCHS):
//   nvcc -std=c++17 -O3 -Ikernels -arch=sm_89 -c kernels/stages.cu -o stages.o
#include "sdpa_fp8.cuh"

namespace {

using KernelFn = void (*)(const uint8_t *, const uint8_t *, const uint8_t *, const float *, const float *,
                          const float *, __half *, int, int, float);

// A kernel instance's geometry, as its Config computes it (the host reads it from the table).
template <class Cfg> constexpr sdpa_geometry_t geometry_of(const char *kernel) {
    return {kernel,
            Cfg::kD,
            Cfg::kTM,
            Cfg::kTN,
            Cfg::kWarps,
            Cfg::kMmaWarps,
            sdpa::kSmemBytes<Cfg>,
            sdpa::kDynamicSmem<Cfg>};
}

// The launch of one kernel instance: grid (ceil(S / tile_m), H, B), block 32 warps threads, and the
// dynamic shared memory of a Config above 48 KiB (the kernel opted in first: the runtime refuses
// more than 48 KiB of dynamic shared memory to a kernel that has not, and so does the emulator).
sdpa_status_t launch_geometry(const sdpa_args_t *a, KernelFn k, const sdpa_geometry_t &g) {
    const dim3 grid((unsigned)((a->S + g.tile_m - 1) / g.tile_m), (unsigned)a->H, (unsigned)a->B);
    const dim3 block((unsigned)(32 * g.warps));
    const size_t smem = g.dynamic_smem ? (size_t)g.smem_bytes : 0;
    if (g.dynamic_smem && SDPA_OPT_IN_DYNAMIC_SMEM(k, smem) != 0) return SDPA_LAUNCH_FAILED;
    const int rc = SDPA_LAUNCH(k, grid, block, smem, a->stream, a->q, a->k, a->v, a->q_scale, a->k_scale,
                               a->v_scale, reinterpret_cast<__half *>(a->o), a->H, a->S, a->softmax_scale);
    return rc == 0 ? SDPA_OK : SDPA_LAUNCH_FAILED;
}

// e4m3_only: the variant computes on the e4m3 codes themselves (FP8_MMA); the seed-linear codec's
// codes (u - 128) have no FP8 form, so it is refused before anything is launched.
sdpa_status_t launch_with(const sdpa_args_t *a, const sdpa_kernel_entry_t &e, KernelFn e4m3,
                          KernelFn seed_linear, bool e4m3_only) {
    const sdpa_status_t st = sdpa_check_args(a);
    if (st != SDPA_OK) return st;
    const sdpa_geometry_t *g = sdpa_entry_geometry(&e, a->D);
    if (!g) return SDPA_ERR_HEAD_DIM;
    if (e4m3_only && a->codec != SDPA_CODEC_E4M3) return SDPA_ERR_UNSUPPORTED;
    return launch_geometry(a, a->codec == SDPA_CODEC_E4M3 ? e4m3 : seed_linear, *g);
}

} // namespace

#define SDPA_KERNEL_PARAMS                                                                                   \
    const uint8_t *__restrict__ q, const uint8_t *__restrict__ k, const uint8_t *__restrict__ v,             \
        const float *__restrict__ qs, const float *__restrict__ ks, const float *__restrict__ vs,            \
        __half *__restrict__ o, int H, int S, float softmax_scale

// Launch bounds from the Config (config.cuh): 512 threads per SM, a cap of 128 registers per thread.
#define SDPA_DEFINE_KERNEL(ident, codec_tag, codec, cfg)                                                     \
    extern "C" __global__ void __launch_bounds__(cfg::kBoundsThreads, cfg::kMinBlocks)                       \
        SDPA_BACKEND_SYM(sdpa_##ident##_##codec_tag)(SDPA_KERNEL_PARAMS) {                                   \
        sdpa::sdpa_forward<cfg, codec>(q, k, v, qs, ks, vs, o, H, S, softmax_scale);                         \
    }

// Per row: its Config, its two kernels, its table entry (with the geometry of each head dimension
// it is built for) and its launcher.
#define SDPA_VARIANT(ident, id, parent, sw, summary)                                                         \
    using config_##ident = sdpa::Config<(sw), 64>;                                                           \
    SDPA_DEFINE_KERNEL(ident, e4m3, SDPA_CODEC_E4M3, config_##ident)                                         \
    SDPA_DEFINE_KERNEL(ident, seedlin, SDPA_CODEC_SEED_LINEAR, config_##ident)                               \
    static sdpa_status_t launch_##ident(const sdpa_args_t *a);                                               \
    constexpr sdpa_kernel_entry_t entry_##ident = {id,                                                       \
                                                   parent,                                                   \
                                                   (sw),                                                     \
                                                   summary,                                                  \
                                                   launch_##ident,                                           \
                                                   1,                                                        \
                                                   {geometry_of<config_##ident>("sdpa_" #ident "_e4m3")}};   \
    static sdpa_status_t launch_##ident(const sdpa_args_t *a) {                                              \
        return launch_with(a, entry_##ident, SDPA_BACKEND_SYM(sdpa_##ident##_e4m3),                          \
                           SDPA_BACKEND_SYM(sdpa_##ident##_seedlin), config_##ident::kFp8Mma);               \
    }
#include "variants.def"
#undef SDPA_VARIANT

#define SDPA_VARIANT(ident, id, parent, sw, summary) entry_##ident,
extern "C" const sdpa_kernel_entry_t SDPA_KERNEL_TABLE[] = {
#include "variants.def"
    {nullptr, nullptr, 0, nullptr, nullptr, 0, {}},
};
#undef SDPA_VARIANT
