# Stage 7b: Q.K^T by wgmma (stage7a -> stage7b), the second step of the Hopper line (issue 25): the
# 4 computing warps of a 64-row CTA become one warpgroup whose wgmma m64n32k32 (SS) reads Q's
# swizzled tile and K in its TMA staging slot; one producer warp (V^T) remains; softmax and P.V are
# stage 6's code.
# Read by experiments/common.mk and copied into every run directory, so that a report is always
# judged against the definition its run was made with (make report RUN=... reads the copy).
# Defaults of every parameter not set here (timing budgets, static budgets): experiments/common.mk.
TITLE        := Stage 7b: the scores by wgmma, one 64-row warpgroup (stage7a to stage7b)
MAKE_TARGET  := stage7b
BASELINE     := stage7a
CANDIDATE    := stage7b
# As stage 7a's: ragged (S = 33: one CTA, 33 of its 64 rows, a tail tile of one key) and partial
# (S = 200: the last CTA's 8 rows, a tail tile of 8 keys) put zero rows into Q's swizzled tile and
# the tail's keys outside the tensor map (TMA's zero fill, now read by wgmma itself); single one CTA
# with one tile; mission (16 tiles) wraps the 3-slot ring five times (the full and empty barriers'
# parities, the empty barrier's 160 arrivals); "stage5" (2,8,512,64) B > 1 (the map's third
# coordinate b*H + h). Judged by the fp8p bars; must be bit-identical to stage 7a (class LAYOUT).
SHAPES       := small mission ragged partial single stage5
SEEDS        := 0,1,2
# The pre-registered shape of the gate (paper/methods.md#prereg-stage7, row 7b): B = 2, H = 32,
# S = 8192, D = 64, on the GPU. At the mission shape stage 7b's 64-row CTAs would number 64 (half an
# H100 SXM's 132 SMs), against stage 7a's 128: the comparison would measure the grid, not the step.
# On the CPU emulator a launch at the gate's shape takes ~20 min (stage 7a's check there: ~18 min
# on a 2-core VM) and its times decide nothing: the emulator times the mission shape.
TIMING_SHAPE     := 2,32,8192,64
EMU_TIMING_SHAPE := mission
# The pre-registered gate: speedup stage7a/stage7b >= 1.2 at the lower end of its 95 % CI, on an
# sm_90a device (H100/H200; "not supported" on any other).
GATE_SPEEDUP := 1.2
