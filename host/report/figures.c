/* See figures.h. */
#include "figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "textbuf.h"
#include "tables.h"

/* A single-quoted gnuplot string: gnuplot runs a `command` inside a double-quoted one (command-line
 * substitution), and the values come from result files, which may have arrived from elsewhere. Inside
 * single quotes nothing is substituted; a quote is doubled, a line end (which would start a new
 * gnuplot command) becomes a space. */
void gp_assign_str(rbuf_t *b, const char *name, const char *value) {
    rb_printf(b, "%s = '", name);
    for (const char *c = value ? value : ""; *c; c++) {
        if (*c == '\'')
            rb_puts(b, "''");
        else if (*c == '\n' || *c == '\r')
            rb_puts(b, " ");
        else
            rb_printf(b, "%c", *c);
    }
    rb_puts(b, "'\n");
}

/* Below this many kept samples of either variant a histogram shows nothing: the latency figure
 * draws the ECDF alone (figures/latency.gp reads it from plot-vars.gp). */
#define HIST_MIN_SAMPLES 30

static int save(report_t *r, rbuf_t *b, const char *name) {
    return rb_save(b, r->dir, name, r->err, sizeof r->err);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static bool has_samples(report_t *r, const char *variant, const char *shape) {
    int t = report_find_timing(r, variant, shape);
    return t >= 0 && cJSON_GetArraySize(jo(cJSON_GetArrayItem(jo(r->T.root, "timing"), t), "samples_us")) > 0;
}

/* samples-<variant>-<shape>.tsv for every timing entry; fills the list of timed shapes. */
static int samples_tsv(report_t *r, rbuf_t *shapes) {
    const rj_t *d = &r->T;
    int n = rj_len(d, "timing");
    TRY(n);
    for (int i = 0; i < n; i++) {
        const char *v = rj_str(d, "timing.%d.variant", i), *sh = rj_str(d, "timing.%d.shape", i);
        int m = rj_len(d, "timing.%d.samples_us", i);
        if (!v || !sh || m < 0) return -1;
        double *x = malloc(((size_t)m + 1) * sizeof *x);
        if (!x) {
            snprintf(r->err, sizeof r->err, "out of memory");
            return -1;
        }
        for (int k = 0; k < m; k++)
            if (rj_num(d, &x[k], "timing.%d.samples_us.%d", i, k) < 0) {
                free(x);
                return -1;
            }
        qsort(x, (size_t)m, sizeof *x, cmp_double);
        rbuf_t b = {0};
        rb_printf(
            &b,
            "# %s at %s: kept samples (us, sorted) and their empirical CDF; timing %s\n# sample_us\tecdf\n",
            v, sh, report_timing_kind(r));
        for (int k = 0; k < m; k++) rb_printf(&b, "%.15g\t%.15g\n", x[k], (k + 1.0) / m);
        free(x);
        char name[256];
        snprintf(name, sizeof name, "samples-%s-%s.tsv", v, sh);
        TRY(save(r, &b, name));
    }
    /* a shape is plotted when baseline and candidate both kept samples there */
    for (int i = 0; i < n; i++) {
        const char *sh = rj_str(d, "timing.%d.shape", i);
        char word[80];
        snprintf(word, sizeof word, " %s ", sh);
        if (strstr(shapes->s, word) || !has_samples(r, r->baseline, sh) || !has_samples(r, r->candidate, sh))
            continue;
        rb_printf(shapes, "%s ", sh);
    }
    return 0;
}

static int speedup_tsv(report_t *r) {
    const rj_t *d = &r->T;
    rbuf_t b = {0};
    int n = rj_len(d, "comparisons");
    TRY_B(n);
    rb_puts(&b, "# speedup t_base/t_new per compared shape with its 95 % bootstrap CI, and the gate\n"
                "# x\tshape\tspeedup\tci_lo\tci_hi\tgate\ttiming\n");
    for (int i = 0; i < n; i++) {
        const char *sh = rj_str(d, "comparisons.%d.shape", i), *kind = rj_str(d, "comparisons.%d.timing", i);
        double sp, lo, hi;
        if (!sh || !kind) {
            rb_free(&b);
            return -1;
        }
        TRY_B(rj_num(d, &sp, "comparisons.%d.speedup", i));
        TRY_B(rj_num(d, &lo, "comparisons.%d.speedup_ci.0", i));
        TRY_B(rj_num(d, &hi, "comparisons.%d.speedup_ci.1", i));
        rb_printf(&b, "%d\t%s\t%.15g\t%.15g\t%.15g\t%.15g\t%s\n", i, sh, sp, lo, hi, r->gate_speedup, kind);
    }
    return save(r, &b, "speedup.tsv");
}

static int correctness_tsv(report_t *r, int *ncases) {
    const rj_t *d = &r->R;
    rbuf_t b = {0};
    int n = rj_len(d, "correctness");
    TRY_B(n);
    rb_puts(&b, "# per correctness case (shape, seed) and variant: kernel-only rel-L2, end-to-end rel-L2, "
                "largest err/bar ratio\n# case\tlabel\tvariant\tkernel_rel_l2\te2e_rel_l2\tworst_ratio\n");
    /* cases are numbered in order of first appearance of (shape, seed) */
    char(*labels)[64] = calloc((size_t)n + 1, sizeof *labels);
    if (!labels) {
        rb_free(&b);
        snprintf(r->err, sizeof r->err, "out of memory");
        return -1;
    }
    int nl = 0;
    for (int i = 0; i < n; i++) {
        const char *v = rj_str(d, "correctness.%d.variant", i), *sh = rj_str(d, "correctness.%d.shape", i);
        const char *seed = rj_str(d, "correctness.%d.seed", i);
        double k, e, w;
        if (!v || !sh || !seed || rj_num(d, &k, "correctness.%d.kernel_only.rel_l2", i) < 0 ||
            rj_num(d, &e, "correctness.%d.end_to_end.rel_l2", i) < 0 ||
            rj_num(d, &w, "correctness.%d.kernel_only.worst_ratio", i) < 0) {
            free(labels);
            rb_free(&b);
            return -1;
        }
        char label[64];
        snprintf(label, sizeof label, "%s/%s", sh, seed);
        int c = 0;
        while (c < nl && strcmp(labels[c], label) != 0) c++;
        if (c == nl) snprintf(labels[nl++], sizeof labels[0], "%s", label);
        rb_printf(&b, "%d\t%s\t%s\t%.15g\t%.15g\t%.15g\n", c, label, v, k, e, w);
    }
    free(labels);
    *ncases = nl;
    return save(r, &b, "correctness.tsv");
}

/* One row per (variant, arch) of this build for the pair, plus the published sm_89 values.
 * *published: whether the original published any of them (the figure's key names it only then). */
static int ptxas_tsv(report_t *r, bool *published) {
    rbuf_t b = {0};
    rb_puts(&b, "# registers and static shared memory per variant and arch; published = the original study "
                "(L4, sm_89), NaN where it published nothing\n"
                "# x\tlabel\tregisters\tsmem_kib\tpublished_registers\tpublished_smem_kib\n");
    const char *vs[2] = {r->baseline, r->candidate};
    int x = 0;
    for (int k = 0; k < 2; k++) {
        int p = report_find_published_resource(r, vs[k], ORIGINAL_DEVICE_ARCH);
        double preg = NAN, psmem = NAN;
        if (p >= 0) {
            *published = true;
            TRY_B(rj_num(&r->PUB, &preg, "resources.%d.registers", p));
            TRY_B(rj_num(&r->PUB, &psmem, "resources.%d.static_smem_bytes", p));
        }
        int rows = 0, i = 0;
        const cJSON *e, *kernels = r->have_ptxas ? jo(r->P.root, "kernels") : NULL;
        cJSON_ArrayForEach(e, kernels) {
            char why[128];
            if (jo_eq(e, "variant", vs[k]) && !report_kernel_unsupported(r, i, why, sizeof why)) {
                double reg, smem;
                const char *arch = rj_str(&r->P, "kernels.%d.arch", i);
                char label[64];
                if (!arch) {
                    rb_free(&b);
                    return -1;
                }
                report_kernel_label(r, i, label, sizeof label);
                TRY_B(rj_num(&r->P, &reg, "kernels.%d.registers", i));
                TRY_B(rj_num(&r->P, &smem, "kernels.%d.static_smem_bytes", i));
                bool mark = strcmp(arch, ORIGINAL_DEVICE_ARCH) == 0;
                rb_printf(&b, "%d\t%s %s\t%.15g\t%.15g\t%.15g\t%.15g\n", x++, vs[k], label, reg, smem / 1024,
                          mark ? preg : NAN, mark ? psmem / 1024 : NAN);
                rows++;
            }
            i++;
        }
        if (!rows) rb_printf(&b, "%d\t%s/sm_89\tNaN\tNaN\t%.15g\t%.15g\n", x++, vs[k], preg, psmem / 1024);
    }
    return save(r, &b, "ptxas.tsv");
}

static int plot_vars(report_t *r, const char *shapes, int ncases, bool published) {
    rbuf_t b = {0};
    char dev[256], dims[64];
    report_device_label(r, dev, sizeof dev);
    const char *kind = report_timing_kind(r);
    rb_puts(&b, "# gnuplot variables of this run, written by sdpa-report (loaded by figures/*.gp)\n");
    gp_assign_str(&b, "experiment", r->experiment);
    gp_assign_str(&b, "run_id", r->run_id);
    gp_assign_str(&b, "baseline", r->baseline);
    gp_assign_str(&b, "candidate", r->candidate);
    gp_assign_str(&b, "backend", rj_str(&r->T, "meta.backend"));
    gp_assign_str(&b, "device", dev);
    gp_assign_str(&b, "timing", kind);
    rb_printf(&b, "emulated = %d\n", strcmp(kind, "gpu") != 0);
    rb_printf(&b, "gate_speedup = %.10g\n", r->gate_speedup);
    tolerances_t t;
    TRY_B(report_tolerances(r, &t));
    rb_printf(&b, "kernel_rel_l2 = %.10g\ne2e_rel_l2 = %.10g\nn_cases = %d\n", t.kernel_rel_l2, t.e2e_rel_l2,
              ncases);
    /* Each side's own kernel-only bar (stage 6 is judged by the fp8p family's, 7e-2). */
    double bar_base, bar_cand;
    TRY_B(report_variant_rel_l2_bar(r, r->baseline, t.kernel_rel_l2, &bar_base));
    TRY_B(report_variant_rel_l2_bar(r, r->candidate, t.kernel_rel_l2, &bar_cand));
    rb_printf(&b, "kernel_rel_l2_base = %.10g\nkernel_rel_l2_cand = %.10g\n", bar_base, bar_cand);
    rb_printf(&b, "has_ptxas = %d\nhas_published = %d\nhist_min_samples = %d\n", r->have_ptxas, published,
              HIST_MIN_SAMPLES);
    gp_assign_str(&b, "ptxas_note", r->have_ptxas ? "" : r->ptxas_missing);
    double regs, smem, wide_lo, wide;
    TRY_B(report_static_budget(r, STATIC_BUDGET_REGS, &regs));
    TRY_B(report_static_budget(r, STATIC_BUDGET_SMEM, &smem));
    TRY_B(report_wide_register_budget(r, r->candidate, &wide_lo, &wide, NULL, 0));
    /* max_registers_d128: the candidate's (highest) D = 128 budget where it has its own, else 0 (no line) */
    rb_printf(&b, "max_registers = %.10g\nmax_registers_d128 = %.10g\nmax_smem_kib = %.10g\n", regs,
              wide == wide ? wide : 0, smem / 1024);
    gp_assign_str(&b, "timed_shapes", shapes);
    rbuf_t dl = {0};
    char word[64];
    for (const char *s = shapes; sscanf(s, "%63s", word) == 1; s = strstr(s, word) + strlen(word))
        rb_printf(&dl, "%s ", report_shape_dims(r, word, dims, sizeof dims));
    gp_assign_str(&b, "timed_dims", dl.s ? dl.s : "");
    rb_free(&dl);
    return save(r, &b, "plot-vars.gp");
}

/* A figure paragraph; caption always names backend and device, and EMULATED when so. */
static void figure(rbuf_t *b, report_t *r, const char *file, const char *id, const char *what, bool timing) {
    char dev[256];
    report_device_label(r, dev, sizeof dev);
    bool emulated = timing && strcmp(report_timing_kind(r), "gpu") != 0;
    rb_printf(b, "![%s Backend %s; %s.%s](%s/%s){#%s width=100%%}\n\n", what, rj_str(&r->T, "meta.backend"),
              dev, emulated ? " EMULATED (CPU) TIMINGS, NOT GPU TIMINGS." : "", "{figdir}", file, id);
}

static int fragments(report_t *r, const char *shapes) {
    rbuf_t b = {0};
    char word[64], dims[64], what[512], file[128], id[128], bar[32];
    for (const char *s = shapes; sscanf(s, "%63s", word) == 1; s = strstr(s, word) + strlen(word)) {
        int nb = rj_len(&r->T, "timing.%d.samples_us", report_find_timing(r, r->baseline, word)),
            nc = rj_len(&r->T, "timing.%d.samples_us", report_find_timing(r, r->candidate, word));
        char hist[128] = "and histogram (right) ";
        if (nb < HIST_MIN_SAMPLES || nc < HIST_MIN_SAMPLES)
            snprintf(hist, sizeof hist, "(no histogram: fewer than %d samples per variant) ",
                     HIST_MIN_SAMPLES);
        snprintf(what, sizeof what,
                 "Latency of %s and %s at shape %s %s, in µs: empirical CDF %sof every kept sample, medians "
                 "marked.",
                 r->baseline, r->candidate, word, report_shape_dims(r, word, dims, sizeof dims), hist);
        snprintf(file, sizeof file, "latency-%s.png", word);
        snprintf(id, sizeof id, "fig:latency-%s", word);
        figure(&b, r, file, id, what, true);
    }
    TRY(tables_save(r, &b, "fig-latency.md"));
    if (rj_len(&r->T, "comparisons") > 0) {
        snprintf(
            what, sizeof what,
            "Speedup $t_\\text{%s}/t_\\text{%s}$ with its 95 %% bootstrap CI per compared shape, against the "
            "gate %s (dashed), which the CI's lower end must clear.",
            r->baseline, r->candidate, fmt_bar(bar, sizeof bar, r->gate_speedup));
        figure(&b, r, "speedup.png", "fig:speedup", what, true);
    }
    TRY(tables_save(r, &b, "fig-speedup.md"));
    figure(&b, r, "correctness.png", "fig:correctness",
           "Errors per shape and seed (log scale): kernel-only rel-L2 against its bar, end-to-end rel-L2 "
           "against "
           "its bar (dashed lines).",
           false);
    TRY(tables_save(r, &b, "fig-correctness.md"));
    figure(&b, r, "ptxas.png", "fig:ptxas",
           "ptxas registers per thread and static shared memory per variant and arch, against the budgets "
           "(dashed) and the original study's published sm_89 values (open markers).",
           false);
    return tables_save(r, &b, "fig-ptxas.md");
}

int figs_write(report_t *r, const gates_t *g) {
    (void)g;
    rbuf_t shapes = {0};
    rb_puts(&shapes, " ");
    int ncases = 0;
    int rc = samples_tsv(r, &shapes);
    const char *list = shapes.s + 1;
    if (rc == 0) rc = speedup_tsv(r);
    if (rc == 0) rc = correctness_tsv(r, &ncases);
    bool published = false;
    if (rc == 0) rc = ptxas_tsv(r, &published);
    if (rc == 0) rc = plot_vars(r, list, ncases, published);
    if (rc == 0) rc = fragments(r, list);
    rb_free(&shapes);
    return rc;
}
