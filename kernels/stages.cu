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
// [stage 7a] A TMA_KV kernel also takes the tensor maps of K and V (__grid_constant__ parameters).
using KernelTmaFn = void (*)(const uint8_t *, const uint8_t *, const uint8_t *, const float *, const float *,
                             const float *, __half *, int, int, float, CUtensorMap, CUtensorMap);

// A kernel instance's geometry, as its Config computes it (the host reads it from the table);
// causal: a causal instance of the same geometry exists too.
template <class Cfg> constexpr sdpa_geometry_t geometry_of(const char *kernel, int causal) {
    return {kernel,
            Cfg::kD,
            Cfg::kTM,
            Cfg::kTN,
            Cfg::kWarps,
            Cfg::kMmaWarps,
            sdpa::kSmemBytes<Cfg>,
            sdpa::kDynamicSmem<Cfg>,
            causal};
}

// The launch of one kernel instance: grid (ceil(S / tile_m), H, B), block 32 warps threads, and the
// dynamic shared memory of a Config above 48 KiB (the kernel opted in first: the runtime refuses
// more than 48 KiB of dynamic shared memory to a kernel that has not, and so does the emulator).
// `extra`: the parameters after the common ones (a TMA_KV kernel's tensor maps). [stage 7m] heads_first:
// the grid (H, ceil(S / tile_m), B) of a CAUSAL_LPT causal kernel, which reads it so (cta_order.cuh).
template <class Fn, class... Extra>
sdpa_status_t launch_geometry(const sdpa_args_t *a, Fn k, const sdpa_geometry_t &g, bool heads_first,
                              const Extra &...extra) {
    const unsigned nq = (unsigned)((a->S + g.tile_m - 1) / g.tile_m);
    const dim3 grid(heads_first ? (unsigned)a->H : nq, heads_first ? nq : (unsigned)a->H, (unsigned)a->B);
    const dim3 block((unsigned)(32 * g.warps));
    const size_t smem = g.dynamic_smem ? (size_t)g.smem_bytes : 0;
    if (g.dynamic_smem && SDPA_OPT_IN_DYNAMIC_SMEM(k, smem) != 0) return SDPA_LAUNCH_FAILED;
    const int rc =
        SDPA_LAUNCH(k, grid, block, smem, a->stream, a->q, a->k, a->v, a->q_scale, a->k_scale, a->v_scale,
                    reinterpret_cast<__half *>(a->o), a->H, a->S, a->softmax_scale, extra...);
    return rc == 0 ? SDPA_OK : SDPA_LAUNCH_FAILED;
}

// A row's kernels per head dimension (index as the entry's geometry) and codec; a null one does not
// exist (seed-linear with FP8_MMA, anything but D = 64 non-causal E4M3 or seed-linear on stages
// 0-3a, seed-linear beyond the original's D = 64 non-causal problems): SDPA_ERR_UNSUPPORTED.
struct RowKernels {
    KernelFn e4m3[SDPA_MAX_HEAD_DIMS], seed_linear[SDPA_MAX_HEAD_DIMS], e4m3_causal[SDPA_MAX_HEAD_DIMS];
};

[[maybe_unused]] sdpa_status_t launch_with(const sdpa_args_t *a, const sdpa_kernel_entry_t &e,
                                           const RowKernels &k) {
    const sdpa_status_t st = sdpa_check_args(a);
    if (st != SDPA_OK) return st;
    const sdpa_geometry_t *g = sdpa_entry_geometry(&e, a->D);
    if (!g) return SDPA_ERR_HEAD_DIM;
    const int i = (int)(g - e.geometry);
    const KernelFn fn = a->codec != SDPA_CODEC_E4M3 ? (a->causal ? nullptr : k.seed_linear[i])
                        : a->causal                 ? k.e4m3_causal[i]
                                                    : k.e4m3[i];
    if (!fn) return SDPA_ERR_UNSUPPORTED;
    return launch_geometry(a, fn, *g, false);
}

