/* See gpu_figdata.h. Blocks of a TSV (one per series) are separated by two blank lines, so that
 * gnuplot's `index i` selects series i; the series names are listed in plot-vars.gp. */
#include "gpu_figdata.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/arch.h"
#include "bench/roofline.h"
#include "figures.h"
#include "textbuf.h"

static const char *const FIG[GPU_FIG_COUNT] = {"scaling", "roofline", "ecdf", "profile"};
const char *gpu_fig_name(int k) { return FIG[k]; }

static int save(rbuf_t *b, const char *out, const gpu_campaign_t *c, const char *file, char *err, size_t n) {
    char name[128];
    snprintf(name, sizeof name, "gpu/%s/%s", c->tag, file);
    return rb_save(b, out, name, err, n);
}

/* scaling.tsv and roofline.tsv: the measured points of each series (variant or peer). */
static void scaling(const gpu_campaign_t *c, rbuf_t *sc, rbuf_t *rf, rbuf_t *vars, int *nseries) {
    rb_puts(sc, "# TFLOP/s = 4*B*H*S^2*D / median, with the TFLOP/s of the median's 95 % CI bounds\n"
                "# S\ttflops\ttflops_lo\ttflops_hi\n");
    rb_puts(rf, "# arithmetic intensity = FLOPs / minimum DRAM bytes (5*B*H*S*D: Q, K, V 1 byte, O 2 bytes)\n"
                "# intensity\ttflops\tS\n");
    rbuf_t names = {0};
    const char *prev = NULL;
    for (int i = 0; i < c->npts; i++) {
        const gpu_point_t *p = &c->pts[i];
        if (strcmp(p->status, "ok") != 0 || !isfinite(p->tflops)) continue;
        if (!prev || strcmp(prev, p->series) != 0) {
            if (prev) {
                rb_puts(sc, "\n\n");
                rb_puts(rf, "\n\n");
            }
            rb_printf(&names, "%s%s", prev ? " " : "", p->series);
            prev = p->series;
            (*nseries)++;
        }
        double f = 4 * p->B * p->H * (double)p->S * (double)p->S * p->D;
        rb_printf(sc, "%ld\t%.6g\t%.6g\t%.6g\n", p->S, p->tflops, f / (p->ci_hi * 1e6), f / (p->ci_lo * 1e6));
        rb_printf(rf, "%.6g\t%.6g\t%ld\n", f / (GPU_BYTES_PER_ELT * p->B * p->H * (double)p->S * p->D),
                  p->tflops, p->S);
    }
    gp_assign_str(vars, "scaling_series", names.s);
    rb_free(&names);
}

static int dcmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* ecdf.tsv: every kept sample of each variant of the history at its first shape, sorted. */
static int ecdf(const gpu_campaign_t *c, rbuf_t *t, rbuf_t *vars, int *nseries) {
    const char *shape = jo_str(cJSON_GetArrayItem(jo(jo(c->history, "config"), "shapes"), 0), "name");
    rb_puts(t, "# latency (us)\tfraction of samples <= latency\n");
    rbuf_t names = {0};
    const cJSON *e;
    cJSON_ArrayForEach(e, jo(c->history, "timing")) {
        const cJSON *s = jo(e, "samples_us");
        int n = cJSON_GetArraySize(s);
        if (!shape || !jo_eq(e, "shape", shape) || n <= 0) continue;
        double *x = malloc((size_t)n * sizeof *x);
        if (!x) return -1;
        for (int i = 0; i < n; i++) x[i] = cJSON_GetArrayItem(s, i)->valuedouble;
        qsort(x, (size_t)n, sizeof *x, dcmp);
        if (*nseries) rb_puts(t, "\n\n");
        for (int i = 0; i < n; i++) rb_printf(t, "%.9g\t%.9g\n", x[i], (i + 1.0) / n);
        free(x);
        rb_printf(&names, "%s%s", *nseries ? " " : "", jo_str(e, "variant"));
        (*nseries)++;
    }
    gp_assign_str(vars, "ecdf_series", names.s);
    gp_assign_str(vars, "ecdf_shape", shape);
    rb_free(&names);
    return 0;
}

