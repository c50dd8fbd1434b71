/* The static issue-slot model (issue_slots.h): ISSUE_SLOTS_TSV -> issue-slots.md. */
#include "issue_slots.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "gpu_section.h"
#include "gpu_stage7g.h"
#include "params.h"
#include "tables.h"
#include "textbuf.h"
#include "tsv_in.h"

#define ISSUE_COLS 15
#define ISSUE_MAX_ROWS 32
/* The experiment whose absolute gate the ceiling is set against, and its kernel. */
#define ISSUE_GATE_EXPERIMENT "experiments/stage7f-overlap/experiment.mk"
#define ISSUE_GATE_KERNEL "sdpa_stage7f_e4m3"
/* The steps added after the line's table, each against its parent at D = 64: its experiment, kernels,
 * static gate's ratio (its fewest trip at most that of its parent's, the same MUFU.EX2 a trip), what
 * it changes (paper/methods.md#prereg-stage7h to #prereg-stage7l), and whether it is
 * the warpgroups' turns, whose own prediction follows (predict_turns). */
typedef struct {
    const char *stage, *parent, *experiment, *kernel, *parent_kernel, *methods, *change;
    double max_ratio;
    bool turns;
} issue_step_t;
static const issue_step_t STEPS[] = {
    {"7h", "7f", "experiments/stage7h-ftz-exp/experiment.mk", "sdpa_stage7h_e4m3", ISSUE_GATE_KERNEL,
     "Stage 7h", "drops the subnormal path around each weight's MUFU.EX2", 0.8, false},
    {"7i", "7h", "experiments/stage7i-edge-mask/experiment.mk", "sdpa_stage7i_e4m3", "sdpa_stage7h_e4m3",
     "Stage 7i", "drops the key test from the tiles every row sees whole", 0.85, false},
    {"7j", "7i", "experiments/stage7j-pingpong/experiment.mk", "sdpa_stage7j_e4m3", "sdpa_stage7i_e4m3",
     "Stage 7j", "adds the consumer warpgroups' turns at the tensor cores, whose barriers take issue slots",
     1.02, true},
    {"7k", "7j", "experiments/stage7k-vt-ldsm/experiment.mk", "sdpa_stage7k_e4m3", "sdpa_stage7j_e4m3",
     "Stage 7k",
     "moves the producers' V transpose to ldmatrix and stmatrix and leaves the consumers' loop as it was",
     1.01, false},
    {"7l", "7k", "experiments/stage7l-warp-release/experiment.mk", "sdpa_stage7l_e4m3", "sdpa_stage7k_e4m3",
     "Stage 7l", "releases each staging slot with one arrival per warp instead of one per thread", 1.01,
     false},
};

static const char *const HEADER[ISSUE_COLS] = {
    "kernel",       "variant",          "nvcc",      "arch",        "head_dim",
    "tile_m",       "tile_n",           "mma_warps", "loop_start",  "loop_end",
    "instructions", "instructions_min", "mufu_ex2",  "conversions", "tiles"};

double issue_xu_bound(const issue_row_t *r, int with_conversions) {
    double xu = r->mufu + (with_conversions ? r->conversions : 0);
    return ISSUE_XU_CYCLES * xu / r->instructions_min;
}

double issue_flop_per_sm_cycle(const issue_row_t *r) {
    /* One trip: each of the CTA's `warps` issues instructions_min over the SM's partitions, while the
     * CTA computes tiles x 4 tile_m tile_n D FLOP (both products, as FlashAttention-3 counts them);
     * any number of CTAs per SM scales both alike. */
    double flop = 4.0 * r->tiles * r->tile_m * r->tile_n * r->head_dim;
    return flop * ISSUE_PARTITIONS / ((double)r->warps * r->instructions_min);
}

