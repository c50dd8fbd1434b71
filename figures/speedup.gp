# Speedup t_base/t_new per compared shape with its 95 % bootstrap CI, against the gate the CI's
# lower end must clear. Reads <rundir>/speedup.tsv.
# Usage: gnuplot -e "rundir='RUN'; figdir='OUT'" figures/speedup.gp
load rundir.'/plot-vars.gp'
timing_figure = 1
load 'figures/common.gp'
set terminal pngcairo size 900,680 @term_opts
set output figdir.'/speedup.png'
f = rundir.'/speedup.tsv'
stats f u 1 nooutput
set xrange [-0.6 : STATS_max + 0.6]
set xtics 1
set xlabel "compared shape"
# gnuplot's automatic bottom margin leaves the boxed three-line key over the x label at this size:
# room for the tic labels, the x label and the key, set by hand.
set bmargin 7
set ylabel sprintf("speedup ratio t(%s) / t(%s)", baseline, candidate)
set yrange [0:*]
set title sprintf("%s → %s (%s timings): speedup with 95 %% CI vs gate %.2f\nbackend %s, %s", \
    baseline, candidate, timing, gate_speedup, backend, device) font ",12"
plot f u 1:3:4:5:xtic(2) w yerrorbars pt 7 ps 1.8 lw 2 lc rgb c_cand t "speedup [95 % CI]", \
     gate_speedup w l dt 2 lw 2 lc rgb c_gate t sprintf("gate %.2f (lower CI bound must clear it)", gate_speedup), \
     1 w l lw 1 lc rgb "#999999" t "no change"
