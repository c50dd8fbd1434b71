/* The registry, built from kernels/variants.def with the X-macro (compiled with the same
 * CUSTOM_DEFINES as the kernels, so a "custom" row appears exactly when the kernels have one). */
#include "variants.h"

#include <stdio.h>
#include <string.h>

#define SDPA_VARIANT(ident, id, parent, cp_async, wmma_pv, fused_softmax_pv, smem_pad, summary)              \
    {id, parent, {cp_async, wmma_pv, fused_softmax_pv, smem_pad}, summary},
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

static bool same_switches(const sdpa_switches_t *a, const sdpa_switches_t *b) {
    return a->cp_async == b->cp_async && a->wmma_pv == b->wmma_pv &&
           a->fused_softmax_pv == b->fused_softmax_pv && a->smem_pad == b->smem_pad;
}

int variants_check_table(const sdpa_kernel_entry_t *table, char *err, size_t errlen) {
    for (const sdpa_kernel_entry_t *e = table; e && e->id; e++) {
        const variant_info_t *v = variants_find(e->id);
        if (!v) continue; /* a variant only the build knows (test kernels) */
        if (!same_switches(&v->sw, &e->sw) || strcmp(v->parent, e->parent ? e->parent : "") != 0) {
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

bool variants_expect_identical(const sdpa_switches_t *a, const sdpa_switches_t *b) {
    const bool cp = a->cp_async != b->cp_async, pv = a->wmma_pv != b->wmma_pv;
    const bool layout = a->fused_softmax_pv != b->fused_softmax_pv || a->smem_pad != b->smem_pad;
    if (pv) return false;   /* P in fp32 vs fp16: different arithmetic */
    return !(cp && layout); /* only layout switches, or only cp_async */
}

void variants_switches_str(const sdpa_switches_t *sw, char *out, size_t outlen) {
    snprintf(out, outlen, "cp_async=%d wmma_pv=%d fused_softmax_pv=%d smem_pad=%d", sw->cp_async, sw->wmma_pv,
             sw->fused_softmax_pv, sw->smem_pad);
}
