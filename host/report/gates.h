/* The gates of one experiment run and its verdict, derived from the run's JSON only.
 *
 * Groups that decide the verdict: correctness (kernel-only gate, baseline and candidate),
 * cross-variant (bit-identity or bounded ULP difference), static (ptxas: registers, spills, local
 * memory, static shared memory of the candidate, every arch built), performance (speedup ratio,
 * judged on the LOWER bound of its bootstrap CI, never the point value; GPU timings only).
 * Information groups, shown but not deciding: end-to-end and the original study's legacy gate.
 *
 * Verdict: any deciding gate FAIL -> "merge deferred"; else any NOT EVALUATED -> "not evaluated";
 * else "ready to merge". */
#ifndef GATES_H
#define GATES_H

#include <stdbool.h>
#include <stddef.h>

#include "run.h"

typedef enum { GS_PASS, GS_FAIL, GS_NOT_EVALUATED } gate_status_t;
typedef enum { V_READY, V_DEFERRED, V_NOT_EVALUATED } verdict_kind_t;

typedef struct {
    char name[128];
    char group[48];
    char target[256];
    char value[256];
    char reason[512];
    gate_status_t status;
    bool decides; /* part of the verdict (false: information only) */
} gate_t;

#define GATES_MAX 32
typedef struct {
    gate_t g[GATES_MAX];
    size_t n;
} gates_t;

/* The performance gate's NOT EVALUATED reason on emulated timings, quoted by reports and tests. */
#define NA_MARK_GATE "n/a"
#define REASON_NO_GPU "no GPU (emulated timings are not GPU timings)"
/* The fewest paired rounds a speedup gate is judged on (paper/methods.md, "Gates on few rounds"): a
 * paired bootstrap of identical arms excluded a ratio of 1 in half of simulated A/A runs at 2
 * rounds, a quarter at 3, 6 % at 5, at most 5 % from 10 (the sampler can stop at its time cap with
 * fewer rounds than asked, and throttle discards remove whole rounds). */
#define GATE_MIN_ROUNDS 10

int gates_evaluate(report_t *r, gates_t *out);
verdict_kind_t gates_verdict(const gates_t *g);
const char *gate_status_name(gate_status_t s);   /* "PASS", "FAIL", "NOT EVALUATED" */
const char *verdict_kind_name(verdict_kind_t v); /* "ready to merge", ... */

/* summary.json (kind experiment-summary) in the run directory. */
int summary_write(report_t *r, const gates_t *g);

/* The kernel-only rel-L2 bar a variant's cases were judged by: the entries' kernel_rel_l2_bar (its
 * tolerance family, since stage 6), else `fallback` (the run's one bar, older runs). */
int report_variant_rel_l2_bar(report_t *r, const char *variant, double fallback, double *bar);

#endif
