# Stage 7d: warpgroup specialisation (stage7c -> stage7d), the fourth step of the Hopper line (issue
# 25): two 64-row consumer warpgroups (128 rows per CTA) and a producer warpgroup (TMA ring, V^T),
# the registers split between them by setmaxnreg.
# Read by experiments/common.mk and copied into every run directory, so that a report is always
# judged against the definition its run was made with (make report RUN=... reads the copy).
# Defaults of every parameter not set here (timing budgets, static budgets): experiments/common.mk.
TITLE        := Stage 7d: warpgroup specialisation (stage7c to stage7d)
MAKE_TARGET  := stage7d
BASELINE     := stage7c
CANDIDATE    := stage7d
# As stage 7c's: ragged and partial give tail tiles (and, with 128 rows per CTA, a second warpgroup
# whose rows are partly or wholly past S), single one CTA with one tile, mission wraps the ring,
# "stage5" (2,8,512,64) B > 1. Judged by the fp8p bars; must be bit-identical to stage 7c (LOAD).
SHAPES       := small mission ragged partial single stage5
SEEDS        := 0,1,2
# The gate's shape, as stage 7c's (paper/methods.md#prereg-stage7: 7d, no regression against 7c).
# On the CPU emulator one launch there takes ~20 min and its times decide nothing: the emulator
# times the mission shape.
TIMING_SHAPE     := 2,32,8192,64
EMU_TIMING_SHAPE := mission
# The pre-registered gate: no regression, speedup stage7c/stage7d >= 1/1.05 at the lower end of its
# 95 % CI (as stage 7a's), on an sm_90a device (H100/H200; "not supported" on any other).
GATE_SPEEDUP := 0.9524
# Bounded (384, 1): 168 registers per thread at entry (kernels/geometry.h, SDPA_REG_CAP), which the
# warpgroups then split 40 / 232 by setmaxnreg; no spills, static shared memory within 48 KiB.
STATIC_BUDGET := 168,0,0,49152
