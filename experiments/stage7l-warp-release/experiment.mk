# Stage 7l: one empty-barrier arrival per warp (stage7k -> stage7l), a step added after the Hopper
# line's table (issue 25; paper/methods.md#prereg-stage7l), timed at stage 7j's D = 128 gate shape.
# Read by experiments/common.mk and copied into every run directory, so that a report is always
# judged against the definition its run was made with (make report RUN=... reads the copy).
# Defaults of every parameter not set here (timing budgets, static budgets): experiments/common.mk.
TITLE        := Stage 7l: one empty-barrier arrival per warp (stage7k to stage7l)
MAKE_TARGET  := stage7l
BASELINE     := stage7k
CANDIDATE    := stage7l
# Both head dimensions: one tile (single; 1,1,32,128: keys past S in every block), one and two
# 128-key tiles the last partial (ragged-d128, 1,2,200,128), four tiles (mission-d128, mission: a
# slot of the ring of 3 released and loaded again), eight (1,2,1024,64: the ring wraps twice).
# Class LOAD: must be bit-identical to stage 7k.
SHAPES       := single 1,1,32,128 ragged-d128 1,2,200,128 mission-d128 mission 1,2,1024,64
SEEDS        := 0,1,2
# The gate's shape: stage 7j's (FlashAttention-3's benchmark grid at D = 128, S = 8k).
TIMING_SHAPE     := 2,16,8192,128
EMU_TIMING_SHAPE := mission-d128
# The pre-registered gate (hypothesis.md): speedup stage7k/stage7l >= 1.02 at the lower end of its 95 %
# CI, on an sm_90a device (H100/H200; "not supported" on any other). No absolute bar of its own.
GATE_SPEEDUP := 1.02
# As stage 7k's: bounded (384, 1), 168 registers per thread at entry, no spills (every instance).
STATIC_BUDGET := 168,0,0,49152
