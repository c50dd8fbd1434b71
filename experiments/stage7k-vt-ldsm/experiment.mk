# Stage 7k: V transposed by ldmatrix and stmatrix (stage7j -> stage7k), a step added after the Hopper
# line's table (issue 25; paper/methods.md#prereg-stage7k), timed at stage 7j's D = 128 gate shape.
# Read by experiments/common.mk and copied into every run directory, so that a report is always
# judged against the definition its run was made with (make report RUN=... reads the copy).
# Defaults of every parameter not set here (timing budgets, static budgets): experiments/common.mk.
TITLE        := Stage 7k: V transposed by ldmatrix and stmatrix (stage7j to stage7k)
MAKE_TARGET  := stage7k
BASELINE     := stage7j
CANDIDATE    := stage7k
# Both head dimensions: one tile (single; 1,1,32,128: keys past S in every block), one and two
# 128-key tiles the last partial (ragged-d128, 1,2,200,128: TMA's zeros past S), four tiles
# (mission-d128: the staging ring wraps), D = 64's mission (4 blocks per producer warp instead of 8).
# Class LOAD: must be bit-identical to stage 7j.
SHAPES       := single 1,1,32,128 ragged-d128 1,2,200,128 mission-d128 mission
SEEDS        := 0,1,2
# The gate's shape: stage 7j's (FlashAttention-3's benchmark grid at D = 128, S = 8k).
TIMING_SHAPE     := 2,16,8192,128
EMU_TIMING_SHAPE := mission-d128
# The pre-registered gate (hypothesis.md): speedup stage7j/stage7k >= 1.03 at the lower end of its 95 %
# CI, on an sm_90a device (H100/H200; "not supported" on any other). No absolute bar of its own.
GATE_SPEEDUP := 1.03
# As stage 7j's: bounded (384, 1), 168 registers per thread at entry, no spills (every instance).
STATIC_BUDGET := 168,0,0,49152
