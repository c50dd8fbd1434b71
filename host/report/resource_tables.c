/* See resource_tables.h. */
#include "resource_tables.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "textbuf.h"
#include "tables.h"
#include "ptxas/occupancy.h"
#include "bench/variants.h"

#define N 64

/* One ptxas entry of a variant in this build as a table row. */
static int ptxas_row(report_t *r, int i, const char *arch, void *ctx) {
    rbuf_t *b = ctx;
    const rj_t *d = &r->P;
    char why[128];
    if (report_kernel_unsupported(r, i, why, sizeof why)) {
        const char *v = rj_str(d, "kernels.%d.variant", i);
        if (!v) return -1;
        md_row(b, 9, v, arch, "this build: a stub", NA_MARK, NA_MARK, NA_MARK, NA_MARK, NA_MARK, why);
        return 0;
    }
    static const char *const f[] = {
        "registers",   "static_smem_bytes",      "stack_bytes", "spill_store_bytes", "spill_load_bytes",
        "local_bytes", "occupancy.blocks_per_sm"};
    double x[7];
    TRY(rj_nums(d, x, "kernels.%d.%s", i, f, 7));
    const char *lim = rj_str(d, "kernels.%d.occupancy.limited_by", i),
               *v = rj_str(d, "kernels.%d.variant", i);
    bool ok;
    if (!lim || !v) return -1;
    TRY(rj_bool(d, &ok, "kernels.%d.pass", i));
    char c[6][N], occ[N];
    snprintf(occ, N, "%.0f (%s)", x[6], lim);
    for (char *u = occ; *u; u++)
        if (*u == '_') *u = ' '; /* shared_memory -> shared memory */
    md_row(b, 9, v, arch, "this build", fmt_num(c[0], N, "%.0f", x[0]), fmt_int(c[1], N, x[1]),
           fmt_num(c[2], N, "%.0f", x[2]), fmt_num(c[3], N, "%.0f", x[3] + x[4]),
           fmt_num(c[4], N, "%.0f", x[5]), occ);
    return 0;
}

/* ptxas rows of a variant in this build, then the published row of the original. */
static int ptxas_rows(report_t *r, rbuf_t *b, const char *variant) {
    TRY(report_ptxas_each(r, variant, ptxas_row, b));
    int p = report_find_published_resource(r, variant, NULL);
    if (p >= 0) {
        const rj_t *d = &r->PUB;
        double x[4];
        static const char *const f[] = {"registers", "static_smem_bytes", "stack_bytes", "spill_store_bytes"};
        TRY(rj_nums(d, x, "resources.%d.%s", p, f, 4));
        const char *arch = rj_str(d, "resources.%d.arch", p), *src = rj_str(d, "resources.%d.source", p);
        if (!arch || !src) return -1;
        char label[N * 2], c[4][N];
        snprintf(label, sizeof label, "published (original study, L4): %s", src);
        md_row(b, 9, variant, arch, label, fmt_num(c[0], N, "%.0f", x[0]), fmt_int(c[1], N, x[1]),
               fmt_num(c[2], N, "%.0f", x[2]), fmt_num(c[3], N, "%.0f", x[3]), NA_MARK, NA_MARK);
    }
    return 0;
}

int table_ptxas(report_t *r, const gates_t *g) {
    (void)g;
    rbuf_t b = {0};
    if (r->have_ptxas) {
        double x[4], lo, hi;
        for (int k = 0; k < 4; k++) TRY_B(report_static_budget(r, k, &x[k]));
        char s[N], w[N * 4] = "", caps[N];
        TRY_B(report_wide_register_budget(r, r->candidate, &lo, &hi, caps, sizeof caps));
        if (lo == lo)
            snprintf(
                w, sizeof w,
                " (%s for %s's builds at D = 128: the cap of each one's launch bounds, kernels/geometry.h, "
                "as the methods fix it)",
                caps, r->candidate);
        rb_printf(
            &b,
            "Budgets of the experiment: at most %.0f registers per thread%s, %.0f spill bytes, %.0f bytes "
            "of local memory and %s bytes of static shared memory per block, on every architecture "
            "built.\n",
            x[STATIC_BUDGET_REGS], w, x[STATIC_BUDGET_SPILL], x[STATIC_BUDGET_LOCAL],
            fmt_int(s, N, x[STATIC_BUDGET_SMEM]));
    } else {
        rb_printf(
            &b,
            "**Static gates NOT EVALUATED: %s.** This run has no ptxas resource file; only the original "
            "study's published values are shown.\n",
            r->ptxas_missing);
    }
    static const md_col_t cols[] = {
        {"variant", 8, 'l'},    {"arch (codec)", 9, 'l'},    {"source", 24, 'l'},
        {"registers", 8, 'r'},  {"static smem (B)", 9, 'r'}, {"stack (B)", 7, 'r'},
        {"spills (B)", 7, 'r'}, {"local (B)", 7, 'r'},       {"blocks/SM (limited by)", 14, 'l'}};
    md_table_head(&b, cols, 9);
    TRY_B(ptxas_rows(r, &b, r->baseline));
    TRY_B(ptxas_rows(r, &b, r->candidate));
    md_table_caption(&b, "tbl:ptxas",
                     "ptxas resources per variant and architecture, from ptxas.json, beside the "
                     "values the original study published for the NVIDIA L4 (sm_89), from "
                     "data/published/seed-l4.json.");
    return tables_save(r, &b, "ptxas.md");
}