double issue_flop_per_sm_cycle_xu(const issue_row_t *r) {
    /* As issue_flop_per_sm_cycle, with a trip taking the longer of its issue and its XU cycles when
     * the conversions run on the XU: 8 (MUFU.EX2 + conversions) per warp. */
    double xu = ISSUE_XU_CYCLES * (r->mufu + r->conversions);
    return issue_flop_per_sm_cycle(r) * r->instructions_min / fmax(r->instructions_min, xu);
}

int issue_slots_read(const char *path, issue_row_t *out, int max, char *err, size_t n) {
    tsv_in_t t;
    if (tsv_open(&t, path, err, n) < 0) return -1;
    char *f[ISSUE_COLS];
    int rc = tsv_next(&t, f, ISSUE_COLS, err, n), k = 0;
    for (int i = 0; rc == 1 && i < ISSUE_COLS; i++)
        if (strcmp(f[i], HEADER[i]) != 0) {
            snprintf(err, n, "%s:1: column %d is '%s', expected '%s'", path, i + 1, f[i], HEADER[i]);
            rc = -1;
        }
    if (rc == 0) snprintf(err, n, "%s: empty (make issue-slots writes it)", path), rc = -1;
    while (rc == 1 && (rc = tsv_next(&t, f, ISSUE_COLS, err, n)) == 1) {
        if (k == max) {
            snprintf(err, n, "%s: more than %d kernels", path, max);
            rc = -1;
            break;
        }
        issue_row_t *r = &out[k];
        long v[9];
        static const int col[9] = {4, 5, 6, 7, 10, 11, 12, 13, 14};
        for (int j = 0; j < 9 && rc == 1; j++)
            if (tsv_long(f[col[j]], j < 4 ? 1 : 0, 1000000, &v[j]) < 0) {
                snprintf(err, n, "%s:%zu: %s '%s' is not a count", path, t.line, HEADER[col[j]], f[col[j]]);
                rc = -1;
            }
        if (rc != 1) break;
        if (v[5] < 1 || v[5] > v[4] || v[8] < 1) {
            snprintf(err, n,
                     "%s:%zu: instructions_min %ld must be 1 to instructions (%ld), tiles %ld at least 1",
                     path, t.line, v[5], v[4], v[8]);
            rc = -1;
            break;
        }
        snprintf(r->kernel, sizeof r->kernel, "%s", f[0]);
        snprintf(r->variant, sizeof r->variant, "%s", f[1]);
        r->head_dim = (int)v[0], r->tile_m = (int)v[1], r->tile_n = (int)v[2], r->warps = (int)v[3];
        r->instructions = (int)v[4], r->instructions_min = (int)v[5], r->mufu = (int)v[6];
        r->conversions = (int)v[7], r->tiles = (int)v[8];
        k++;
    }
    tsv_close(&t);
    if (rc == 0 && k == 0)
        snprintf(err, n, "%s: a header and no kernel (make issue-slots writes them)", path), rc = -1;
    return rc < 0 ? -1 : k;
}

double issue_tflops(double flop_per_sm_cycle, double sms, double mhz) {
    if (!(sms > 0 && mhz > 0)) return NAN;
    return flop_per_sm_cycle * sms * mhz * 1e6 / 1e12;
}

/* The absolute throughput gate (GATE_TFLOPS) of the experiment defined in mk, NAN where it has none. */
static int experiment_gate_tflops(const char *mk, double *out, char *err, size_t n) {
    exp_def_t gate;
    if (params_load_experiment(mk, &gate, err, n) < 0) return -1;
    *out = gate.set[P_GATE_TFLOPS] ? strtod(gate.value[P_GATE_TFLOPS], NULL) : NAN;
    return 0;
}

