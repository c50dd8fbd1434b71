# Stage history (paper): median latency with its 95 % CI for baseline and candidate of each
# experiment's latest run, on a log scale. Reads <rundir>/history.tsv written by sdpa-report paper.
# Usage: gnuplot -e "rundir='paper/build/gen'; figdir='figures/paper'" figures/history.gp
load rundir.'/plot-vars.gp'
timing_figure = 1
load 'figures/common.gp'
set terminal pngcairo size 1400,700 @term_opts
set output figdir.'/history.png'
if (n_history == 0) {
    set label 1 "no timed run yet (make all)" at graph 0.5, 0.5 center font ",20"
    set xrange [0:1]; set yrange [0:1]
    plot NaN notitle
} else {
    f = rundir.'/history.tsv'
    set logscale y
    set key below
    set bmargin 6   # room for the key under the x label
    set xrange [-0.6 : n_history - 0.4]
    set xlabel "variant (grouped by experiment: baseline, candidate)"
    set ylabel "median latency per launch (µs, log scale)"
    set title "Stage history: median latency with 95 % CI, latest run of each experiment" font ",13"
    # a key entry only for a kind of point the figure has (counted here: `emulated` also
    # switches the watermark)
    stats f u (strcol(6) eq "gpu" ? 1 : 0) nooutput name "G"
    n_gpu = int(G_sum); n_emu = int(G_records - G_sum)
    plot f u 1:(strcol(6) eq "gpu" ? $3 : NaN):4:5:xtic(2) w yerrorbars pt 7 ps 1.6 lw 2 lc rgb c_cand t (n_gpu ? "GPU timing" : ""), \
         f u 1:(strcol(6) eq "gpu" ? NaN : $3):4:5:xtic(2) w yerrorbars pt 6 ps 1.6 lw 2 lc rgb "#888888" \
           t (n_emu ? "emulated (CPU), not a GPU timing" : "")
}
