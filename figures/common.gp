# Shared style of every figure (loaded by the other scripts after the run's plot-vars.gp).
# pngcairo only: it is byte-stable across runs (pdfcairo embeds the wall-clock date).
set encoding utf8
set datafile separator tab     # the TSV files of sdpa-report; labels may contain spaces
# noenhanced: labels such as "sm_89" and "stage3a-swz" must print as written, not as subscripts.
# Scripts that need another size say: set terminal pngcairo size W,H @term_opts
term_opts = 'noenhanced font "DejaVu Sans,12" linewidth 1.5'
set terminal pngcairo size 1400,620 @term_opts
set grid back lc rgb "#dddddd"
set key below box lc rgb "#bbbbbb"
set border lc rgb "#444444"
c_base = "#1f77b4"; c_cand = "#d62728"; c_pub = "#2ca02c"; c_gate = "#555555"
# Emulated timings must never pass for GPU timings: figures of timings (scripts that set
# timing_figure = 1 before loading this file) carry a large label in the middle of the plot frame.
# Graph coordinates, not screen ones: the label then sits inside each frame, once per panel of a
# multiplot, and two short lines fit the narrowest frame (a ~590 px panel); one line at screen
# centre overflowed the speedup figure's frame and crossed the gap between panels. It is drawn
# behind the data in a light colour, so that it never hides a data point (an earlier translucent
# label in front of the data covered the ECDF's steps and the gate lines).
# tests/report/watermark.sh checks that every pixel of it lies inside a frame and over no data.
emu_text = "EMULATED (CPU)\nnot GPU timings"
if (exists("timing_figure") && timing_figure && emulated) \
    set label 99 emu_text at graph 0.5, 0.5 center back font "DejaVu Sans Bold,30" textcolor rgb "#ffdcdc"
