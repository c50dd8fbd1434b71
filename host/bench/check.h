/* Correctness before timing: one problem (shape, seed) with its inputs, both fp64 references and
 * the per-slice tolerances computed once and shared by every variant; a checked launch of one
 * variant on it; and the element-wise cross-variant comparison of two variants' outputs.
 * (paper/methods.md: references, tolerances, cross-variant checks.)
 *
 * Sampled references (--ref-rows N, for long sequences, where the full fp64 reference costs
 * O(S^2 D) per slice on the CPU): the references hold N query rows of every slice
 * (reference_sample_rows: one per stratum of S/N rows, both ends), and the metrics, the gates and the bounded
 * cross-variant checks cover those rows; the output's other checks (every element written, the
 * inputs unmodified, bit-identity between variants) still cover every element. */
#ifndef CHECK_H
#define CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "inputs.h"
#include "metrics.h"

/* The output is filled with this byte before every checked launch: 0xffff is a NaN no kernel
 * produces by arithmetic (the canonical fp16 NaNs are 0x7e00/0x7fff), so "still 0xffff" means
 * "never written", apart from a genuine NaN result. */
#define CHECK_FILL_BYTE 0xff
#define CHECK_FILL_HALF 0xffffu

/* The tolerance families a problem carries bars for (metrics.h): every variant is judged by one. */
typedef enum { CHECK_FAMILY_FP16, CHECK_FAMILY_FP8P, CHECK_FAMILY_COUNT } check_family_t;

/* One family's kernel-only element-wise bar on one problem: atol per (b,h) slice. */
typedef struct {
    const tol_family_t *family;
    double *atol; /* [B*H] */
    double atol_min, atol_max;
} problem_bars_t;

/* How a problem's references are computed. */
typedef struct {
    size_t rows;      /* query rows per slice; 0: every row */
    unsigned threads; /* 0: every CPU this process may use (reference_cpus) */
} check_ref_t;

typedef struct {
    char shape_name[40];
    sdpa_shape_t shape;
    uint64_t seed;
    size_t n;                                /* elements per tensor */
    double softmax_scale;                    /* 1/sqrt(D) */
    sdpa_inputs_t in;                        /* the pristine host copy */
    double *ref_kernel, *ref_e2e;            /* [n_ref], NULL when built without references (timing only) */
    size_t *ref_rows;                        /* the query rows the references hold in every slice: 0..S-1,
                                              * or the sample's (ascending) */
    size_t n_ref_rows;                       /* rows per slice in ref_*: S, or the sample's size */
    size_t n_ref;                            /* elements of ref_*: B*H*n_ref_rows*D (n when not sampled) */
    problem_bars_t bars[CHECK_FAMILY_COUNT]; /* atol NULL without references */
    double *ref_mirror;                      /* [n_ref]: the FP8 line's mirror reference (reference_fp8.h),
                                              * made on the first FP8P check; NULL until then */
    int ref_mirror_tile;                     /* the keys per tile ref_mirror was made on (the checked
                                              * kernel's tile_n); another tile remakes it */
    unsigned ref_threads;                    /* threads of every reference (check_ref_t.threads) */
    backend_t *be;
    void *d_q, *d_k, *d_v, *d_qs, *d_ks, *d_vs, *d_o; /* backend memory */
} problem_t;

typedef struct {
    const char *variant;
    check_family_t family; /* the bars it was judged by */
    const char *own_bar;   /* a peer's own element-wise bar (its name), NULL for a kernel variant */
    sdpa_status_t status;
    char status_msg[256]; /* "ok" or the launcher's / runtime's message */
    bool inputs_unmodified, all_written;
    err_metrics_t kernel_only, end_to_end, legacy;
    bool gate_kernel, gate_e2e, gate_legacy;
    /* FP8P family only (has_mirror): rel-L2 against the mirror reference and its gate
     * (paper/methods.md#fp8-mirror), part of pass on the emulator (mirror_gates), whose fp32
     * round-to-nearest accumulation the bar's budget assumes; recorded, not gating, on a GPU. */
    bool has_mirror, gate_mirror, mirror_gates;
    double mirror_rel_l2;
    bool pass;     /* status ok && inputs_unmodified && all_written && gate_kernel (&& gate_mirror) */
    uint16_t *out; /* host copy of the fp16 output [n] (cross-variant checks, dump) */
} check_t;

/* Whether the references hold a sample of the rows rather than all of them (problem_init with
 * references only). */
static inline bool problem_sampled(const problem_t *p) { return p->n_ref_rows < (size_t)p->shape.S; }

/* Fills c's kernel-only, end-to-end and legacy metrics and gates for output `out` (doubles, [n]) with
 * the per-(b,h) atol and the rtol and rel-L2 bar of `family` (a variant: its family's bars; a peer:
 * its own atol, peer_tolerance.h). With a sampled reference, over the sampled rows of out. */
int check_metrics(const problem_t *p, const double *out, const double *atol, const tol_family_t *family,
                  check_t *c); /* 0, or -1 out of memory */

/* The name of the bars c was judged by: a peer's own (own_bar), else its family's. */
static inline const char *check_bar_name(const problem_t *p, const check_t *c) {
    return c->own_bar ? c->own_bar : p->bars[c->family].family->name;
}

typedef struct {
    const char *a, *b;
    uint32_t max_ulp; /* UINT32_MAX when a NaN is involved */
    size_t n_diff;    /* elements that are not bit-identical */
    /* the largest |a - b| and the largest |a - b| over the element-wise bar (0 when identical;
     * NaN when an element is not finite): ULPs near zero say little, these compare with the bar */
    double max_abs_diff, worst_ratio;
    bool expect_identical;
    bool pass;
} cross_t;

/* Generates the inputs, the references (ref: how; NULL: none, for timing) and uploads the inputs.
 * 0, EXIT-style 2 for a shape the inputs refuse, or -1 on a backend / memory failure; err says. */
int problem_init(problem_t *p, backend_t *be, const char *shape_name, sdpa_shape_t shape, dist_t dist,
                 sdpa_codec_t codec, uint64_t seed, const check_ref_t *ref, char *err, size_t errlen);
void problem_free(problem_t *p);
/* The launcher arguments for this problem's device buffers. */
void problem_args(const problem_t *p, sdpa_args_t *a);

/* The bars a variant with these switches is judged by (paper/methods.md#tolerances-fp8): fp8p for a
 * variant that quantises P to e4m3 (FP8_MMA), fp16 for every other. */
check_family_t check_family_of(sdpa_switches_t sw);

/* Launches variant fn once on p and checks it against the bars of `family` (and, for FP8P, the mirror
 * reference on the kernel's tiles of tile_n keys: its geometry's, SDPA_TILE_N_OF). Returns 0 when the check ran (c->pass says how it
 * went), -1 with err when the device failed the launch (SDPA_ERR_LAUNCH: a CUDA error, never a
 * verdict) or the backend failed around it (copies). Free c with check_free. */
int problem_check(problem_t *p, const char *variant, check_family_t family, sdpa_launch_fn fn, int tile_n,
                  check_t *c, char *err, size_t errlen);
void check_free(check_t *c);

/* Element-wise comparison of two checked outputs of p. identical: every bit equal; bounded: every
 * element within the kernel-only bar, |a - b| <= atol_bh + rtol |ref|, and both finite, with the
 * bar of the wider family of the two (stage6 vs stage5: fp8p, methods.md's cross-variant rules);
 * with a sampled reference, bounded covers the sampled rows (the bar needs ref). */
void cross_compare(const problem_t *p, const check_t *a, const check_t *b, bool expect_identical, cross_t *x);

#endif
