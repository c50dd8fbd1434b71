/* One experiment run as sdpa-report sees it: the run directory's result files, loaded and
 * checked (schema version, kind), plus the experiment's declared parameters (experiment.mk).
 *
 *   run.json         sdpa-bench --check-only over every shape and seed: config, correctness,
 *                    cross_variant (required)
 *   run-timing.json  sdpa-bench on the timing shape: timing, comparisons (optional: without it
 *                    the timing and comparisons of run.json are used)
 *   ptxas.json       ptxas resources of the build (optional: else run.json's "ptxas"; else the
 *                    static gates are NOT EVALUATED with a reason)
 *   published        data/published/seed-l4.json, the original study's figures */
#ifndef RUN_H
#define RUN_H

#include <stdbool.h>
#include <cjson/cJSON.h>

#include "fields.h"

#define REPORT_PATH_MAX 1024

typedef struct {
    /* from the command line (experiment.mk) */
    const char *dir, *experiment, *run_id, *title, *baseline, *candidate;
    double gate_speedup;
    double gate_tflops;      /* experiment.mk's GATE_TFLOPS: the candidate's throughput floor; 0 for none */
    const char *make_target; /* the make target that reproduces the run ("stage2") */
    int argc;                /* sdpa-report's own command line, recorded in summary.json */
    char **argv;
    /* static budgets of experiment.mk (registers, spill bytes, local bytes, static smem bytes);
     * without them the budgets recorded in ptxas.json's "gates" apply */
    double budget[4];
    bool have_budget;
    /* loaded documents; T aliases R when there is no run-timing.json */
    cJSON *run, *timing, *ptxas_doc, *pub;
    rj_t R, T, P, PUB;
    bool have_ptxas;
    const char *ptxas_missing; /* reason when !have_ptxas */
    char run_path[REPORT_PATH_MAX], timing_path[REPORT_PATH_MAX];
    char ptxas_path[REPORT_PATH_MAX], pub_path[REPORT_PATH_MAX];
    char err[2048];
} report_t;

/* Loads dir/run.json, dir/run-timing.json (if present), dir/ptxas.json (if present) and the
 * published figures; checks that baseline and candidate are the run's variants. 0 or -1 with
 * r->err naming the file and field. */
int report_load(report_t *r, const char *published_path);
/* Loads an experiment run directory that holds its summary.json (sdpa-report experiment): the
 * summary, then the run's files with the baseline and candidate the summary names (what the
 * paper reads of each experiment's latest run, here and in a GPU campaign). 0, or -1 with err
 * naming the file and field. */
int report_load_summarised(report_t *r, cJSON **summary, const char *dir, const char *name,
                           const char *published, char *err, size_t n);
void report_free(report_t *r);

/* The correctness bars recorded by the harness (config.tolerances of run.json). */
typedef struct {
    double kernel_rel_l2, e2e_rel_l2, e2e_cosine, legacy_max_abs, legacy_mean_abs, legacy_pct_bad;
} tolerances_t;
int report_tolerances(report_t *r, tolerances_t *t);

/* Static budget k (STATIC_BUDGET_*): experiment.mk's, else ptxas.json's; 0 or -1 (err set). */
enum { STATIC_BUDGET_REGS, STATIC_BUDGET_SPILL, STATIC_BUDGET_LOCAL, STATIC_BUDGET_SMEM };
int report_static_budget(report_t *r, int k, double *out);
/* The register budget of ptxas entry i (kernels.i): the experiment's (report_static_budget) for a
 * D = 64 instance or one without a geometry (files from before it); for a wider one (D = 128), the
 * cap of its launch bounds (kernels/geometry.h, SDPA_REG_CAP), as ptxas-json gates it and
 * paper/methods.md fixes it (255 per thread on the register-resident line, 168 for a 384-thread
 * block): an experiment's budget is written for its D = 64 kernels. *wide (may be NULL): whether
 * the cap applied. 0 or -1 (err set). */
