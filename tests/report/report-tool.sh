#!/usr/bin/env bash
# sdpa-report on the SYNTHETIC fixtures (tests/report/fixtures): the generated tables carry the
# JSON's numbers, the verdict logic follows the gates (emulated -> NOT EVALUATED; GPU PASS and
# FAIL judged on the lower CI bound, not the point estimate), occupancy (CTAs per SM and waves from
# ptxas.json and the device, and the confounded sentence exactly when they differ), each side's
# device in published vs reproduced, the harness's newer optional fields (fallback banner,
# environment rows, unmeasured SM clocks), and a missing or corrupted input stops it with the file
# and the field named. Usage: tests/report/report-tool.sh build/bin/sdpa-report
set -u
. tests/tap.sh
. tests/report/lib.sh
SDPA_REPORT=$1

# ---- emulated run --------------------------------------------------------------------------
E=$(new_run emulated stage2-wmma-pv)
tap_ok "emulated fixture: sdpa-report exits 0" report_tables "$E"
G=$E/tables/gates.md
perf_status=$(gate_cell "$G" "speedup \$t_" 5)
tap_ok "emulated: performance gate NOT EVALUATED with the no-GPU reason" \
  test "$perf_status" = "**NOT EVALUATED**: no GPU (emulated timings are not GPU timings)"
tap_ok "emulated: verdict 'not evaluated' in summary.json" test "$(json "$E/summary.json" .verdict)" = "not evaluated"
tap_ok "emulated: summary.json is an experiment-summary" test "$(json "$E/summary.json" .kind)" = experiment-summary
tap_ok "emulated: the performance row carries no emulated number" \
  bash -c "! grep -q '$(json "$E/run-timing.json" '.comparisons[0].speedup')' '$G'"
tap_ok "emulated: the latency table is labelled emulated" grep -q 'EMULATED (CPU) TIMINGS, NOT GPU TIMINGS' "$E/tables/performance.md"
tap_ok "emulated: banner says EMULATED" grep -q 'EMULATED (CPU) RUN' "$E/tables/banner.md"
tap_ok "emulated: plot-vars marks the figures emulated" grep -qx 'emulated = 1' "$E/plot-vars.gp"
tap_ok "one bar for both sides when they share a tolerance family" \
  bash -c 'grep -qx "kernel_rel_l2_base = 0.001" "$1" && grep -qx "kernel_rel_l2_cand = 0.001" "$1"' _ "$E/plot-vars.gp"
# A candidate judged by another family (stage 6: fp8p, kernel_rel_l2_bar 0.07): its own bar in the figure.
F=$(new_run emulated stage2-wmma-pv 20260102T030405Z-fp8bar)
jq '.correctness |= map(if .variant == "stage2" then . + {"tol_family": "fp8p", "kernel_rel_l2_bar": 0.07} else . end)' \
  "$FIXTURES/emulated/run.json" >"$F/run.json"
report_tables "$F" >/dev/null
tap_ok "a candidate with the fp8p bar: the correctness figure gets each side's bar" \
  bash -c 'grep -qx "kernel_rel_l2_base = 0.001" "$1" && grep -qx "kernel_rel_l2_cand = 0.07" "$1"' _ "$F/plot-vars.gp"

# correctness summary: the worst kernel-only rel-L2 of each variant as the JSON's maximum, beside the
# rounding model's range for its arithmetic (stage1: the "stage0" row, stage2: the "stage2" row).
for v in stage1 stage2; do
  worst=$(json "$E/run.json" "[.correctness[] | select(.variant == \"$v\") | .kernel_only.rel_l2] | max")
  cell=$(grep -E "^\| $v \|" "$E/tables/correctness-summary.md" | awk -F' [|] ' '{ print $3 }' | cut -d' ' -f1)
  tap_ok "correctness summary: $v's worst kernel-only rel-L2 '$cell', as run.json's maximum ($worst)" near "${cell:-nan}" "$worst" 0.05
done
lo=$(awk -F'\t' -v r=stage2 '$1 == "normal" && $3 == r && ($2 == "small" || $2 == "mission") { if (m == "" || $4 < m) m = $4 } END { printf "%.2g", m }' \
  paper/derivation/rounding-model.tsv)
tap_ok "correctness summary: stage2 beside the model's stage2 row at the run's shapes (from $lo)" \
  bash -c 'grep -E "^\| stage2 \|" "$1" | grep -qF "| $2 to "' _ "$E/tables/correctness-summary.md" "$lo"
# pre-registration: the experiment's hypothesis row of paper/prereg.tsv, with its commits and order
hyp=$(awk -F'\t' '$1 == "hypothesis" && $2 == "stage2-wmma-pv" { print $4 " " $6 " " $8 }' paper/prereg.tsv)
read -r fixed kernel order <<<"$hyp"
tap_ok "prereg.md: the hypothesis's commit $fixed, its first kernel $kernel, order $order (paper/prereg.tsv)" \
  bash -c 'grep "hypothesis was first stated in commit $2" "$1" | grep -q "judged: commit $3 .*Order: \*\*$4"' _ "$E/tables/prereg.md" "$fixed" "$kernel" "$order"
# legacy FAILs say why, naming the shapes where they fail
L=$(new_run emulated stage2-wmma-pv 20260102T030405Z-legacy)
jq '(.correctness[] | select(.variant == "stage2" and .shape == "small")) |= (.gates.legacy = false)' \
  "$FIXTURES/emulated/run.json" >"$L/run.json"
report_tables "$L" >/dev/null
tap_ok "a legacy FAIL is explained where it appears (E4M3's relative precision, at small)" \
  bash -c 'grep "legacy gate of the original study, stage2" "$1" | grep -q "FAIL.*expected (at small): E4M3 keeps 3 mantissa bits"' _ "$L/tables/gates.md"
# stub builds (stage6 needs sm_89; it has no seed-linear form) read n/a and are no kernel to gate
S=$(new_run emulated stage2-wmma-pv 20260102T030405Z-stub)
jq '(.kernels[] | select(.variant == "stage2" and .arch == "sm_80")) |= (.registers = 4 | .static_smem_bytes = 0 | .variant = "stage2")' \
  "$FIXTURES/emulated/ptxas.json" >"$S/ptxas.json"
