# Stage 5: warp specialisation (stage4 -> stage5): producer warps copy and decode K/V, consumer
# warps compute; named barriers, no flags.
# Read by experiments/common.mk and copied into every run directory, so that a report is always
# judged against the definition its run was made with (make report RUN=... reads the copy).
# Defaults of every parameter not set here (timing budgets, static budgets): experiments/common.mk.
TITLE        := Stage 5: warp-specialised producer and consumer warps (stage4 to stage5)
MAKE_TARGET  := stage5
BASELINE     := stage4
CANDIDATE    := stage5
# The original's Stage-5 harness used (2,8,512,64), shape "stage5"; ragged and partial exercise
# the barrier hand-over on 1-7 tiles, single a CTA with one tile.
SHAPES       := small mission ragged partial single stage5
SEEDS        := 0,1,2
TIMING_SHAPE := mission
GATE_SPEEDUP := 1.05
