# Stage 3A: the score buffer reused for P (stage2 -> stage3a), the original study's negative result.
# Read by experiments/common.mk and copied into every run directory, so that a report is always
# judged against the definition its run was made with (make report RUN=... reads the copy).
# Defaults of every parameter not set here (timing budgets, static budgets): experiments/common.mk.
TITLE        := Stage 3A: score buffer reused for P (stage2 to stage3a)
MAKE_TARGET  := stage3a
BASELINE     := stage2
CANDIDATE    := stage3a
# Correctness on the original study's three shapes and seeds (its Stage-3 report: 9 cases), plus
# ragged (2,3,33,64): partial tiles (S = 33) and B > 1, which the original never checked.
SHAPES       := small mission long ragged
SEEDS        := 0,1,2
# Performance: the original's mission shape, judged on the lower bound of the speedup's CI.
TIMING_SHAPE := mission
GATE_SPEEDUP := 1.10
