#!/usr/bin/env bash
# `make stage2` end to end with the real harness, kernels and emulator (no fixture), into
# temporary directories, on reduced shapes to keep it to about a minute: the run directory, the
# report in three formats with its sections, gate-table cells equal to the run's JSON, a second
# run in a new directory leaving the first byte-for-byte intact, `make report` reproducing the
# same PDF and HTML bytes, and a corrupted or missing result file stopping `make report` with
# the file and field named.
# Usage: tests/experiments/e2e-stage2.sh
set -u
. tests/tap.sh
. tests/report/lib.sh
for tool in pandoc gnuplot pdflatex pdftotext jq; do
  command -v $tool >/dev/null || { tap_skip "make stage2 end to end" "$tool not installed (make deps)"; tap_done; }
done
DIRS=(DATA_DIR="$TMP/data" FIG_DIR="$TMP/fig" REPORT_DIR="$TMP/rep")
SMALL=(SHAPES="small ragged" SEEDS=0,1 TIMING_SHAPE=small EMU_TIMING="0 4 0 10")
# stage2 NAME [VAR=VALUE ...]
stage2() { "${MAKE_CMD[@]}" stage2 "${DIRS[@]}" "${SMALL[@]}" "${@:2}" >"$TMP/$1.log" 2>&1 || { sed 's/^/# /' "$TMP/$1.log" | tail -n 40; return 1; }; }
runs() { ls -d "$TMP"/data/stage2-wmma-pv/*/ 2>/dev/null | sed 's#/$##'; }

tap_ok "make stage2 exits 0 (no GPU: correctness on the emulator)" stage2 first
R=$(runs | head -n1)
tap_ok "one run directory, named <UTC time>-<short SHA>-<host>.<pid>.<n>" bash -c "[ \$(ls '$TMP/data/stage2-wmma-pv' | wc -l) -eq 1 ] && basename '$R' | grep -qE '^[0-9]{8}T[0-9]{6}Z-[0-9a-f]{7,}(-dirty)?-[A-Za-z0-9-]+\.[0-9]+\.[0-9]+$'"
tap_ok "run directory holds run.json, run-timing.json, summary.json, experiment.mk, hypothesis.md" \
  test -s "$R/run.json" -a -s "$R/run-timing.json" -a -s "$R/summary.json" -a -s "$R/experiment.mk" -a -s "$R/hypothesis.md"
D=$TMP/rep/stage2-wmma-pv/$(basename "$R")
tap_ok "report.pdf, report.html and report.md exist" test -s "$D/report.pdf" -a -s "$D/report.html" -a -s "$D/report.md"
pdftotext -layout "$D/report.pdf" "$TMP/r.txt" 2>/dev/null
missing=
for s in "Summary" "Verdict" "Hypothesis" "Device and build environment" "Static resources (ptxas)" "Correctness" \
         "Performance" "published figures" "Methods" "How to reproduce" "Artifact inventory"; do
  grep -qF "$s" "$TMP/r.txt" || missing="$missing [$s]"
done
tap_ok "PDF has every section${missing:+ (missing:$missing)}" test -z "$missing"
tap_ok "PDF page 1 says the run is emulated" bash -c "pdftotext -l 1 '$D/report.pdf' - | grep -q 'EMULATED (CPU) RUN: NO GPU TIMINGS'"
tap_ok "results say emulator, timing emulated" test "$(json "$R/run-timing.json" '.meta.backend + " " + .meta.timing')" = "emu emulated"
tap_ok "the timing run's references: at most 512 rows per slice (run.sh), every row of its small shape; the correctness run's every row" \
  test "$(json "$R/run-timing.json" '"\(.config.reference.rows_per_slice) \([.correctness[].reference_rows] | unique)"') $(json "$R/run.json" .config.reference.rows_per_slice)" = "512 [32] null"
tap_ok "  ... the environment table says both" \
  bash -c 'grep -E "^\| reference rows per slice \(sampled above\) +\| every row +\| 512 +\|" "$1"' _ "$R/tables/environment.md"

# Gate table cells against the JSON.
G=$R/tables/gates.md
for v in stage1 stage2; do
  n=$(json "$R/run.json" "[.correctness[] | select(.variant == \"$v\")] | length")
  p=$(json "$R/run.json" "[.correctness[] | select(.variant == \"$v\" and .pass)] | length")
  tap_ok "gate table: kernel-only correctness of $v reads $p/$n, as run.json" \
    bash -c "gate_cell() { $(declare -f gate_cell | tail -n +2); }; gate_cell '$G' 'kernel-only correctness, $v' 4 | grep -q '^$p/$n '"
done
tap_ok "gate table: performance NOT EVALUATED without a GPU" bash -c "grep -F 'speedup \$t_\\text{stage1}/t_\\text{stage2}\$' '$G' | grep -q 'NOT EVALUATED'"
if [ -s "$R/ptxas.json" ]; then
  regs=$(json "$R/ptxas.json" '.kernels[] | select(.variant == "stage2" and .arch == "sm_89" and .codec == "e4m3") | .registers')
  tap_ok "gate table: stage2's sm_89 E4M3 registers ($regs) as ptxas.json" bash -c "grep 'registers per thread, stage2' '$G' | grep -q 'sm_89 e4m3 $regs'"
else
  tap_skip "gate table: registers as ptxas.json" "no ptxas.json (nvcc not found)"
fi
rel=$(json "$R/run.json" '.correctness[] | select(.variant == "stage2" and .shape == "ragged" and .seed == "1") | .kernel_only.rel_l2')
cell=$(grep -E '^\| stage2 +\| ragged' "$R/tables/correctness.md" | awk -F'|' '$4 + 0 == 1 { gsub(/ /, "", $7); print $7; exit }')
tap_ok "correctness table: stage2 ragged seed 1 rel-L2 '$cell', as run.json ($rel)" near "${cell:-nan}" "$rel" 5e-3
# Cross-variant (stage1 -> stage2 differ in arithmetic: bounded): the largest difference over the bar is
# recorded, and it is at most 1 exactly where the pair passes; the table prints it.
tap_ok "cross_variant: bounded pairs record worst_ratio (|a - b| / bar), <= 1 exactly when they pass" \
  bash -c "jq -e '[.cross_variant[] | select(.expected == \"bounded\")] | length > 0 and
                  all(.max_abs_diff >= 0 and ((.worst_ratio <= 1) == .pass))' '$R/run.json' >/dev/null"
wr=$(json "$R/run.json" '.cross_variant[0].worst_ratio')
tap_ok "cross table: the first pair's |a - b| / bar as run.json ($wr)" \
  bash -c "grep -E '^\| stage1 ' '$R/tables/cross.md' | head -n 1 | grep -qF \"| \$(printf '%.3g' $wr) |\""

# A second run: a new directory; the first is untouched, byte for byte.
before=$(cd "$R" && find . -type f -exec sha256sum {} + | sort)
tap_ok "second make stage2 exits 0" stage2 second PANDOC_FORMATS=md # (its report is not read: Markdown only)
tap_ok "the second run made a second directory" test "$(runs | wc -l)" -eq 2
tap_ok "the first run directory is byte-for-byte intact" test "$before" = "$(cd "$R" && find . -type f -exec sha256sum {} + | sort)"

# make report from existing data: nothing measured, same bytes.
h1=$(sha256sum "$D/report.pdf" "$D/report.html" | cut -d' ' -f1)
raw=$(cd "$R" && sha256sum run.json run-timing.json)
tap_ok "make report RUN=<first> exits 0" bash -c '"$@" >"'"$TMP"'/report.log" 2>&1' _ "${MAKE_CMD[@]}" report RUN="$R" "${DIRS[@]}"
tap_ok "make report reproduces the PDF and HTML byte for byte" test "$h1" = "$(sha256sum "$D/report.pdf" "$D/report.html" | cut -d' ' -f1)"
tap_ok "make report measured nothing (run.json, run-timing.json unchanged)" test "$raw" = "$(cd "$R" && sha256sum run.json run-timing.json)"

# Corrupted and missing result files.
C=$TMP/data/stage2-wmma-pv/corrupt; cp -r "$R" "$C"
jq 'del(.meta.backend)' "$R/run-timing.json" >"$C/run-timing.json"
out=$("${MAKE_CMD[@]}" report RUN="$C" "${DIRS[@]}" 2>&1); rc=$?
tap_ok "corrupted run-timing.json: make report fails" test $rc -ne 0
tap_ok "  ... naming the file and the field" bash -c "grep -q 'run-timing.json' <<<\"\$1\" && grep -q 'meta.backend' <<<\"\$1\"" _ "$out"
M=$TMP/data/stage2-wmma-pv/missing; cp -r "$R" "$M"; rm -f "$M/run.json"
out=$("${MAKE_CMD[@]}" report RUN="$M" "${DIRS[@]}" 2>&1); rc=$?
tap_ok "missing run.json: make report fails naming the file" bash -c "[ $rc -ne 0 ] && grep -q 'run.json' <<<\"\$1\"" _ "$out"
tap_done
