# Stage 7i: the key mask only on the tiles that need it (stage7h -> stage7i), a step added to the
# Hopper line on the issue-slot model's evidence (paper/methods.md#prereg-stage7i): the tiles every
# row of the CTA sees whole take a softmax without the key test; the partial last tile and the
# causal diagonal keep it.
# Read by experiments/common.mk and copied into every run directory, so that a report is always
# judged against the definition its run was made with (make report RUN=... reads the copy).
# Defaults of every parameter not set here (timing budgets, static budgets): experiments/common.mk.
TITLE        := Stage 7i: the key mask only where a tile needs it (stage7h to stage7i)
MAKE_TARGET  := stage7i
BASELINE     := stage7h
CANDIDATE    := stage7i
# As stage 7h's: small and single (one partial tile: no whole tile), ragged (one partial tile),
# partial (one whole tile and a partial one: both bodies in one CTA), mission (four whole tiles),
# "stage5" (2,8,512,64) B > 1. Class LOAD: must be bit-identical to stage 7h.
SHAPES       := small mission ragged partial single stage5
SEEDS        := 0,1,2
# The gate's shape (paper/methods.md#prereg-stage7i). The emulator times the mission shape.
TIMING_SHAPE     := 2,32,8192,64
EMU_TIMING_SHAPE := mission
# The pre-registered gates: speedup stage7h/stage7i >= 1.10 at the lower end of its 95 % CI, and
# stage7i's throughput there >= 480 TFLOP/s (4 B H S^2 D over the upper end of its median's CI),
# stage 7f's bar: 80 % of FlashAttention-3's published FP8 figures at D = 64 (568-613 TFLOP/s,
# S = 4k-16k, H100 SXM5), on an sm_90a device (H100/H200; "not supported" on any other).
GATE_SPEEDUP := 1.10
GATE_TFLOPS  := 480
# As stage 7h's: bounded (384, 1), 168 registers per thread at entry, no spills.
STATIC_BUDGET := 168,0,0,49152