/* The first measured campaign's sm_90 device with its SM count and SM clock, or NULL. */
static const cJSON *sm90_device(const gpu_data_t *g, const gpu_campaign_t **from) {
    for (int i = 0; i < g->n; i++) {
        const gpu_campaign_t *c = g->c[i];
        const cJSON *d = jo(jo(c->device_run, "meta"), "device");
        if (c->fixture || c->emulated || !d || strcmp(jo_str_or(d, "cc", ""), "9.0") != 0) continue;
        if (!(gpu_node_num(jo(d, "sm_count")) > 0) || !(gpu_node_num(jo(d, "sm_clock_default_mhz")) > 0))
            continue;
        *from = c;
        return d;
    }
    return NULL;
}

/* Each campaign's XU figure for stage 7f at its gate shape (gpu_stage7g_verdict) against the bounds. */
static void measured_xu(const gpu_data_t *g, const issue_row_t *f7, rbuf_t *b) {
    double xu0 = 100 * issue_xu_bound(f7, 0), xu1 = 100 * issue_xu_bound(f7, 1);
    int k = 0;
    for (int i = 0; i < g->n; i++) {
        const gpu_campaign_t *c = g->c[i];
        double pct;
        char why[256];
        if (gpu_stage7g_verdict(c, &pct, why, sizeof why) == STAGE7G_OPEN) continue;
        rb_printf(b, "%s campaign %s on %s%s: %.4g %%, %s", k++ ? ";" : " Measured against the bound:", c->id,
                  jo_str_or(c->campaign, "device", "not recorded"),
                  c->fixture ? " (" GPU_FIXTURE_MARK "it confirms or refutes nothing)" : "", pct,
                  pct > xu1 ? "BEYOND both bounds: the model is refuted"
                  : pct > xu0
                      ? "above the MUFU-only bound and within the one with the conversions: they share "
                        "the XU"
                      : "within the bound");
        double is = gpu_stage7g_value(c, ISSUE_METRIC);
        if (isfinite(is)) rb_printf(b, " (issue slots busy %.4g %%)", is);
    }
    if (k) rb_puts(b, ".");
}

/* A step's static gate against its parent's counts: its fewest trip at most max_ratio times the
 * parent's, with as many MUFU.EX2. */
static int step_gate_met(const issue_step_t *st, const issue_row_t *p, const issue_row_t *r) {
    return (double)r->instructions_min / p->instructions_min <= st->max_ratio && r->mufu == p->mufu;
}

/* A step against its parent (issue_step_t): its static gate and its ceilings against its experiment's
 * absolute gate. */
static int predict_step(rbuf_t *b, const issue_step_t *st, const issue_row_t *p, const issue_row_t *r,
                        const cJSON *d, double sms, double mhz, const gpu_campaign_t *from, char *err,
                        size_t n) {
    double gate_tflops;
    if (experiment_gate_tflops(st->experiment, &gate_tflops, err, n) < 0) return -1;
    double ratio = (double)r->instructions_min / p->instructions_min;
    int met = step_gate_met(st, p, r);
    rb_printf(
        b,
        "\nStage %s (Methods, \"%s\") %s: its fewest trip is %d instructions, %.1f %% of stage %s's %d, "
        "with %d MUFU.EX2 against %d; its static gate (at most %.0f %% of %s's, the same MUFU.EX2) is %s. ",
        st->stage, st->methods, st->change, r->instructions_min, 100 * ratio, st->parent, p->instructions_min,
        r->mufu, p->mufu, 100 * st->max_ratio, st->parent, met ? "met" : "MISSED");
    double fl = issue_flop_per_sm_cycle(r), flx = issue_flop_per_sm_cycle_xu(r);
    if (d && isfinite(gate_tflops)) {
        double tf = issue_tflops(fl, sms, mhz), tfx = issue_tflops(flx, sms, mhz);
        rb_printf(b,
                  "Its issue slots allow at most %.0f FLOP per SM cycle, %.0f TFLOP/s on %s (campaign %s's "
                  "device record); if the conversions share the XU, which then binds first, %.0f TFLOP/s. "
                  "Against the %g TFLOP/s of its absolute gate the model predicts that stage %s %s.\n",
                  fl, tf, jo_str_or(d, "name", "?"), from->id, tfx, gate_tflops, st->stage,
                  tfx >= gate_tflops  ? "can meet that gate either way"
                  : tf >= gate_tflops ? "can meet that gate only if the conversions do not run on the XU"
                                      : "misses that gate");
        /* Both bound by the XU at one ceiling when the conversions run there: no speedup to predict. */
        if (flx <= issue_flop_per_sm_cycle_xu(p) * (1 + 1e-9))
            rb_printf(
                b,
                "If they do, the XU binds stage %s at the same ceiling, and the model predicts no speedup "
                "over it.\n",
                st->parent);
    } else
        rb_printf(b,
                  "Its issue slots allow at most %.0f FLOP per SM cycle (%.0f if the conversions share "
                  "the XU).\n",
                  fl, flx);
    return 0;
}