/* ---- occupancy.md: CTAs per SM and waves, so that an occupancy change is not credited to the switch */

/* The device occupancy is stated for: the GPU of the timing run; else, modelled, the original's,
 * or an H100 where baseline or candidate needs sm_90 (the Hopper rows: an L4 runs none of them). */
typedef struct {
    char arch[16], name[256];
    double sms;
    bool measured, hopper; /* hopper: modelled for the Hopper line's device, not the original's */
    const char *whose;     /* "the device measured", "the original's device", "the Hopper line's device" */
} occ_device_t;

static bool needs_hopper(const char *variant) {
    const variant_info_t *v = variants_find(variant);
    return v && (variants_min_sm(v->sw) >= 90 || variants_exact_sm(v->sw) == 90);
}

static int occ_device(report_t *r, occ_device_t *d) {
    const rj_t *T = &r->T;
    if (!cJSON_IsObject(jo(jo(T->root, "meta"), "device"))) {
        d->measured = false;
        d->hopper = needs_hopper(r->baseline) || needs_hopper(r->candidate);
        if (d->hopper) {
            snprintf(d->name, sizeof d->name, "%s", HOPPER_DEVICE_NAME);
            snprintf(d->arch, sizeof d->arch, "%s", HOPPER_DEVICE_ARCH);
            d->sms = HOPPER_DEVICE_SMS;
            d->whose = "the Hopper line's device";
            return 0;
        }
        if (!report_published_device(r, d->name, sizeof d->name)) return -1;
        snprintf(d->arch, sizeof d->arch, "%s", ORIGINAL_DEVICE_ARCH);
        d->sms = ORIGINAL_DEVICE_SMS;
        d->whose = "the original's device";
        return 0;
    }
    const char *cc = rj_str(T, "meta.device.cc"), *name = rj_str(T, "meta.device.name");
    if (!cc || !name) return -1;
    TRY(rj_num(T, &d->sms, "meta.device.sm_count"));
    size_t k = (size_t)snprintf(d->arch, sizeof d->arch, "sm_"); /* "8.9" -> "sm_89", as ptxas.json */
    for (const char *c = cc; *c && k + 1 < sizeof d->arch; c++)
        if (*c != '.') d->arch[k++] = *c;
    d->arch[k] = '\0';
    snprintf(d->name, sizeof d->name, "%s", name);
    d->measured = true;
    d->hopper = false;
    d->whose = "the device measured";
    return 0;
}

/* One variant's occupancy on the device's arch, for the build the run used (its codec). */
typedef struct {
    const char *variant, *arch;
    double head_dim; /* the kernel instance: the run's head dimension */
    bool causal;     /* ... and its mask (a causal instance is another kernel, listed before) */
    char label[64], limiter[32], why[160];
    double ctas;   /* CTAs per SM; NaN when unknown (why says so) */
    double tile_m; /* query rows per CTA (its geometry); NaN when no file records it */
} occ_variant_t;

/* A variant's rows per CTA from the run JSON's config.geometry, at head dimension D. A file of
 * schema 1.3.0 or older without it needs none: it was written before the geometry became a
 * parameter, when every variant ran 32 rows per CTA (data/SCHEMA.md, config.geometry); every 1.4.0
 * writer records it. */
#define PRE_GEOMETRY_TILE_M 32
static double run_tile_m(const rj_t *T, const char *variant, double D) {
    const char *version = rj_str(T, "schema_version");
    int major = 0, minor = 0;
    if (!rj_present(T, "config.geometry") && version && sscanf(version, "%d.%d", &major, &minor) == 2 &&
        major == 1 && minor < 4)
        return PRE_GEOMETRY_TILE_M;
    const int n = rj_len(T, "config.geometry");
    for (int i = 0; i < n; i++) {
        double d, m;
        if (!jo_eq(cJSON_GetArrayItem(jo(jo(T->root, "config"), "geometry"), i), "variant", variant))
            continue;
        if (rj_num(T, &d, "config.geometry.%d.head_dim", i) == 0 && d == D &&
            rj_num(T, &m, "config.geometry.%d.tile_m", i) == 0)
            return m;
    }
    return NAN;
}