/* profile.tsv: one row per metric, one column per variant measured, each metric divided by its
 * largest magnitude over the variants (a bar of 1 is the largest value of that metric). */
static void profile(const gpu_campaign_t *c, rbuf_t *t, rbuf_t *vars, int *nvariants) {
    const cJSON *vs = jo(c->profile, "variants"), *ms = jo(c->profile, "metrics"), *m, *v;
    rbuf_t names = {0};
    rb_puts(t, "# metric");
    cJSON_ArrayForEach(v, vs) {
        if (!jo_eq(v, "status", "ok")) continue;
        rb_printf(t, "\t%s", jo_str(v, "variant"));
        rb_printf(&names, "%s%s", *nvariants ? " " : "", jo_str(v, "variant"));
        (*nvariants)++;
    }
    rb_puts(t, "\n");
    cJSON_ArrayForEach(m, ms) {
        const char *name = jo_str(m, "name");
        double top = 0;
        cJSON_ArrayForEach(v, vs) {
            double x = jo_num(jo(v, "values"), name);
            if (jo_eq(v, "status", "ok") && isfinite(x) && fabs(x) > top) top = fabs(x);
        }
        rb_printf(t, "%s", jo_str(m, "label") ? jo_str(m, "label") : name);
        cJSON_ArrayForEach(v, vs) {
            if (!jo_eq(v, "status", "ok")) continue;
            double x = jo_num(jo(v, "values"), name);
            rb_printf(t, "\t%.6g", top > 0 && isfinite(x) ? x / top : NAN);
        }
        rb_puts(t, "\n");
    }
    gp_assign_str(vars, "profile_variants", names.s);
    rb_free(&names);
}

/* Nsight Compute reports DRAM traffic either as one total or as reads and writes. */
static const char *const DRAM_TOTAL = "dram__bytes.sum", *const DRAM_PARTS[] = {"dram__bytes_read.sum",
                                                                                "dram__bytes_write.sum"};

static bool has_metric(const gpu_campaign_t *c, const char *name) {
    const cJSON *m;
    cJSON_ArrayForEach(m, jo(c->profile, "metrics")) {
        if (jo_eq(m, "name", name)) return true;
    }
    return false;
}

const char *gpu_dram_metric(const gpu_campaign_t *c) {
    if (has_metric(c, DRAM_TOTAL)) return DRAM_TOTAL;
    if (has_metric(c, DRAM_PARTS[0]) && has_metric(c, DRAM_PARTS[1]))
        return "dram__bytes_read.sum + dram__bytes_write.sum";
    return NULL;
}

/* The DRAM bytes of one profiled variant's values (NaN when not measured). */
static double dram_bytes(const gpu_campaign_t *c, const cJSON *values) {
    if (has_metric(c, DRAM_TOTAL)) return jo_num(values, DRAM_TOTAL);
    return jo_num(values, DRAM_PARTS[0]) + jo_num(values, DRAM_PARTS[1]);
}

/* roofline-measured.tsv: the history's variants at the profile's shape, with the DRAM bytes the
 * profiler measured instead of the minimum (the figure names which is which). */
static int measured(const gpu_campaign_t *c, rbuf_t *t) {
    const char *dram = gpu_dram_metric(c), *shape = jo_str(c->profile, "shape");
    const cJSON *sh = jo_run_shape(c->history, shape), *e, *v;
    rb_puts(t, "# intensity (FLOPs / measured DRAM bytes)\ttflops\tvariant\n");
    if (!dram || !sh) return 0;
    double S = jo_num(sh, "S"), flops = 4 * jo_num(sh, "B") * jo_num(sh, "H") * S * S * jo_num(sh, "D");
    int n = 0;
    cJSON_ArrayForEach(v, jo(c->profile, "variants")) {
        double bytes = dram_bytes(c, jo(v, "values"));
        if (!jo_eq(v, "status", "ok") || !(bytes > 0)) continue;
        cJSON_ArrayForEach(e, jo(c->history, "timing")) {
            double med = jo_num(jo(e, "summary"), "median");
            if (!jo_eq(e, "variant", jo_str(v, "variant")) || !jo_eq(e, "shape", shape) || !(med > 0))
                continue;
            rb_printf(t, "%.6g\t%.6g\t%s\n", flops / bytes, flops / (med * 1e6), jo_str(v, "variant"));
            n++;
        }
    }
    return n;
}

