# ptxas registers and static shared memory per variant and arch against the budgets (dashed) and
# the original study's published sm_89 values (open markers). Reads <rundir>/ptxas.tsv.
# Usage: gnuplot -e "rundir='RUN'; figdir='OUT'" figures/ptxas.gp
load rundir.'/plot-vars.gp'
load 'figures/common.gp'
set terminal pngcairo size 1400,720 @term_opts
set output figdir.'/ptxas.png'
f = rundir.'/ptxas.tsv'
set style fill solid 0.6 noborder
set boxwidth 0.6
set xtics rotate by -30
if (!has_ptxas) { set label 98 sprintf("static gates NOT EVALUATED: %s", ptxas_note) at graph 0.5, 0.6 center front font ",14" }
set multiplot layout 1, 2 title sprintf("ptxas resources of %s and %s — this build vs published (original study, L4)", \
    baseline, candidate) font ",13"
set ylabel "registers per thread"
# The candidate's D = 128 builds have their own budget (the cap of their launch bounds) where it
# differs: a second line, and room for their bars (ptxas never exceeds a cap: it spills instead).
reg_top = (max_registers_d128 > max_registers ? max_registers_d128 : max_registers)
set yrange [0 : reg_top * 1.15]
plot f u 1:3:xtic(2) w boxes lc rgb c_cand t "this build", \
     f u 1:5 w p pt 6 ps 2.5 lw 2 lc rgb c_pub t (has_published ? "published (original, L4, sm_89)" : ""), \
     max_registers w l dt 2 lw 2 lc rgb c_gate t sprintf("budget %d", max_registers), \
     (max_registers_d128 > 0 ? max_registers_d128 : 1/0) w l dt 3 lw 2 lc rgb c_gate \
       t (max_registers_d128 > 0 ? sprintf("budget %d at D = 128", max_registers_d128) : "")
set ylabel "static shared memory (KiB)"
set yrange [0 : max_smem_kib * 1.15]
plot f u 1:4:xtic(2) w boxes lc rgb c_base t "this build", \
     f u 1:6 w p pt 6 ps 2.5 lw 2 lc rgb c_pub t (has_published ? "published (original, L4, sm_89)" : ""), \
     max_smem_kib w l dt 2 lw 2 lc rgb c_gate t sprintf("budget %g KiB", max_smem_kib)
unset multiplot
