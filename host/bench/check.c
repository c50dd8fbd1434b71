/* Correctness of one variant on one problem, and cross-variant comparisons (check.h). */
#include "check.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "half.h"
#include "reference.h"
#include "reference_fp8.h"

static int oom(char *err, size_t errlen, const char *what) {
    snprintf(err, errlen, "out of memory (%s)", what);
    return -1;
}

/* Both references and the per-slice atol (kernel-only bounds come from the dequantised inputs), on
 * the rows ref asks for (check.h). */
static int build_references(problem_t *p, const check_ref_t *ref, char *err, size_t errlen) {
    const size_t n = p->n, slices = (size_t)p->shape.B * (size_t)p->shape.H, S = (size_t)p->shape.S;
    if (ref->rows == 1) {
        snprintf(err, errlen, "reference: a sample of 1 row per slice (at least 2: both ends)");
        return -1;
    }
    p->ref_threads = ref->threads;
    if (!(p->ref_rows = malloc(S * sizeof *p->ref_rows))) return oom(err, errlen, "reference rows");
    p->n_ref_rows = reference_sample_rows(S, ref->rows, p->ref_rows);
    p->n_ref = slices * p->n_ref_rows * (size_t)p->shape.D;
    double *q = malloc(n * sizeof *q), *k = malloc(n * sizeof *k), *v = malloc(n * sizeof *v);
    reference_bounds_t bounds = {malloc(slices * sizeof(double)), malloc(slices * sizeof(double))};
    p->ref_kernel = malloc(p->n_ref * sizeof(double));
    p->ref_e2e = malloc(p->n_ref * sizeof(double));
    bool bars_ok = true;
    for (int f = 0; f < CHECK_FAMILY_COUNT; f++)
        bars_ok &= (p->bars[f].atol = malloc(slices * sizeof(double))) != NULL;
    int rc = -1;
    if (!q || !k || !v || !bounds.smax || !bounds.vmax || !p->ref_kernel || !p->ref_e2e || !bars_ok) {
        oom(err, errlen, "references");
        goto done;
    }
    inputs_dequantised(&p->in, 'q', q);
    inputs_dequantised(&p->in, 'k', k);
    inputs_dequantised(&p->in, 'v', v);
    if (reference_attention_rows(q, k, v, p->shape, p->softmax_scale, p->ref_rows, p->n_ref_rows,
                                 ref->threads, p->ref_kernel, &bounds) != 0)
        goto bad_shape;
    for (int f = 0; f < CHECK_FAMILY_COUNT; f++) {
        problem_bars_t *b = &p->bars[f];
        b->atol_min = INFINITY;
        b->atol_max = -INFINITY;
        for (size_t i = 0; i < slices; i++) {
            b->atol[i] = tol_family_atol(b->family, bounds.smax[i], bounds.vmax[i], (size_t)p->shape.S);
            b->atol_min = fmin(b->atol_min, b->atol[i]);
            b->atol_max = fmax(b->atol_max, b->atol[i]);
        }
    }
    inputs_original(&p->in, 'q', q);
    inputs_original(&p->in, 'k', k);
    inputs_original(&p->in, 'v', v);
    if (reference_attention_rows(q, k, v, p->shape, p->softmax_scale, p->ref_rows, p->n_ref_rows,
                                 ref->threads, p->ref_e2e, NULL) != 0)
        goto bad_shape;
    rc = 0;
    goto done;
bad_shape:
    snprintf(err, errlen, "reference: shape %s refused", p->shape_name);
done:
    free(q);
    free(k);
    free(v);
    free(bounds.smax);
    free(bounds.vmax);
    return rc;
}

static int upload(problem_t *p, char *err, size_t errlen) {
    backend_t *be = p->be;
    const size_t n = p->n, hb = (size_t)p->shape.H * sizeof(float);
    void **bufs[] = {&p->d_q, &p->d_k, &p->d_v, &p->d_qs, &p->d_ks, &p->d_vs, &p->d_o};
    const size_t sizes[] = {n, n, n, hb, hb, hb, n * sizeof(uint16_t)};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (!(*bufs[i] = be->ops->alloc(be->self, sizes[i], err, errlen))) return -1;
    const void *src[] = {p->in.q, p->in.k, p->in.v, p->in.q_scale, p->in.k_scale, p->in.v_scale};
    for (size_t i = 0; i < 6; i++)
        if (be->ops->copy_to(be->self, *bufs[i], src[i], sizes[i], err, errlen) != 0) return -1;
    return 0;
}

