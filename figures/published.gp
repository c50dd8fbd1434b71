# Published versus reproduced (paper): the speedup ratio t_base/t_new per experiment as the
# original published it (computed from its medians) and as reproduced on a GPU with its 95 % CI.
# Emulated runs have no reproduced ratio (NaN): emulated timings are never set beside GPU figures.
# Reads <rundir>/ratios.tsv. Usage: gnuplot -e "rundir='paper/build/gen'; figdir='figures/paper'" figures/published.gp
load rundir.'/plot-vars.gp'
load 'figures/common.gp'
set terminal pngcairo size 1000,700 @term_opts
set output figdir.'/published.png'
f = rundir.'/ratios.tsv'
set xrange [-0.6 : n_stages - 0.4]
set yrange [0:*]
set key below
set xtics rotate by 25 right   # the experiments' names side by side would run into each other
set bmargin 9                  # gnuplot leaves no room for rotated labels: the key ran into them
unset xlabel   # the names say it; a label there ran into the key below
set ylabel "speedup ratio t(baseline) / t(candidate)"
set title "Published (original study, L4) versus reproduced speedup ratios" font ",13"
# gpu_campaigns, gpu_campaigns_text: the committed GPU campaigns, whose own ratios are in the part
# "Measured on GPUs" (this figure reads this build's local runs only)
if (!gpu && gpu_campaigns == 0) set label 2 "no GPU run: reproduced ratios not evaluated" at graph 0.5, 0.85 center font ",14" textcolor rgb "#c00000"
if (!gpu && gpu_campaigns > 0) set label 2 "no local GPU run: no reproduced ratio here\n".gpu_campaigns_text.": part \"Measured on GPUs\"" at graph 0.5, 0.85 center font ",13" textcolor rgb "#c00000"
plot f u 1:6:xtic(2) w p pt 9 ps 2.2 lc rgb c_pub t "published (original study, L4)", \
     f u 1:3:4:5 w yerrorbars pt 7 ps 1.6 lw 2 lc rgb c_cand t (gpu ? "reproduced on a GPU [95 % CI]" : ""), \
     1 w l lw 1 lc rgb "#999999" t "no change"