static int occ_variant(report_t *r, int i, const char *label, void *ctx) {
    occ_variant_t *v = ctx;
    const rj_t *P = &r->P;
    if (!jo_eq(cJSON_GetArrayItem(jo(P->root, "kernels"), i), "arch", v->arch) || !report_kernel_of_run(r, i))
        return 0;
    double d;
    if (rj_present(P, "kernels.%d.geometry", i) &&
        (rj_num(P, &d, "kernels.%d.geometry.head_dim", i) != 0 || d != v->head_dim))
        return 0; /* another head dimension's instance */
    if (cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetArrayItem(jo(P->root, "kernels"), i), "causal")) !=
        v->causal)
        return 0; /* the other mask's instance (files without "causal" had none) */
    if (rj_present(P, "kernels.%d.geometry", i)) TRY(rj_num(P, &v->tile_m, "kernels.%d.geometry.tile_m", i));
    snprintf(v->label, sizeof v->label, "%s", label);
    if (report_kernel_unsupported(r, i, v->why, sizeof v->why)) return 1;
    if (!rj_present(P, "kernels.%d.occupancy", i)) {
        snprintf(v->why, sizeof v->why, "the occupancy model does not know %s", v->arch);
        return 1;
    }
    const char *lim = rj_str(P, "kernels.%d.occupancy.limited_by", i);
    if (!lim) return -1;
    TRY(rj_num(P, &v->ctas, "kernels.%d.occupancy.blocks_per_sm", i));
    snprintf(v->limiter, sizeof v->limiter, "%s", lim);
    for (char *c = v->limiter; *c; c++)
        if (*c == '_') *c = ' '; /* shared_memory -> shared memory */
    return 1;
}

/* The original study's CTAs per SM on its device, from its published resources of `variant` on
 * ORIGINAL_DEVICE_ARCH through ptxas-json's occupancy model, beside this build's on the same
 * architecture (ptxas.json, the run's codec): a sentence, or nothing when the original published no
 * resources for the variant. Its own run never measured occupancy: the original's figure is what
 * its resources imply ("had"), this build's what it would be on that device ("would fit"). */
static int original_occupancy(report_t *r, rbuf_t *b, const char *variant) {
    int p = report_find_published_resource(r, variant, ORIGINAL_DEVICE_ARCH);
    if (p < 0) return 0;
    double regs, smem;
    TRY(rj_num(&r->PUB, &regs, "resources.%d.registers", p));
    TRY(rj_num(&r->PUB, &smem, "resources.%d.static_smem_bytes", p));
    const char *src = rj_str(&r->PUB, "resources.%d.source", p);
    char dev[N], sm[N];
    if (!src || !report_published_device(r, dev, sizeof dev)) return -1;
    occupancy_t o;
    if (occupancy_compute(atoi(&ORIGINAL_DEVICE_ARCH[3]), ORIGINAL_THREADS, (int)regs, (long)smem,
                          ORIGINAL_BARRIERS, &o) < 0)
        return 0;
    char lim[32];
    snprintf(lim, sizeof lim, "%s", o.limited_by);
    for (char *c = lim; *c; c++)
        if (*c == '_') *c = ' ';
    rb_printf(b,
              "The original's %s had %d CTA%s per SM on its %s (%s; limited by %s): its published %.0f "
              "registers and %s B of static shared memory (%s) through the same occupancy model. ",
              variant, o.blocks_per_sm, o.blocks_per_sm == 1 ? "" : "s", dev, ORIGINAL_DEVICE_ARCH, lim, regs,
              fmt_int(sm, N, smem), src);
    /* this build's instance of the original's problems: D = 64, no mask (a kernel of another head
     * dimension or mask is another instance; head_dim 0 matched none that records its geometry) */
    occ_variant_t ours = {.variant = variant,
                          .arch = ORIGINAL_DEVICE_ARCH,
                          .head_dim = ORIGINAL_HEAD_DIM,
                          .causal = false,
                          .ctas = NAN};
    snprintf(ours.why, sizeof ours.why, "ptxas.json has no %s kernel of %s", ORIGINAL_DEVICE_ARCH, variant);
    if (r->have_ptxas) TRY(report_ptxas_each(r, variant, occ_variant, &ours));
    if (!r->have_ptxas)
        rb_printf(b, "Whether this artifact's %s would fit as many cannot be said: %s.\n", variant,
                  r->ptxas_missing);
    else if (!isfinite(ours.ctas))
        rb_printf(b, "Whether this artifact's %s would fit as many cannot be said: %s.\n", variant, ours.why);
    else
        rb_printf(b, "This artifact's %s would fit %.0f there (limited by %s): %s.\n", variant, ours.ctas,
                  ours.limiter,
                  ours.ctas == o.blocks_per_sm  ? "as many as the original's"
                  : ours.ctas < o.blocks_per_sm ? "fewer than the original's"
                                                : "more than the original's");
    return 0;
}

