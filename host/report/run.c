/* See run.h. */
#include "run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/variants.h"
#include "json_file.h"

static cJSON *load(const char *path, const char *kind, rj_t *acc, report_t *r) {
    cJSON *doc = results_load(path, kind, r->err, sizeof r->err);
    *acc = (rj_t){.root = doc, .file = path, .err = r->err, .errlen = sizeof r->err};
    return doc;
}

/* The run's variants must be the experiment's: a report about the wrong pair is worse than none. */
static int check_variants(report_t *r) {
    const char *base = rj_str(&r->R, "config.baseline");
    if (!base) return -1;
    if (strcmp(base, r->baseline) != 0) {
        snprintf(r->err, sizeof r->err, "%s: field 'config.baseline' is '%s', experiment.mk says '%s'",
                 r->run_path, base, r->baseline);
        return -1;
    }
    int n = rj_len(&r->R, "config.variants");
    for (int i = 0; i < n; i++) {
        const char *v = rj_str(&r->R, "config.variants.%d", i);
        if (!v) return -1;
        if (strcmp(v, r->candidate) == 0) return 0;
    }
    if (n >= 0)
        snprintf(r->err, sizeof r->err, "%s: field 'config.variants' lacks the candidate '%s'", r->run_path,
                 r->candidate);
    return -1;
}

int report_load(report_t *r, const char *published_path) {
    snprintf(r->run_path, sizeof r->run_path, "%s/run.json", r->dir);
    snprintf(r->timing_path, sizeof r->timing_path, "%s/run-timing.json", r->dir);
    snprintf(r->ptxas_path, sizeof r->ptxas_path, "%s/ptxas.json", r->dir);
    snprintf(r->pub_path, sizeof r->pub_path, "%s", published_path);

    if (!(r->run = load(r->run_path, "sdpa-bench-run", &r->R, r))) return -1;
    if (access(r->timing_path, F_OK) == 0) {
        if (!(r->timing = load(r->timing_path, "sdpa-bench-run", &r->T, r))) return -1;
    } else {
        r->T = r->R;
    }
    if (access(r->ptxas_path, F_OK) == 0) {
        if (!(r->ptxas_doc = load(r->ptxas_path, "ptxas-resources", &r->P, r))) return -1;
        r->have_ptxas = true;
    } else if (rj_present(&r->R, "ptxas")) {
        r->P = (rj_t){
            .root = rj_node(&r->R, "ptxas"), .file = r->run_path, .err = r->err, .errlen = sizeof r->err};
        r->have_ptxas = true;
    } else {
        r->ptxas_missing = rj_present(&r->R, "meta.nvcc") ? "no ptxas.json in this run" : "nvcc not found";
    }
    if (!(r->pub = load(r->pub_path, "published-figures", &r->PUB, r))) return -1;
    if (!rj_str(&r->R, "meta.backend") || !rj_str(&r->T, "meta.timing")) return -1;
    return check_variants(r);
}

int report_load_summarised(report_t *r, cJSON **summary, const char *dir, const char *name,
                           const char *published, char *err, size_t n) {
    char path[REPORT_PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/summary.json", dir);
    *summary = results_load(path, "experiment-summary", err, n);
    if (!*summary) return -1;
    rj_t d = {*summary, path, err, n};
    const char *base = rj_str(&d, "baseline"), *cand = rj_str(&d, "candidate"), *id = rj_str(&d, "run_id");
    if (!base || !cand || !id || !rj_str(&d, "verdict")) return -1;
    *r = (report_t){.dir = dir,
                    .experiment = name,
                    .run_id = id,
                    .title = name,
                    .baseline = base,
                    .candidate = cand,
                    .gate_speedup = 1};
    if (report_load(r, published) < 0) {
        snprintf(err, n, "%s", r->err);
        return -1;
    }
    return 0;
}

void report_free(report_t *r) {
    cJSON_Delete(r->run);
    cJSON_Delete(r->timing);
    cJSON_Delete(r->ptxas_doc);
    cJSON_Delete(r->pub);
    r->run = r->timing = r->ptxas_doc = r->pub = NULL;
}

int report_find_timing(const report_t *r, const char *variant, const char *shape) {
    int i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, jo(r->T.root, "timing")) {
        if (jo_eq(e, "variant", variant) && jo_eq(e, "shape", shape)) return i;
        i++;
    }
    return -1;
}

