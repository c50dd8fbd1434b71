# Roofline of one GPU campaign (log-log): arithmetic intensity (FLOPs / minimum DRAM bytes,
# 5·B·H·S·D: the model stated in the paper's caption) against TFLOP/s for every variant and peer
# of the scaling sweep, under the measured ceilings: fp16 and FP8 GEMM throughput (flat roofs) and
# the device-to-device copy bandwidth (slope). A ceiling that was not measured (0 in plot-vars.gp)
# draws no roof. Where the profile measured DRAM bytes, the profiled variants of the history also
# appear as diamonds at that measured intensity (roofline-measured.tsv; n_measured > 0).
# Reads <rundir>/roofline.tsv, roofline-measured.tsv and plot-vars.gp (ceil_fp16, ceil_fp8, ceil_copy_gbs,
# roof_exp2 and roof_exp2_d: the exponentials' bound, a model, see below).
# Usage: gnuplot -e "rundir='paper/build/gen/gpu/c1'; figdir='OUT'" figures/roofline.gp
load rundir.'/plot-vars.gp'
timing_figure = 1
load 'figures/common.gp'
load 'figures/gpu-fixture.gp'
set output figdir.'/roofline.png'
f = rundir.'/roofline.tsv'
stats f u 1 nooutput name "RX"
stats f u 2 nooutput name "RY"
R_min_x = RX_min; R_max_x = RX_max; R_min_y = RY_min; R_max_y = RY_max
top = (ceil_fp8 > ceil_fp16 ? ceil_fp8 : ceil_fp16)
top = (roof_exp2 > top ? roof_exp2 : top)
top = (top > R_max_y ? top : R_max_y)
lo_x = R_min_x; hi_x = R_max_x; lo_y = R_min_y
if (n_measured > 0) {
    stats rundir.'/roofline-measured.tsv' u 1 nooutput name "MX"
    stats rundir.'/roofline-measured.tsv' u 2 nooutput name "MY"
    lo_x = (MX_min < lo_x ? MX_min : lo_x); hi_x = (MX_max > hi_x ? MX_max : hi_x)
    lo_y = (MY_min < lo_y ? MY_min : lo_y)
}
set logscale xy
set xrange [lo_x / 4 : hi_x * 4]
set yrange [lo_y / 4 : top * 2]
set xlabel sprintf("arithmetic intensity (FLOP per byte of DRAM traffic: the minimum model%s; log)", \
    n_measured > 0 ? "; diamonds: measured" : "")
set ylabel "TFLOP/s (log)"
set title sprintf("Roofline — %s, campaign %s", device, campaign) font ",13"
set key outside right center vertical Left reverse   # beside the frame: above it, the key ran into the title, below it into the x label
set samples 400
# a roof: the smaller of the compute ceiling p and the bandwidth slope (GB/s x FLOP/B = GFLOP/s)
slope(x) = ceil_copy_gbs > 0 ? x * ceil_copy_gbs / 1e3 : 1/0
roof(x, p) = p <= 0 ? 1/0 : (ceil_copy_gbs > 0 && slope(x) < p ? slope(x) : p)
is_peer(i) = strstrt(word(scaling_series, i), 'peer-') == 1
series_pt(i) = int(word("7 5 9 11 13 15", 1 + (i - 1) / 8)) # as in scaling.gp: colours repeat after 8
# a ceiling that was not measured is named so in the key, never given a value; its roof is a key
# entry alone (a roof of 1/0 everywhere made gnuplot warn "no valid points" on every such campaign)
roof_title(name, v, unit) = v > 0 ? sprintf("%s %g %s", name, v, unit) : sprintf("%s: not measured", name)
# The profile's diamonds only where it measured DRAM bytes: gnuplot 5.4 reads the file of an empty
# `for [j = 1:0]` once all the same, and warns that it has no valid points.
measured_plot = n_measured > 0 ? ", rundir.'/roofline-measured.tsv' u 1:2 w points pt 13 ps 2 lc rgb '#000000' \
  t sprintf('measured DRAM bytes (profile), %s', measured_shape)" : ""
# The exponentials' roof (plot-vars' roof_exp2, 0 when unknown): a model from the device's SM count
# and clock (16 per clock per SM, 4 D FLOPs each), drawn dash-dot and named as a model.
exp2_plot = roof_exp2 > 0 ? ", roof(x, roof_exp2) with lines lw 2 dt 4 lc rgb '#9467bd' \
  t sprintf('exp2 bound (model, D = %g): %.0f TFLOP/s', roof_exp2_d, roof_exp2)" : ""
roof_fp16 = ceil_fp16 > 0 ? "roof(x, ceil_fp16) with lines" : "keyentry with lines"
roof_fp8 = ceil_fp8 > 0 ? "roof(x, ceil_fp8) with lines" : "keyentry with lines"
plot @roof_fp16 lw 2 lc rgb "#444444" t roof_title("fp16 GEMM ceiling", ceil_fp16, "TFLOP/s").", ". \
         roof_title("copy", ceil_copy_gbs, "GB/s"), \
     @roof_fp8 lw 2 dt 3 lc rgb "#888888" t roof_title("FP8 GEMM ceiling", ceil_fp8, "TFLOP/s") @exp2_plot, \
     for [i = 1:n_scaling] f index (i - 1) u 1:2 w linespoints lw 1.5 lt i pt series_pt(i) ps 0.9 dt 1 + is_peer(i) \
         t word(scaling_series, i) @measured_plot
# The diamonds carry no labels: the variants' measured points lie close together (on the first H100
# their names overprinted into one blot); the profile table names each variant's DRAM bytes.
