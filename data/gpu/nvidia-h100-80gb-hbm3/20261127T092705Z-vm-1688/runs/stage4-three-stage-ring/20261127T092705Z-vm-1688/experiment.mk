# Stage 4: a 3-slot cp.async ring for K/V (stage3b -> stage4), the original's Stage-4 with exact
# waits at every depth and a drained tail.
# Read by experiments/common.mk and copied into every run directory, so that a report is always
# judged against the definition its run was made with (make report RUN=... reads the copy).
# Defaults of every parameter not set here (timing budgets, static budgets): experiments/common.mk.
TITLE        := Stage 4: a three-stage cp.async ring (stage3b to stage4)
MAKE_TARGET  := stage4
BASELINE     := stage3b
CANDIDATE    := stage4
# The original timed mission and long; ragged (S = 33: 2 tiles, the ring never fills) and partial
# (S = 200: 7 tiles, the tail drains through depths 1 and 0) exercise the waits.
SHAPES       := small mission ragged partial
SEEDS        := 0,1,2
TIMING_SHAPE := mission
GATE_SPEEDUP := 1.05