int report_find_comparison(const report_t *r) {
    int i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, jo(r->T.root, "comparisons")) {
        if (jo_eq(e, "baseline", r->baseline) && jo_eq(e, "candidate", r->candidate)) return i;
        i++;
    }
    return -1;
}

int report_find_published_resource(const report_t *r, const char *variant, const char *arch) {
    int i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, jo(r->PUB.root, "resources")) {
        if (jo_eq(e, "variant", variant) && (!arch || jo_eq(e, "arch", arch))) return i;
        i++;
    }
    return -1;
}

const char *report_shape_dims(const report_t *r, const char *shape, char *dst, size_t n) {
    dst[0] = '\0';
    const cJSON *e = jo_run_shape(r->R.root, shape);
    if (e) snprintf(dst, n, "(%g,%g,%g,%g)", jo_num(e, "B"), jo_num(e, "H"), jo_num(e, "S"), jo_num(e, "D"));
    return dst;
}

void report_shape_label(const report_t *r, const char *shape, char *dst, size_t n) {
    char dims[64];
    snprintf(dst, n, "%s %s", shape, report_shape_dims(r, shape, dims, sizeof dims));
}

const char *report_timing_kind(const report_t *r) {
    const char *t = jo_str(jo(r->T.root, "meta"), "timing");
    return t ? t : "none";
}

const char *report_device_label(const report_t *r, char *dst, size_t n) {
    const cJSON *meta = jo(r->T.root, "meta");
    const cJSON *dev = jo(meta, "device");
    if (!cJSON_IsObject(dev)) dev = jo(jo(r->R.root, "meta"), "device");
    if (cJSON_IsObject(dev)) {
        const char *name = jo_str(dev, "name"), *cc = jo_str(dev, "cc");
        snprintf(dst, n, "%s (cc %s, %.0f SMs)", name ? name : "unknown GPU", cc ? cc : "?",
                 jo_num(dev, "sm_count"));
    } else {
        const char *cpu = jo_str(jo(meta, "host"), "cpu");
        snprintf(dst, n, "CPU emulator on %s", cpu ? cpu : "an unknown CPU");
    }
    return dst;
}

const char *report_device_name(const report_t *r) {
    const char *name = jo_str(jo(jo(r->T.root, "meta"), "device"), "name");
    return name ? name : REPORT_NO_GPU_DEVICE;
}

const char *report_published_device(const report_t *r, char *dst, size_t n) {
    const char *dev = rj_str(&r->PUB, "device");
    if (!dev) return NULL;
    const char *paren = strstr(dev, " (");
    snprintf(dst, n, "%.*s", paren ? (int)(paren - dev) : (int)strlen(dev), dev);
    return dst;
}

int report_static_budget(report_t *r, int k, double *out) {
    static const char *const keys[4] = {"max_registers", "max_spill_bytes", "max_local_bytes",
                                        "max_static_smem_bytes"};
    if (r->have_budget) {
        *out = r->budget[k];
        return 0;
    }
    if (!r->have_ptxas) {
        snprintf(r->err, sizeof r->err, "no static budget: neither --static-budget nor a ptxas.json");
        return -1;
    }
    return rj_num(&r->P, out, "gates.%s", keys[k]);
}

int report_tolerances(report_t *r, tolerances_t *t) {
    static const char *const f[] = {"kernel_rel_l2",  "e2e_rel_l2",      "e2e_cosine",
                                    "legacy_max_abs", "legacy_mean_abs", "legacy_pct_bad"};
    double x[6];
    for (int k = 0; k < 6; k++)
        if (rj_num(&r->R, &x[k], "config.tolerances.%s", f[k]) < 0) return -1;
    *t = (tolerances_t){x[0], x[1], x[2], x[3], x[4], x[5]};
    return 0;
}

static const cJSON *kernel(const report_t *r, int i) {
    return r->have_ptxas ? cJSON_GetArrayItem(jo(r->P.root, "kernels"), i) : NULL;
}

