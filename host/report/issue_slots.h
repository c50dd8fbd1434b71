/* The static issue-slot model of the Hopper line (paper/methods.md#prereg-stage7g-slots): from the
 * counts of each kernel's softmax loop in its sm_90a SASS (ISSUE_SLOTS_TSV, written by
 * tools/issue-slots.sh and checked against the build by make test), two upper bounds fixed before
 * any GPU run: how busy the loop can keep the XU pipe (the stage-7g go/no-go's figure), and how many
 * FLOP per SM cycle its issue slots allow (against stage 7f's 480 TFLOP/s gate). */
#ifndef ISSUE_SLOTS_H
#define ISSUE_SLOTS_H

#include <stddef.h>

#include "gpu_campaigns.h"
#include "textbuf.h"

#define ISSUE_SLOTS_TSV "paper/derivation/issue-slots.tsv"
/* Cycles one warp's MUFU.EX2 holds an SM partition's XU: 16 exponentials per cycle per SM
 * (roof_exp2_tps, host/bench/roofline.c) over 4 partitions, for 32 lanes. */
#define ISSUE_XU_CYCLES 8.0
/* A partition issues at most one warp instruction per cycle; an SM has 4. */
#define ISSUE_PARTITIONS 4.0
/* [stage 7j] e4m3 products the tensor cores of one SM complete per cycle: the datasheet's 1979 TFLOP/s
 * of dense FP8 over 132 SMs at 1830 MHz, 8192 FLOP (paper/methods.md#prereg-stage7j). */
#define ISSUE_TENSOR_E4M3_MACS 4096.0
/* Nsight Compute's share of issue slots used, which the model says stage 7f's loop fills. */
#define ISSUE_METRIC "sm__inst_issued.avg.pct_of_peak_sustained_active"

typedef struct {
    char kernel[64], variant[16];
    int head_dim, tile_m, tile_n, warps, instructions, instructions_min, mufu, conversions, tiles;
} issue_row_t;

/* The XU's share of the loop's issue, at most (MUFU.EX2 only, or with the conversions): 0..1. */
double issue_xu_bound(const issue_row_t *r, int with_conversions);
/* FLOP per SM cycle the loop's issue slots allow at most (4 tile_m tile_n D per trip and tile). */
double issue_flop_per_sm_cycle(const issue_row_t *r);
/* The same when the conversions run on the XU: a trip takes at least 8 (MUFU.EX2 + conversions)
 * cycles of it, so the bound is the lower of the two. */
double issue_flop_per_sm_cycle_xu(const issue_row_t *r);
/* FLOP per SM cycle as TFLOP/s on sms SMs at mhz (NaN unless both are positive). */
double issue_tflops(double flop_per_sm_cycle, double sms, double mhz);
/* Reads path: rows into out (at most max), their count, or -1 with err naming the file and line. */
int issue_slots_read(const char *path, issue_row_t *out, int max, char *err, size_t n);
/* issue-slots.md: the table and the two predictions, with the TFLOP/s on the first measured
 * campaign's sm_90 device (its SM count and SM clock) when one is committed. 0 or -1 with err. */
/* The table of each counted kernel's fastest GPU timing per campaign against its ceiling on that
 * campaign's device (issue_measured.c); a sentence instead when no campaign timed one. */
void issue_slots_measured(const gpu_data_t *g, const issue_row_t *rows, int k, rbuf_t *b);
int issue_slots_write(const gpu_data_t *g, const char *out, char *err, size_t n);

#endif
