# Throughput against sequence length of one GPU campaign: TFLOP/s vs S (log x), one line per
# variant and dashed per peer, error bars from the median's 95 % CI. Reads <rundir>/scaling.tsv
# (one block per series, names in scaling_series of plot-vars.gp), written by sdpa-report paper.
# Usage: gnuplot -e "rundir='paper/build/gen/gpu/c1'; figdir='OUT'" figures/scaling.gp
load rundir.'/plot-vars.gp'
timing_figure = 1
load 'figures/common.gp'
load 'figures/gpu-fixture.gp'
set output figdir.'/scaling.png'
set logscale x 2
# A campaign whose sweep reached one S only (a short lease): an octave either side of it, instead
# of the range gnuplot would widen itself with a warning.
stats rundir.'/scaling.tsv' u 1 nooutput name "SX"
if (SX_min == SX_max) set xrange [SX_min / 2 : SX_max * 2]
set xlabel "sequence length S (log scale)"
set ylabel "TFLOP/s (4·B·H·S²·D / median)"
set title sprintf("Throughput against S — %s, campaign %s", device, campaign) font ",13"
set key outside right center vertical Left reverse   # beside the frame: above it, the key ran into the title, below it into the x label
f = rundir.'/scaling.tsv'
is_peer(i) = strstrt(word(scaling_series, i), 'peer-') == 1
# The 8 line colours repeat from the 9th series on: a new point shape with each round of colours
# (on the first H100, 16 series drew stage0 and stage5 alike). The same in roofline.gp.
series_pt(i) = int(word("7 5 9 11 13 15", 1 + (i - 1) / 8))
plot for [i = 1:n_scaling] f index (i - 1) u 1:2:3:4 w yerrorlines lw 2 lt i pt series_pt(i) ps 0.8 \
     dt 1 + is_peer(i) t word(scaling_series, i)
