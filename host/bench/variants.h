/* The variant registry: kernels/variants.def as a C table (id, parent, switches, summary), and
 * the lookup of a variant's launcher in a backend's kernel table by id.
 *
 * The registry is what the study defines; a kernel table is what one build of kernels/stages.cu
 * contains (the same rows, plus "custom" when make was given switches). Both come from the same
 * X-macro file, and variants_check_table verifies that a table agrees with the registry, so a
 * stale object file cannot run one variant under another's name. */
#ifndef VARIANTS_H
#define VARIANTS_H

#include <stdbool.h>
#include <stddef.h>

#include "inputs.h"
#include "sdpa_api.h"

typedef struct {
    const char *id;
    const char *parent; /* "" for the root */
    sdpa_switches_t sw;
    const char *summary;
} variant_info_t;

extern const variant_info_t variants_registry[];
extern const size_t variants_registry_count;

const variant_info_t *variants_find(const char *id); /* NULL if unknown */
/* The entry with this id in a NULL-id-terminated kernel table; NULL if absent (or table NULL). */
const sdpa_kernel_entry_t *variants_kernel(const sdpa_kernel_entry_t *table, const char *id);
size_t variants_table_count(const sdpa_kernel_entry_t *table);
/* 0 when every table entry that the registry knows has the registry's parent and switches;
 * -1 with the first disagreement in err. */
int variants_check_table(const sdpa_kernel_entry_t *table, char *err, size_t errlen);
/* The switch list of kernels/switches.h: bit i's key ("cp_async"), class and meaning. */
typedef struct {
    const char *key;
    enum sdpa_switch_class cls;
    int min_sm;   /* oldest architecture the switch's building block needs (major*10+minor), 0: none */
    int exact_sm; /* architecture-specific code (ARCH SM90A): the one architecture it runs on; 0: any */
    const char *meaning;
} variant_switch_info_t;
extern const variant_switch_info_t variants_switch_info[SDPA_SWITCH_COUNT];

/* The oldest architecture a variant with these switches needs: the largest MIN_SM of its
 * switches (0 when none needs more than the build targets). */
int variants_min_sm(sdpa_switches_t sw);
/* The one architecture a variant with these switches runs on when one of them is
 * architecture-specific (ARCH SM90A: 90), else 0. */
int variants_exact_sm(sdpa_switches_t sw);
/* Why a variant needing MIN_SM min_sm and (when non-zero) exactly exact_sm cannot run on a device
 * of compute capability cc, in why; NULL when it can. */
const char *variants_arch_unsupported(int min_sm, int exact_sm, int cc, char *why, size_t whylen);
/* Why a variant with these switches cannot compute on codes of this codec (FP8_MMA multiplies e4m3
 * codes as they are; the seed-linear codes u - 128 have no FP8 form), or NULL when it can. Such a
 * variant is "not supported", like one that needs a newer device: never run, never failed. */
const char *variants_codec_unsupported(sdpa_switches_t sw, sdpa_codec_t codec);
/* Why the build of `variant` for `arch` ("sm_80") and `codec` ("e4m3", "seed-linear"; NULL: not
 * recorded) is a stub, in why ("not supported on sm_80 (needs sm_90)", "not supported with the
 * seed-linear codec"): a variant compiled where it cannot run has an empty body, and its ptxas
 * figures say nothing. NULL for a real build, and for a variant or arch the registry does not
 * know. The reports and ptxas-json's table judge ptxas.json's kernels with it. */
const char *variants_build_stub(const char *variant, const char *arch, const char *codec, char *why,
                                size_t whylen);
/* Why the kernel entry e has no kernel for this problem (its head dimension, its causal mask, or
 * either with the seed-linear codec: kernels/stages.cu builds D = 128 and causal instances of the
 * register-resident rows, E4M3 only), in why; NULL when it has one. "Not supported" at that shape:
 * never run, never failed. */
const char *variants_shape_unsupported(const sdpa_kernel_entry_t *e, sdpa_shape_t shape, sdpa_codec_t codec,
                                       char *why, size_t whylen);
/* How many switches differ (a stage is one switch from its parent). */
int variants_switch_distance(sdpa_switches_t a, sdpa_switches_t b);
/* Whether two variants must produce bit-identical outputs (paper/methods.md, cross-variant
 * checks): the switches that differ are all of one class and none changes the arithmetic
 * (switches.h): e.g. only fused_softmax_pv and/or smem_pad (the same arithmetic in another buffer
 * or layout), or only cp_async (the same arithmetic, loaded another way). Every other pair is
 * "bounded". */
bool variants_expect_identical(sdpa_switches_t a, sdpa_switches_t b);
/* The switches that move a product to another tensor-core instruction while keeping its arithmetic
 * class (LAYOUT): wgmma instead of mma.sync (stages 7b, 7c). The emulator computes both as exact
 * products summed in k order in fp32, so the rule above holds there; a GPU's FP8 wgmma accumulates
 * in its own order and width (paper/methods.md, "Accumulation order and precision"), unlike sm_90's
 * mma.sync FP8 (unpacked to fp16 HMMA), so on a GPU such pairs are "bounded", not identical. */
#define VARIANTS_SW_OTHER_INSTRUCTION (SDPA_SW(WGMMA_QK) | SDPA_SW(WGMMA_PV))
/* variants_expect_identical on a backend: on the emulator (emulated true) the class rule; on a GPU,
 * not where the two differ in a switch of VARIANTS_SW_OTHER_INSTRUCTION. */
bool variants_expect_identical_on(sdpa_switches_t a, sdpa_switches_t b, bool emulated);
/* A kernel table entry's geometry (kernels/geometry.h) per head dimension, e.g.
 * "D=64: 32 rows x 32 keys, 4 warps (2 compute), 26112 B static smem". */
void variants_geometry_str(const sdpa_kernel_entry_t *e, char *out, size_t outlen);
/* "cp_async=1 wmma_pv=1 fused_softmax_pv=0 smem_pad=0": every switch of the list, in order. */
void variants_switches_str(sdpa_switches_t sw, char *out, size_t outlen);

#endif
