#!/usr/bin/env bash
# Layout of the rendered documents, page by page (tests/report/layout-check.sh): no PDF text
# outside the text area, no two words overprinting (table cells run into each other), no HTML id
# given twice. Rendered once from SYNTHETIC fixtures into a temporary directory: one report per
# experiment (the emulated fixture's run with its variants renamed to the experiment's baseline
# and candidate; stage 6's candidate judged by the fp8p bars, as its real runs record), the GPU
# fixture's failing report (the negative-result section), and the paper from all of them with the
# SYNTHETIC GPU campaign. Controls: documents with an identifier too long for its table cell, a
# code line too long for the page and a duplicated id must fail the same check.
# Usage: tests/report/layout.sh build/bin/sdpa-report
set -u
. tests/tap.sh
. tests/report/lib.sh
SDPA_REPORT=$1
for tool in pandoc gnuplot pdflatex pdftotext jq; do
  command -v $tool >/dev/null || { tap_skip "layout of the rendered documents" "$tool not installed (make deps)"; tap_done; }
done
CHECK=tests/report/layout-check.sh

# fixture_run EXPERIMENT: the emulated fixture as a run of EXPERIMENT (variants renamed); prints its path.
fixture_run() {
  local exp=$1 base cand dir
  base=$(sed -n 's/^BASELINE *:= *//p' "experiments/$exp/experiment.mk")
  cand=$(sed -n 's/^CANDIDATE *:= *//p' "experiments/$exp/experiment.mk")
  dir=$TMP/data/$exp/20260102T030405Z-0000000
  mkdir -p "$dir"
  for f in run.json run-timing.json ptxas.json; do
    jq --arg b "$base" --arg c "$cand" '
      walk(if . == "stage1" then $b elif . == "stage2" then $c else . end)
      | if has("correctness") then .correctness |= map(if .variant == "stage6"
          then . + {kernel_rel_l2_bar: 0.07, tol_family: "fp8p"} else . end) else . end' \
      "$FIXTURES/emulated/$f" >"$dir/$f" || return 1
  done
  cp "experiments/$exp/experiment.mk" "experiments/$exp/hypothesis.md" "$dir/"
  "$SDPA_REPORT" manifest --run "$dir" >&2
  echo "$dir"
}

render() { # RUN: PDF and HTML of its report
  "${MAKE_CMD[@]}" report RUN="$1" DATA_DIR="$TMP/data" FIG_DIR="$TMP/fig" REPORT_DIR="$TMP/out" \
    PANDOC_FORMATS="pdf html" >"$TMP/render.log" 2>&1 || { sed 's/^/# /' "$TMP/render.log" | tail -n 20; return 1; }
}

docs=()
# A sample of the experiments' reports (each is the same template with its own hypothesis): the
# faithful line's stage 2, stage 6 (the fp8p bars) and the newest; every report of a real run is
# checked by `make check-layout` after `make all`. (All ten took ~110 of this suite's ~140 s; the
# newest three, ~75 s.) LAYOUT_EXPERIMENTS=all renders every one.
all_exps=$(cd experiments && ls */experiment.mk | sed 's#/experiment.mk$##')
if [ "${LAYOUT_EXPERIMENTS:-}" = all ]; then exps=$all_exps; else
  exps="stage2-wmma-pv stage6-fp8-mma $(tail -n 1 <<<"$all_exps" | tr '\n' ' ')"; fi
for exp in $exps; do
  run=$(fixture_run "$exp") && render "$run" || { tap_ok "$exp: fixture report rendered" false; continue; }
  docs+=("$TMP/out/$exp/$(basename "$run")/report.pdf" "$TMP/out/$exp/$(basename "$run")/report.html")
done
N=$(new_run gpu-fail stage2-wmma-pv 20260102T030405Z-gpufail)
render "$N" && docs+=("$TMP/out/stage2-wmma-pv/$(basename "$N")/report.pdf")
cp -r "$FIXTURES/gpu-campaign/data/gpu" "$TMP/gpu" # make paper derives tables inside its runs/
"${MAKE_CMD[@]}" paper DATA_DIR="$TMP/data" GPU_DATA_DIR="$TMP/gpu" FIG_DIR="$TMP/fig" \
  REPORT_DIR="$TMP/out" PANDOC_FORMATS="pdf html" >"$TMP/paper.log" 2>&1 || sed 's/^/# /' "$TMP/paper.log" | tail -n 20
docs+=("$TMP/out/paper.pdf" "$TMP/out/paper.html")

for d in "${docs[@]}"; do
  name=${d#"$TMP/out/"}
  if [ ! -s "$d" ]; then tap_ok "$name: rendered" false; continue; fi
  bash "$CHECK" "$d" >"$TMP/check.out" 2>&1
  rc=$?
  head -n 12 "$TMP/check.out" | sed "s|$TMP/out/||; s/^/# /"
  pages=$(case $d in *.pdf) pdfinfo "$d" | sed -n 's/^Pages: *//p' ;; *) echo "-" ;; esac)
  tap_ok "$name: layout ($pages pages): $(tail -n 1 "$TMP/check.out" | sed 's/.*: //')" test $rc -eq 0
done

# Controls: the same check on documents broken on purpose.
printf '%s\n' '| file | bytes |' '|:------------|:------------------|' \
  '| `stage3b-register-softmax/20261124T155342Z-63855e6-vm.9923.0/run-timing.json/and/more/of/it/to/make/sure/it/is/longer/than/a/page` | 43608 |' '' \
  '    make report RUN=data/stage3b-register-softmax/20261124T155342Z-63855e6-vm.9923.0 SOMETHING=long-enough-to-overflow' '' \
  '# One {#x}' '' '# Two {#x}' '' '| header | only |' '|---|---|' '' 'Table: nothing below the header' >"$TMP/broken.md"
# (without the project's filters, which would break the long identifier: the check is tested)
for f in pdf html; do
  SOURCE_DATE_EPOCH=0 pandoc "$TMP/broken.md" -s -d "paper/defaults/$f.yaml" -M title=control -o "$TMP/broken.$f" \
    2>"$TMP/broken.log" || sed 's/^/# /' "$TMP/broken.log"
done
bash "$CHECK" "$TMP/broken.pdf" "$TMP/broken.html" >"$TMP/broken.out" 2>&1
tap_ok "control: exit status 1 on the broken documents" test $? -eq 1
tap_ok "control: the identifier run past the margin and over the next cell is found" \
  bash -c 'grep -q "outside the text area.*run-timing.json" "$1" && grep -q "overprinted:.*43608" "$1"' _ "$TMP/broken.out"
tap_ok "control: the code line run past the margin is found" grep -q 'outside the text area.*"SOMETHING=long' "$TMP/broken.out"
tap_ok "control: the duplicated HTML id is found" grep -q 'id "x" given to 2 elements' "$TMP/broken.out"
tap_ok "control: the table with a header and no row is found" grep -q 'has a header and no row: "nothing below' "$TMP/broken.out"
tap_done