// [stage 7a] A TMA_KV row: E4M3 only: its kernel and its causal one per head dimension (index as the
// entry's geometry; null where not built). The tensor maps of K and V are encoded here from the
// arguments (loads.cuh, encode_kv_map; the emulator has its own encoder with the driver's rules) and
// passed by value; a map the rules refuse fails the launch, with the reason on stderr.
// [stage 7b] k_swizzle: the swizzle (bytes) K's tiles are read with (wgmma's: one row of codes; 0 for
// stage 7a's repack), per head dimension.
struct TmaKernels {
    KernelTmaFn e4m3[SDPA_MAX_HEAD_DIMS], e4m3_causal[SDPA_MAX_HEAD_DIMS];
    unsigned k_swizzle[SDPA_MAX_HEAD_DIMS];
    unsigned v_swizzle[SDPA_MAX_HEAD_DIMS]; // [stage 7k] V's, likewise (0 before VT_LDSM)
    bool lpt_causal[SDPA_MAX_HEAD_DIMS];    // [stage 7m] its causal kernel reads the grid heads first
};
[[maybe_unused]] sdpa_status_t launch_tma(const sdpa_args_t *a, const sdpa_kernel_entry_t &e,
                                          const TmaKernels &k) {
    const sdpa_status_t st = sdpa_check_args(a);
    if (st != SDPA_OK) return st;
    const sdpa_geometry_t *g = sdpa_entry_geometry(&e, a->D);
    if (!g) return SDPA_ERR_HEAD_DIM;
    const int i = (int)(g - e.geometry);
    const KernelTmaFn fn = a->causal ? k.e4m3_causal[i] : k.e4m3[i];
    if (a->codec != SDPA_CODEC_E4M3 || !fn) return SDPA_ERR_UNSUPPORTED;
    CUtensorMap mk, mv;
    char err[256];
    if (sdpa::encode_kv_map(&mk, a->k, a->B, a->H, a->S, a->D, g->tile_n, k.k_swizzle[i], err, sizeof err) !=
            0 ||
        sdpa::encode_kv_map(&mv, a->v, a->B, a->H, a->S, a->D, g->tile_n, k.v_swizzle[i], err, sizeof err) !=
            0) {
        fprintf(stderr, "%s: the K/V tensor maps: %s\n", e.id, err);
        return SDPA_LAUNCH_FAILED;
    }
    return launch_geometry(a, fn, *g, a->causal && k.lpt_causal[i], mk, mv);
}

constexpr bool streq(const char *a, const char *b) { return *a == *b && (*a == '\0' || streq(a + 1, b + 1)); }

} // namespace

// Which kernels this compile defines (mk/kernels.mk). The emulator's: all. nvcc's main compile (the
// architectures of CUDA_ARCHS): all but those of the rows with an sm_90a-only switch (ARCH SM90A,
// switches.h), which it declares and launches. nvcc's sm_90a compile (SDPA_PART_SM90A): those alone,
// and no table: every other kernel keeps one build and its code for sm_90 (the one measured on an
// H100), where a fat binary holding sm_90a code for it would let the runtime pick that instead.
// The emulator's plain build is split the same way, for time (mk/kernels.mk): its main part
// (SDPA_EMU_MAIN) has the table and every kernel but the sm_90a rows', and SDPA_PART_SM90A with
// SDPA_EMU_PASS=4 or 5 has those rows' D = 64 or D = 128 kernels (one ~330 CPU-second compile at -O2
// became three that run side by side). Its sanitizer builds and the plants are one compile: all.
#if defined(SIMT_EMU) && defined(SDPA_EMU_MAIN)
#define SDPA_DEFINES_PORTABLE 1
#define SDPA_DEFINES_SM90A 0
#elif defined(SIMT_EMU) && !defined(SDPA_PART_SM90A)
#define SDPA_DEFINES_PORTABLE 1
#define SDPA_DEFINES_SM90A 1
#elif defined(SDPA_PART_SM90A)
#define SDPA_DEFINES_PORTABLE 0
#define SDPA_DEFINES_SM90A 1
#else
#define SDPA_DEFINES_PORTABLE 1
#define SDPA_DEFINES_SM90A 0
#endif

#define SDPA_KERNEL_PARAMS                                                                                   \
    const uint8_t *__restrict__ q, const uint8_t *__restrict__ k, const uint8_t *__restrict__ v,             \
        const float *__restrict__ qs, const float *__restrict__ ks, const float *__restrict__ vs,            \
        __half *__restrict__ o, int H, int S, float softmax_scale