int problem_init(problem_t *p, backend_t *be, const char *shape_name, sdpa_shape_t shape, dist_t dist,
                 sdpa_codec_t codec, uint64_t seed, const check_ref_t *ref, char *err, size_t errlen) {
    memset(p, 0, sizeof *p);
    snprintf(p->shape_name, sizeof p->shape_name, "%s", shape_name);
    p->shape = shape;
    p->seed = seed;
    p->be = be;
    p->softmax_scale = 1.0 / sqrt((double)shape.D);
    p->bars[CHECK_FAMILY_FP16].family = &TOL_FAMILY_FP16;
    p->bars[CHECK_FAMILY_FP8P].family = &TOL_FAMILY_FP8P;
    if (inputs_generate(&p->in, shape, dist, codec, seed) != 0) {
        if (errno == ENOMEM) return oom(err, errlen, "inputs");
        snprintf(err, errlen, "--shape %s: the input generator refused it", shape_name);
        return 2;
    }
    p->n = p->in.n;
    if (ref && build_references(p, ref, err, errlen) != 0) return -1;
    return upload(p, err, errlen);
}

void problem_free(problem_t *p) {
    void *bufs[] = {p->d_q, p->d_k, p->d_v, p->d_qs, p->d_ks, p->d_vs, p->d_o};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        if (bufs[i]) p->be->ops->release(p->be->self, bufs[i]);
    inputs_free(&p->in);
    free(p->ref_kernel);
    free(p->ref_e2e);
    free(p->ref_rows);
    free(p->ref_mirror);
    for (int f = 0; f < CHECK_FAMILY_COUNT; f++) free(p->bars[f].atol);
    memset(p, 0, sizeof *p);
}

void problem_args(const problem_t *p, sdpa_args_t *a) {
    memset(a, 0, sizeof *a);
    a->q = p->d_q;
    a->k = p->d_k;
    a->v = p->d_v;
    a->q_scale = p->d_qs;
    a->k_scale = p->d_ks;
    a->v_scale = p->d_vs;
    a->o = p->d_o;
    a->B = p->shape.B;
    a->H = p->shape.H;
    a->S = p->shape.S;
    a->D = p->shape.D;
    a->causal = p->shape.causal;
    a->softmax_scale = (float)p->softmax_scale;
    a->codec = p->in.codec;
}

/* Compares the device inputs with the pristine host copy; restores them if a kernel wrote them,
 * so that the next variant is checked on the right inputs. */
static int inputs_intact(problem_t *p, bool *intact, char *err, size_t errlen) {
    backend_t *be = p->be;
    const size_t n = p->n, hb = (size_t)p->shape.H * sizeof(float);
    void *dev[] = {p->d_q, p->d_k, p->d_v, p->d_qs, p->d_ks, p->d_vs};
    const void *host[] = {p->in.q, p->in.k, p->in.v, p->in.q_scale, p->in.k_scale, p->in.v_scale};
    const size_t sizes[] = {n, n, n, hb, hb, hb};
    unsigned char *tmp = malloc(n > hb ? n : hb);
    if (!tmp) return oom(err, errlen, "input check");
    *intact = true;
    int rc = 0;
    for (size_t i = 0; i < 6 && rc == 0; i++) {
        rc = be->ops->copy_from(be->self, tmp, dev[i], sizes[i], err, errlen);
        if (rc == 0 && memcmp(tmp, host[i], sizes[i]) != 0) {
            *intact = false;
            rc = be->ops->copy_to(be->self, dev[i], host[i], sizes[i], err, errlen);
        }
    }
    free(tmp);
    return rc;
}

check_family_t check_family_of(sdpa_switches_t sw) {
    return (sw & SDPA_SW(FP8_MMA)) ? CHECK_FAMILY_FP8P : CHECK_FAMILY_FP16;
}

/* The sampled rows of a full [B,H,S,D] array, slice by slice, as the references hold them
 * ([B*H][n_ref_rows][D]): a new array, or full itself when nothing is sampled (*owned NULL). */
static const double *sampled_rows(const problem_t *p, const double *full, double **owned) {
    *owned = NULL;
    if (!problem_sampled(p)) return full;
    const size_t D = (size_t)p->shape.D, S = (size_t)p->shape.S, slices = p->n_ref / (p->n_ref_rows * D);
    if (!(*owned = malloc(p->n_ref * sizeof **owned))) return NULL;
    for (size_t bh = 0; bh < slices; bh++)
        for (size_t r = 0; r < p->n_ref_rows; r++)
            memcpy(*owned + (bh * p->n_ref_rows + r) * D, full + (bh * S + p->ref_rows[r]) * D,
                   D * sizeof **owned);
    return *owned;
}