report_tables "$S" >/dev/null
tap_ok "a real build keeps its numbers (stage2 on sm_80 is supported)" grep -qE '^\| stage2 \| sm_80 \| this build \| 4 \|' "$S/tables/ptxas.md"
jq '.kernels += [(.kernels[] | select(.variant == "stage2" and .arch == "sm_89") | .variant = "stage6" | .arch = "sm_80" | .registers = 4)]' \
  "$FIXTURES/emulated/ptxas.json" >"$S/ptxas.json"
jq '.config.baseline = "stage5" | .config.variants = ["stage5", "stage6"] | walk(if . == "stage1" then "stage5" elif . == "stage2" then "stage6" else . end)' \
  "$FIXTURES/emulated/run.json" >"$S/run.json"
jq 'walk(if . == "stage1" then "stage5" elif . == "stage2" then "stage6" else . end)' "$FIXTURES/emulated/run-timing.json" >"$S/run-timing.json"
"$SDPA_REPORT" experiment --run "$S" --experiment stage6-fp8-mma --title "stub" --baseline stage5 --candidate stage6 \
  --gate-speedup 1.1 --static-budget 128,0,0,49152 --published data/published/seed-l4.json --make-target stage6 >/dev/null 2>&1
tap_ok "a stub build (stage6 on sm_80) reads n/a with why, not 4 registers" \
  grep -qE '^\| stage6 \| sm_80 \| this build: a stub \| n/a \| n/a \| n/a \| n/a \| n/a \| not supported on sm_80 \(needs sm_89\) \|' "$S/tables/ptxas.md"
tap_ok "  ... and is left out of the static gates' values" bash -c '! grep "registers per thread, stage6" "$1" | grep -q "sm_80"' _ "$S/tables/gates.md"

# correctness counts equal the JSON
for v in stage1 stage2; do
  n=$(json "$E/run.json" "[.correctness[] | select(.variant == \"$v\")] | length")
  p=$(json "$E/run.json" "[.correctness[] | select(.variant == \"$v\" and .pass)] | length")
  tap_ok "gate table: kernel-only $v = $p/$n from run.json" \
    test "$(gate_cell "$G" "kernel-only correctness, $v" 4)" = "$p/$n cases pass"
done
# static values equal ptxas.json
for a in sm_80 sm_89 sm_90; do
  r=$(json "$E/ptxas.json" ".kernels[] | select(.variant == \"stage2\" and .arch == \"$a\") | .registers")
  tap_ok "gate table: registers of stage2 on $a = $r from ptxas.json" \
    grep -q "$a $r" <<<"$(gate_cell "$G" 'registers per thread, stage2' 4)"
done
# correctness matrix: every kernel-only rel-L2 of the JSON appears in its row
ok=1
while IFS=$'\t' read -r v s seed rel; do
  row=$(grep -E "^\| $v \| $s \([0-9,]+\) \| $seed \|" "$E/tables/correctness.md" | head -n 1)
  cell=$(echo "$row" | awk -F' [|] ' '{ print $6 }')
  near "$cell" "$rel" 0.005 || { ok=0; tap_diag "$v $s $seed: table $cell, json $rel"; }
done < <(jq -r '.correctness[] | [.variant, .shape, .seed, .kernel_only.rel_l2] | @tsv' "$E/run.json")
tap_ok "correctness table: every kernel-only rel-L2 equals run.json" test $ok = 1
# peers' metrics beside ours: the emulated fixture predates rel_l1 and rmse (schema 1.2.0), so its
# cells read n/a while cosine is still shown; the GPU fixture has them, and they appear as recorded
peer_cells_ok() { # RUN-DIR EXPECT-PEER(0|1): kernel-only and end-to-end rows of every case
  local d=$1 want=$2 ok=1 v s seed kc kl kr ec el er rows krow erow
  while IFS=$'\t' read -r v s seed kc kl kr ec el er; do
    rows=$(grep -E "^\| $v \| $s \([0-9,]+\) \| $seed \|" "$d/tables/correctness.md")
    krow=$(sed -n 1p <<<"$rows" | awk -F' [|] ' '{ print $7 "\t" $8 "\t" $9 }')
    erow=$(sed -n 2p <<<"$rows" | awk -F' [|] ' '{ print $5 "\t" $6 "\t" $7 }')
    IFS=$'\t' read -r c1 c2 c3 <<<"$krow"
    IFS=$'\t' read -r c4 c5 c6 <<<"$erow"
    near "$c1" "$kc" 1e-7 && near "$c4" "$ec" 1e-6 || { ok=0; tap_diag "$v $s $seed: cosine $c1 $c4, json $kc $ec"; }
    if [ "$want" = 1 ]; then
      near "$c2" "$kl" 0.005 && near "$c3" "$kr" 0.005 && near "$c5" "$el" 0.005 && near "$c6" "$er" 0.005 ||
        { ok=0; tap_diag "$v $s $seed: rel-L1/RMSE $c2 $c3 $c5 $c6, json $kl $kr $el $er"; }
    else
      [ "$c2 $c3 $c5 $c6" = "n/a n/a n/a n/a" ] || { ok=0; tap_diag "$v $s $seed: expected n/a, got $c2 $c3 $c5 $c6"; }
    fi
  done < <(jq -r '.correctness[] | [.variant, .shape, .seed, .kernel_only.cosine, .kernel_only.rel_l1 // "-",
             .kernel_only.rmse // "-", .end_to_end.cosine, .end_to_end.rel_l1 // "-", .end_to_end.rmse // "-"] | @tsv' \
             "$d/run.json")
  [ $ok = 1 ]
}
tap_ok "correctness tables: cosine shown, rel-L1 and RMSE n/a for a file without them (schema < 1.2.0)" \
  peer_cells_ok "$E" 0
tap_ok "ECDF TSV: one line per sample, last ECDF = 1" bash -c \
  "[ \$(grep -vc '^#' '$E/samples-stage2-mission.tsv') = $(json "$E/run-timing.json" '.timing[1].samples_us | length') ] && tail -n 1 '$E/samples-stage2-mission.tsv' | awk '{ exit !(\$2 == 1) }'"
tap_ok "get: prints meta.backend" test "$("$SDPA_REPORT" get "$E/run.json" meta.backend)" = emu

