# Stage 7e: 128 keys per KV tile (stage7d -> stage7e), the fifth step of the Hopper line (issue 25):
# Q.K^T by wgmma m64n128k32, P.V by four chained m64n64k32 per tile, V^T in the 128-byte swizzle.
# Read by experiments/common.mk and copied into every run directory, so that a report is always
# judged against the definition its run was made with (make report RUN=... reads the copy).
# Defaults of every parameter not set here (timing budgets, static budgets): experiments/common.mk.
TITLE        := Stage 7e: 128-key tiles (stage7d to stage7e)
MAKE_TARGET  := stage7e
BASELINE     := stage7d
CANDIDATE    := stage7e
# As stage 7d's: small and single (S <= 32: one tile in both, bit-identical by prediction), ragged
# and partial (tail tiles: S = 33 is one 128-key tile here, two 32-key ones in 7d), mission (four
# 128-key tiles per row, the ring of 3 wrapping), "stage5" (2,8,512,64) B > 1. Class ARITH: judged by
# the fp8p bars and the mirror on 128-key tiles (paper/methods.md#tolerances-7e), bounded against 7d.
SHAPES       := small mission ragged partial single stage5
SEEDS        := 0,1,2
# The gate's shape (paper/methods.md#prereg-stage7: 7e, speedup >= 1.15 over 7d). On the CPU emulator
# one launch there takes ~20 min and its times decide nothing: the emulator times the mission shape.
TIMING_SHAPE     := 2,32,8192,64
EMU_TIMING_SHAPE := mission
# The pre-registered gate: speedup stage7d/stage7e >= 1.15 at the lower end of its 95 % CI, on an
# sm_90a device (H100/H200; "not supported" on any other).
GATE_SPEEDUP := 1.15
# As stage 7d's: bounded (384, 1), 168 registers per thread at entry (split 40 / 232 by setmaxnreg),
# no spills; the shared memory (~72 KiB) is dynamic, so ptxas's static figure stays 0.
STATIC_BUDGET := 168,0,0,49152