/* Baseline and candidate on the device: CTAs per SM and limiter from ptxas.json, rows per CTA
 * from ptxas.json or the run; NaN with why where unknown. */
static int occ_variants(report_t *r, const occ_device_t *dev, occ_variant_t v[2]) {
    const rj_t *T = &r->T;
    double head_dim = NAN;
    if (rj_num(T, &head_dim, "config.shapes.0.D") != 0) head_dim = NAN;
    const bool causal = cJSON_IsTrue(
        cJSON_GetObjectItem(cJSON_GetArrayItem(jo(jo(T->root, "config"), "shapes"), 0), "causal"));
    for (int k = 0; k < 2; k++) {
        v[k].arch = dev->arch;
        v[k].head_dim = head_dim;
        v[k].causal = causal;
        v[k].ctas = NAN;
        v[k].tile_m = NAN;
        snprintf(v[k].label, sizeof v[k].label, "%s", dev->arch);
        snprintf(v[k].why, sizeof v[k].why, "ptxas.json has no %s kernel of %s", dev->arch, v[k].variant);
        TRY(report_ptxas_each(r, v[k].variant, occ_variant, &v[k]));
        if (!isfinite(v[k].tile_m)) v[k].tile_m = run_tile_m(T, v[k].variant, head_dim);
        if (!isfinite(v[k].tile_m)) {
            snprintf(v[k].why, sizeof v[k].why,
                     "neither ptxas.json nor the run records the rows per CTA of %s", v[k].variant);
            v[k].ctas = NAN;
        }
    }
    return 0;
}

/* The table's rows: both variants at each shape of the timing run; the per-shape clause of the
 * confounded sentence into waves; *differ when CTAs per SM or full waves differ. */
static int occ_rows(report_t *r, const occ_device_t *dev, const occ_variant_t v[2], rbuf_t *b, rbuf_t *waves,
                    bool *differ) {
    const rj_t *T = &r->T;
    int ns = rj_len(T, "config.shapes");
    TRY(ns);
    *differ = v[0].ctas != v[1].ctas;
    for (int j = 0; j < ns; j++) {
        static const char *const f[] = {"B", "H", "S", "D"};
        double x[4];
        const char *name = rj_str(T, "config.shapes.%d.name", j);
        if (!name || rj_nums(T, x, "config.shapes.%d.%s", j, f, 4) < 0) return -1;
        char shape[N], c[5][N];
        snprintf(shape, N, "%s (%g,%g,%g,%g)", name, x[0], x[1], x[2], x[3]);
        double grid[2], w[2], full[2];
        for (int k = 0; k < 2; k++) {
            grid[k] = ceil(x[2] / v[k].tile_m) * x[1] * x[0];
            w[k] = grid[k] / (v[k].ctas * dev->sms);
            full[k] = ceil(w[k]);
            md_row(b, 9, v[k].variant, v[k].label, fmt_num(c[0], N, "%.0f", v[k].ctas),
                   isfinite(v[k].ctas) ? v[k].limiter : NA_MARK, shape, fmt_num(c[1], N, "%.0f", grid[k]),
                   fmt_num(c[2], N, "%.0f", dev->sms), fmt_num(c[3], N, "%.2f", w[k]),
                   fmt_num(c[4], N, "%.0f", full[k]));
        }
        *differ |= full[0] != full[1];
        rb_printf(waves,
                  "; at %s, %.0f CTAs %s %.2f waves (%.0f full) with %s and %.0f CTAs %s %.2f waves "
                  "(%.0f full) with %s",
                  shape, grid[0], dev->measured ? "take" : "would take", w[0], full[0], v[0].variant, grid[1],
                  dev->measured ? "take" : "would take", w[1], full[1], v[1].variant);
    }
    return 0;
}