double gpu_exp2_roof(const gpu_campaign_t *c, double *D, double *rate_tps) {
    *D = *rate_tps = NAN;
    const cJSON *d = jo(jo(c->device_run, "meta"), "device");
    if (!cJSON_IsObject(d)) return NAN;
    double rate = jo_num(d, "peak_exp2_tps"); /* recorded since schema 1.5.0 */
    if (!isfinite(rate))
        rate = roof_exp2_tps(arch_cc_from_string(jo_str(d, "cc")), (int)jo_num(d, "sm_count"),
                             jo_num(d, "sm_clock_default_mhz"));
    double dim = NAN;
    for (int i = 0; i < c->npts; i++) {
        if (strcmp(c->pts[i].status, "ok") != 0) continue;
        if (isnan(dim)) dim = c->pts[i].D;
        if (c->pts[i].D != dim) return NAN; /* one roof per head dimension: none for a mixed sweep */
    }
    if (!isfinite(rate) || !(dim > 0)) return NAN;
    *D = dim;
    *rate_tps = rate;
    return 4.0 * dim * rate; /* 4 D FLOPs per score, one exponential each: TFLOP/s */
}

int gpu_figdata_write(const gpu_campaign_t *c, const char *out, unsigned *figs, char *err, size_t n) {
    rbuf_t vars = {0}, sc = {0}, rf = {0}, ec = {0}, pr = {0}, me = {0};
    int ns = 0, ne = 0, np = 0;
    rb_puts(&vars, "# gnuplot variables of one GPU campaign's figures, written by sdpa-report paper\n");
    rb_printf(&vars, "emulated = %d\nfixture = %d\n", c->emulated, c->fixture);
    gp_assign_str(&vars, "device", jo_str(c->campaign, "device"));
    gp_assign_str(&vars, "campaign", c->id);
    /* the roofs: measured ceilings only (0 when not measured: no roof is drawn) */
    double f16 = gpu_ceiling(c, "gemm_fp16"), f8 = gpu_ceiling(c, "gemm_fp8_e4m3"),
           bw = gpu_ceiling(c, "copy_d2d");
    rb_printf(&vars, "ceil_fp16 = %.6g\nceil_fp8 = %.6g\nceil_copy_gbs = %.6g\n", isfinite(f16) ? f16 : 0,
              isfinite(f8) ? f8 : 0, isfinite(bw) ? bw : 0);
    double dim, rate, x2 = gpu_exp2_roof(c, &dim, &rate);
    rb_printf(&vars, "roof_exp2 = %.6g\nroof_exp2_d = %.6g\n", isfinite(x2) ? x2 : 0, isfinite(x2) ? dim : 0);
    scaling(c, &sc, &rf, &vars, &ns);
    if (ecdf(c, &ec, &vars, &ne) < 0) {
        snprintf(err, n, "out of memory");
        goto fail;
    }
    profile(c, &pr, &vars, &np);
    int nm = measured(c, &me);
    gp_assign_str(&vars, "measured_shape", nm ? jo_str(c->profile, "shape") : "");
    rb_printf(&vars, "n_scaling = %d\nn_ecdf = %d\nn_profile = %d\nn_measured = %d\n", ns, ne, np, nm);
    *figs = (ns ? GPU_FIG_SCALING | GPU_FIG_ROOFLINE : 0u) | (ne ? GPU_FIG_ECDF : 0u) |
            (np && c->profile ? GPU_FIG_PROFILE : 0u);
    if (save(&sc, out, c, "scaling.tsv", err, n) < 0 || save(&rf, out, c, "roofline.tsv", err, n) < 0 ||
        save(&ec, out, c, "ecdf.tsv", err, n) < 0 || save(&pr, out, c, "profile.tsv", err, n) < 0 ||
        save(&me, out, c, "roofline-measured.tsv", err, n) < 0)
        goto fail;
    return save(&vars, out, c, "plot-vars.gp", err, n);
fail:
    rb_free(&vars);
    rb_free(&sc);
    rb_free(&rf);
    rb_free(&ec);
    rb_free(&pr);
    rb_free(&me);
    return -1;
}