# ---- GPU runs: PASS and FAIL on the lower bound of the CI -----------------------------------
P=$(new_run gpu-pass stage2-wmma-pv 20260102T030405Z-gpupass)
F=$(new_run gpu-fail stage2-wmma-pv 20260102T030405Z-gpufail)
tap_ok "gpu-pass fixture: sdpa-report exits 0" report_tables "$P"
tap_ok "gpu-fail fixture: sdpa-report exits 0 (a failing gate is a result)" report_tables "$F"
tap_ok "correctness tables: cosine, rel-L1 and RMSE beside ours, equal to run.json" peer_cells_ok "$P" 1
for d in "$P" "$F"; do
  lo=$(json "$d/run-timing.json" '.comparisons[0].speedup_ci[0]')
  cell=$(gate_cell "$d/tables/gates.md" "speedup \$t_" 4)
  shown=$(echo "$cell" | sed -n 's/^lower CI bound \([0-9.]*\) .*/\1/p')
  tap_ok "gate table: lower CI bound $shown equals run-timing.json's $lo ($(basename "$d"))" near "$shown" "$lo" 1e-4
done
tap_ok "gpu-pass: lower CI bound >= 1.15 -> PASS" test "$(gate_cell "$P/tables/gates.md" "speedup \$t_" 5)" = "**PASS**"
tap_ok "gpu-pass: verdict 'ready to merge'" test "$(json "$P/summary.json" .verdict)" = "ready to merge"
# The same passing comparison from 9 paired rounds (a sampler stopped at its time cap): not judged;
# from 10, judged as before (GATE_MIN_ROUNDS, host/report/gates.h).
for n in 9 10; do
  Q=$(new_run gpu-pass stage2-wmma-pv 20260102T030405Z-rounds$n)
  jq --argjson n $n '.comparisons[].rounds = $n' "$FIXTURES/gpu-pass/run-timing.json" >"$Q/run-timing.json"
  "$SDPA_REPORT" manifest --run "$Q" 2>/dev/null
  report_tables "$Q" >/dev/null 2>&1
done
tap_ok "a speedup gate on 9 paired rounds: NOT EVALUATED, saying why; on 10: PASS" \
  bash -c 'gate_cell() { awk -F" [|] " -v name="$2" -v col="$3" "index(\$1, \"| \" name) == 1 { sub(/ [|]\$/, \"\", \$NF); print \$col; exit }" "$1"; }
           gate_cell "$1/tables/gates.md" "speedup \$t_" 5 | grep -qF "NOT EVALUATED**: 9 paired rounds, fewer than the 10 a speedup gate is judged on" &&
           [ "$(gate_cell "$2/tables/gates.md" "speedup \$t_" 5)" = "**PASS**" ]' _ \
  "$TMP/data/stage2-wmma-pv/20260102T030405Z-rounds9" "$TMP/data/stage2-wmma-pv/20260102T030405Z-rounds10"
tap_ok "gpu-fail: the point estimate alone would pass (fixture check)" \
  awk -v s="$(json "$F/run-timing.json" '.comparisons[0].speedup')" 'BEGIN { exit !(s >= 1.15) }'
tap_ok "gpu-fail: lower CI bound < 1.15 -> FAIL" \
  grep -q '^\*\*FAIL\*\*: the lower CI bound' <<<"$(gate_cell "$F/tables/gates.md" "speedup \$t_" 5)"
tap_ok "gpu-fail: verdict 'merge deferred'" test "$(json "$F/summary.json" .verdict)" = "merge deferred"
tap_ok "gpu-fail: negative-result section with what it rules out" \
  bash -c "grep -q '^## Negative result' '$F/tables/verdict.md' && grep -q 'section=\"rules-out\"' '$F/tables/verdict.md'"
tap_ok "gpu: performance table has TFLOP/s and % of roofline floor" grep -q 'TFLOP/s.*% of floor' "$P/tables/performance.md"
# The floor names its bound where the file records it (schema 1.5.0: gpu-pass), with the formats
# when the products differ; an older file's floor (gpu-fail) is said to leave FP8 and exp2 out.
tap_ok "gpu-pass: the roofline floor names its bound (4.44 tensor fp16)" \
  grep -qE '^\| stage1 .*\| 4\.44 tensor fp16 \|' "$P/tables/performance.md"
tap_ok "gpu-pass: the caption names the three terms" grep -q 'the largest of three lower bounds' "$P/tables/performance.md"
tap_ok "gpu-fail: an older floor is said to be no bound for FP8 products" \
  bash -c "grep -q 'no lower bound' '$F/tables/performance.md' && ! grep -q 'tensor fp16' '$F/tables/performance.md'"
R=$(new_run gpu-pass stage2-wmma-pv 20260102T030405Z-roofmix)
jq '.timing[1] |= (.roofline_bound = "exp2") | .timing[0].tensor_formats = {"qk": "fp8", "pv": "fp16"}' \
  "$FIXTURES/gpu-pass/run-timing.json" >"$R/run-timing.json"
report_tables "$R" >/dev/null
tap_ok "mixed formats read Q.K^T/P.V (tensor fp8/fp16); an exp2 bound reads exp2" \
  bash -c "grep -qE '^\| stage1 .*\| 4\.44 tensor fp8/fp16 \|' '$R/tables/performance.md' &&
           grep -qE '^\| stage2 .*\| 4\.44 exp2 \|' '$R/tables/performance.md'"
tap_ok "gpu: published vs reproduced shows the reproduced ratio" \
  grep -qF "speedup ratio \$t_\\text{base}/t_\\text{new}\$ | 1.829 | $(printf '%.3f' "$(json "$P/run-timing.json" '.comparisons[0].speedup')")" "$P/tables/published.md"

# ---- other verdict paths --------------------------------------------------------------------
C=$(new_run emulated stage2-wmma-pv 20260102T030405Z-corr)
jq '(.correctness[] | select(.variant == "stage2" and .shape == "mission" and .seed == "1")) |= (.pass = false | .kernel_only.n_bad = 7 | .gates.kernel_only = false)' \
  "$FIXTURES/emulated/run.json" > "$C/run.json"
report_tables "$C" >/dev/null
tap_ok "failed correctness case: FAIL and verdict 'merge deferred' even without a GPU" \
  bash -c "[ \"\$(jq -r .verdict '$C/summary.json')\" = 'merge deferred' ] && grep -q 'mission seed 1: 7 elements outside' '$C/tables/gates.md'"
