# Stage 7f at D = 128 (stage7e -> stage7f, their D = 128 instances): the overlap of the sixth step of
# the Hopper line (issue 25) at the head dimension where FlashAttention-3's FP8 forward is fastest.
# Read by experiments/common.mk and copied into every run directory, so that a report is always
# judged against the definition its run was made with (make report RUN=... reads the copy).
# Defaults of every parameter not set here (timing budgets, static budgets): experiments/common.mk.
TITLE        := Stage 7f at head dimension 128: intra-warpgroup overlap (stage7e to stage7f)
MAKE_TARGET  := stage7f-d128
BASELINE     := stage7e
CANDIDATE    := stage7f
# D = 128 throughout: one tile of 32 keys (1,1,32), one partial 128-key tile (ragged-d128: S = 33,
# B x H = 6), two tiles the second partial (S = 200), one key (S = 1), four tiles (mission-d128: the
# V^T buffers released a tile late wrap). Class LOAD: must be bit-identical to stage 7e.
SHAPES       := 1,1,32,128 ragged-d128 1,2,200,128 1,1,1,128 mission-d128
SEEDS        := 0,1,2
# The gate's shape: FlashAttention-3's benchmark grid at D = 128 (16k tokens, H x D = 2048), S = 8k.
TIMING_SHAPE     := 2,16,8192,128
EMU_TIMING_SHAPE := mission-d128
# The pre-registered gates (hypothesis.md): speedup stage7e/stage7f >= 1.05 at the lower end of its
# 95 % CI, and stage7f's throughput there >= 480 TFLOP/s (4 B H S^2 D over the upper end of its
# median's CI), stage 7f's D = 64 bar, about half of FlashAttention-3's published FP8 figure at
# D = 128 (974 TFLOP/s, S = 8k, H100 SXM5); on an sm_90a device (H100/H200; "not supported" on any
# other).
GATE_SPEEDUP := 1.05
GATE_TFLOPS  := 480
# As stage 7f's: bounded (384, 1), 168 registers per thread at entry, no spills (every instance).
STATIC_BUDGET := 168,0,0,49152