int check_metrics(const problem_t *p, const double *full, const double *atol, const tol_family_t *family,
                  check_t *c) {
    const size_t block = p->n_ref_rows * (size_t)p->shape.D;
    double *owned;
    const double *out = sampled_rows(p, full, &owned);
    if (!out) return -1;
    metrics_compute(out, p->ref_kernel, p->n_ref, atol, block, 0.0, family->rtol, &c->kernel_only);
    /* End to end: the same element-wise bar, informative; its gate is rel-L2 and cosine. */
    metrics_compute(out, p->ref_e2e, p->n_ref, atol, block, 0.0, family->rtol, &c->end_to_end);
    metrics_compute(out, p->ref_e2e, p->n_ref, NULL, block, LEGACY_ATOL, 0.0, &c->legacy);
    free(owned);
    /* worst_index names an element of the output, not of the sample. */
    err_metrics_t *m[] = {&c->kernel_only, &c->end_to_end, &c->legacy};
    const size_t D = (size_t)p->shape.D, S = (size_t)p->shape.S;
    for (size_t i = 0; i < 3 && problem_sampled(p); i++) {
        const size_t w = m[i]->worst_index, bh = w / block, r = w / D % p->n_ref_rows;
        m[i]->worst_index = (bh * S + p->ref_rows[r]) * D + w % D;
    }
    c->gate_kernel = gate_kernel_only_family(&c->kernel_only, family);
    c->gate_e2e = gate_end_to_end(&c->end_to_end);
    c->gate_legacy = gate_legacy(&c->legacy);
    return 0;
}

/* The mirror reference of the problem's sampled rows on tiles of tile_n keys, made on the first FP8P
 * check and again when a kernel with another tile is checked (stage 7e's 128 after 7d's 32). */
static int ensure_mirror(problem_t *p, int tile_n, char *err, size_t errlen) {
    if (p->ref_mirror && p->ref_mirror_tile == tile_n) return 0;
    free(p->ref_mirror);
    p->ref_mirror = NULL;
    const size_t n = p->n;
    double *q = malloc(n * sizeof *q), *k = malloc(n * sizeof *k), *v = malloc(n * sizeof *v);
    p->ref_mirror = malloc(p->n_ref * sizeof *p->ref_mirror);
    int rc = 0;
    if (!q || !k || !v || !p->ref_mirror) {
        rc = oom(err, errlen, "mirror reference");
    } else {
        inputs_dequantised(&p->in, 'q', q);
        inputs_dequantised(&p->in, 'k', k);
        inputs_dequantised(&p->in, 'v', v);
        if (reference_fp8_mirror_rows(q, k, v, p->shape, p->softmax_scale, (size_t)tile_n, p->ref_rows,
                                      p->n_ref_rows, p->ref_threads, p->ref_mirror) != 0)
            rc = oom(err, errlen, "mirror reference");
        p->ref_mirror_tile = tile_n;
    }
    if (rc != 0) {
        free(p->ref_mirror);
        p->ref_mirror = NULL;
    }
    free(q), free(k), free(v);
    return rc;
}

/* rel-L2 of out (the full output, doubles) against the mirror, over the rows the references hold. */
static double mirror_rel_l2(const problem_t *p, const double *out) {
    const size_t D = (size_t)p->shape.D, S = (size_t)p->shape.S, slices = p->n_ref / (p->n_ref_rows * D);
    double num = 0.0, den = 0.0;
    for (size_t bh = 0; bh < slices; bh++)
        for (size_t r = 0; r < p->n_ref_rows; r++)
            for (size_t d = 0; d < D; d++) {
                const double m = p->ref_mirror[(bh * p->n_ref_rows + r) * D + d];
                const double e = out[(bh * S + p->ref_rows[r]) * D + d] - m;
                num += e * e;
                den += m * m;
            }
    return den > 0 ? sqrt(num / den) : (num > 0 ? INFINITY : 0.0);
}

