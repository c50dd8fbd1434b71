# Stage 6: FP8 tensor cores (stage5 -> stage6): Q.K^T and P.V on mma.sync m16n8k32 e4m3 on the
# codes, P quantised to e4m3 in registers (scale 448), V transposed in-kernel by the producers.
# Read by experiments/common.mk and copied into every run directory, so that a report is always
# judged against the definition its run was made with (make report RUN=... reads the copy).
# Defaults of every parameter not set here (timing budgets, static budgets): experiments/common.mk.
TITLE        := Stage 6: FP8 tensor cores on the e4m3 codes (stage5 to stage6)
MAKE_TARGET  := stage6
BASELINE     := stage5
CANDIDATE    := stage6
# As stage 5's: ragged and partial cover partial tiles (masked keys, zeroed V^T columns) on 1-7
# tiles, single one CTA with one tile, "stage5" (2,8,512,64) B > 1. stage6 is judged by the fp8p
# bars (paper/methods.md#tolerances-fp8), stage5 by fp16, and the pair by the fp8p bar.
SHAPES       := small mission ragged partial single stage5
SEEDS        := 0,1,2
TIMING_SHAPE := mission
GATE_SPEEDUP := 1.10
