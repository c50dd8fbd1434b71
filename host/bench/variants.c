/* The registry, built from kernels/variants.def with the X-macro (compiled with the same
 * CUSTOM_DEFINES as the kernels, so a "custom" row appears exactly when the kernels have one). */
#include "variants.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SDPA_VARIANT(ident, id, parent, sw, summary) {id, parent, (sw), summary},
const variant_info_t variants_registry[] = {
#include "variants.def"
};
#undef SDPA_VARIANT
const size_t variants_registry_count = sizeof variants_registry / sizeof variants_registry[0];

const variant_info_t *variants_find(const char *id) {
    for (size_t i = 0; id && i < variants_registry_count; i++)
        if (strcmp(variants_registry[i].id, id) == 0) return &variants_registry[i];
    return NULL;
}

const sdpa_kernel_entry_t *variants_kernel(const sdpa_kernel_entry_t *table, const char *id) {
    for (const sdpa_kernel_entry_t *e = table; id && e && e->id; e++)
        if (strcmp(e->id, id) == 0) return e;
    return NULL;
}

size_t variants_table_count(const sdpa_kernel_entry_t *table) {
    size_t n = 0;
    for (const sdpa_kernel_entry_t *e = table; e && e->id; e++) n++;
    return n;
}

/* The switch list (kernels/switches.h) as a table: key and class of bit i. */
#define SDPA_SW_INFO_(NAME, key, cls, min_sm, arch, meaning)                                                 \
    {#key, SDPA_SWCLASS_##cls, min_sm, SDPA_SWARCH_##arch, meaning},
const variant_switch_info_t variants_switch_info[SDPA_SWITCH_COUNT] = {SDPA_SWITCHES(SDPA_SW_INFO_)};
#undef SDPA_SW_INFO_

int variants_check_table(const sdpa_kernel_entry_t *table, char *err, size_t errlen) {
    for (const sdpa_kernel_entry_t *e = table; e && e->id; e++) {
        const variant_info_t *v = variants_find(e->id);
        if (!v) continue; /* a variant only the build knows (test kernels) */
        if (v->sw != e->sw || strcmp(v->parent, e->parent ? e->parent : "") != 0) {
            snprintf(err, errlen,
                     "variant %s: the kernel table disagrees with kernels/variants.def "
                     "(stale build? run make clean)",
                     e->id);
            return -1;
        }
        if (!e->launch) {
            snprintf(err, errlen, "variant %s: the kernel table has no launcher", e->id);
            return -1;
        }
    }
    return 0;
}

int variants_min_sm(sdpa_switches_t sw) {
    int need = 0;
    for (int i = 0; i < SDPA_SWITCH_COUNT; i++)
        if ((sw >> i) & 1u && variants_switch_info[i].min_sm > need) need = variants_switch_info[i].min_sm;
    return need;
}

int variants_exact_sm(sdpa_switches_t sw) {
    for (int i = 0; i < SDPA_SWITCH_COUNT; i++)
        if ((sw >> i) & 1u && variants_switch_info[i].exact_sm) return variants_switch_info[i].exact_sm;
    return 0;
}

const char *variants_arch_unsupported(int min_sm, int exact_sm, int cc, char *why, size_t whylen) {
    /* sm_90a code runs on compute capability 9.0 only: neither older nor newer devices load it. */
    if (exact_sm && cc != exact_sm)
        snprintf(why, whylen,
                 "not supported on this device (architecture-specific sm_%da code; the device is sm_%d)",
                 exact_sm, cc);
    else if (cc < min_sm)
        snprintf(why, whylen, "not supported on this device (needs sm_%d or newer; the device is sm_%d)",
                 min_sm, cc);
    else
        return NULL;
    return why;
}

const char *variants_codec_unsupported(sdpa_switches_t sw, sdpa_codec_t codec) {
    if ((sw & SDPA_SW(FP8_MMA)) && codec != SDPA_CODEC_E4M3) return sdpa_status_str(SDPA_ERR_UNSUPPORTED);
    return NULL;
}

const char *variants_build_stub(const char *variant, const char *arch, const char *codec, char *why,
                                size_t whylen) {
    const variant_info_t *v = variant ? variants_find(variant) : NULL;
    if (!v || !arch || strncmp(arch, "sm_", 3) != 0) return NULL; /* not of the registry: a real build */
    const int sm = atoi(arch + 3), need = variants_min_sm(v->sw);
    if (sm < need) {
        snprintf(why, whylen, "not supported on %s (needs sm_%d)", arch, need);
        return why;
    }
    if (codec && variants_codec_unsupported(v->sw, strcmp(codec, "e4m3") == 0 ? SDPA_CODEC_E4M3
                                                                              : SDPA_CODEC_SEED_LINEAR)) {
        snprintf(why, whylen, "not supported with the %s codec", codec);
        return why;
    }
    return NULL;
}

const char *variants_shape_unsupported(const sdpa_kernel_entry_t *e, sdpa_shape_t shape, sdpa_codec_t codec,
                                       char *why, size_t whylen) {
    const sdpa_geometry_t *g = sdpa_entry_geometry(e, shape.D);
    if (!g)
        snprintf(why, whylen,
                 "D = %d: built for D = %d only (D = 128 and causal masks: the register-resident "
                 "variants)",
                 shape.D, e->n_geometry ? e->geometry[0].head_dim : 64);
    else if (shape.causal && !g->causal)
        snprintf(why, whylen,
                 "causal: built without a causal mask (the register-resident variants have one)");
    else if ((shape.D != 64 || shape.causal) && codec != SDPA_CODEC_E4M3)
        snprintf(why, whylen,
                 "--codec seed-linear: built for the original's problems only (D = 64, non-causal)");
    else
        return NULL;
    return why;
}

int variants_switch_distance(sdpa_switches_t a, sdpa_switches_t b) {
    int n = 0;
    for (sdpa_switches_t d = a ^ b; d; d &= d - 1) n++;
    return n;
}

bool variants_expect_identical(sdpa_switches_t a, sdpa_switches_t b) {
    unsigned classes = 0; /* the classes of the switches that differ */
    for (int i = 0; i < SDPA_SWITCH_COUNT; i++)
        if ((a ^ b) & (1u << i)) classes |= 1u << variants_switch_info[i].cls;
    if (classes & (1u << SDPA_SWCLASS_ARITH)) return false; /* different arithmetic */
    return (classes & (classes - 1)) == 0;                  /* at most one class: a layout or a load change */
}

bool variants_expect_identical_on(sdpa_switches_t a, sdpa_switches_t b, bool emulated) {
    return variants_expect_identical(a, b) && (emulated || !((a ^ b) & VARIANTS_SW_OTHER_INSTRUCTION));
}

void variants_geometry_str(const sdpa_kernel_entry_t *e, char *out, size_t outlen) {
    size_t len = 0;
    if (outlen) out[0] = '\0';
    for (int32_t i = 0; e && i < e->n_geometry && len < outlen; i++) {
        const sdpa_geometry_t *g = &e->geometry[i];
        char compute[32] = "";
        if (g->mma_warps) snprintf(compute, sizeof compute, " (%d compute)", g->mma_warps);
        const int n =
            snprintf(out + len, outlen - len, "%sD=%d: %d rows x %d keys, %d warps%s, %d B %s smem%s",
                     i ? "; " : "", g->head_dim, g->tile_m, g->tile_n, g->warps, compute, g->smem_bytes,
                     g->dynamic_smem ? "dynamic" : "static", g->causal ? ", causal too" : "");
        if (n < 0) break;
        len += (size_t)n;
    }
}

void variants_switches_str(sdpa_switches_t sw, char *out, size_t outlen) {
    size_t len = 0;
    if (outlen) out[0] = '\0';
    for (int i = 0; i < SDPA_SWITCH_COUNT && len < outlen; i++) {
        int n = snprintf(out + len, outlen - len, "%s%s=%d", i ? " " : "", variants_switch_info[i].key,
                         (sw >> i) & 1u);
        if (n < 0) break;
        len += (size_t)n;
    }
}
