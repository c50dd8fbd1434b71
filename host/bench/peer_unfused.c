/* The unfused cuBLAS peer (peers.h): O = softmax(Q'K'^T) V' in three steps on the device,
 *   1. scores = Q'K'^T   one strided batched fp16 GEMM over the B*H slices (fp32 compute);
 *   2. P = softmax(scores) row-wise, in place (kernels/peers/softmax.cu);
 *   3. O = P V'          one strided batched fp16 GEMM;
 * with Q' = fp16(q*scale_q*softmax_scale), K' = fp16(k*scale_k), V' = fp16(v*scale_v) made once
 * per problem on the host (each product in fp32, one rounding to fp16) and uploaded. The timed
 * work is the three steps only: dequantisation is outside it, which favours the peer. Its bar is
 * peer_tolerance.h's.
 *
 * Row-major [S, D] slices are column-major D x S matrices with leading dimension D, so (cuBLAS
 * being column-major) step 1 computes scores^T = K' Q'^T as C = op(A) B with A = K' (op T, lda D),
 * B = Q' (op N, ldb D), m = n = S, k = D, ldc = S: C(j, i) at i*S + j is the row-major score
 * s[i][j]. Step 3 computes O^T = V'^T P^T as C = A B with A = V' (op N, lda D), B = P (op N,
 * ldb S), m = D, n = S, k = S, ldc = D: row-major O. Every slice is S*D (inputs, output) or S*S
 * (scores) elements after the previous one, so batch = B*H with those strides.
 *
 * The GEMMs go through a table (gemm_table.h): cuBLAS on the CUDA backend, the CPU twin on the
 * emulator; the softmax through the launcher of the backend's build of softmax.cu. Those launchers
 * are weak references: programs that do not link kernels/peers (the test builds with a plain C
 * kernel table, the planted-fault builds) run without the peer ("not built into this program")
 * instead of failing to link. */
#include "peers.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fp8.h"
#include "gemm_table.h"
#include "half.h"
#include "metrics.h"
#include "peer_tolerance.h"
#include "peers/peer_softmax.h"

#pragma weak peer_softmax
#pragma weak emu_peer_softmax

typedef sdpa_status_t (*softmax_fn)(const peer_softmax_args_t *);

struct peer_session {
    const peer_def_t *def;
    backend_t *be;
    const gemm_table_t *gemm;
    void *handle;
    softmax_fn softmax;
    char library[64];
};

struct peer_run {
    peer_session_t *s;
    const problem_t *p;
    size_t n, n_scores;
    uint16_t *h_in[3]; /* Q', K', V' on the host: the device copies must still equal them */
    void *d_in[3], *d_s, *d_o;
    sdpa_status_t status; /* the softmax launcher's last status (a fault is a verdict, not an error) */
};

peer_session_t *peer_session_open(const peer_def_t *def, backend_t *be, char *why, size_t whylen) {
    const bool cuda = strcmp(be->ops->name, "cuda") == 0;
    const softmax_fn fn = cuda ? peer_softmax : emu_peer_softmax;
    if (!fn) {
        snprintf(why, whylen,
                 "not built into this program (the %s build of kernels/peers/softmax.cu is not linked)",
                 be->ops->name);
        return NULL;
    }
    peer_session_t *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(why, whylen, "out of memory");
        return NULL;
    }
    *s = (peer_session_t){
        .def = def, .be = be, .gemm = cuda ? &gemm_table_cublas : &gemm_table_cpu, .softmax = fn};
    s->handle = s->gemm->create(why, whylen);
    if (!s->handle) {
        free(s);
        return NULL;
    }
    snprintf(s->library, sizeof s->library, "%s", s->gemm->library(s->handle));
    return s;
}

void peer_session_close(peer_session_t *s) {
    if (!s) return;
    s->gemm->destroy(s->handle);
    free(s);
}

const peer_def_t *peer_session_def(const peer_session_t *s) { return s->def; }
const char *peer_session_library(const peer_session_t *s) { return s->library; }

/* Device bytes of one run: Q', K', V', O in fp16 and the B*H S x S fp16 score matrices. */
static uint64_t workspace_bytes(sdpa_shape_t sh) {
    const uint64_t n = (uint64_t)sh.B * (uint64_t)sh.H * (uint64_t)sh.S * (uint64_t)sh.D;
    return 2u * (4u * n + (uint64_t)sh.B * (uint64_t)sh.H * (uint64_t)sh.S * (uint64_t)sh.S);
}