/* The row of kernel in rows (k of them), or NULL. */
static const issue_row_t *row_of(const issue_row_t *rows, int k, const char *kernel) {
    for (int i = 0; i < k; i++)
        if (strcmp(rows[i].kernel, kernel) == 0) return &rows[i];
    return NULL;
}

/* [stage 7j] The turns' own prediction (paper/methods.md#prereg-stage7j), at each head dimension the
 * counts hold: per partition and tile, a warpgroup's Q.K^T holds the tensor cores T cycles, the
 * partition issues (warps / 4) N instructions and its XU is busy (warps / 4) 8 (E + C) cycles if the
 * conversions run there. Held together (the parent) a tile takes at least T plus the longer of the two;
 * in turns (the step) the longer of the two and the tensor cores' whole tile. The ratio of the two
 * floors is the most the turns can gain by the model. */
static void predict_turns(rbuf_t *b, const issue_step_t *st, const issue_row_t *rows, int k) {
    int said = 0; /* sentences printed: one paragraph, whichever head dimensions the counts hold */
    for (int wide = 0; wide < 2; wide++) {
        char pk[96], sk[96];
        snprintf(pk, sizeof pk, "%s%s", st->parent_kernel, wide ? "_d128" : "");
        snprintf(sk, sizeof sk, "%s%s", st->kernel, wide ? "_d128" : "");
        const issue_row_t *p = row_of(rows, k, pk), *r = row_of(rows, k, sk);
        if (!p || !r) continue;
        const double per = r->warps / ISSUE_PARTITIONS, wgs = r->warps / 4.0;
        const double t = (r->tile_m / wgs) * r->tile_n * r->tiles * r->head_dim / ISSUE_TENSOR_E4M3_MACS;
        const double ip = per * p->instructions_min, is = per * r->instructions_min;
        const double xp = per * ISSUE_XU_CYCLES * (p->mufu + p->conversions),
                     xs = per * ISSUE_XU_CYCLES * (r->mufu + r->conversions), tensor = 2 * wgs * t;
        const double gain = (t + ip) / fmax(is, tensor),
                     gain_xu = (t + fmax(ip, xp)) / fmax(fmax(is, xs), tensor);
        const double ratio = (double)r->instructions_min / p->instructions_min;
        rb_printf(b, "%sAt D = %d", said++ ? " " : "\n", r->head_dim);
        if (!wide) /* D = 64's static gate is the paragraph's first sentence */
            rb_puts(b, ",");
        else
            rb_printf(
                b,
                ", where its gate is timed, stage %s's fewest trip is %d instructions against stage %s's %d "
                "(%.2f %%; its static gate of at most %.0f %% is %s);",
                st->stage, r->instructions_min, st->parent, p->instructions_min, 100 * ratio,
                100 * st->max_ratio, step_gate_met(st, p, r) ? "met" : "MISSED");
        rb_printf(
            b,
            " a warpgroup's Q·Kᵀ holds the tensor cores %.0f cycles a tile at the datasheet's rate; held "
            "together, stage %s's partitions issue %.0f instructions a tile after it, in turns stage %s's "
            "%.0f while it runs: by the model the turns gain at most %.3f, or %.3f if the conversions "
            "share the XU (%.0f cycles a tile then).",
            t, st->parent, ip, st->stage, is, gain, gain_xu, xs);
    }
    if (said) rb_puts(b, "\n");
}

