# Errors per correctness case (shape/seed) and variant on a log scale, against the bars of
# paper/methods.md: kernel-only rel-L2 (decides; each side's own bar: stage 6 has the fp8p family's)
# and end-to-end rel-L2 (information).
# Reads <rundir>/correctness.tsv. Usage: gnuplot -e "rundir='RUN'; figdir='OUT'" figures/correctness.gp
load rundir.'/plot-vars.gp'
load 'figures/common.gp'
set output figdir.'/correctness.png'
f = rundir.'/correctness.tsv'
clamp(y) = (y > 1e-12 ? y : 1e-12)   # exact zeros drawn at the bottom of the log axis
set logscale y
set format y "1e%L"
set xrange [-0.6 : n_cases - 0.4]
set xlabel "case (shape/seed)"
set ylabel "relative L2 error ‖o − ref‖₂ / ‖ref‖₂"
set key below
set xtics rotate by 25 right   # shape/seed labels side by side would run into each other
set bmargin 10                 # gnuplot leaves no room for rotated labels: the key ran into the x label
set title sprintf("Correctness of %s and %s — backend %s, %s", baseline, candidate, backend, device) font ",12"
plot f u ($1 - 0.12):(strcol(3) eq baseline ? clamp($4) : NaN):xtic(2) w p pt 7 ps 1.5 lc rgb c_base t sprintf("%s kernel-only", baseline), \
     f u ($1 + 0.12):(strcol(3) eq candidate ? clamp($4) : NaN) w p pt 5 ps 1.5 lc rgb c_cand t sprintf("%s kernel-only", candidate), \
     f u ($1 - 0.12):(strcol(3) eq baseline ? clamp($5) : NaN) w p pt 6 ps 1.5 lc rgb c_base t sprintf("%s end-to-end", baseline), \
     f u ($1 + 0.12):(strcol(3) eq candidate ? clamp($5) : NaN) w p pt 4 ps 1.5 lc rgb c_cand t sprintf("%s end-to-end", candidate), \
     kernel_rel_l2_base w l dt 2 lw 2 lc rgb "#000000" t sprintf("kernel-only bar %g%s", kernel_rel_l2_base, \
       kernel_rel_l2_cand != kernel_rel_l2_base ? sprintf(" (%s)", baseline) : ""), \
     for [i = 1:(kernel_rel_l2_cand != kernel_rel_l2_base ? 1 : 0)] kernel_rel_l2_cand w l dt 2 lw 2 \
       lc rgb c_cand t sprintf("kernel-only bar %g (%s)", kernel_rel_l2_cand, candidate), \
     e2e_rel_l2 w l dt 3 lw 2 lc rgb c_gate t sprintf("end-to-end bar %g", e2e_rel_l2)
