# Stage 7m: causal CTAs longest first (stage7l -> stage7m), a step added after the Hopper line's table
# (issue 25; paper/methods.md#prereg-stage7m), the line's first about the causal mask; timed at the
# FlashAttention benchmark grid's causal D = 64 shape at S = 8192 (the gate as amended before any GPU run).
# Read by experiments/common.mk and copied into every run directory, so that a report is always
# judged against the definition its run was made with (make report RUN=... reads the copy).
# Defaults of every parameter not set here (timing budgets, static budgets): experiments/common.mk.
TITLE        := Stage 7m: causal CTAs longest first (stage7l to stage7m)
MAKE_TARGET  := stage7m
BASELINE     := stage7l
CANDIDATE    := stage7m
# Causal: one tile (single is not causal; ragged-causal, 2,3,33,64: the diagonal in a partial tile),
# four query tiles of one batch entry (mission-causal: the reversal), two batch entries of 32 heads and
# two query tiles (fa-t512-s256-d64-causal: heads fastest, batch entries in turn), D = 128 (7l's order
# kept: mission-d128-causal); not causal (7l's code: mission). Class LOAD: bit-identical to stage 7l.
SHAPES       := ragged-causal mission-causal fa-t512-s256-d64-causal mission-d128-causal mission
SEEDS        := 0,1,2
# The gate's shape: the FlashAttention benchmark grid's causal D = 64 member at S = 8192.
TIMING_SHAPE     := fa-s8192-d64-causal
EMU_TIMING_SHAPE := mission-causal
# The gate (hypothesis.md, amended before any GPU run): speedup stage7l/stage7m >= 1.02 at the lower
# end of its 95 % CI, on an sm_90a device (H100/H200; "not supported" on any other). No absolute bar.
GATE_SPEEDUP := 1.02
# As stage 7l's: bounded (384, 1), 168 registers per thread at entry, no spills (every instance).
STATIC_BUDGET := 168,0,0,49152
