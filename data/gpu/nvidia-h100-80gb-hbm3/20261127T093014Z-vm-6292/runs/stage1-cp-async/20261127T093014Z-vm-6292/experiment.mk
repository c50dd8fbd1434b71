# Stage 1: cp.async double-buffered K/V staging (stage0 -> stage1).
# Read by experiments/common.mk and copied into every run directory, so that a report is always
# judged against the definition its run was made with (make report RUN=... reads the copy).
# Defaults of every parameter not set here (timing budgets, static budgets): experiments/common.mk.
TITLE        := Stage 1: cp.async double-buffered K/V staging (stage0 to stage1)
MAKE_TARGET  := stage1
BASELINE     := stage0
CANDIDATE    := stage1
# Correctness on the original study's shapes and seeds (its Stage-1 report: small and mission), plus
# ragged (2,3,33,64): partial tiles (S = 33) and B > 1, which the original never checked.
SHAPES       := small mission ragged
SEEDS        := 0,1,2
# Performance: the original's mission shape, judged on the lower bound of the speedup's CI.
TIMING_SHAPE := mission
GATE_SPEEDUP := 1.10
