# Stage 7c: P.V by wgmma (stage7b -> stage7c), the third step of the Hopper line (issue 25): the
# warpgroup multiplies its P codes, straight from registers (wgmma RS), by V^T in shared memory,
# which the producer warp now writes in wgmma's K-major core matrices and fences to the async proxy;
# no mma.sync is left.
# Read by experiments/common.mk and copied into every run directory, so that a report is always
# judged against the definition its run was made with (make report RUN=... reads the copy).
# Defaults of every parameter not set here (timing budgets, static budgets): experiments/common.mk.
TITLE        := Stage 7c: P.V by wgmma from registers (stage7b to stage7c)
MAKE_TARGET  := stage7c
BASELINE     := stage7b
CANDIDATE    := stage7c
# As stage 7b's: ragged and partial give V^T tail tiles (keys past S are zero codes, P's weight 0
# there), single one CTA with one tile, mission wraps the ring and alternates the two V^T buffers,
# "stage5" (2,8,512,64) B > 1. Judged by the fp8p bars; must be bit-identical to stage 7b (LAYOUT).
SHAPES       := small mission ragged partial single stage5
SEEDS        := 0,1,2
# The gate's shape, as stage 7b's (paper/methods.md#prereg-stage7 gives 7c a ratio over 7b, measured
# where 7b's was): (B, H, S, D) = (2, 32, 8192, 64) on the GPU. On the CPU emulator one launch there
# takes ~20 min and its times decide nothing: the emulator times the mission shape.
TIMING_SHAPE     := 2,32,8192,64
EMU_TIMING_SHAPE := mission
# The pre-registered gate: speedup stage7b/stage7c >= 1.3 at the lower end of its 95 % CI, on an
# sm_90a device (H100/H200; "not supported" on any other).
GATE_SPEEDUP := 1.3