/* The sentence under the table: unknown, confounded (with the waves clause) or not. */
static void occ_verdict(rbuf_t *b, const occ_device_t *dev, const occ_variant_t v[2], bool differ,
                        const char *waves) {
    bool known = true;
    for (int k = 0; k < 2; k++)
        if (!isfinite(v[k].ctas)) {
            rb_printf(b, "Occupancy of %s is unknown: %s. ", v[k].variant, v[k].why);
            known = false;
        }
    if (!known)
        rb_puts(b, "Whether occupancy confounds the comparison cannot be said.\n");
    else if (differ)
        rb_printf(b,
                  "The comparison %s confounded by occupancy: on %s (%s, %.0f SMs) %s %s %.0f CTAs per SM "
                  "(limited by %s) and %s %s %.0f (limited by %s)%s. Part of any latency difference between "
                  "them %s from occupancy, not from the switch alone.\n",
                  dev->measured ? "is" : "would be", dev->name, dev->arch, dev->sms, v[0].variant,
                  dev->measured ? "fits" : "would fit", v[0].ctas, v[0].limiter, v[1].variant,
                  dev->measured ? "fits" : "would fit", v[1].ctas, v[1].limiter, waves,
                  dev->measured ? "comes" : "would come");
    else
        rb_printf(b, "Occupancy %s the same for both variants: the comparison %s confounded by it.\n",
                  dev->measured ? "is" : "would be", dev->measured ? "is not" : "would not be");
}

int table_occupancy(report_t *r, const gates_t *g) {
    (void)g;
    rbuf_t b = {0};
    if (!r->have_ptxas) {
        rb_printf(&b,
                  "**Occupancy NOT EVALUATED: %s.** Without ptxas resources there are no CTAs per SM, so "
                  "this report cannot say whether occupancy differs between %s and %s.\n",
                  r->ptxas_missing, r->baseline, r->candidate);
        return tables_save(r, &b, "occupancy.md");
    }
    occ_device_t dev;
    TRY_B(occ_device(r, &dev));
    occ_variant_t v[2] = {{.variant = r->baseline}, {.variant = r->candidate}};
    TRY_B(occ_variants(r, &dev, v));
    if (!dev.measured)
        rb_printf(
            &b,
            "**Modelled for %s (%s); not measured.** This run timed no GPU, so CTAs per SM and waves are "
            "stated for the device %s (%s, %.0f SMs)%s.\n",
            dev.whose, dev.name, dev.hopper ? "the Hopper rows are built for" : "the original study measured",
            dev.arch, dev.sms, dev.hopper ? ": the original's L4 runs none of them" : "");
    static const md_col_t cols[] = {
        {"variant", 8, 'l'},     {"arch (codec)", 9, 'l'}, {"CTAs per SM", 5, 'r'},
        {"limited by", 13, 'l'}, {"shape", 18, 'l'},       {"grid (CTAs)", 6, 'r'},
        {"SMs", 4, 'r'},         {"waves", 5, 'r'},        {"full waves", 5, 'r'}};
    md_table_head(&b, cols, 9);
    rbuf_t waves = {0}; /* the per-shape clause of the confounded sentence */
    bool differ;
    if (occ_rows(r, &dev, v, &b, &waves, &differ) < 0) {
        rb_free(&waves);
        rb_free(&b);
        return -1;
    }
    char cap[1024], where[64];
    snprintf(where, sizeof where, dev.measured ? "on the device measured," : "modelled for %s,", dev.whose);
    snprintf(
        cap, sizeof cap,
        "Occupancy of baseline and candidate %s %s (%s, %.0f SMs%s). CTAs per SM and the resource that "
        "limits them: ptxas.json's occupancy model for that architecture and the run's codec. Grid: "
        "$\\lceil S/\\text{rows per CTA} \\rceil \\cdot H \\cdot B$ CTAs at each shape of the timing run, "
        "the rows per CTA of each variant's geometry (%s %.0f, %s %.0f); waves = grid / "
        "(CTAs per SM $\\cdot$ SMs), full waves rounded up.",
        where, dev.name, dev.arch, dev.sms,
        dev.measured ? ", from meta.device of the timing run" : "; not measured", v[0].variant, v[0].tile_m,
        v[1].variant, v[1].tile_m);
    md_table_caption(&b, "tbl:occupancy", cap);
    occ_verdict(&b, &dev, v, differ, waves.s ? waves.s : "");
    rb_free(&waves);
    rb_puts(&b, "\n");
    for (int k = 0; k < 2; k++) TRY_B(original_occupancy(r, &b, v[k].variant));
    return tables_save(r, &b, "occupancy.md");
}
