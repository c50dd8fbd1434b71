/* Peers: implementations of the same attention by other means, run beside the kernel variants on
 * the same device, inputs and process, checked against the same fp64 references and timed
 * interleaved with them exactly like a variant. They are not variants: they are not in
 * kernels/variants.def, not in --list-variants, and their run-JSON entries carry the id
 * "peer-<name>" and "peer": true. One exists:
 *
 *   cublas-unfused  Q'K'^T as a batched fp16 cuBLAS GEMM, a row softmax kernel (kernels/peers),
 *                   P V' as a batched GEMM, on Q, K, V dequantised to fp16 (peer_unfused.c).
 *
 * A peer is opened once per run (a session: its library handle, found at run time) and then once
 * per problem (a run: its inputs and workspace on the device). */
#ifndef PEERS_H
#define PEERS_H

#include <stddef.h>

#include "backend.h"
#include "check.h"

typedef struct peer_session peer_session_t;
typedef struct peer_run peer_run_t;

typedef struct {
    const char *name;    /* --peer NAME */
    const char *id;      /* "peer-" NAME: the id in the run JSON, --vs accepts it too */
    const char *summary; /* one line, --list-peers */
    /* The id as a kernel-table row (launch NULL: a peer is never launched as a kernel), so that the
     * harness's run list holds variants and peers alike. */
    sdpa_kernel_entry_t entry;
} peer_def_t;

extern const peer_def_t peers_registry[];
extern const size_t peers_count;

/* The peer called name (--peer) or id ("peer-" name); NULL if none. */
const peer_def_t *peers_find(const char *name_or_id);
/* "cublas-unfused" or "cublas-unfused, other": every peer's name, for messages. */
void peers_names(char *buf, size_t len);

/* Opens the peer on an open backend: its GEMM library and softmax kernel. NULL with the reason in
 * why when it cannot run here ("libcublas.so.13 not found ...", "not built into this program"):
 * the peer is then "not supported", never a failure. */
peer_session_t *peer_session_open(const peer_def_t *def, backend_t *be, char *why, size_t whylen);
void peer_session_close(peer_session_t *s);
const peer_def_t *peer_session_def(const peer_session_t *s);
const char *peer_session_library(const peer_session_t *s); /* "cuBLAS 13.1.0" */

/* 0 when the peer's workspace for shape fits the memory cap (PEER_MEM_FRACTION of the device's
 * memory; SDPA_PEER_MEM_BYTES, for tests, stands in for the device's size); else -1 with
 * "not supported at this shape (needs N GiB ...)" in why. */
int peer_fits(const peer_session_t *s, sdpa_shape_t shape, char *why, size_t whylen);
#define PEER_MEM_FRACTION 0.5

/* The peer on problem p: its fp16 inputs dequantised on the host and uploaded, its workspace
 * allocated. 0, or -1 with err (out of memory: a run-time error). */
int peer_run_open(peer_session_t *s, const problem_t *p, peer_run_t **out, char *err, size_t errlen);
void peer_run_close(peer_run_t *r);
/* Runs once and checks the output against p's references with the peer's bar (peer_unfused.c);
 * c as problem_check fills it (c->variant is the peer's id). 0 when the check ran, -1 with err
 * when the backend or library failed around it. */
int peer_run_check(peer_run_t *r, check_t *c, char *err, size_t errlen);
/* What a timed sample runs: the peer's library calls and kernels, nothing else. */
backend_work_t peer_run_work(peer_run_t *r);

#endif
