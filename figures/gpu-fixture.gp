# Loaded by the GPU campaign figures after common.gp: a campaign that is a test fixture
# (fixture = 1 in its plot-vars.gp) carries a large label, so that no reader takes it for a GPU.
if (exists("fixture") && fixture) \
    set label 98 "SYNTHETIC FIXTURE — not a measurement" at graph 0.5, 0.15 center back \
        font "DejaVu Sans Bold,24" textcolor rgb "#ffd9a8"
