/* See gates.h. */
#include "gates.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "json_file.h"
#include "textbuf.h"

/* File names in reports are given without their directory, so that a report does not depend on
 * where its run directory lives. */
static const char *base_name(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static gate_t *gate_add(gates_t *gs, const char *group, bool decides, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static gate_t *gate_add(gates_t *gs, const char *group, bool decides, const char *fmt, ...) {
    static gate_t overflow; /* never reached with the fixed set of gates below */
    gate_t *g = gs->n < GATES_MAX ? &gs->g[gs->n++] : &overflow;
    memset(g, 0, sizeof *g);
    snprintf(g->group, sizeof g->group, "%s", group);
    g->decides = decides;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->name, sizeof g->name, fmt, ap);
    va_end(ap);
    return g;
}

/* Why one correctness case failed the kernel-only gate, in the words of methods.md. */
static int case_failure(report_t *r, int i, double bar, char *dst, size_t n) {
    const rj_t *d = &r->R;
    const char *st = rj_str(d, "correctness.%d.status", i);
    const char *shape = rj_str(d, "correctness.%d.shape", i);
    const char *seed = rj_str(d, "correctness.%d.seed", i);
    bool unmod, written;
    double nonfin, nbad, rel;
    if (!st || !shape || !seed) return -1;
    TRY(rj_bool(d, &unmod, "correctness.%d.inputs_unmodified", i));
    TRY(rj_bool(d, &written, "correctness.%d.all_written", i));
    TRY(rj_num(d, &nonfin, "correctness.%d.kernel_only.nonfinite", i));
    TRY(rj_num(d, &nbad, "correctness.%d.kernel_only.n_bad", i));
    TRY(rj_num(d, &rel, "correctness.%d.kernel_only.rel_l2", i));
    int k = snprintf(dst, n, "%s seed %s:", shape, seed);
    if (k < 0 || (size_t)k >= n) return 0;
    if (strcmp(st, "ok") != 0) k += snprintf(dst + k, n - (size_t)k, " launch status '%s';", st);
    if (!unmod && (size_t)k < n) k += snprintf(dst + k, n - (size_t)k, " inputs modified;");
    if (!written && (size_t)k < n) k += snprintf(dst + k, n - (size_t)k, " outputs not all written;");
    if (nonfin > 0 && (size_t)k < n)
        k += snprintf(dst + k, n - (size_t)k, " %.0f non-finite outputs;", nonfin);
    if (nbad > 0 && (size_t)k < n)
        k += snprintf(dst + k, n - (size_t)k, " %.0f elements outside atol + rtol|ref|;", nbad);
    if (!(rel <= bar) && (size_t)k < n) snprintf(dst + k, n - (size_t)k, " rel-L2 %.3g > %.3g;", rel, bar);
    return 0;
}

/* The kernel-only rel-L2 bar a variant's cases were judged by: the entries' kernel_rel_l2_bar
 * (the tolerance family, since stage 6), else the run's one bar (older runs). */
int report_variant_rel_l2_bar(report_t *r, const char *variant, double fallback, double *bar) {
    const rj_t *d = &r->R;
    int n = rj_len(d, "correctness");
    TRY(n);
    *bar = fallback;
    for (int i = 0; i < n; i++) {
        const char *v = rj_str(d, "correctness.%d.variant", i);
        if (v && strcmp(v, variant) == 0 && rj_present(d, "correctness.%d.kernel_rel_l2_bar", i))
            return rj_num(d, bar, "correctness.%d.kernel_rel_l2_bar", i);
    }
    return 0;
}

/* One gate per variant over every (shape, seed) case: field "pass" (kernel-only) or
 * gates.<which> (end_to_end, legacy). */
static int correctness_gate(report_t *r, gates_t *gs, const char *variant, const char *which) {
    const rj_t *d = &r->R;
    bool kernel = strcmp(which, "kernel_only") == 0, legacy = strcmp(which, "legacy") == 0;
    tolerances_t t;
    TRY(report_tolerances(r, &t));
    gate_t *g;
    double rel_bar = t.kernel_rel_l2;
    if (kernel) {
        TRY(report_variant_rel_l2_bar(r, variant, t.kernel_rel_l2, &rel_bar));
        g = gate_add(gs, "correctness", true, "kernel-only correctness, %s", variant);
        snprintf(g->target, sizeof g->target,
                 "every case: launch ok, inputs unmodified, every output written and finite, %%bad = 0 "
                 "($\\lvert o - \\text{ref} \\rvert \\le \\text{atol}_{bh} + \\text{rtol} \\cdot \\lvert "
                 "\\text{ref} \\rvert$), rel-L2 ≤ %g",
                 rel_bar);
    } else if (legacy) {
        g = gate_add(gs, "legacy (information)", false, "legacy gate of the original study, %s", variant);
        snprintf(g->target, sizeof g->target,
                 "end-to-end max abs ≤ %g, mean abs ≤ %g, %%bad ≤ %g %% "
                 "(the original's bars, tuned after failures)",
                 t.legacy_max_abs, t.legacy_mean_abs, t.legacy_pct_bad);
    } else {
        g = gate_add(gs, "end-to-end (information)", false, "end-to-end accuracy, %s", variant);
        snprintf(g->target, sizeof g->target,
                 "every case: rel-L2 ≤ %g and cosine ≥ %g against the "
                 "unquantised inputs",
                 t.e2e_rel_l2, t.e2e_cosine);
    }
    int n = rj_len(d, "correctness");
    TRY(n);
    int cases = 0, passed = 0;
    char failed_shapes[160] = ""; /* the legacy gate's failing shapes, for its explanation */
    for (int i = 0; i < n; i++) {
        const char *v = rj_str(d, "correctness.%d.variant", i);
        if (!v) return -1;
        if (strcmp(v, variant) != 0) continue;
        bool ok;
        if (kernel)
            TRY(rj_bool(d, &ok, "correctness.%d.pass", i));
        else
            TRY(rj_bool(d, &ok, "correctness.%d.gates.%s", i, which));
        cases++;
        if (ok) {
            passed++;
            continue;
        }
        const char *sh = rj_str(d, "correctness.%d.shape", i);
        char word[72];
        snprintf(word, sizeof word, " %s,", sh ? sh : "?");
        if (legacy && !strstr(failed_shapes, word) &&
            strlen(failed_shapes) + strlen(word) < sizeof failed_shapes)
            strcat(failed_shapes, word);
        if (kernel && g->reason[0] == '\0') TRY(case_failure(r, i, rel_bar, g->reason, sizeof g->reason));
    }
    snprintf(g->value, sizeof g->value, "%d/%d cases pass", passed, cases);
    if (cases == 0) {
        g->status = GS_NOT_EVALUATED;
        snprintf(g->reason, sizeof g->reason, "no correctness result for %s in run.json", variant);
    } else {
        g->status = passed == cases ? GS_PASS : GS_FAIL;
    }
    if (legacy && g->status == GS_FAIL && failed_shapes[0]) {
        failed_shapes[strlen(failed_shapes) - 1] = '\0';
        /* expected, and why: the original's bars are absolute, E4M3's precision relative */
        snprintf(
            g->reason, sizeof g->reason,
            "information, expected (at%s): E4M3 keeps 3 mantissa bits, a relative precision, so the error "
            "grows with $\\lvert o \\rvert$; outputs that average few keys stay large and exceed the "
            "original's absolute 0.06 bar, which was tuned for its linear code",
            failed_shapes);
    }
    if (!g->decides && g->reason[0] == '\0')
        snprintf(g->reason, sizeof g->reason, "information; not part of the verdict");
    return 0;
}

static int cross_gate(report_t *r, gates_t *gs) {
    const rj_t *d = &r->R;
    int n = rj_len(d, "cross_variant");
    TRY(n);
    gate_t *g = gate_add(gs, "cross-variant", n > 0, "cross-variant agreement");
    snprintf(g->target, sizeof g->target,
             "identical pairs: every fp16 output bit-identical; bounded "
             "pairs: within the kernel-only element-wise bar");
    int passed = 0;
    double worst_ulp = 0, worst_ratio = -1; /* worst_ratio: the bar's share, where the file records it */
    for (int i = 0; i < n; i++) {
        bool ok;
        double ulp, ratio;
        TRY(rj_bool(d, &ok, "cross_variant.%d.pass", i));
        TRY(rj_num(d, &ulp, "cross_variant.%d.max_ulp", i));
        if (ulp > worst_ulp) worst_ulp = ulp;
        if (rj_present(d, "cross_variant.%d.worst_ratio", i) &&
            rj_num(d, &ratio, "cross_variant.%d.worst_ratio", i) == 0 && ratio > worst_ratio)
            worst_ratio = ratio;
        if (ok) {
            passed++;
            continue;
        }
        if (g->reason[0]) continue;
        const char *a = rj_str(d, "cross_variant.%d.a", i), *b = rj_str(d, "cross_variant.%d.b", i);
        const char *ex = rj_str(d, "cross_variant.%d.expected", i),
                   *sh = rj_str(d, "cross_variant.%d.shape", i);
        double ndiff;
        if (!a || !b || !ex || !sh) return -1;
        TRY(rj_num(d, &ndiff, "cross_variant.%d.n_diff", i));
        snprintf(g->reason, sizeof g->reason,
                 "%s vs %s at %s: expected %s, %.0f elements differ (max %.0f ULP)", a, b, sh, ex, ndiff,
                 ulp);
    }
    if (worst_ratio >= 0)
        snprintf(g->value, sizeof g->value, "%d/%d comparisons pass (worst |a - b| / bar %.3g)", passed, n,
                 worst_ratio);
    else
        snprintf(g->value, sizeof g->value, "%d/%d comparisons pass (max %.0f ULP)", passed, n, worst_ulp);
    if (n == 0) {
        g->status = GS_NOT_EVALUATED;
        snprintf(g->reason, sizeof g->reason, "no cross-variant comparison recorded; information only");
    } else {
        g->status = passed == n ? GS_PASS : GS_FAIL;
    }
    return 0;
}

/* Static gates on the candidate's ptxas entries (one per arch, or per arch and codec). */
typedef struct {
    const char *name;
    int budget;
    const char *fields[2];
} static_spec_t;
static const static_spec_t STATIC_SPECS[] = {
    {"registers per thread", STATIC_BUDGET_REGS, {"registers", NULL}},
    {"spill bytes (stores + loads)", STATIC_BUDGET_SPILL, {"spill_store_bytes", "spill_load_bytes"}},
    {"local memory bytes", STATIC_BUDGET_LOCAL, {"local_bytes", NULL}},
    {"static shared memory bytes", STATIC_BUDGET_SMEM, {"static_smem_bytes", NULL}},
};

/* One ptxas entry of the candidate against one budget: its value appended to the gate's value
 * cell ("sm_89 84, sm_90 80"). */
typedef struct {
    const static_spec_t *sp;
    gate_t *g;
    double limit; /* the experiment's budget (registers: of its D = 64 builds) */
    int found, bad;
    size_t k; /* characters used in g->value */
} static_acc_t;
static int static_entry(report_t *r, int i, const char *arch, void *ctx) {
    static_acc_t *a = ctx;
    double val = 0, x;
    char why[128];
    if (report_kernel_unsupported(r, i, why, sizeof why)) return 0; /* a stub is no kernel to gate */
    for (int f = 0; f < 2 && a->sp->fields[f]; f++) {
        TRY(rj_num(&r->P, &x, "kernels.%d.%s", i, a->sp->fields[f]));
        val += x;
    }
    double limit = a->limit;
    if (a->sp->budget == STATIC_BUDGET_REGS) TRY(report_register_budget(r, i, &limit, NULL));
    a->found++;
    if (!(val <= limit)) a->bad++;
    if (a->k < sizeof a->g->value)
        a->k += (size_t)snprintf(a->g->value + a->k, sizeof a->g->value - a->k, "%s%s %.0f",
                                 a->found > 1 ? ", " : "", arch, val);
    return 0;
}

static int static_gates(report_t *r, gates_t *gs) {
    for (size_t s = 0; s < sizeof STATIC_SPECS / sizeof STATIC_SPECS[0]; s++) {
        const static_spec_t *sp = &STATIC_SPECS[s];
        gate_t *g = gate_add(gs, "static", true, "%s, %s", sp->name, r->candidate);
        if (!r->have_ptxas) {
            snprintf(g->target, sizeof g->target, "ptxas budget");
            snprintf(g->value, sizeof g->value, "%s", NA_MARK_GATE);
            snprintf(g->reason, sizeof g->reason, "%s", r->ptxas_missing);
            g->status = GS_NOT_EVALUATED;
            continue;
        }
        const rj_t *d = &r->P;
        double limit;
        TRY(report_static_budget(r, sp->budget, &limit));
        static_acc_t acc = {sp, g, limit, 0, 0, 0};
        TRY(report_ptxas_each(r, r->candidate, static_entry, &acc));
        double lo = NAN, hi;
        char caps[32] = "";
        if (sp->budget == STATIC_BUDGET_REGS)
            TRY(report_wide_register_budget(r, r->candidate, &lo, &hi, caps, sizeof caps));
        if (lo == lo)
            snprintf(
                g->target, sizeof g->target,
                "≤ %.0f at D = 64 and ≤ %s at D = 128 (the cap of each build's launch bounds), for every "
                "architecture (and codec) built",
                limit, caps);
        else
            snprintf(g->target, sizeof g->target, "≤ %.0f for every architecture (and codec) built", limit);
        const int found = acc.found, bad = acc.bad;
        if (!found) {
            g->status = GS_NOT_EVALUATED;
            snprintf(g->value, sizeof g->value, "%s", NA_MARK_GATE);
            snprintf(g->reason, sizeof g->reason, "%s: no kernel entry for variant %s", base_name(d->file),
                     r->candidate);
        } else {
            g->status = bad ? GS_FAIL : GS_PASS;
            if (bad) snprintf(g->reason, sizeof g->reason, "%d of %d builds over the budget", bad, found);
        }
    }
    return 0;
}

/* The candidate was not timed: say why (the harness's not_timed list, else a failed correctness
 * gate, else nothing was compared). */
static void untimed_reason(report_t *r, const gates_t *gs, char *dst, size_t n) {
    const cJSON *e;
    cJSON_ArrayForEach(e, jo(r->T.root, "not_timed")) {
        if (jo_eq(e, "variant", r->candidate) && jo_str(e, "reason")) {
            snprintf(dst, n, "%s was not timed: %s", r->candidate, jo_str(e, "reason"));
            return;
        }
    }
    for (size_t i = 0; i < gs->n; i++)
        if (strcmp(gs->g[i].group, "correctness") == 0 && gs->g[i].status == GS_FAIL &&
            strstr(gs->g[i].name, r->candidate)) {
            snprintf(dst, n, "the candidate failed correctness and was not timed");
            return;
        }
    snprintf(dst, n, "%s: no comparison of %s against %s", base_name(r->T.file), r->candidate, r->baseline);
}

/* A performance gate with no comparison to judge: NOT EVALUATED, with why. */
static void not_timed(report_t *r, const gates_t *gs, gate_t *g) {
    snprintf(g->value, sizeof g->value, "%s", NA_MARK_GATE);
    g->status = GS_NOT_EVALUATED;
    if (strcmp(report_timing_kind(r), "emulated") == 0)
        snprintf(g->reason, sizeof g->reason, "%s", REASON_NO_GPU);
    else
        untimed_reason(r, gs, g->reason, sizeof g->reason);
}

static int performance_gates(report_t *r, gates_t *gs) {
    const rj_t *d = &r->T;
    int n = rj_len(d, "comparisons");
    TRY(n);
    int found = 0;
    char bar[32];
    fmt_bar(bar, sizeof bar, r->gate_speedup);
    for (int i = 0; i < n; i++) {
        const char *b = rj_str(d, "comparisons.%d.baseline", i),
                   *c = rj_str(d, "comparisons.%d.candidate", i);
        const char *shape = rj_str(d, "comparisons.%d.shape", i),
                   *kind = rj_str(d, "comparisons.%d.timing", i);
        if (!b || !c || !shape || !kind) return -1;
        if (strcmp(b, r->baseline) != 0 || strcmp(c, r->candidate) != 0) continue;
        double sp, lo, hi, rounds;
        TRY(rj_num(d, &rounds, "comparisons.%d.rounds", i));
        TRY(rj_num(d, &sp, "comparisons.%d.speedup", i));
        TRY(rj_num(d, &lo, "comparisons.%d.speedup_ci.0", i));
        TRY(rj_num(d, &hi, "comparisons.%d.speedup_ci.1", i));
        found++;
        gate_t *g = gate_add(gs, "performance", true, "speedup $t_\\text{%s}/t_\\text{%s}$ at %s",
                             r->baseline, r->candidate, shape);
        snprintf(g->target, sizeof g->target, "lower bound of the 95 %% bootstrap CI of the speedup ≥ %s",
                 bar);
        snprintf(g->value, sizeof g->value, "lower CI bound %.4f (speedup %.4f, 95 %% CI [%.4f, %.4f])", lo,
                 sp, lo, hi);
        if (strcmp(kind, "gpu") != 0) {
            /* emulated numbers appear only in the table labelled as emulated, never beside a gate */
            snprintf(g->value, sizeof g->value, "%s timings only (see the emulated timings table)", kind);
            g->status = GS_NOT_EVALUATED;
            snprintf(g->reason, sizeof g->reason, "%s", REASON_NO_GPU);
        } else if (!isfinite(lo)) {
            g->status = GS_NOT_EVALUATED;
            snprintf(g->value, sizeof g->value, "%s (%s)", NA_MARK_GATE,
                     isfinite(sp) ? "no interval" : "no speedup, no interval");
            snprintf(g->reason, sizeof g->reason, "no confidence interval (too few rounds)");
        } else if (!(rounds >= GATE_MIN_ROUNDS)) {
            g->status = GS_NOT_EVALUATED;
            snprintf(g->reason, sizeof g->reason,
                     "%.0f paired rounds, fewer than the %d a speedup gate is judged on (methods, \"Gates on "
                     "few rounds\")",
                     rounds, GATE_MIN_ROUNDS);
        } else if (lo >= r->gate_speedup) {
            g->status = GS_PASS;
        } else {
            g->status = GS_FAIL;
            snprintf(g->reason, sizeof g->reason, "the lower CI bound %.4f is below %s%s", lo, bar,
                     sp >= r->gate_speedup
                         ? " although the point estimate is above it: the gain is not established"
                         : "");
        }
    }
    if (!found) {
        gate_t *g = gate_add(gs, "performance", true, "speedup $t_\\text{%s}/t_\\text{%s}$", r->baseline,
                             r->candidate);
        snprintf(g->target, sizeof g->target, "lower bound of the 95 %% bootstrap CI of the speedup ≥ %s",
                 bar);
        not_timed(r, gs, g);
    }
    return 0;
}

/* [stage 7f] An absolute throughput floor (experiment.mk's GATE_TFLOPS): the candidate's TFLOP/s at each
 * shape of its comparisons, judged on flops / the upper end of its median's 95 % CI (the throughput's
 * lower end), never on the point estimate; emulated timings decide nothing. */
static int throughput_gates(report_t *r, gates_t *gs) {
    if (!(r->gate_tflops > 0)) return 0;
    const rj_t *d = &r->T;
    const int nc = rj_len(d, "comparisons"), nt = rj_len(d, "timing");
    TRY(nc);
    TRY(nt);
    int found = 0;
    for (int i = 0; i < nc; i++) {
        const char *b = rj_str(d, "comparisons.%d.baseline", i),
                   *c = rj_str(d, "comparisons.%d.candidate", i),
                   *shape = rj_str(d, "comparisons.%d.shape", i);
        if (!b || !c || !shape) return -1;
        if (strcmp(b, r->baseline) != 0 || strcmp(c, r->candidate) != 0) continue;
        found++;
        gate_t *g = gate_add(gs, "performance", true, "throughput of %s at %s", r->candidate, shape);
        snprintf(g->target, sizeof g->target,
                 "flops / upper bound of the median's 95 %% CI ≥ %g TFLOP/s (FlashAttention's flop count)",
                 r->gate_tflops);
        int t = -1;
        for (int k = 0; k < nt && t < 0; k++) {
            const char *v = rj_str(d, "timing.%d.variant", k), *s = rj_str(d, "timing.%d.shape", k);
            if (v && s && !strcmp(v, r->candidate) && !strcmp(s, shape)) t = k;
        }
        const char *kind = t >= 0 ? rj_str(d, "timing.%d.timing", t) : NULL;
        const char *flops_s = t >= 0 ? rj_str(d, "timing.%d.flops", t) : NULL;
        double med = NAN, hi = NAN;
        if (t >= 0) {
            TRY(rj_num(d, &med, "timing.%d.summary.median", t));
            TRY(rj_num(d, &hi, "timing.%d.summary.ci_hi", t));
        }
        const double flops = flops_s ? strtod(flops_s, NULL) : NAN;
        const double lo_tf = flops / (hi * 1e6), med_tf = flops / (med * 1e6); /* us -> TFLOP/s */
        if (t < 0 || !kind) {
            g->status = GS_NOT_EVALUATED;
            snprintf(g->value, sizeof g->value, "%s", NA_MARK_GATE);
            snprintf(g->reason, sizeof g->reason, "%s: no timing of %s at %s", base_name(d->file),
                     r->candidate, shape);
        } else if (strcmp(kind, "gpu") != 0) {
            g->status = GS_NOT_EVALUATED;
            snprintf(g->value, sizeof g->value, "%s timings only (see the emulated timings table)", kind);
            snprintf(g->reason, sizeof g->reason, "%s", REASON_NO_GPU);
        } else if (!isfinite(lo_tf)) {
            g->status = GS_NOT_EVALUATED;
            snprintf(g->value, sizeof g->value, "%s (%s)", NA_MARK_GATE,
                     isfinite(med_tf) ? "no interval" : "no median, no interval");
            snprintf(g->reason, sizeof g->reason, "no confidence interval (too few samples)");
        } else {
            snprintf(g->value, sizeof g->value, "%.4g TFLOP/s at the interval's end (median %.4g)", lo_tf,
                     med_tf);
            g->status = lo_tf >= r->gate_tflops ? GS_PASS : GS_FAIL;
            if (g->status == GS_FAIL)
                snprintf(g->reason, sizeof g->reason, "%.4g TFLOP/s is below %g%s", lo_tf, r->gate_tflops,
                         med_tf >= r->gate_tflops ? " although the median is above it: not established" : "");
        }
    }
    if (!found) {
        gate_t *g = gate_add(gs, "performance", true, "throughput of %s", r->candidate);
        snprintf(g->target, sizeof g->target, "≥ %g TFLOP/s", r->gate_tflops);
        not_timed(r, gs, g);
    }
    return 0;
}

int gates_evaluate(report_t *r, gates_t *gs) {
    gs->n = 0;
    const char *variants[2] = {r->baseline, r->candidate};
    for (int v = 0; v < 2; v++) TRY(correctness_gate(r, gs, variants[v], "kernel_only"));
    TRY(cross_gate(r, gs));
    TRY(static_gates(r, gs));
    TRY(performance_gates(r, gs));
    TRY(throughput_gates(r, gs));
    for (int v = 0; v < 2; v++) TRY(correctness_gate(r, gs, variants[v], "end_to_end"));
    for (int v = 0; v < 2; v++) TRY(correctness_gate(r, gs, variants[v], "legacy"));
    return 0;
}

verdict_kind_t gates_verdict(const gates_t *gs) {
    bool not_eval = false;
    for (size_t i = 0; i < gs->n; i++) {
        if (!gs->g[i].decides) continue;
        if (gs->g[i].status == GS_FAIL) return V_DEFERRED;
        if (gs->g[i].status == GS_NOT_EVALUATED) not_eval = true;
    }
    return not_eval ? V_NOT_EVALUATED : V_READY;
}

const char *gate_status_name(gate_status_t s) {
    return s == GS_PASS ? "PASS" : s == GS_FAIL ? "FAIL" : "NOT EVALUATED";
}

const char *verdict_kind_name(verdict_kind_t v) {
    return v == V_READY ? "ready to merge" : v == V_DEFERRED ? "merge deferred" : "not evaluated";
}

int summary_write(report_t *r, const gates_t *gs) {
    cJSON *doc = results_new("experiment-summary", "sdpa-report", r->argc, r->argv);
    if (!doc) {
        snprintf(r->err, sizeof r->err, "out of memory");
        return -1;
    }
    cJSON_AddStringToObject(doc, "experiment", r->experiment);
    cJSON_AddStringToObject(doc, "run_id", r->run_id);
    cJSON_AddStringToObject(doc, "baseline", r->baseline);
    cJSON_AddStringToObject(doc, "candidate", r->candidate);
    cJSON *arr = cJSON_AddArrayToObject(doc, "gates");
    for (size_t i = 0; i < gs->n; i++) {
        const gate_t *g = &gs->g[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", g->name);
        cJSON_AddStringToObject(o, "group", g->group);
        cJSON_AddStringToObject(o, "target", g->target);
        cJSON_AddStringToObject(o, "value", g->value);
        cJSON_AddStringToObject(o, "status", gate_status_name(g->status));
        cJSON_AddStringToObject(o, "reason", g->reason);
        cJSON_AddItemToArray(arr, o);
    }
    cJSON_AddStringToObject(doc, "verdict", verdict_kind_name(gates_verdict(gs)));
    char *text = cJSON_Print(doc);
    cJSON_Delete(doc);
    if (!text) {
        snprintf(r->err, sizeof r->err, "out of memory");
        return -1;
    }
    char path[REPORT_PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/summary.json", r->dir);
    int rc = file_write_replace(path, text, strlen(text), r->err, sizeof r->err);
    free(text);
    return rc;
}
