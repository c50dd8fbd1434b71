# Profile metrics of one GPU campaign: one group of bars per metric, one bar per variant profiled,
# each metric divided by its largest magnitude over the variants (1 = the largest). Reads
# <rundir>/profile.tsv (rows: metric label, then one column per variant in profile_variants).
# Usage: gnuplot -e "rundir='paper/build/gen/gpu/c1'; figdir='OUT'" figures/profile.gp
load rundir.'/plot-vars.gp'
load 'figures/common.gp'
load 'figures/gpu-fixture.gp'
set output figdir.'/profile.png'
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set yrange [0:1.15]
set ylabel "value / largest value over the variants"
set title sprintf("Profile metrics per variant — %s, campaign %s", device, campaign) font ",13"
set key outside right center vertical Left reverse   # beside the frame: above it, the key ran into the title, below it into the x label
set xtics rotate by -20
f = rundir.'/profile.tsv'
plot for [i = 2:n_profile + 1] f u i:xtic(1) t word(profile_variants, i - 1)