int peer_fits(const peer_session_t *s, sdpa_shape_t shape, char *why, size_t whylen) {
    const char *env = getenv("SDPA_PEER_MEM_BYTES");
    const uint64_t total = env && *env ? strtoull(env, NULL, 10) : s->be->ops->mem_bytes(s->be->self);
    const uint64_t need = workspace_bytes(shape);
    const double gib = 1024.0 * 1024.0 * 1024.0;
    if (shape.causal) { /* its row softmax has no mask */
        snprintf(why, whylen, "not supported with a causal mask (the unfused peer computes full rows)");
        return -1;
    }
    if (total > 0 && (double)need <= PEER_MEM_FRACTION * (double)total) return 0;
    if (total == 0)
        snprintf(why, whylen, "not supported at this shape (needs %.3g GiB; the device memory is unknown)",
                 (double)need / gib);
    else
        snprintf(why, whylen,
                 "not supported at this shape (needs %.3g GiB; the cap is %.0f %% of the device's %.3g GiB)",
                 (double)need / gib, 100.0 * PEER_MEM_FRACTION, (double)total / gib);
    return -1;
}

/* Q', K', V' as peer_unfused.c's header says: fp32 products, one rounding to fp16. */
static void dequantise(const sdpa_inputs_t *in, float softmax_scale, uint16_t *out[3]) {
    const uint8_t *codes[3] = {in->q, in->k, in->v};
    const float *scales[3] = {in->q_scale, in->k_scale, in->v_scale};
    const size_t slice = (size_t)in->shape.S * (size_t)in->shape.D;
    for (int t = 0; t < 3; t++)
        for (size_t i = 0; i < in->n; i++) {
            const int h = (int)(i / slice % (size_t)in->shape.H);
            float x = (float)codec_unit(in->codec, codes[t][i]) * (float)codec_step(in->codec, scales[t][h]);
            if (t == 0) x *= softmax_scale;
            out[t][i] = half_from_float(x);
        }
}

void peer_run_close(peer_run_t *r) {
    if (!r) return;
    backend_t *be = r->s->be;
    void *dev[] = {r->d_in[0], r->d_in[1], r->d_in[2], r->d_s, r->d_o};
    for (size_t i = 0; i < sizeof dev / sizeof dev[0]; i++)
        if (dev[i]) be->ops->release(be->self, dev[i]);
    for (int t = 0; t < 3; t++) free(r->h_in[t]);
    free(r);
}

int peer_run_open(peer_session_t *s, const problem_t *p, peer_run_t **out, char *err, size_t errlen) {
    backend_t *be = s->be;
    peer_run_t *r = calloc(1, sizeof *r);
    *out = NULL;
    if (!r) goto oom;
    r->s = s;
    r->p = p;
    r->n = p->n;
    r->n_scores = (size_t)p->shape.B * (size_t)p->shape.H * (size_t)p->shape.S * (size_t)p->shape.S;
    for (int t = 0; t < 3; t++)
        if (!(r->h_in[t] = malloc(r->n * sizeof(uint16_t)))) goto oom;
    dequantise(&p->in, (float)p->softmax_scale, r->h_in);
    for (int t = 0; t < 3; t++) {
        if (!(r->d_in[t] = be->ops->alloc(be->self, r->n * sizeof(uint16_t), err, errlen))) goto fail;
        if (be->ops->copy_to(be->self, r->d_in[t], r->h_in[t], r->n * sizeof(uint16_t), err, errlen) != 0)
            goto fail;
    }
    if (!(r->d_s = be->ops->alloc(be->self, r->n_scores * sizeof(uint16_t), err, errlen))) goto fail;
    if (!(r->d_o = be->ops->alloc(be->self, r->n * sizeof(uint16_t), err, errlen))) goto fail;
    *out = r;
    return 0;
oom:
    snprintf(err, errlen, "%s: out of memory (host copies of the fp16 inputs)", s->def->id);
fail:
    peer_run_close(r);
    return -1;
}

/* The three steps of the header, enqueued on stream. */
static int run(void *ctx, void *stream, char *err, size_t errlen) {
    peer_run_t *r = ctx;
    const peer_session_t *s = r->s;
    const sdpa_shape_t sh = r->p->shape;
    const int S = sh.S, D = sh.D, batch = sh.B * sh.H;
    const long long sd = (long long)S * D, ss = (long long)S * S;
    const gemm_args_t qk = {GEMM_T, GEMM_N,     S, S,  D,      1.0f, 0.0f, r->d_in[1], D,
                            sd,     r->d_in[0], D, sd, r->d_s, S,    ss,   batch};
    const gemm_args_t pv = {GEMM_N, GEMM_N, D, S,  S,      1.0f, 0.0f, r->d_in[2], D,
                            sd,     r->d_s, S, ss, r->d_o, D,    sd,   batch};
    /* The softmax scale is already in Q' (one rounding fewer than applying it to fp16 scores). */
    const peer_softmax_args_t sm = {r->d_s, r->d_s, (int64_t)batch * S, S, S, 1.0f, stream};
    if (s->gemm->gemm(s->handle, stream, &qk, err, errlen) != 0) return -1;
    r->status = s->softmax(&sm);
    if (r->status != SDPA_OK) {
        snprintf(err, errlen, "%s: softmax kernel: %s", s->def->id, sdpa_status_str(r->status));
        return -1;
    }
    return s->gemm->gemm(s->handle, stream, &pv, err, errlen);
}

