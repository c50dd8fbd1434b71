# Latency distribution of baseline and candidate, one PNG per timed shape: empirical CDF (left)
# and histogram (right), medians dashed, in µs as the tables; the histogram only when both
# variants kept at least hist_min_samples samples (plot-vars.gp: a handful of samples makes no
# histogram). Reads <rundir>/samples-<variant>-<shape>.tsv.
# Usage (from the repository root): gnuplot -e "rundir='RUN'; figdir='OUT'" figures/latency.gp
load rundir.'/plot-vars.gp'
timing_figure = 1
load 'figures/common.gp'
do for [i = 1:words(timed_shapes)] {
    shape = word(timed_shapes, i)
    fb = sprintf('%s/samples-%s-%s.tsv', rundir, baseline, shape)
    fc = sprintf('%s/samples-%s-%s.tsv', rundir, candidate, shape)
    set output sprintf('%s/latency-%s.png', figdir, shape)
    stats fb u 1 nooutput name "B"
    stats fc u 1 nooutput name "C"
    k = 1; unit = "µs"
    hist = (B_records >= hist_min_samples && C_records >= hist_min_samples)
    lo = k * (B_min < C_min ? B_min : C_min); hi = k * (B_max > C_max ? B_max : C_max)
    pad = (hi - lo) * 0.05 + 1e-9
    set format x "%.6g"
    set multiplot layout 1, 1 + hist title sprintf("%s vs %s at %s %s — %s timings, backend %s, %s", \
        baseline, candidate, shape, word(timed_dims, i), timing, backend, device) font ",13"
    set xrange [lo - pad : hi + pad]
    set arrow 1 from k * B_median, graph 0 to k * B_median, graph 1 nohead dt 2 lc rgb c_base
    set arrow 2 from k * C_median, graph 0 to k * C_median, graph 1 nohead dt 2 lc rgb c_cand
    set xlabel sprintf("latency per launch (%s)", unit)
    set ylabel "fraction of samples ≤ latency"
    set key inside top left
    set yrange [0:1.02]
    plot fb u ($1 * k):2 w steps lw 2 lc rgb c_base t sprintf("%s (n = %d)", baseline, B_records), \
         fc u ($1 * k):2 w steps lw 2 lc rgb c_cand t sprintf("%s (n = %d)", candidate, C_records)
    if (hist) {
        binw = (hi - lo) / 40 + 1e-9
        bin(x) = lo + binw * (floor((x - lo) / binw) + 0.5)
        set ylabel "samples per bin"
        set yrange [0:*]
        set style fill transparent solid 0.45 noborder
        plot fb u (bin($1 * k)):(1) smooth frequency w boxes lc rgb c_base t baseline, \
             fc u (bin($1 * k)):(1) smooth frequency w boxes lc rgb c_cand t candidate
    }
    unset multiplot
    unset arrow 1
    unset arrow 2
    unset xrange
}
