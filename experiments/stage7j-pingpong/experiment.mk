# Stage 7j: the two consumer warpgroups in turn at the tensor cores (stage7i -> stage7j), a step added
# after the Hopper line's table (issue 25; paper/methods.md#prereg-stage7j), timed at D = 128, where
# FlashAttention-3 turns its scheduler barriers on for FP8.
# Read by experiments/common.mk and copied into every run directory, so that a report is always
# judged against the definition its run was made with (make report RUN=... reads the copy).
# Defaults of every parameter not set here (timing budgets, static budgets): experiments/common.mk.
TITLE        := Stage 7j: the consumer warpgroups in turn (stage7i to stage7j)
MAKE_TARGET  := stage7j
BASELINE     := stage7i
CANDIDATE    := stage7j
# Both head dimensions: one tile (single; 1,1,32,128: nothing to take turns over but tile 0's), one and
# two 128-key tiles the last partial (ragged-d128, 1,2,200,128), four tiles (mission-d128: the turns
# and each warpgroup's FULL barriers wrap), D = 64's mission. Class LOAD: must be bit-identical to
# stage 7i.
SHAPES       := single 1,1,32,128 ragged-d128 1,2,200,128 mission-d128 mission
SEEDS        := 0,1,2
# The gate's shape: FlashAttention-3's benchmark grid at D = 128 (16k tokens, H x D = 2048), S = 8k.
TIMING_SHAPE     := 2,16,8192,128
EMU_TIMING_SHAPE := mission-d128
# The pre-registered gate (hypothesis.md): speedup stage7i/stage7j >= 1.05 at the lower end of its 95 %
# CI, on an sm_90a device (H100/H200; "not supported" on any other). No absolute bar of its own.
GATE_SPEEDUP := 1.05
# As stage 7i's: bounded (384, 1), 168 registers per thread at entry, no spills (every instance).
STATIC_BUDGET := 168,0,0,49152