int problem_check(problem_t *p, const char *variant, check_family_t family, sdpa_launch_fn fn, int tile_n,
                  check_t *c, char *err, size_t errlen) {
    backend_t *be = p->be;
    memset(c, 0, sizeof *c);
    c->variant = variant;
    c->family = family;
    c->out = malloc(p->n * sizeof(uint16_t));
    double *out = malloc(p->n * sizeof(double));
    if (!c->out || !out) {
        free(out);
        return oom(err, errlen, "output");
    }
    int rc = be->ops->fill_bytes(be->self, p->d_o, CHECK_FILL_BYTE, p->n * sizeof(uint16_t), err, errlen);
    if (rc == 0) {
        sdpa_args_t args;
        problem_args(p, &args);
        c->status = be->ops->launch(be->self, fn, &args, c->status_msg, sizeof c->status_msg);
        if (c->status == SDPA_OK) snprintf(c->status_msg, sizeof c->status_msg, "ok");
        if (c->status == SDPA_ERR_LAUNCH) {
            /* The device or runtime failed the launch: the machine's error, never the kernel's
             * verdict (a correctness FAIL here would blame a kernel the GPU never ran). */
            snprintf(err, errlen, "%s", c->status_msg);
            rc = -1;
        } else {
            rc = be->ops->copy_from(be->self, c->out, p->d_o, p->n * sizeof(uint16_t), err, errlen);
        }
    }
    /* The kernel is done: a signal during the host's metrics and mirror below names no kernel in
     * flight (the caller's note, file_signals_note, is set again for the next variant). */
    file_signals_note(NULL);
    if (rc == 0) rc = inputs_intact(p, &c->inputs_unmodified, err, errlen);
    if (rc == 0) {
        c->all_written = true;
        for (size_t i = 0; i < p->n; i++) {
            c->all_written &= c->out[i] != CHECK_FILL_HALF;
            out[i] = (double)half_to_float(c->out[i]);
        }
        if (check_metrics(p, out, p->bars[c->family].atol, p->bars[c->family].family, c) != 0)
            rc = oom(err, errlen, "sampled output rows");
        c->pass = c->status == SDPA_OK && c->inputs_unmodified && c->all_written && c->gate_kernel;
        if (rc == 0 && family == CHECK_FAMILY_FP8P && (rc = ensure_mirror(p, tile_n, err, errlen)) == 0) {
            c->has_mirror = true;
            c->mirror_rel_l2 = mirror_rel_l2(p, out);
            c->gate_mirror = c->mirror_rel_l2 <= REFERENCE_FP8_MIRROR_BAR; /* false for NaN */
            c->mirror_gates = strcmp(be->ops->name, "emu") == 0;
            if (c->mirror_gates) c->pass &= c->gate_mirror;
        }
    }
    free(out);
    return rc;
}

void check_free(check_t *c) {
    free(c->out);
    c->out = NULL;
}

/* |a - b| over the bar at one element (ref: its kernel-only reference); 0 for equal bits, NaN when
 * either side is not finite (never within). */
static double bar_ratio(const problem_bars_t *bars, uint16_t ha, uint16_t hb, size_t slice, double ref,
                        double *abs_diff) {
    *abs_diff = 0;
    if (ha == hb) return 0;
    const double fa = half_to_float(ha), fb = half_to_float(hb);
    if (!isfinite(fa) || !isfinite(fb)) return *abs_diff = NAN;
    *abs_diff = fabs(fa - fb);
    return *abs_diff / (bars->atol[slice] + bars->family->rtol * fabs(ref));
}

void cross_compare(const problem_t *p, const check_t *a, const check_t *b, bool expect_identical,
                   cross_t *x) {
    const size_t D = (size_t)p->shape.D, S = (size_t)p->shape.S, slices = p->n / (S * D);
    const problem_bars_t *bars = &p->bars[a->family != CHECK_FAMILY_FP16 ? a->family : b->family];
    x->a = a->variant;
    x->b = b->variant;
    x->expect_identical = expect_identical;
    x->max_ulp = 0;
    x->n_diff = 0;
    for (size_t i = 0; i < p->n; i++) {
        const uint16_t ha = a->out[i], hb = b->out[i];
        if (ha == hb) continue; /* equal bits, NaN included: a NaN is the correctness gate's job */
        x->n_diff++;
        const uint32_t ulp = half_ulp_distance(ha, hb);
        if (ulp > x->max_ulp) x->max_ulp = ulp;
    }
    /* The bar needs the reference: judged on the rows the references hold (all, or the sample);
     * max |a - b| and its worst ratio to the bar are reported (NaN once a side is not finite). */
    x->max_abs_diff = x->worst_ratio = 0;
    for (size_t bh = 0; bh < slices; bh++)
        for (size_t r = 0; r < p->n_ref_rows; r++)
            for (size_t d = 0; d < D; d++) {
                const size_t i = (bh * S + p->ref_rows[r]) * D + d;
                double diff;
                const double ratio = bar_ratio(bars, a->out[i], b->out[i], bh,
                                               p->ref_kernel[(bh * p->n_ref_rows + r) * D + d], &diff);
                if (isnan(x->max_abs_diff)) continue;
                if (isnan(ratio)) {
                    x->max_abs_diff = x->worst_ratio = NAN;
                    continue;
                }
                x->max_abs_diff = fmax(x->max_abs_diff, diff);
                x->worst_ratio = fmax(x->worst_ratio, ratio);
            }
    const bool within = !isnan(x->worst_ratio) && x->worst_ratio <= 1.0;
    x->pass = expect_identical ? x->n_diff == 0 : within;
}