B=$(new_run emulated stage2-wmma-pv 20260102T030405Z-budget)
BUDGET=80,0,0,49152 report_tables "$B" >/dev/null
tap_ok "static budget of experiment.mk applies (80 registers -> FAIL)" \
  bash -c "[ \"\$(jq -r '.gates[] | select(.name == \"registers per thread, stage2\") | .status' '$B/summary.json')\" = FAIL ]"
# D = 128 builds are judged at the cap of their launch bounds (kernels/geometry.h; paper/methods.md:
# 255 per thread on the register-resident line, 168 for a 384-thread block), the experiment's
# budget at D = 64: a stage2 sm_90 build copied as a D = 128 instance of 4 warps (cap 255) with
# 200 registers, and as one of 12 warps (cap 168) with REGS.
geom='{"tile_m": 32, "tile_n": 32, "mma_warps": 2, "smem_bytes": 36864, "dynamic_smem_bytes": 0}'
wide_run() { # ID REGS-OF-THE-12-WARP-BUILD D64-REGS
  local d
  d=$(new_run emulated stage2-wmma-pv "$1")
  jq --argjson r "$2" --argjson r64 "$3" --argjson g "$geom" '.kernels += [(.kernels[] | select(.variant == "stage2" and .arch == "sm_90")
      | (.kernel += "_d128" | .geometry = ($g + {head_dim: 128, warps: 4}) | .registers = 200),
        (.kernel += "_d128w" | .geometry = ($g + {head_dim: 128, tile_m: 128, warps: 12, mma_warps: 8}) | .registers = $r))]
    | (.kernels[] | select(.variant == "stage2" and .arch == "sm_89" and (.geometry.head_dim // 64) == 64))
      |= (.registers = $r64 | .geometry = ($g + {head_dim: 64, warps: 4}))' \
    "$FIXTURES/emulated/ptxas.json" >"$d/ptxas.json"
  report_tables "$d" >/dev/null 2>"$d/report.err" || cat "$d/report.err" >&2
  echo "$d"
}
regs_gate() { jq -r '.gates[] | select(.name == "registers per thread, stage2") | .status' "$1/summary.json"; }
W=$(wide_run 20260102T030405Z-wide 168 128)
tap_ok "D = 128 builds at their launch bounds' cap: 200 of 255 and 168 of 168 registers pass" test "$(regs_gate "$W")" = PASS
tap_ok "  ... the gate names both budgets" \
  grep -q '≤ 128 at D = 64 and ≤ 168 to 255 at D = 128 (the cap of each build.s launch bounds)' "$W/tables/gates.md"
tap_ok "  ... and so do the ptxas table and the figure's budget line" bash -c \
  'grep -q "at most 128 registers per thread (168 to 255 for stage2.s builds at D = 128" "$1/tables/ptxas.md" && grep -qx "max_registers_d128 = 255" "$1/plot-vars.gp"' _ "$W"
W=$(wide_run 20260102T030405Z-wide169 176 128)
tap_ok "a 384-thread D = 128 build over its cap (176 > 168) fails, with 1 of the builds named" \
  bash -c '[ "$(jq -r ".gates[] | select(.name == \"registers per thread, stage2\") | .reason" "$1/summary.json")" = "1 of 5 builds over the budget" ]' _ "$W"
# An experiment budget under the D = 64 cap (120 < 128): a D = 64 build is judged by it, not the cap.
W=$(BUDGET=120,0,0,49152 wide_run 20260102T030405Z-wide64 168 125)
tap_ok "a D = 64 build keeps the experiment's budget (125 > 120 fails beside passing D = 128 builds)" \
  bash -c '[ "$(jq -r ".gates[] | select(.name == \"registers per thread, stage2\") | .reason" "$1/summary.json")" = "1 of 5 builds over the budget" ]' _ "$W"
W=$(new_run emulated stage2-wmma-pv 20260102T030405Z-widebad)
jq '.kernels += [(.kernels[] | select(.variant == "stage2" and .arch == "sm_90") | .geometry = {head_dim: 128})]' \
  "$FIXTURES/emulated/ptxas.json" >"$W/ptxas.json"
widebad() { ! report_tables "$W" >/dev/null 2>"$W/err" && grep -q "ptxas.json: kernels.[0-9]*.geometry: head_dim 128 without a valid warps" "$W/err"; }
tap_ok "a D = 128 build without its warps: an error naming the file and the field" widebad

N=$(new_run emulated stage2-wmma-pv 20260102T030405Z-noptxas)
rm "$N/ptxas.json"
jq '.meta.nvcc = null' "$FIXTURES/emulated/run.json" > "$N/run.json"
report_tables "$N" >/dev/null
tap_ok "no ptxas.json and no nvcc: static gates NOT EVALUATED: nvcc not found" \
  bash -c "[ \"\$(jq -r '[.gates[] | select(.group == \"static\") | .status + \": \" + .reason] | unique | .[]' '$N/summary.json')\" = 'NOT EVALUATED: nvcc not found' ]"

U=$(new_run gpu-pass stage2-wmma-pv 20260102T030405Z-untimed)
jq '.timing[1].summary = null | .timing[1].samples_us = [] | .comparisons = []
    | .not_timed = [{"variant": "stage2", "reason": "failed correctness"}]' \
  "$FIXTURES/gpu-pass/run-timing.json" > "$U/run-timing.json"
tap_ok "candidate not timed (summary null, not_timed): sdpa-report exits 0" report_tables "$U"
tap_ok "candidate not timed: performance NOT EVALUATED with the harness's reason" \
  grep -q 'NOT EVALUATED\*\*: stage2 was not timed: failed correctness' "$U/tables/gates.md"
tap_ok "candidate not timed: no latency figure is planned" grep -qx "timed_shapes = ''" "$U/plot-vars.gp"

# The build's own ptxas.json (nvcc present): one entry per arch and codec, all gated and listed.
if [ -s build/ptxas/ptxas.json ]; then
  K=$(new_run emulated stage2-wmma-pv 20260102T030405Z-buildptxas)
  cp build/ptxas/ptxas.json "$K/ptxas.json"
  report_tables "$K" >/dev/null
  want=$(jq '[.kernels[] | select(.variant == "stage2")] | length' "$K/ptxas.json")
  got=$(gate_cell "$K/tables/gates.md" 'registers per thread, stage2' 4 | tr ',' '\n' | grep -c 'sm_')
  tap_ok "build's ptxas.json: every stage2 kernel ($want) in the registers gate" test "$got" = "$want"
  # Every experiment's static gates against this build, with its own budget (experiment.mk, else
  # experiments/common.mk's): its candidate's D = 64 and D = 128 builds all within them. The
  # fixture's correctness and timing are renamed to the experiment's pair; only the static gates
  # are read.
  default_budget=$(sed -n 's/^STATIC_BUDGET ?= *//p' experiments/common.mk)
  bad=
  for mk in experiments/*/experiment.mk; do
    x=$(basename "$(dirname "$mk")")
    base=$(sed -n 's/^BASELINE *:= *//p' "$mk") cand=$(sed -n 's/^CANDIDATE *:= *//p' "$mk")
    budget=$(sed -n 's/^STATIC_BUDGET *:= *//p' "$mk")
    X=$(new_run emulated stage2-wmma-pv "20260102T030405Z-static-$x")
    cp build/ptxas/ptxas.json "$X/ptxas.json"
    for f in run run-timing; do
      jq --arg b "$base" --arg c "$cand" 'walk(if . == "stage1" then $b elif . == "stage2" then $c else . end)' \
        "$FIXTURES/emulated/$f.json" >"$X/$f.json"
    done
    "$SDPA_REPORT" experiment --run "$X" --experiment "$x" --title "$x (static gates)" --baseline "$base" \
      --candidate "$cand" --gate-speedup 1.1 --static-budget "${budget:-$default_budget}" \
      --published data/published/seed-l4.json --make-target "$x" >/dev/null 2>"$X/err" || { bad+=" $x(exit)"; continue; }
    st=$(jq -r '[.gates[] | select(.group == "static") | .status] | unique | join(",")' "$X/summary.json")
    [ "$st" = PASS ] || bad+=" $x($(jq -r '[.gates[] | select(.group == "static" and .status != "PASS") | .name + ": " + .reason] | join("; ")' "$X/summary.json"))"
  done
  tap_ok "build's ptxas.json: every experiment's static gates pass with its own budgets (D = 128 builds at their cap)" \
    test -z "$bad"
  [ -z "$bad" ] || tap_diag "failed:$bad"
else
  tap_skip "build's ptxas.json" "no build/ptxas/ptxas.json (nvcc not found or not built)"
fi

# ---- occupancy (tables/occupancy.md) --------------------------------------------------------
L4_SMS=$(sed -n 's/^#define ORIGINAL_DEVICE_SMS \([0-9]*\).*/\1/p' host/report/run.h)
L4_NAME=$(json data/published/seed-l4.json '.device | split(" (")[0]')
# occ_row RUN VARIANT ARCH SMS [waves]: the row tables/occupancy.md must hold for VARIANT, computed
# here from the run's ptxas.json and the timing run's first shape; with "waves", the sentence's
# "W waves (F full) with VARIANT" instead. Rows per CTA: the kernel's geometry in ptxas.json, or
# 32 for files from before it was recorded (the only geometry then).
occ_row() {
  jq -r --arg v "$2" --arg a "$3" --slurpfile t "$1/run-timing.json" '
    (.kernels[] | select(.variant == $v and .arch == $a and (.geometry.head_dim // 64) == 64 and (.causal // false) == false))
      as $k | $k.occupancy as $o
    | ($k.geometry.tile_m // 32) as $tile | $t[0].config.shapes[0] as $s
    | [$v, $a, $o.blocks_per_sm, ($o.limited_by | sub("_"; " ")), $s.name, $s.B, $s.H, $s.S, $s.D,
       ((($s.S + $tile - 1) / $tile | floor) * $s.H * $s.B)] | @tsv' "$1/ptxas.json" |
    awk -F'\t' -v sms="$4" -v what="${5:-row}" '{ w = $10 / ($3 * sms); f = int(w) + (w > int(w))
      if (what == "waves") printf "%.2f waves (%d full) with %s\n", w, f, $1
      else printf "| %s | %s | %d | %s | %s (%s,%s,%s,%s) | %d | %d | %.2f | %d |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, sms, w, f }'
}
occ_rows_ok() { # RUN ARCH SMS
  local v ok=1
  for v in stage1 stage2; do
    grep -qxF -- "$(occ_row "$1" $v "$2" "$3")" "$1/tables/occupancy.md" || { ok=0; tap_diag "want: $(occ_row "$1" $v "$2" "$3")"; }
  done
  [ $ok = 1 ]
}
SAME="Occupancy is the same for both variants: the comparison is not confounded by it."
CONF="The comparison is confounded by occupancy:"
GPU_SMS=$(json "$P/run-timing.json" .meta.device.sm_count)
tap_ok "occupancy, GPU run: rows from ptxas.json (sm_89) and meta.device's $GPU_SMS SMs" occ_rows_ok "$P" sm_89 "$GPU_SMS"
tap_ok "occupancy, GPU run: stated for the device measured, by name" \
  grep -qF "on the device measured, $(json "$P/run-timing.json" .meta.device.name) (sm_89, $GPU_SMS SMs" "$P/tables/occupancy.md"
tap_ok "occupancy, equal CTAs per SM and waves: 'not confounded', no 'confounded:'" \
  bash -c "grep -qxF '$SAME' '$P/tables/occupancy.md' && ! grep -qF '$CONF' '$P/tables/occupancy.md'"
tap_ok "occupancy, emulated run: rows modelled for the original's $L4_NAME ($L4_SMS SMs)" occ_rows_ok "$E" sm_89 "$L4_SMS"
tap_ok "occupancy, emulated run: says modelled, not measured" \
  grep -qF "**Modelled for the original's device ($L4_NAME); not measured.**" "$E/tables/occupancy.md"
tap_ok "occupancy, emulated run: modelled, so it says what would be (never 'is the same')" \
  bash -c "grep -qF 'Occupancy would be the same for both variants: the comparison would not be confounded' '$E/tables/occupancy.md' &&
           ! grep -qF '$SAME' '$E/tables/occupancy.md'"
tap_ok "occupancy, GPU run: no 'not measured'" bash -c "! grep -q 'not measured' '$P/tables/occupancy.md'"
# An emulated run of two Hopper rows (stage7c -> stage7d, renamed from the fixture's stage1 and
# stage2, their sm_90 kernels included): none runs on an L4, so occupancy is modelled for an H100.
H=$(new_run emulated stage2-wmma-pv 20260102T030405Z-hopper)
for f in run run-timing ptxas; do
  jq 'walk(if . == "stage1" then "stage7c" elif . == "stage2" then "stage7d" else . end)' "$FIXTURES/emulated/$f.json" >"$H/$f.json"
done
"$SDPA_REPORT" experiment --run "$H" --experiment stage7d-warpgroups --title "hopper" --baseline stage7c --candidate stage7d \
  --gate-speedup 0.9524 --static-budget 168,0,0,49152 --published data/published/seed-l4.json --make-target stage7d >/dev/null 2>&1
tap_ok "a gate of 0.9524 (1/1.05, stages 7a and 7d) is printed as given, not as 0.95" \
  bash -c 'grep -rqF "speedup ≥ 0.9524" "$1/tables" && ! grep -rqE "speedup ≥ 0\.95([^0-9]|$)" "$1/tables"' _ "$H"
H100_SMS=$(sed -n 's/^#define HOPPER_DEVICE_SMS \([0-9]*\).*/\1/p' host/report/run.h)
hopper_rows_ok() {
  local v
  for v in stage7c stage7d; do grep -qxF -- "$(occ_row "$H" $v sm_90 "$H100_SMS")" "$H/tables/occupancy.md" || return 1; done
}
tap_ok "occupancy, emulated Hopper rows: modelled for an H100 ($H100_SMS SMs, sm_90), not the original's L4" \
  bash -c 'grep -qF "**Modelled for the Hopper line'"'"'s device (NVIDIA H100 SXM5); not measured.**" "$1" && ! grep -q sm_89 "$1"' _ "$H/tables/occupancy.md"
tap_ok "  ... its rows from ptxas.json's sm_90 kernels and $H100_SMS SMs" hopper_rows_ok
# Another device: cc 9.0 with 24 SMs selects the sm_90 kernels and that SM count.
O=$(new_run gpu-pass stage2-wmma-pv 20260102T030405Z-sm90)
jq '.meta.device.cc = "9.0" | .meta.device.sm_count = 24' "$FIXTURES/gpu-pass/run-timing.json" > "$O/run-timing.json"
report_tables "$O" >/dev/null
tap_ok "occupancy, a cc 9.0 device with 24 SMs: sm_90 rows, 24 SMs" occ_rows_ok "$O" sm_90 24
# stage1 at 3 CTAs per SM (stage0's figure on sm_89): 0.74 waves (1 full) against 1.10 (2 full).
O=$(new_run gpu-pass stage2-wmma-pv 20260102T030405Z-occwaves)
jq '(.kernels[] | select(.variant == "stage1" and .arch == "sm_89") | .occupancy.blocks_per_sm) = 3' \
  "$FIXTURES/gpu-pass/ptxas.json" > "$O/ptxas.json"
report_tables "$O" >/dev/null
tap_ok "occupancy, stage1 3 CTAs per SM vs stage2 2: rows follow ptxas.json" occ_rows_ok "$O" sm_89 "$GPU_SMS"
tap_ok "occupancy, CTAs per SM and full waves differ: confounded, naming both values" \
  bash -c "grep -F '$CONF' '$O/tables/occupancy.md' | grep -F 'stage1 fits 3 CTAs per SM' | grep -F 'stage2 fits 2' \
    | grep -F '$(occ_row "$O" stage1 sm_89 "$GPU_SMS" waves)' | grep -qF '$(occ_row "$O" stage2 sm_89 "$GPU_SMS" waves)' \
    && ! grep -qF '$SAME' '$O/tables/occupancy.md'"
# 4 against 3 CTAs per SM: one full wave each, but still a different occupancy.
O=$(new_run gpu-pass stage2-wmma-pv 20260102T030405Z-occctas)
jq '(.kernels[] | select(.arch == "sm_89") | .occupancy.blocks_per_sm) = 3
    | (.kernels[] | select(.variant == "stage1" and .arch == "sm_89") | .occupancy.blocks_per_sm) = 4' \
  "$FIXTURES/gpu-pass/ptxas.json" > "$O/ptxas.json"
report_tables "$O" >/dev/null
tap_ok "occupancy, 4 vs 3 CTAs per SM: rows follow ptxas.json" occ_rows_ok "$O" sm_89 "$GPU_SMS"
tap_ok "occupancy, 4 vs 3 CTAs per SM, the same full waves: still confounded" \
  bash -c "[ '$(occ_row "$O" stage1 sm_89 "$GPU_SMS" | cut -d'|' -f10)' = '$(occ_row "$O" stage2 sm_89 "$GPU_SMS" | cut -d'|' -f10)' ] \
    && grep -F '$CONF' '$O/tables/occupancy.md' | grep -qF 'stage1 fits 4 CTAs per SM'"
# A wide row's instances (D = 128, causal) listed before its D = 64 non-causal one, as stages.cu
# declares them, each with other figures: the run's shape (D = 64, no mask) takes the last, and the
# original's problems too.
O=$(new_run gpu-pass stage2-wmma-pv 20260102T030405Z-occinst)
jq '.kernels |= ([.[] | select(.variant == "stage2" and .arch == "sm_89")
      | (.causal = true | .occupancy.blocks_per_sm = 1 | .geometry = {head_dim: 64, tile_m: 32, tile_n: 32, warps: 4, mma_warps: 0, smem_bytes: 0, dynamic_smem_bytes: 0}),
        (.occupancy.blocks_per_sm = 1 | .geometry = {head_dim: 128, tile_m: 32, tile_n: 32, warps: 4, mma_warps: 0, smem_bytes: 0, dynamic_smem_bytes: 0})] + .)
    | (.kernels[] | select(.variant == "stage2" and .arch == "sm_89" and .geometry == null)) |= (.causal = false
      | .geometry = {head_dim: 64, tile_m: 32, tile_n: 32, warps: 4, mma_warps: 0, smem_bytes: 0, dynamic_smem_bytes: 0})' \
  "$FIXTURES/gpu-pass/ptxas.json" > "$O/ptxas.json"
report_tables "$O" >/dev/null
tap_ok "occupancy: the run's D = 64 non-causal instance, not a causal or D = 128 one listed first" occ_rows_ok "$O" sm_89 "$GPU_SMS"
want_ctas=$(jq '.kernels[] | select(.variant == "stage2" and .arch == "sm_89" and .geometry.head_dim == 64 and .causal == false) | .occupancy.blocks_per_sm' "$O/ptxas.json")
tap_ok "  ... and this build beside the original's CTAs per SM: its D = 64 instance ($want_ctas), with a geometry" \
  grep -qF "This artifact's stage2 would fit $want_ctas there" "$O/tables/occupancy.md"
tap_ok "occupancy without ptxas.json: NOT EVALUATED: nvcc not found, no numbers" \
  bash -c "grep -qF 'Occupancy NOT EVALUATED: nvcc not found' '$N/tables/occupancy.md' && ! grep -q '^|' '$N/tables/occupancy.md'"

# ---- device names in the published-vs-reproduced table --------------------------------------
tap_ok "published vs reproduced, GPU run: both sides name their device" \
  grep -qF "| quantity | published (original study, $L4_NAME) | reproduced (this run): $(json "$P/run-timing.json" .meta.device.name) |" "$P/tables/published.md"
tap_ok "published vs reproduced, emulated run: the reproduced side says CPU emulator (not a GPU)" \
  grep -qF "| quantity | published (original study, $L4_NAME) | reproduced (this run): CPU emulator (not a GPU) |" "$E/tables/published.md"

# ---- the harness's newer fields (absent in older files: not recorded, no failure) ------------
FB_REASON="cudaSetDevice(0): all CUDA-capable devices are busy or unavailable"
declare -A FB
for vis in true false; do
  FB[$vis]=$(new_run emulated stage2-wmma-pv "20260102T030405Z-fallback-$vis")
  jq --arg r "$FB_REASON" --argjson v $vis '.meta.backend_fallback = {reason: $r, gpu_visible: $v}' \
    "$FIXTURES/emulated/run-timing.json" > "${FB[$vis]}/run-timing.json"
  report_tables "${FB[$vis]}" >/dev/null
done
tap_ok "backend fallback with a GPU visible: the banner says so, with the reason" \
  grep -qF "**A GPU is visible on this machine but was not used: $FB_REASON.**" "${FB[true]}/tables/banner.md"
tap_ok "backend fallback with a GPU visible: still the EMULATED banner" grep -q 'EMULATED (CPU) RUN' "${FB[true]}/tables/banner.md"
tap_ok "backend fallback without a GPU visible, or no fallback recorded: no such line" \
  bash -c "! grep -q 'GPU is visible' '${FB[false]}/tables/banner.md' '$E/tables/banner.md' '$P/tables/banner.md'"
env_cell() { awk -F' [|] ' -v l="$2" 'index($1, "| " l) == 1 && length($1) == length(l) + 2 { print $2; exit }' "$1/tables/environment.md"; }
tap_ok "environment: blocking kernel yes / no (--no-blocking-kernel), from config.blocking_kernel" \
  test "$(env_cell "$P" 'blocking kernel') $(env_cell "$F" 'blocking kernel')" = "yes no (--no-blocking-kernel)"
tap_ok "environment: throttle threshold $(json "$P/run.json" .config.throttle_threshold) x default SM clock; 0 reads disabled" \
  test "$(env_cell "$P" 'throttle threshold')|$(env_cell "$F" 'throttle threshold')" = \
  "$(json "$P/run.json" .config.throttle_threshold) x default SM clock|throttle detection: disabled (--throttle-threshold 0)"
ok=1
for f in driver_release uuid pci_bus_id power_limit_w sm_clock_start_mhz sm_clock_end_mhz; do
  grep -qF "| $(json "$P/run-timing.json" ".meta.device.$f") |" "$P/tables/environment.md" || { ok=0; tap_diag "meta.device.$f missing"; }
done
tap_ok "environment: meta.device's driver release, UUID, PCI bus id, power limit, SM clocks shown" test $ok = 1
tap_ok "environment: device index, MIG and CUDA_VISIBLE_DEVICES (null and set)" \
  test "$(env_cell "$F" 'device index')|$(env_cell "$P" MIG)|$(env_cell "$F" MIG)|$(env_cell "$P" CUDA_VISIBLE_DEVICES)|$(env_cell "$F" CUDA_VISIBLE_DEVICES)" = \
  "$(json "$F/run.json" .config.device_index)|no (not a MIG instance)|$(json "$F/run.json" '.meta.device.mig | .mode + ", profile " + .profile')|unset|$(json "$F/run.json" .meta.device.cuda_visible_devices)"
tap_ok "environment of an older file: no row for fields it does not record" \
  bash -c "! grep -qE '^\| (blocking kernel|device index|driver release|MIG) \|' '$E/tables/environment.md'"
note=$(jq -r '.timing[] | select(.clock_unmeasured > 0)
  | "- **\(.variant), \(.shape):** SM clock detection unavailable for \(.clock_unmeasured) of \(.samples_us | length) samples (no timestamp block landed on SM 0): throttling could not be checked for those."' \
  "$P/run-timing.json")
tap_ok "performance: clock_unmeasured > 0 noted with N of M samples from run-timing.json" \
  bash -c "[ -n \"\$1\" ] && [ \"\$(grep -F 'SM clock detection unavailable' '$P/tables/performance.md')\" = \"\$1\" ]" _ "$note"
tap_ok "performance: no note where every clock was measured" \
  bash -c "! grep -q 'SM clock detection unavailable' '$F/tables/performance.md' '$E/tables/performance.md'"

# ---- the reproduce block: the run directory reads $RUN under any data directory ---------------
# A run written under DATA_DIR=/elsewhere/data has that prefix in its command line; the block names
# the run by $RUN all the same (one long --out word overflowed the PDF's code lines). A path of
# another run keeps its name (control).
R=$(new_run emulated stage2-wmma-pv 20260102T030405Z-datadir)
jq '.meta.command_line |= map(if . == "run.json" then "/elsewhere/a/long/prefix/data/stage2-wmma-pv/20260102T030405Z-datadir/run.json" else . end) + ["--ptxas", "/elsewhere/data/stage2-wmma-pv/20260102T030405Z-datadir2/ptxas.json"]' \
  "$FIXTURES/emulated/run.json" >"$R/run.json"
report_tables "$R" >/dev/null 2>&1
tap_ok "reproduce block: a run under another data directory is named \$RUN (--out \$RUN/run.json)" \
  grep -qF -- '--out $RUN/run.json' "$R/tables/reproduce.md"
tap_ok "reproduce block: ... and another run's path is kept as it is" \
  grep -qF -- '--ptxas /elsewhere/data/stage2-wmma-pv/20260102T030405Z-datadir2/ptxas.json' "$R/tables/reproduce.md"

# ---- missing and corrupted inputs: exit 1, file and field named -----------------------------
expect_error() { # NAME RUN PATTERN...
  local name=$1 run=$2; shift 2
  local out rc=0
  out=$(report_tables "$run" 2>&1 >/dev/null) || rc=$?
  local ok=1
  [ "$rc" -eq 1 ] || ok=0
  for p in "$@"; do grep -qF -- "$p" <<<"$out" || ok=0; done
  [ $ok = 1 ] || tap_diag "$name: exit $rc, message: $out"
  tap_ok "$name" test $ok = 1
}
corrupt() { # FILTER FILE-IN-RUN ID: a copy of the emulated run with jq FILTER applied to one file
  local d
  d=$(new_run emulated stage2-wmma-pv "20260102T030405Z-$3")
  jq "$1" "$FIXTURES/emulated/$2" > "$d/$2"
  echo "$d"
}
M=$(new_run emulated stage2-wmma-pv 20260102T030405Z-missing); rm "$M/run.json"
expect_error "missing run.json: exit 1, file named" "$M" "$M/run.json" "cannot read"
T=$(new_run emulated stage2-wmma-pv 20260102T030405Z-trunc); head -c 3000 "$FIXTURES/emulated/run.json" > "$T/run.json"
expect_error "truncated run.json: exit 1, file named" "$T" "$T/run.json" "not valid JSON"
X=$(corrupt 'del(.comparisons[0].speedup_ci)' run-timing.json noci)
expect_error "missing comparisons.0.speedup_ci: file and field named" "$X" "$X/run-timing.json" "comparisons.0.speedup_ci"
X=$(corrupt 'del(.meta.backend)' run.json nobackend)
expect_error "missing meta.backend: file and field named" "$X" "$X/run.json" "meta.backend"
X=$(corrupt '.correctness[3].kernel_only.rel_l2 = "high"' run.json badtype)
expect_error "rel_l2 of the wrong type: file and field named" "$X" "$X/run.json" "correctness.3.kernel_only.rel_l2"
X=$(corrupt '.schema_version = "3.0.0"' run.json schema)
expect_error "schema_version 3.0.0: refused, file named" "$X" "$X/run.json" "schema_version 3.0.0"
X=$(corrupt 'del(.kernels[4].registers)' ptxas.json noregs)
expect_error "corrupted ptxas.json: file and field named" "$X" "$X/ptxas.json" "kernels.4.registers"
X=$(corrupt '.config.baseline = "stage0"' run.json wrongpair)
expect_error "a run of another pair: refused" "$X" "config.baseline" "stage0"

# ---- the paper mode -------------------------------------------------------------------------
out=$TMP/paper-gen
tap_ok "paper: sdpa-report paper on a GPU run, two missing runs and an experiment without a definition" \
  "$SDPA_REPORT" paper --published data/published/seed-l4.json --out "$out" --stage stage1-cp-async - x \
  --stage stage2-wmma-pv "$P" "$TMP/figs" --stage stage3a-fusion - x --stage stage9z-undefined - x
tap_ok "paper: verdicts table has this study's and the original's verdicts" \
  grep -q '| stage2-wmma-pv | stage1 -> stage2 | ready to merge | READY FOR MERGE |' "$out/verdicts.md"
tap_ok "  ... an experiment not run names the pair its definition (experiments/*/experiment.mk) names; without one, n/a" \
  bash -c 'grep -q "| stage1-cp-async | stage0 -> stage1 | not run |" "$1" && grep -q "| stage3a-fusion | stage2 -> stage3a |" "$1" &&
           grep -q "| stage9z-undefined | n/a -> n/a | not run |" "$1"' _ "$out/verdicts.md"
hist_med=$(awk -F'\t' '$2 == "stage2" { print $3 }' "$out/history.tsv")
tap_ok "paper: history TSV has two rows" test "$(grep -vc '^#' "$out/history.tsv")" = 2
tap_ok "paper: history TSV has the candidate's median from run-timing.json" \
  near "$hist_med" "$(json "$P/run-timing.json" '.timing[1].summary.median')" 1e-12
tap_ok "paper: stage sections include the run's fragments with a prefix" \
  grep -q "prefix=\"stage2-wmma-pv-\" run=\"$P\"" "$out/stage-stage2-wmma-pv.md"
tap_ok "paper: a stage's section includes its occupancy table" \
  grep -q "src=\"$P/tables/occupancy.md\"" "$out/stage-stage2-wmma-pv.md"
tap_ok "paper: published-vs-reproduced names the original's device in its published columns" \
  bash -c "head -n 2 '$out/published-vs-reproduced.md' | grep -F 'published speedup ratio (original study, $L4_NAME)' | grep -qF 'published latency reduction (original study, $L4_NAME)'"
tap_ok "paper: published-vs-reproduced names the device of each reproduced row" \
  bash -c "grep -F '| stage2-wmma-pv |' '$out/published-vs-reproduced.md' | grep -qF '| $(json "$P/run-timing.json" .meta.device.name) | gpu |' \
    && grep -F '| stage1-cp-async |' '$out/published-vs-reproduced.md' | grep -qF '| n/a | not run |'"
"$SDPA_REPORT" --bogus >/dev/null 2>"$TMP/bogus.err"
tap_ok "an unknown command: exit 2, naming it" \
  bash -c "[ $? -eq 2 ] && grep -qF \"sdpa-report: unknown command '--bogus'\" '$TMP/bogus.err'"
tap_done
