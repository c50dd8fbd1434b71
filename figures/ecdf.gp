# Latency ECDF of one GPU campaign's history: for every variant, the fraction of samples at or
# below each latency, at the history's first shape. Reads <rundir>/ecdf.tsv (one block per
# variant, sorted; names in ecdf_series of plot-vars.gp), written by sdpa-report paper.
# Usage: gnuplot -e "rundir='paper/build/gen/gpu/c1'; figdir='OUT'" figures/ecdf.gp
load rundir.'/plot-vars.gp'
timing_figure = 1
load 'figures/common.gp'
load 'figures/gpu-fixture.gp'
set output figdir.'/ecdf.png'
f = rundir.'/ecdf.tsv'
stats f u 1 nooutput name "E"
k = 1; unit = "µs"
set logscale x
set xlabel sprintf("latency per launch (%s, log scale)", unit)
set ylabel "fraction of samples ≤ latency"
set yrange [0:1.02]
set title sprintf("Latency ECDF of the stage history at %s — %s, campaign %s", ecdf_shape, device, campaign) font ",13"
set key outside right center vertical Left reverse   # beside the frame: above it, the key ran into the title, below it into the x label
plot for [i = 1:n_ecdf] f index (i - 1) u ($1 * k):2 w steps lw 2 t word(ecdf_series, i)