int report_register_budget(report_t *r, int i, double *out, bool *wide) {
    if (wide) *wide = false;
    if (report_static_budget(r, STATIC_BUDGET_REGS, out) != 0) return -1;
    const cJSON *g = jo(kernel(r, i), "geometry");
    const double d = jo_num(g, "head_dim"), w = jo_num(g, "warps");
    if (!(d == d) || d == 64) return 0;
    if (!(w >= 1 && w <= 32 && d >= 1 && d <= 1024)) {
        snprintf(r->err, sizeof r->err, "%s: kernels.%d.geometry: head_dim %g without a valid warps (%g)",
                 r->P.file, i, d, w);
        return -1;
    }
    *out = SDPA_REG_CAP(32 * (int)w, (int)d);
    if (wide) *wide = true;
    return 0;
}

static int wide_budget(report_t *r, int i, const char *label, void *ctx) {
    (void)label;
    double limit, *lohi = ctx;
    bool wide;
    if (report_register_budget(r, i, &limit, &wide) != 0) return -1;
    if (wide && !(lohi[0] <= limit)) lohi[0] = limit;
    if (wide && !(lohi[1] >= limit)) lohi[1] = limit;
    return 0;
}

int report_wide_register_budget(report_t *r, const char *variant, double *lo, double *hi, char *text,
                                size_t n) {
    double own, lohi[2] = {NAN, NAN};
    *lo = *hi = NAN;
    if (n) text[0] = '\0';
    if (report_static_budget(r, STATIC_BUDGET_REGS, &own) != 0 ||
        report_ptxas_each(r, variant, wide_budget, lohi) != 0)
        return -1;
    if (!(lohi[0] == lohi[0]) || (lohi[0] == own && lohi[1] == own)) return 0;
    *lo = lohi[0], *hi = lohi[1];
    if (n) snprintf(text, n, *lo < *hi ? "%.0f to %.0f" : "%.0f", *lo, *hi);
    return 0;
}

/* "sm_90a e4m3 d128 causal": the code ptxas compiled for ("target"; files from before it existed:
 * "arch"), the codec, and an instance beyond D = 64 non-causal (its geometry's head dimension, its
 * mask), so that a wide row's four instances are told apart. */
const char *report_kernel_label(const report_t *r, int i, char *dst, size_t n) {
    const cJSON *k = kernel(r, i);
    const char *arch = jo_str(k, "target") ? jo_str(k, "target") : jo_str(k, "arch"),
               *codec = jo_str(k, "codec");
    const double d = jo_num(jo(k, "geometry"), "head_dim");
    char dim[16] = "";
    if (d == d && d != 64) snprintf(dim, sizeof dim, " d%.0f", d);
    snprintf(dst, n, "%s%s%s%s%s", arch ? arch : "?", codec ? " " : "", codec ? codec : "", dim,
             cJSON_IsTrue(cJSON_GetObjectItem(k, "causal")) ? " causal" : "");
    return dst;
}

int report_ptxas_each(report_t *r, const char *variant,
                      int (*fn)(report_t *r, int i, const char *label, void *ctx), void *ctx) {
    if (!r->have_ptxas) return 0;
    const rj_t *d = &r->P;
    int n = rj_len(d, "kernels");
    if (n < 0) return -1;
    for (int i = 0; i < n; i++) {
        const char *v = rj_str(d, "kernels.%d.variant", i);
        char label[64];
        if (!v || !rj_str(d, "kernels.%d.arch", i)) return -1;
        if (strcmp(v, variant) != 0) continue;
        int rc = fn(r, i, report_kernel_label(r, i, label, sizeof label), ctx);
        if (rc != 0) return rc;
    }
    return 0;
}

const char *report_kernel_unsupported(const report_t *r, int i, char *dst, size_t n) {
    const cJSON *k = kernel(r, i);
    return variants_build_stub(jo_str(k, "variant"), jo_str(k, "arch"), jo_str(k, "codec"), dst, n);
}

bool report_kernel_of_run(const report_t *r, int i) {
    const char *codec = jo_str(kernel(r, i), "codec");
    return !codec || jo_eq(jo(r->R.root, "config"), "codec", codec);
}