int report_register_budget(report_t *r, int i, double *out, bool *wide);
/* The lowest and highest register budget of variant's D = 128 builds in ptxas.json
 * (report_register_budget; one value unless their blocks differ), both NaN when it has none or their
 * budget is the experiment's own; text (n bytes, may be NULL with n 0): "255" or "168 to 255", ""
 * when NaN. 0 or -1 (err set). */
int report_wide_register_budget(report_t *r, const char *variant, double *lo, double *hi, char *text,
                                size_t n);

/* "sm_89" or, when ptxas.json has one kernel per codec, "sm_89 e4m3": the label of kernel i. */
const char *report_kernel_label(const report_t *r, int i, char *dst, size_t n);
/* Calls fn(r, i, label, ctx) for every kernel entry i of ptxas.json that belongs to `variant`
 * (label as report_kernel_label); stops at the first non-zero return and returns it. 0 without
 * ptxas.json; -1 with r->err set when an entry lacks its variant or arch. */
int report_ptxas_each(report_t *r, const char *variant,
                      int (*fn)(report_t *r, int i, const char *label, void *ctx), void *ctx);
/* Kernel i of ptxas.json is the build the run used: no codec recorded, or the run's config.codec. */
bool report_kernel_of_run(const report_t *r, int i);
/* NULL when kernel i of ptxas.json is a real build of its variant; else why it is a stub that
 * kernels/stages.cu compiles where the variant cannot run (an architecture older than its
 * switches need, or a codec it cannot compute on; the registry of kernels/variants.def decides,
 * as for sdpa-bench). A stub's few registers and no shared memory are not a kernel's resources:
 * they read n/a in every table, gate and figure. The reason goes to dst. */
const char *report_kernel_unsupported(const report_t *r, int i, char *dst, size_t n);

/* Lookups; -1 when absent (never an error). The comparison is the baseline/candidate pair's
 * first entry in the timing document's "comparisons". */
int report_find_comparison(const report_t *r);
int report_find_timing(const report_t *r, const char *variant, const char *shape);
int report_find_published_resource(const report_t *r, const char *variant, const char *arch);
/* "(B,H,S,D)" of a shape named in config.shapes, or "" when unknown. */
const char *report_shape_dims(const report_t *r, const char *shape, char *dst, size_t n);
/* "SHAPE (B,H,S,D)", the shape's name and its dimensions from config.shapes, as the tables label it. */
void report_shape_label(const report_t *r, const char *shape, char *dst, size_t n);
/* "emulated", "gpu" or "none": meta.timing of the timing document. */
const char *report_timing_kind(const report_t *r);
/* Human label of where the run executed: "NVIDIA L4 (cc 8.9, 58 SMs)" or "CPU emulator on ...". */
const char *report_device_label(const report_t *r, char *dst, size_t n);
/* The device of the timing document for a table header: meta.device.name, or REPORT_NO_GPU_DEVICE. */
#define REPORT_NO_GPU_DEVICE "CPU emulator (not a GPU)"
const char *report_device_name(const report_t *r);
/* The original study's device as data/published/seed-l4.json names it ("NVIDIA L4"): its "device"
 * up to the first " (". NULL with r->err set when the field is missing. */
const char *report_published_device(const report_t *r, char *dst, size_t n);

/* The original study's device, for occupancy modelled where no GPU was measured. seed-l4.json
 * names it only in prose ("NVIDIA L4 (sm_89), Google Cloud", from the original's validation
 * reports, GOATnote-Inc/periodicdent42); an L4 (AD104) has 58 SMs (NVIDIA L4 datasheet). */
#define ORIGINAL_DEVICE_ARCH "sm_89"
#define ORIGINAL_DEVICE_SMS 58
/* Where a run with a variant that needs sm_90 (the Hopper rows, none of which an L4 runs) timed no
 * GPU, occupancy is modelled for the device those rows are built for: an H100 SXM5, 132 SMs (the
 * committed H100 campaigns' meta.device.sm_count; NVIDIA's H100 datasheet). */
#define HOPPER_DEVICE_NAME "NVIDIA H100 SXM5"
#define HOPPER_DEVICE_ARCH "sm_90"
#define HOPPER_DEVICE_SMS 132

#endif