// Launch bounds from the Config (config.cuh): 512 threads per SM at D = 64 (a cap of 128 registers
// per thread), 256 at D = 128 (255).
// The kernel's name: sdpa_<ident>_<codec_tag><suffix> (suffix "", _causal, _d128, _d128_causal).
#define SDPA_DECLARE_KERNEL(ident, codec_tag, suffix, cfg)                                                   \
    extern "C" __global__ void __launch_bounds__(cfg::kBoundsThreads, cfg::kMinBlocks)                       \
        SDPA_BACKEND_SYM(sdpa_##ident##_##codec_tag##suffix)(SDPA_KERNEL_PARAMS)
#if SDPA_DEFINES_PORTABLE
#define SDPA_DEFINE_KERNEL(ident, codec_tag, suffix, codec, cfg)                                             \
    SDPA_DECLARE_KERNEL(ident, codec_tag, suffix, cfg) {                                                     \
        sdpa::sdpa_forward<cfg, codec>(q, k, v, qs, ks, vs, o, H, S, softmax_scale);                         \
    }
#else
#define SDPA_DEFINE_KERNEL(ident, codec_tag, suffix, codec, cfg)                                             \
    SDPA_DECLARE_KERNEL(ident, codec_tag, suffix, cfg);
#endif
// [stage 7a] A TMA_KV row's kernels: the same parameters and the tensor maps of K and V. Declared
// with the row (pass 2) and defined after every other kernel (pass 4), so that adding them leaves the
// others' place in the translation unit, and their PTX, as it was.
#define SDPA_DECLARE_TMA_KERNEL(ident, codec_tag, cfg)                                                       \
    extern "C" __global__ void __launch_bounds__(cfg::kBoundsThreads, cfg::kMinBlocks) SDPA_BACKEND_SYM(     \
        sdpa_##ident##_##codec_tag)(SDPA_KERNEL_PARAMS, const __grid_constant__ CUtensorMap tm_k,            \
                                    const __grid_constant__ CUtensorMap tm_v)
#define SDPA_DEFINE_TMA_KERNEL(ident, codec_tag, codec, cfg)                                                 \
    SDPA_DECLARE_TMA_KERNEL(ident, codec_tag, cfg) {                                                         \
        sdpa::sdpa_forward<cfg, codec>(q, k, v, qs, ks, vs, o, H, S, softmax_scale,                          \
                                       sdpa::KvMaps{&tm_k, &tm_v});                                          \
    }

// The TMA_KV rows of variants.def, one probe line each (a static_assert below holds the list to the
// rows' switches): SDPA_IS_TMA(ident) is 1 for them, 0 for every other row, and SDPA_IF picks their
// kernel definition and launcher.
#define SDPA_TMA_ROW_stage7a ~, 1
#define SDPA_TMA_ROW_stage7b ~, 1
#define SDPA_TMA_ROW_stage7c ~, 1
#define SDPA_TMA_ROW_stage7d ~, 1
#define SDPA_TMA_ROW_stage7e ~, 1
#define SDPA_TMA_ROW_stage7f ~, 1
#define SDPA_TMA_ROW_stage7h ~, 1
#define SDPA_TMA_ROW_stage7i ~, 1
#define SDPA_TMA_ROW_stage7j ~, 1
#define SDPA_TMA_ROW_stage7k ~, 1
#define SDPA_TMA_ROW_stage7l ~, 1
#define SDPA_TMA_ROW_stage7m ~, 1
#define SDPA_SECOND_(a, b, ...) b
#define SDPA_IS_TMA_(...) SDPA_SECOND_(__VA_ARGS__, 0, ~)
#define SDPA_IS_TMA(ident) SDPA_IS_TMA_(SDPA_TMA_ROW_##ident)
#define SDPA_CAT_(a, b) a##b
#define SDPA_IF_(c) SDPA_CAT_(SDPA_IF_, c)
#define SDPA_IF_0(then, other) other
#define SDPA_IF_1(then, other) then
#define SDPA_IF(c) SDPA_IF_(c)
// [stage 7b] The rows with an sm_90a-only switch (ARCH SM90A), one probe line each (held to the
// switches below): the compile that defines their kernels is SDPA_DEFINES_SM90A's.
#define SDPA_SM90A_ROW_stage7b ~, 1
#define SDPA_SM90A_ROW_stage7c ~, 1
#define SDPA_SM90A_ROW_stage7d ~, 1
#define SDPA_SM90A_ROW_stage7e ~, 1
#define SDPA_SM90A_ROW_stage7f ~, 1
#define SDPA_SM90A_ROW_stage7h ~, 1
#define SDPA_SM90A_ROW_stage7i ~, 1
#define SDPA_SM90A_ROW_stage7j ~, 1
#define SDPA_SM90A_ROW_stage7k ~, 1
#define SDPA_SM90A_ROW_stage7l ~, 1
#define SDPA_SM90A_ROW_stage7m ~, 1
#define SDPA_IS_SM90A(ident) SDPA_IS_TMA_(SDPA_SM90A_ROW_##ident)

// Pass 1: each row's switches, and the instances beyond D = 64 non-causal that a row has. The
// register-resident rows (geometry.h, SDPA_WIDE_OF) are also built for D = 128 and with a causal
// mask, with the E4M3 codec: seed-linear exists to reproduce the original's published error figures,
// at its D = 64 non-causal shapes. Wide<tag> holds those kernels; a row without them has none. They
// are declared here and defined after every D = 64 kernel (pass 3), so that the D = 64 kernels keep
// their place in the translation unit and with it their PTX, labels included.
#define SDPA_VARIANT(ident, id, parent, sw, summary)                                                         \
    constexpr sdpa_switches_t sw_##ident = (sw);                                                             \
    struct tag_##ident;
#include "variants.def"
#undef SDPA_VARIANT

// A custom build with USE_TMA_KV=1 (make's sdpa_custom.h, included by variants.def above) is a
// TMA_KV row too.
#if defined(SDPA_CUSTOM_VARIANT) && USE_TMA_KV
#define SDPA_TMA_ROW_custom ~, 1
#endif
#if defined(SDPA_CUSTOM_VARIANT) &&                                                                          \
    (USE_WGMMA_QK || USE_WGMMA_PV || USE_WG_SPEC || USE_KEYS128 || USE_WG_OVERLAP)
#define SDPA_SM90A_ROW_custom ~, 1
#endif

template <class Tag> struct Wide {
    static constexpr bool kBuilt = false;
    static constexpr KernelFn d64_causal = nullptr, d128 = nullptr, d128_causal = nullptr;
    static constexpr sdpa_geometry_t geometry128 = {};
};

// The wide rows: every row of variants.def with REG_MMA (a static_assert below checks the list).
// SDPA_NO_WIDE leaves them out: the planted regressions (mk/kernel-tests.mk) build a copy of every
// kernel per plant, and their checks run D = 64 non-causal problems. SDPA_TMA_WIDE_ONLY leaves out
// these and keeps the TMA rows' (a plant of a Hopper row's causal path, whose copy holds that row alone;
// a build of the custom row alone that compares a causal instance, tests/kernels/ptx-switches.sh).
#if defined(SDPA_NO_WIDE) || defined(SDPA_TMA_WIDE_ONLY)
constexpr bool kWideBuilt = false;
#else
constexpr bool kWideBuilt = true;
#endif
// [stage 7] The TMA_KV rows are wide too (E4M3): a causal instance at D = 64, and D = 128 with and
// without the mask. The mask is the register-resident line's (KeyMask, cta_tiles), applied to the
// wgmma accumulators as to the m16n8 ones; at D = 128 Q and K take the 128-byte swizzle (config.cuh).
// Left out with the wide rows' instances (SDPA_NO_WIDE: the plants), and in a build of the custom row
// alone unless it asks for them (SDPA_TMA_WIDE_ONLY).
#if defined(SDPA_NO_WIDE) || (defined(SDPA_ONLY_CUSTOM) && !defined(SDPA_TMA_WIDE_ONLY))
#define SDPA_TMA_WIDE(...)
#define SDPA_TMA_WIDE_OR_NULL(fn) nullptr
[[maybe_unused]] constexpr bool kTmaWideBuilt = false;
#else
#define SDPA_TMA_WIDE(...) __VA_ARGS__
#define SDPA_TMA_WIDE_OR_NULL(fn) fn
[[maybe_unused]] constexpr bool kTmaWideBuilt = true;
#endif
#define SDPA_WIDE_ROWS(X) X(stage3b) X(stage4) X(stage5) X(stage6) X(stage4_r64) X(stage6_r64)
#define SDPA_WIDE_ROW(ident)                                                                                 \
    using config_##ident##_causal = sdpa::Causal<sdpa::Config<sw_##ident, 64>>;                              \
    using config_##ident##_d128 = sdpa::Config<sw_##ident, 128>;                                             \
    using config_##ident##_d128_causal = sdpa::Causal<sdpa::Config<sw_##ident, 128>>;                        \
    SDPA_DECLARE_KERNEL(ident, e4m3, _causal, config_##ident##_causal);                                      \
    SDPA_DECLARE_KERNEL(ident, e4m3, _d128, config_##ident##_d128);                                          \
    SDPA_DECLARE_KERNEL(ident, e4m3, _d128_causal, config_##ident##_d128_causal);                            \
    template <> struct Wide<tag_##ident> {                                                                   \
        static constexpr bool kBuilt = true;                                                                 \
        static constexpr KernelFn d64_causal = SDPA_BACKEND_SYM(sdpa_##ident##_e4m3_causal);                 \
        static constexpr KernelFn d128 = SDPA_BACKEND_SYM(sdpa_##ident##_e4m3_d128);                         \
        static constexpr KernelFn d128_causal = SDPA_BACKEND_SYM(sdpa_##ident##_e4m3_d128_causal);           \
        static constexpr sdpa_geometry_t geometry128 =                                                       \
            geometry_of<config_##ident##_d128>("sdpa_" #ident "_e4m3_d128", 1);                              \
    };
#if !defined(SDPA_ONLY_CUSTOM) && !defined(SDPA_NO_WIDE) && !defined(SDPA_TMA_WIDE_ONLY)
SDPA_WIDE_ROWS(SDPA_WIDE_ROW)
#endif
#undef SDPA_WIDE_ROW

// A row's D = 64 kernels, one per codec, and its launcher's body: the plain rows' defined here, a
// TMA_KV row's declared here and defined in pass 4.
// clang-format off
#define SDPA_ROW_KERNELS(ident) SDPA_IF(SDPA_IS_TMA(ident))(SDPA_TMA_ROW_DECLS, SDPA_PLAIN_ROW_KERNELS)(ident)
#define SDPA_ROW_LAUNCH(ident) SDPA_IF(SDPA_IS_TMA(ident))(SDPA_TMA_LAUNCH, SDPA_PLAIN_LAUNCH)(ident)
#define SDPA_TMA_KERNELS_OF(ident) SDPA_IF(SDPA_IS_TMA(ident))(SDPA_TMA_DEFINED_HERE, SDPA_NO_KERNELS)(ident)
#define SDPA_TMA_DEFINED_HERE(ident) SDPA_IF(SDPA_IS_SM90A(ident))(SDPA_TMA_SM90A_KERNELS, SDPA_TMA_PORTABLE_KERNELS)(ident)
// clang-format on
#define SDPA_PLAIN_ROW_KERNELS(ident)                                                                        \
    SDPA_DEFINE_KERNEL(ident, e4m3, , SDPA_CODEC_E4M3, config_##ident)                                       \
    SDPA_DEFINE_KERNEL(ident, seedlin, , SDPA_CODEC_SEED_LINEAR, config_##ident)
#define SDPA_TMA_ROW_DECLS(ident)                                                                            \
    using config_##ident##_d128 = sdpa::Config<sw_##ident, 128>;                                             \
    SDPA_DECLARE_TMA_KERNEL(ident, e4m3, config_##ident);                                                    \
    SDPA_DECLARE_TMA_KERNEL(ident, seedlin, config_##ident);                                                 \
    SDPA_TMA_WIDE(SDPA_DECLARE_TMA_KERNEL(ident, e4m3_causal, sdpa::Causal<config_##ident>);                 \
                  SDPA_DECLARE_TMA_KERNEL(ident, e4m3_d128, config_##ident##_d128);                          \
                  SDPA_DECLARE_TMA_KERNEL(ident, e4m3_d128_causal, sdpa::Causal<config_##ident##_d128>);)
#define SDPA_TMA_ROW_KERNELS(ident)                                                                          \
    SDPA_DEFINE_TMA_KERNEL(ident, e4m3, SDPA_CODEC_E4M3, config_##ident)                                     \
    SDPA_DEFINE_TMA_KERNEL(ident, seedlin, SDPA_CODEC_SEED_LINEAR, config_##ident)                           \
    SDPA_TMA_WIDE(SDPA_DEFINE_TMA_KERNEL(ident, e4m3_causal, SDPA_CODEC_E4M3, sdpa::Causal<config_##ident>))
#define SDPA_TMA_D128_KERNELS(ident)                                                                         \
    SDPA_TMA_WIDE(SDPA_DEFINE_TMA_KERNEL(ident, e4m3_d128, SDPA_CODEC_E4M3, config_##ident##_d128)           \
                      SDPA_DEFINE_TMA_KERNEL(ident, e4m3_d128_causal, SDPA_CODEC_E4M3,                       \
                                             sdpa::Causal<config_##ident##_d128>))
#define SDPA_NO_KERNELS(ident)
#define SDPA_TMA_SM90A_KERNELS(ident)                                                                        \
    SDPA_IF(SDPA_DEFINES_SM90A)(SDPA_TMA_ROW_KERNELS, SDPA_NO_KERNELS)(ident)
#define SDPA_TMA_PORTABLE_KERNELS(ident)                                                                     \
    SDPA_IF(SDPA_DEFINES_PORTABLE)(SDPA_TMA_ROW_KERNELS, SDPA_NO_KERNELS)(ident)
// Pass 5's: a TMA_KV row's D = 128 kernels, in the compile that defines its D = 64 ones.
#define SDPA_TMA_D128_OF(ident)                                                                              \
    SDPA_IF(SDPA_IS_TMA(ident))(SDPA_TMA_D128_DEFINED_HERE, SDPA_NO_KERNELS)(ident)
#define SDPA_TMA_D128_DEFINED_HERE(ident)                                                                    \
    SDPA_IF(SDPA_IF(SDPA_IS_SM90A(ident))(SDPA_DEFINES_SM90A, SDPA_DEFINES_PORTABLE))                        \
    (SDPA_TMA_D128_KERNELS, SDPA_NO_KERNELS)(ident)
// A row's launcher body: the kernels of each head dimension, mask and codec it has (a TMA_KV row's:
// launch_tma, with the tensor maps).
#define SDPA_PLAIN_LAUNCH(ident)                                                                             \
    constexpr RowKernels k = {                                                                               \
        {SDPA_BACKEND_SYM(sdpa_##ident##_e4m3), Wide<tag_##ident>::d128},                                    \
        {config_##ident::kFp8Mma ? nullptr : SDPA_BACKEND_SYM(sdpa_##ident##_seedlin), nullptr},             \
        {Wide<tag_##ident>::d64_causal, Wide<tag_##ident>::d128_causal}};                                    \
    return launch_with(a, entry_##ident, k);
#define SDPA_TMA_LAUNCH(ident)                                                                               \
    constexpr TmaKernels k = {{SDPA_BACKEND_SYM(sdpa_##ident##_e4m3),                                        \
                               SDPA_TMA_WIDE_OR_NULL(SDPA_BACKEND_SYM(sdpa_##ident##_e4m3_d128))},           \
                              {SDPA_TMA_WIDE_OR_NULL(SDPA_BACKEND_SYM(sdpa_##ident##_e4m3_causal)),          \
                               SDPA_TMA_WIDE_OR_NULL(SDPA_BACKEND_SYM(sdpa_##ident##_e4m3_d128_causal))},    \
                              {config_##ident::kSwizzle, config_##ident##_d128::kSwizzle},                   \
                              {config_##ident::kVSwizzle, config_##ident##_d128::kVSwizzle},                 \
                              {sdpa::kLptOrder<sdpa::Causal<config_##ident>>,                                \
                               sdpa::kLptOrder<sdpa::Causal<config_##ident##_d128>>}};                       \
    return launch_tma(a, entry_##ident, k);
// Whether a row has its wide instances in this build (D = 128 and causal: a Wide row's, or a TMA_KV
// row's), and its geometry at D = 128 (zero where it has none).
#define SDPA_ROW_WIDE(ident) (Wide<tag_##ident>::kBuilt || (SDPA_IS_TMA(ident) && kTmaWideBuilt))
#define SDPA_GEOMETRY128(ident)                                                                              \
    SDPA_IF(SDPA_IS_TMA(ident))(SDPA_TMA_GEOMETRY128, SDPA_WIDE_GEOMETRY128)(ident)
#define SDPA_WIDE_GEOMETRY128(ident) Wide<tag_##ident>::geometry128
#define SDPA_TMA_GEOMETRY128(ident)                                                                          \
    (kTmaWideBuilt ? geometry_of<config_##ident##_d128>("sdpa_" #ident "_e4m3_d128", 1) : sdpa_geometry_t{})

// Pass 2, per row: its D = 64 Config, its two kernels, its table entry (with the geometry of each
// head dimension it is built for) and its launcher.
#define SDPA_VARIANT(ident, id, parent, sw, summary)                                                         \
    using config_##ident = sdpa::Config<(sw), 64>;                                                           \
    static_assert(Wide<tag_##ident>::kBuilt ==                                                               \
                      (kWideBuilt && SDPA_WIDE_OF(sw) && !SDPA_IS_TMA(ident) && !streq(#ident, "custom")),   \
                  "SDPA_WIDE_ROWS must list exactly the register-resident rows of variants.def before 7a");  \
    static_assert(SDPA_IS_TMA(ident) == config_##ident::kTmaKv,                                              \
                  "SDPA_TMA_ROW_<ident> must name exactly the TMA_KV rows of variants.def");                 \
    static_assert(!config_##ident::kTmaKv || !Wide<tag_##ident>::kBuilt,                                     \
                  "a TMA_KV row's wider instances are SDPA_TMA_WIDE's, not Wide's");                         \
    static_assert(SDPA_IS_SM90A(ident) ==                                                                    \
                      (config_##ident::kWgmmaQk || config_##ident::kWgmmaPv || config_##ident::kWgSpec),     \
                  "SDPA_SM90A_ROW_<ident> must name exactly the rows with an sm_90a-only switch");           \
    static_assert(!SDPA_IS_SM90A(ident) || SDPA_IS_TMA(ident), "an sm_90a row is a TMA row (pass 4)");       \
    SDPA_ROW_KERNELS(ident)                                                                                  \
    SDPA_ROW_ENTRY(ident, id, parent, sw, summary)
#if defined(SDPA_PART_SM90A) // the kernels alone: the main compile has the table and the launchers
#define SDPA_ROW_ENTRY(ident, id, parent, sw, summary)
#else
#define SDPA_ROW_ENTRY(ident, id, parent, sw, summary)                                                       \
    static sdpa_status_t launch_##ident(const sdpa_args_t *a);                                               \
    constexpr sdpa_kernel_entry_t entry_##ident = {                                                          \
        id,                                                                                                  \
        parent,                                                                                              \
        (sw),                                                                                                \
        summary,                                                                                             \
        launch_##ident,                                                                                      \
        SDPA_ROW_WIDE(ident) ? 2 : 1,                                                                        \
        {geometry_of<config_##ident>("sdpa_" #ident "_e4m3", SDPA_ROW_WIDE(ident)),                          \
         SDPA_GEOMETRY128(ident)}};                                                                          \
    static sdpa_status_t launch_##ident(const sdpa_args_t *a) { SDPA_ROW_LAUNCH(ident) }
#endif
#include "variants.def"
#undef SDPA_VARIANT

// Pass 3: the wide rows' kernels.
#define SDPA_WIDE_ROW(ident)                                                                                 \
    SDPA_DEFINE_KERNEL(ident, e4m3, _causal, SDPA_CODEC_E4M3, config_##ident##_causal)                       \
    SDPA_DEFINE_KERNEL(ident, e4m3, _d128, SDPA_CODEC_E4M3, config_##ident##_d128)                           \
    SDPA_DEFINE_KERNEL(ident, e4m3, _d128_causal, SDPA_CODEC_E4M3, config_##ident##_d128_causal)
#if !defined(SDPA_ONLY_CUSTOM) && !defined(SDPA_NO_WIDE) && !defined(SDPA_TMA_WIDE_ONLY)
SDPA_WIDE_ROWS(SDPA_WIDE_ROW)
#endif
#undef SDPA_WIDE_ROW

// Pass 4: the TMA_KV rows' kernels.
#if !defined(SDPA_EMU_PASS) || SDPA_EMU_PASS == 4
#define SDPA_VARIANT(ident, id, parent, sw, summary) SDPA_TMA_KERNELS_OF(ident)
#include "variants.def"
#undef SDPA_VARIANT
#endif

// Pass 5: the TMA_KV rows' D = 128 kernels (after every other, as pass 3's).
#if !defined(SDPA_EMU_PASS) || SDPA_EMU_PASS == 5
#define SDPA_VARIANT(ident, id, parent, sw, summary) SDPA_TMA_D128_OF(ident)
#include "variants.def"
#undef SDPA_VARIANT
#endif

#if !defined(SDPA_PART_SM90A)
#define SDPA_VARIANT(ident, id, parent, sw, summary) entry_##ident,
extern "C" const sdpa_kernel_entry_t SDPA_KERNEL_TABLE[] = {
#include "variants.def"
    {nullptr, nullptr, 0, nullptr, nullptr, 0, {}},
};
#undef SDPA_VARIANT
#endif
