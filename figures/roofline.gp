# Roofline of one GPU campaign (log-log): arithmetic intensity (FLOPs / minimum DRAM bytes,
# 5·B·H·S·D: the model stated in the paper's caption) against TFLOP/s for every variant and peer
# of the scaling sweep, under the measured ceilings: fp16 and FP8 GEMM throughput (flat roofs) and
# the device-to-device copy bandwidth (slope). A ceiling that was not measured (0 in plot-vars.gp)
# draws no roof. Reads <rundir>/roofline.tsv and plot-vars.gp (ceil_fp16, ceil_fp8, ceil_copy_gbs).
# Usage: gnuplot -e "rundir='paper/build/gen/gpu/c1'; figdir='OUT'" figures/roofline.gp
load rundir.'/plot-vars.gp'
timing_figure = 1
load 'figures/common.gp'
load 'figures/gpu-fixture.gp'
set output figdir.'/roofline.png'
f = rundir.'/roofline.tsv'
stats f u 1:2 nooutput name "R"
top = (ceil_fp8 > ceil_fp16 ? ceil_fp8 : ceil_fp16)
top = (top > R_max_y ? top : R_max_y)
set logscale xy
set xrange [R_min_x / 4 : R_max_x * 4]
set yrange [R_min_y / 4 : top * 2]
set xlabel "arithmetic intensity (FLOP per byte of minimum DRAM traffic, log)"
set ylabel sprintf("TFLOP/s (log)%s", emulated ? " — EMULATED" : "")
set title sprintf("Roofline — %s, campaign %s", device, campaign) font ",13"
set key outside right top
set samples 400
# a roof: the smaller of the compute ceiling p and the bandwidth slope (GB/s x FLOP/B = GFLOP/s)
slope(x) = ceil_copy_gbs > 0 ? x * ceil_copy_gbs / 1e3 : 1/0
roof(x, p) = p <= 0 ? 1/0 : (ceil_copy_gbs > 0 && slope(x) < p ? slope(x) : p)
is_peer(i) = strstrt(word(scaling_series, i), 'peer-') == 1
plot roof(x, ceil_fp16) lw 2 lc rgb "#444444" t sprintf("fp16 GEMM ceiling %g TFLOP/s%s", ceil_fp16, \
         ceil_copy_gbs > 0 ? sprintf(", copy %g GB/s", ceil_copy_gbs) : ""), \
     roof(x, ceil_fp8) lw 2 dt 3 lc rgb "#888888" t sprintf("FP8 GEMM ceiling %g TFLOP/s", ceil_fp8), \
     for [i = 1:n_scaling] f index (i - 1) u 1:2 w linespoints lw 1.5 pt 7 ps 0.9 dt 1 + is_peer(i) \
         t word(scaling_series, i)
