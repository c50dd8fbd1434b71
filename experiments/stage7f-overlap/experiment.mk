# Stage 7f: intra-warpgroup overlap (stage7e -> stage7f), the sixth step of the Hopper line (issue 25):
# S(t) and P(t-1).V(t-1) in flight together, tile t's softmax under P.V (FlashAttention-3's order).
# Read by experiments/common.mk and copied into every run directory, so that a report is always
# judged against the definition its run was made with (make report RUN=... reads the copy).
# Defaults of every parameter not set here (timing budgets, static budgets): experiments/common.mk.
TITLE        := Stage 7f: intra-warpgroup overlap (stage7e to stage7f)
MAKE_TARGET  := stage7f
BASELINE     := stage7e
CANDIDATE    := stage7f
# As stage 7e's: small and single (one tile: nothing overlaps, the last-tile path alone), ragged and
# partial (one and two 128-key tiles), mission (four: the V^T buffers released a tile late wrap),
# "stage5" (2,8,512,64) B > 1. Class LOAD: must be bit-identical to stage 7e.
SHAPES       := small mission ragged partial single stage5
SEEDS        := 0,1,2
# The gate's shape (paper/methods.md#prereg-stage7: 7f). The emulator times the mission shape.
TIMING_SHAPE     := 2,32,8192,64
EMU_TIMING_SHAPE := mission
# The pre-registered gates: speedup stage7e/stage7f >= 1.10 at the lower end of its 95 % CI, and
# stage7f's throughput there >= 480 TFLOP/s (4 B H S^2 D over the upper end of its median's CI): 80 %
# of FlashAttention-3's published FP8 figures at D = 64 (568-613 TFLOP/s, S = 4k-16k, H100 SXM5),
# on an sm_90a device (H100/H200; "not supported" on any other).
GATE_SPEEDUP := 1.10
GATE_TFLOPS  := 480
# As stage 7e's: bounded (384, 1), 168 registers per thread at entry, no spills.
STATIC_BUDGET := 168,0,0,49152