int issue_slots_write(const gpu_data_t *g, const char *out, char *err, size_t n) {
    issue_row_t rows[ISSUE_MAX_ROWS];
    rbuf_t b = {0};
    int k = issue_slots_read(ISSUE_SLOTS_TSV, rows, ISSUE_MAX_ROWS, err, n);
    if (k < 0) return -1;
    double gate_tflops;
    if (experiment_gate_tflops(ISSUE_GATE_EXPERIMENT, &gate_tflops, err, n) < 0) return -1;
    const gpu_campaign_t *from = NULL;
    const cJSON *d = sm90_device(g, &from);
    double sms = d ? gpu_node_num(jo(d, "sm_count")) : NAN,
           mhz = d ? gpu_node_num(jo(d, "sm_clock_default_mhz")) : NAN;
    static const md_col_t cols[] = {{"stage", 8, 'l'},
                                    {"D", 3, 'r'},
                                    {"tile (rows × keys)", 11, 'l'},
                                    {"warps in the loop", 6, 'r'},
                                    {"instructions (fewest)", 12, 'r'},
                                    {"MUFU.EX2", 10, 'r'},
                                    {"conversions", 10, 'r'},
                                    {"XU busy at most", 8, 'r'},
                                    {"with the conversions", 9, 'r'},
                                    {"FLOP per SM cycle at most", 9, 'r'},
                                    {"TFLOP/s at most", 10, 'r'}};
    md_table_head(&b, cols, 11);
    const issue_row_t *f7 = NULL;
    for (int i = 0; i < k; i++) {
        const issue_row_t *r = &rows[i];
        char dd[16], tile[32], w[16], ins[48], mu[16], cv[16], xu0[24], xu1[24], fl[32], tf[32];
        snprintf(dd, sizeof dd, "%d", r->head_dim);
        snprintf(tile, sizeof tile, "%d × %d", r->tile_m, r->tile_n * r->tiles);
        snprintf(w, sizeof w, "%d", r->warps);
        snprintf(ins, sizeof ins, "%d (%d)", r->instructions, r->instructions_min);
        snprintf(mu, sizeof mu, "%d", r->mufu);
        snprintf(cv, sizeof cv, "%d", r->conversions);
        snprintf(xu0, sizeof xu0, "%.1f %%", 100 * issue_xu_bound(r, 0));
        /* With the conversions a loop may ask more of the XU than it has: no bound then. */
        if (issue_xu_bound(r, 1) < 1)
            snprintf(xu1, sizeof xu1, "%.1f %%", 100 * issue_xu_bound(r, 1));
        else
            snprintf(xu1, sizeof xu1, "none");
        snprintf(fl, sizeof fl, "%.0f", issue_flop_per_sm_cycle(r));
        if (d)
            snprintf(tf, sizeof tf, "%.0f", issue_tflops(issue_flop_per_sm_cycle(r), sms, mhz));
        else
            snprintf(tf, sizeof tf, "%s", NA_MARK);
        md_row(&b, 11, r->variant, dd, tile, w, ins, mu, cv, xu0, xu1, fl, tf);
        if (strcmp(r->kernel, ISSUE_GATE_KERNEL) == 0) f7 = r;
    }
    char on[640];
    if (d)
        snprintf(on, sizeof on, "on %s (%.0f SMs at %.0f MHz, campaign %s's device record)",
                 jo_str_or(d, "name", "?"), sms, mhz, from->id);
    else
        snprintf(on, sizeof on, "n/a: no sm_90 device is committed");
    char cap[1536];
    snprintf(
        cap, sizeof cap,
        "The static issue-slot model on the Hopper line's softmax loops, from their sm_90a SASS "
        "(`paper/derivation/issue-slots.tsv`, nvcc as recorded there; Methods, \"Stage 7g and stage 7f's "
        "ceiling: the issue-slot model\"): instructions per trip of one warp (in brackets, the fewest any "
        "trip issues); conversions are the trip's F2FP, F2F, F2I, I2F and FRND instructions (from stage 7c "
        "on the packing of P into E4M3 codes and the unpacking of the codes its row sums add, so twice the "
        "unpacks the text counts); the XU's busy share they allow, also if the conversions run there (none "
        "where that would exceed the whole pipe); the FLOP per SM cycle their issue slots allow, and the "
        "TFLOP/s %s. Upper "
        "bounds, fixed before any stage-7 kernel ran on a GPU; no GPU measured them.",
        on);
    md_table_caption(&b, "tbl:issue-slots", cap);
    if (f7) {
        double xu0 = 100 * issue_xu_bound(f7, 0), xu1 = 100 * issue_xu_bound(f7, 1);
        rb_printf(&b,
                  "What the model predicts for stage 7f at D = 64, the kernel its gates and stage 7g's "
                  "decision read: each warp issues at least %d instructions per tile of %d keys, %d of them "
                  "MUFU.EX2, so the XU pipe can be at most %.1f %% busy (%.1f %% if its %d conversions run "
                  "there too), %s the %.0f %% that stage 7g needs: the model predicts %s. ",
                  f7->instructions_min, f7->tile_n * f7->tiles, f7->mufu, xu0, xu1, f7->conversions,
                  xu1 < STAGE7G_GO_PCT ? "below" : (xu0 < STAGE7G_GO_PCT ? "around" : "above"),
                  STAGE7G_GO_PCT,
                  xu1 < STAGE7G_GO_PCT   ? "no-go"
                  : xu0 < STAGE7G_GO_PCT ? "nothing (it turns on the conversions' pipe)"
                                         : "that a go is possible");
        double fl = issue_flop_per_sm_cycle(f7);
        if (d && isfinite(gate_tflops)) {
            double tf = issue_tflops(fl, sms, mhz);
            rb_printf(&b,
                      "Its issue slots allow at most %.0f FLOP per SM cycle, %.0f TFLOP/s on %s at %.0f MHz "
                      "(campaign %s's device record), %s the %g TFLOP/s of its absolute gate: the model "
                      "predicts that stage 7f %s, whatever its speedup over stage 7e.",
                      fl, tf, jo_str_or(d, "name", "?"), mhz, from->id, tf < gate_tflops ? "below" : "above",
                      gate_tflops, tf < gate_tflops ? "misses that gate" : "can meet that gate");
        } else
            rb_printf(&b,
                      "Its issue slots allow at most %.0f FLOP per SM cycle (no sm_90 device is committed to "
                      "turn that into TFLOP/s).",
                      fl);
        rb_puts(&b,
                " A profile or a timing beyond either bound would refute the model, and would be reported as "
                "such.");
        measured_xu(g, f7, &b);
        rb_puts(&b, "\n");
    }
    for (size_t i = 0; i < sizeof STEPS / sizeof STEPS[0]; i++) {
        const issue_row_t *p = row_of(rows, k, STEPS[i].parent_kernel), *r = row_of(rows, k, STEPS[i].kernel);
        if (p && r && predict_step(&b, &STEPS[i], p, r, d, sms, mhz, from, err, n) < 0)
            return rb_free(&b), -1;
        if (p && r && STEPS[i].turns) predict_turns(&b, &STEPS[i], rows, k);
    }
    issue_slots_measured(g, rows, k, &b);
    return rb_save(&b, out, "issue-slots.md", err, n);
}
