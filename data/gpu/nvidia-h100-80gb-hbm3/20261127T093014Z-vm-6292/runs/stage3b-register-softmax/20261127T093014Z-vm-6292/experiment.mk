# Stage 3B: scores, probabilities and output in registers on mma.sync m16n8k16 (stage3a-swz ->
# stage3b), the original's failed Stage-3B redone with one owner per row.
# Read by experiments/common.mk and copied into every run directory, so that a report is always
# judged against the definition its run was made with (make report RUN=... reads the copy).
# Defaults of every parameter not set here (timing budgets, static budgets): experiments/common.mk.
TITLE        := Stage 3B: softmax and P.V in registers on mma.sync (stage3a-swz to stage3b)
MAKE_TARGET  := stage3b
BASELINE     := stage3a-swz
CANDIDATE    := stage3b
# The original's shapes (its Stage-3B report failed 0/6 on small and mission), plus ragged
# (2,3,33,64) and partial (1,2,200,64): partial KV tiles, masked keys and rows past S.
SHAPES       := small mission ragged partial
SEEDS        := 0,1,2
TIMING_SHAPE := mission
GATE_SPEEDUP := 1.15