backend_work_t peer_run_work(peer_run_t *r) { return (backend_work_t){run, r}; }

/* The metrics of check.c's compute_metrics, with the peer's atol per slice. */
static int peer_metrics(const peer_run_t *r, const double *out, check_t *c) {
    const problem_t *p = r->p;
    const size_t slices = (size_t)p->shape.B * (size_t)p->shape.H;
    double *q = malloc(p->n * sizeof *q), *k = malloc(p->n * sizeof *k), *v = malloc(p->n * sizeof *v);
    double *atol = malloc(slices * sizeof *atol);
    peer_bound_t *bounds = malloc(slices * sizeof *bounds);
    int rc = q && k && v && atol && bounds ? 0 : -1;
    if (rc == 0) {
        inputs_dequantised(&p->in, 'q', q);
        inputs_dequantised(&p->in, 'k', k);
        inputs_dequantised(&p->in, 'v', v);
        /* Over the rows the references hold: the bar of the rows it judges (check.h). */
        peer_bounds(q, k, v, p->shape, p->softmax_scale, p->ref_rows, p->n_ref_rows, bounds);
        for (size_t i = 0; i < slices; i++) atol[i] = peer_atol(&bounds[i]);
        /* Judged by its own atol (peer_tolerance.h), the fp16 family's rtol and rel-L2 bar. */
        c->own_bar = "unfused-peer";
        rc = check_metrics(p, out, atol, &TOL_FAMILY_FP16, c);
    }
    free(q);
    free(k);
    free(v);
    free(atol);
    free(bounds);
    return rc;
}

/* Whether the device copies of Q', K', V' still equal the host's (a GEMM with a wrong leading
 * dimension or stride may write where it only should read). */
static int inputs_intact(const peer_run_t *r, uint16_t *tmp, bool *intact, char *err, size_t errlen) {
    backend_t *be = r->s->be;
    *intact = true;
    for (int t = 0; t < 3; t++) {
        if (be->ops->copy_from(be->self, tmp, r->d_in[t], r->n * sizeof(uint16_t), err, errlen) != 0)
            return -1;
        *intact &= memcmp(tmp, r->h_in[t], r->n * sizeof(uint16_t)) == 0;
    }
    return 0;
}

int peer_run_check(peer_run_t *r, check_t *c, char *err, size_t errlen) {
    backend_t *be = r->s->be;
    memset(c, 0, sizeof *c);
    c->variant = r->s->def->id;
    c->out = malloc(r->n * sizeof(uint16_t));
    uint16_t *tmp = malloc(r->n * sizeof(uint16_t));
    double *out = malloc(r->n * sizeof(double));
    int rc = c->out && tmp && out ? 0 : -1;
    if (rc != 0) snprintf(err, errlen, "%s: out of memory (output)", r->s->def->id);
    if (rc == 0)
        rc = be->ops->fill_bytes(be->self, r->d_o, CHECK_FILL_BYTE, r->n * sizeof(uint16_t), err, errlen);
    if (rc == 0) {
        const backend_work_t w = peer_run_work(r);
        r->status = SDPA_OK;
        const int run_rc = be->ops->run_work(be->self, &w, c->status_msg, sizeof c->status_msg);
        c->status = r->status;
        if (run_rc != 0 && r->status != SDPA_ERR_FAULT) {
            /* The library, the launch or the device failed: the machine's error, never the peer's
             * verdict. Only a fault the emulator finds in the softmax kernel is a correctness failure. */
            snprintf(err, errlen, "%s", c->status_msg);
            rc = -1;
        } else if (run_rc == 0) {
            snprintf(c->status_msg, sizeof c->status_msg, "ok");
        }
    }
    if (rc == 0) rc = be->ops->copy_from(be->self, c->out, r->d_o, r->n * sizeof(uint16_t), err, errlen);
    if (rc == 0) rc = inputs_intact(r, tmp, &c->inputs_unmodified, err, errlen);
    if (rc == 0) {
        c->all_written = true;
        for (size_t i = 0; i < r->n; i++) {
            c->all_written &= c->out[i] != CHECK_FILL_HALF;
            out[i] = (double)half_to_float(c->out[i]);
        }
        rc = peer_metrics(r, out, c);
        if (rc != 0) snprintf(err, errlen, "%s: out of memory (bar)", r->s->def->id);
        c->pass = c->status == SDPA_OK && c->inputs_unmodified && c->all_written && c->gate_kernel;
    }
    free(tmp);
    free(out);
    return rc;
}
