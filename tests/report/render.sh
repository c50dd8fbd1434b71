#!/usr/bin/env bash
# `make report` on SYNTHETIC fixtures, into temporary directories only: PDF, HTML and GitHub
# Markdown with the expected sections, the EMULATED notice on the first page, the negative-result
# section when a gate fails, byte-identical PDF and HTML across two builds, and a non-zero exit
# naming the file and field when a result file is corrupted.
# Usage: tests/report/render.sh build/bin/sdpa-report
set -u
. tests/tap.sh
. tests/report/lib.sh
SDPA_REPORT=$1
for tool in pandoc gnuplot pdflatex pdftotext; do
  command -v $tool >/dev/null || { tap_skip "render tests" "$tool not installed (make deps)"; tap_done; }
done

# render RUN NAME [FORMATS]: make report into $TMP/NAME/{figures,out}, in every format or in those
# given (the renders whose checks read only the PDF skip the other two: ~3 CPU-seconds each).
render() {
  "${MAKE_CMD[@]}" report RUN="$1" DATA_DIR="$TMP/data" FIG_DIR="$TMP/$2/figures" REPORT_DIR="$TMP/$2/out" \
    ${3:+PANDOC_FORMATS="$3"} >"$TMP/$2.log" 2>&1 || { sed 's/^/# /' "$TMP/$2.log"; return 1; }
}

E=$(new_run emulated stage2-wmma-pv)
tap_ok "emulated fixture: make report exits 0" render "$E" a
D=$TMP/a/out/stage2-wmma-pv/$(basename "$E")
tap_ok "report.pdf, report.html and report.md exist" test -s "$D/report.pdf" -a -s "$D/report.html" -a -s "$D/report.md"
pdftotext -layout "$D/report.pdf" "$TMP/a.txt"
missing=
for s in "Summary" "Verdict" "Hypothesis" "What a failure would rule out" "Occupancy" "Device and build environment" \
         "Static resources (ptxas)" "Correctness" "Cross-variant agreement" "Performance" \
         "The original study’s published figures" "Methods" "Rounding budget and tolerances" \
         "How to reproduce" "Artifact inventory" "References"; do
  grep -qF "$s" "$TMP/a.txt" || missing="$missing [$s]"
done
tap_ok "PDF has every section${missing:+ (missing:$missing)}" test -z "$missing"
tap_ok "PDF page 1 carries the EMULATED notice" bash -c "pdftotext -l 1 '$D/report.pdf' - | grep -q 'EMULATED (CPU) RUN: NO GPU TIMINGS'"
tap_ok "PDF: performance gate NOT EVALUATED: no GPU" grep -q "NOT EVALUATED" "$TMP/a.txt"
tap_ok "PDF: emulated timings table labelled" grep -q "EMULATED (CPU) TIMINGS, NOT GPU TIMINGS" "$TMP/a.txt"
tap_ok "PDF: legacy gate row labelled legacy" grep -q "legacy gate of the original" "$TMP/a.txt"
tap_ok "PDF: published figures labelled with their source" grep -qi "published (original study, L4)" "$TMP/a.txt"
tap_ok "HTML: published vs reproduced names the device of each side" bash -c \
  "grep -qF 'published (original study, $(jq -r '.device | split(" (")[0]' data/published/seed-l4.json))' '$D/report.html' && grep -qF 'reproduced (this run): CPU emulator (not a GPU)' '$D/report.html'"
tap_ok "PDF: occupancy modelled for the original's device, and whether it confounds the comparison" \
  bash -c "grep -q \"Modelled for the original’s device\" '$TMP/a.txt' && grep -q 'Occupancy would be the same for both variants' '$TMP/a.txt'"
tap_ok "PDF: FLOP convention stated (typeset as math)" grep -qF "4 · B · H · S 2 · D" "$TMP/a.txt"
tap_ok "HTML: formulas as MathML, none left as TeX source" bash -c \
  "grep -q '<math display=\"inline\"' '$D/report.html' && ! grep -q 'class=\"math inline\">\\\\(' '$D/report.html'"
tap_ok "GitHub Markdown: formulas kept as \$...\$ (tex_math_dollars)" grep -qF '$4 \cdot B \cdot H \cdot S^2 \cdot D$' "$D/report.md"
tap_ok "pandoc: every formula converted (no 'Could not convert TeX math')" bash -c "! grep -q 'Could not convert TeX math' '$TMP/a.log'"
tap_ok "PDF: citations resolved (no ??? or missing keys)" bash -c "! grep -q '???\|\[@' '$TMP/a.txt'"
tap_ok "PDF: tables and figures numbered" bash -c "grep -q 'Table 1: Gates' '$TMP/a.txt' && grep -q 'Figure 1: ' '$TMP/a.txt'"
tap_ok "HTML: self-contained (figures embedded)" bash -c "grep -q 'src=\"data:image/png;base64' '$D/report.html' && ! grep -q 'src=\"[^d][^\"]*\.png' '$D/report.html'"
tap_ok "HTML: EMULATED notice" grep -q "EMULATED (CPU) RUN: NO GPU TIMINGS" "$D/report.html"
tap_ok "GitHub Markdown: figures resolve relative to the file" bash -c \
  "cd '$D' && for f in \$(grep -o 'src=\"[^\"]*\.png\"' report.md | sed 's/src=\"//; s/\"\$//'); do test -f \"\$f\" || exit 1; done"
F=$TMP/a/figures/stage2-wmma-pv/$(basename "$E")
tap_ok "figures: latency, speedup, correctness and ptxas PNGs" \
  test -s "$F/latency-mission.png" -a -s "$F/speedup.png" -a -s "$F/correctness.png" -a -s "$F/ptxas.png"
tap_ok "inventory: SHA-256 of run.json listed" grep -q "$(sha256sum "$E/run.json" | cut -d' ' -f1)" "$D/inventory.md"
tap_ok "inventory: SHA-256 of each figure listed" bash -c \
  "for p in '$F'/*.png; do grep -q \$(sha256sum \"\$p\" | cut -d' ' -f1) '$D/inventory.md' || exit 1; done"

# Reproducible: a second build from the same data, into other directories, gives the same bytes.
tap_ok "second build: make report exits 0" render "$E" b
D2=$TMP/b/out/stage2-wmma-pv/$(basename "$E")
tap_ok "PDF byte-identical across two builds" cmp -s "$D/report.pdf" "$D2/report.pdf"
tap_ok "HTML byte-identical across two builds" cmp -s "$D/report.html" "$D2/report.html"
tap_ok "figures byte-identical across two builds" diff -r "$F" "$TMP/b/figures/stage2-wmma-pv/$(basename "$E")"

# A GPU seen but not used (sdpa-bench --backend auto fell back): said on page 1, inside the banner.
B=$(new_run emulated stage2-wmma-pv 20260102T030405Z-fallback)
jq '.meta.backend_fallback = {reason: "cudaSetDevice(0): all CUDA-capable devices are busy or unavailable", gpu_visible: true}' \
  "$FIXTURES/emulated/run-timing.json" > "$B/run-timing.json"
tap_ok "backend fallback: make report exits 0" render "$B" fb pdf
tap_ok "backend fallback: PDF page 1 says a GPU is visible but was not used" bash -c \
  "pdftotext -l 1 '$TMP/fb/out/stage2-wmma-pv/$(basename "$B")/report.pdf' - | tr '\n' ' ' | grep -q 'A GPU is visible on this machine but was not used: cudaSetDevice(0)'"

# GPU fixtures: PASS and the negative result.
P=$(new_run gpu-pass stage2-wmma-pv 20260102T030405Z-gpupass)
tap_ok "gpu-pass: make report exits 0" render "$P" p pdf
pdftotext -layout "$TMP/p/out/stage2-wmma-pv/$(basename "$P")/report.pdf" "$TMP/p.txt"
tap_ok "gpu-pass: verdict ready to merge, no EMULATED notice" \
  bash -c "grep -q 'Verdict: ready to merge' '$TMP/p.txt' && ! grep -q 'EMULATED' '$TMP/p.txt'"
# (Its text from the Markdown: layout.sh renders and checks this report's PDF.)
N=$(new_run gpu-fail stage2-wmma-pv 20260102T030405Z-gpufail)
tap_ok "gpu-fail: make report exits 0" render "$N" n md
NM=$TMP/n/out/stage2-wmma-pv/$(basename "$N")/report.md
tap_ok "gpu-fail: merge deferred with a negative-result section" \
  bash -c "grep -q 'Verdict: merge deferred' '$NM' && grep -q 'Negative result' '$NM' && grep -q 'What it rules out' '$NM'"

# [stage 7f] An absolute throughput floor (GATE_TFLOPS): judged on flops / the upper end of the
# candidate's median CI. The fixture's stage2 runs 0.821 TFLOP/s there (536870912 flops, CI upper
# end 653.959 us): a floor of 0.8 passes, 0.83 fails the run.
tflops_run() { # tflops_run FLOOR NAME: a gpu-pass run whose experiment.mk sets GATE_TFLOPS := FLOOR; its gates.md
  local d=$TMP/data/stage2-wmma-pv/20260102T030405Z-$2
  mkdir -p "$d" && cp "$FIXTURES/gpu-pass"/*.json experiments/stage2-wmma-pv/experiment.mk \
    experiments/stage2-wmma-pv/hypothesis.md "$d/" && echo "GATE_TFLOPS := $1" >>"$d/experiment.mk" &&
    "$SDPA_REPORT" manifest --run "$d" >&2 &&
    "$SDPA_REPORT" experiment --run "$d" --experiment stage2-wmma-pv --definition "$d/experiment.mk" \
      --published data/published/seed-l4.json >"$TMP/$2.log" 2>&1 && echo "$d"
}
T1=$(tflops_run 0.8 tput-pass) T2=$(tflops_run 0.83 tput-fail)
tap_ok "GATE_TFLOPS 0.8: the throughput gate PASS at 0.821 TFLOP/s (the CI's end; median 0.8219), the run ready to merge" bash -c \
  "grep '^| throughput of stage2 at mission' '$T1/tables/gates.md' | grep -F '0.821 TFLOP/s at the interval' | grep -qF '(median 0.8219)' &&
   grep '^| throughput of stage2' '$T1/tables/gates.md' | grep -q '\*\*PASS\*\*' && grep -q 'ready to merge' '$T1/tables/verdict.md'"
tap_ok "GATE_TFLOPS 0.83: the gate FAILs and the run is a negative result" bash -c \
  "grep '^| throughput of stage2' '$T2/tables/gates.md' | grep -qF '**FAIL**: 0.821 TFLOP/s is below 0.83' &&
   grep -q 'merge deferred' '$T2/tables/verdict.md'"
tap_ok "without GATE_TFLOPS no throughput gate" bash -c "! grep -q '^| throughput' '$P/tables/gates.md'"

# One timing round (a run stopped by its time budget): sdpa-bench writes the comparison's statistics
# and intervals as null. The report renders, the comparison reads n/a and the gate is not evaluated
# (it was a parse error: "field 'comparisons.0.speedup_ci.0' missing").
O=$(new_run gpu-pass stage2-wmma-pv 20260102T030405Z-oneround)
jq '.comparisons |= map(.rounds = 1 | .base_samples_us |= .[:1] | .cand_samples_us |= .[:1]
      | .base_median = null | .cand_median = null | .ratio = null | .ratio_ci = null | .speedup = null
      | .speedup_ci = null | .latency_reduction = null | .latency_reduction_ci = null | .epsilon = null
      | .resamples = null | .bootstrap_seed = null | .verdict = "AMBIGUOUS")' \
  "$FIXTURES/gpu-pass/run-timing.json" >"$O/run-timing.json"
tap_ok "one timing round (intervals null): make report exits 0" render "$O" one md
tap_ok "  ... the performance gate NOT EVALUATED: no confidence interval (too few rounds), no number" \
  bash -c "grep '^| speedup' '$O/tables/gates.md' | grep -F '**NOT EVALUATED**: no confidence interval (too few rounds)' |
    grep -vqi nan"

# The paper from the latest run of each experiment (here: a GPU fixture for stage2 only).
mkdir -p "$TMP/pdata/stage2-wmma-pv/20260102T030405Z-gpupass"
cp "$P"/*.json "$P/experiment.mk" "$P/hypothesis.md" "$TMP/pdata/stage2-wmma-pv/20260102T030405Z-gpupass/"
PANDOC_CMD="SOURCE_DATE_EPOCH=0 pandoc"
paper() { "${MAKE_CMD[@]}" paper DATA_DIR="$TMP/pdata" FIG_DIR="$TMP/$1/figures" REPORT_DIR="$TMP/$1/out" \
            ${2:+PANDOC_FORMATS="$2"} >"$TMP/$1.log" 2>&1; }
tap_ok "make paper: exits 0 with one run and two experiments not run" paper pa "pdf html" # (its Markdown is not read)
pdftotext -layout "$TMP/pa/out/paper.pdf" "$TMP/pa.txt"
missing=
for s in "Introduction" "Corrections to the original study" "The encoder bias" "The cp.async tail race" \
         "Methods" "Results" "Verdicts" "Stage history" "Published versus reproduced" "Stage 2: P·V on tensor cores" \
         "Not run yet" "Beyond the original" "Why the original’s later stages failed" "The corrected stages" \
         "Stage 3B: softmax and P·V in registers" "Against the vendors’ libraries" "Hopper" "Stage 7a: K and V by TMA" \
         "Stage 7b: Q" "Stage 7c: P" "Stage 7d: warpgroup specialisation" "Stage 7e: 128-key tiles" "Stage 7f: softmax under the tensor cores" "The Hopper line at D = 128" \
         "The original study’s published figures" "Artifact inventory" "References"; do
  grep -qF "$s" "$TMP/pa.txt" || missing="$missing [$s]"
done
tap_ok "paper PDF has every section${missing:+ (missing:$missing)}" test -z "$missing"
tap_ok "paper: the stage's tables are numbered apart from the paper's" grep -q "Table [0-9]*: Gates of this run" "$TMP/pa.txt"
# stage6-fp8-mma is an experiment: the paper has the FP8 stage's section and its fragment.
tap_ok "paper: the FP8 stage section with its fragment (not run here)" bash -c \
  "grep -A20 'The FP8 stage' '$TMP/pa.txt' | grep -q 'Not run yet'"
# stage7b-wgmma-qk, stage7c-wgmma-pv, stage7d-warpgroups, stage7e-128-key-tiles, stage7f-overlap,
# stage7f-overlap-d128, stage7h-ftz-exp, stage7i-edge-mask and stage7j-pingpong likewise: the Hopper part's sections, each followed by its own
# fragment (not run here). Only the text from a section's heading to the next one's is searched, so
# that one section's "Not run yet" cannot stand in for the other's missing fragment.
not_run_between() { awk -v a="$1" -v b="$2" 'index($0, a) {on=1} index($0, b) {on=0} on' "$TMP/pa.txt" | grep -q 'Not run yet'; }
tap_ok "paper: the stage 7b section with its fragment (not run here)" not_run_between 'Stage 7b: Q' 'Stage 7c: P'
tap_ok "paper: the stage 7c section with its fragment (not run here)" not_run_between 'Stage 7c: P' 'Stage 7d: warpgroup'
tap_ok "paper: the stage 7d section with its fragment (not run here)" not_run_between 'Stage 7d: warpgroup' 'Stage 7e: 128-key'
tap_ok "paper: the stage 7e section with its fragment (not run here)" not_run_between 'Stage 7e: 128-key' 'Stage 7f: softmax'
tap_ok "paper: the stage 7f section with its fragment (not run here)" not_run_between 'Stage 7f: softmax' 'The Hopper line at D = 128'
tap_ok "paper: the D = 128 section with stage 7f's D = 128 fragment (not run here)" not_run_between 'The Hopper line at D = 128' 'Stage 7g: a conditional'
tap_ok "paper: the stage 7h section with its fragment (not run here)" not_run_between 'Stage 7h: P' 'Stage 7i: the key'
tap_ok "paper: the stage 7i section with its fragment (not run here)" not_run_between 'Stage 7i: the key' 'Stage 7j: the consumer'
tap_ok "paper: the stage 7j section with its fragment (not run here)" not_run_between 'Stage 7j: the consumer' 'Measured on GPUs'
# include.lua's optional=: a missing fragment drops the div (header and prose), a present one is included.
printf 'prose-marker-ok\n\n::: {.include src="{gen}/opt.md" optional="yes"}\n## Optional part\n\nprose\n:::\n' >"$TMP/opt.md"
mkdir -p "$TMP/gen6"
opt() { SOURCE_DATE_EPOCH=0 pandoc "$TMP/opt.md" -d paper/defaults/common.yaml -d paper/defaults/gfm.yaml -M gen="$TMP/gen6" \
          -M figdir=x -M out=x >"$TMP/opt.out" 2>&1; }
opt_absent() { opt && grep -q prose-marker-ok "$TMP/opt.out" && ! grep -q 'Optional part' "$TMP/opt.out"; }
opt_present() { opt && grep -A6 'Optional part' "$TMP/opt.out" | grep -q '(test fragment)'; }
tap_ok "include optional=: no fragment, no section (the rest of the document stays)" opt_absent
echo '(test fragment)' >"$TMP/gen6/opt.md"
tap_ok "include optional=: a fragment brings in the section and itself" opt_present
tap_ok "make paper: second build" paper pb "pdf html"
tap_ok "paper PDF and HTML byte-identical across two builds" \
  bash -c "cmp -s '$TMP/pa/out/paper.pdf' '$TMP/pb/out/paper.pdf' && cmp -s '$TMP/pa/out/paper.html' '$TMP/pb/out/paper.html'"

# Corrupted data: make report stops, naming the file and the field.
X=$(new_run emulated stage2-wmma-pv 20260102T030405Z-corrupt)
jq 'del(.timing[0].summary.median)' "$FIXTURES/emulated/run-timing.json" > "$X/run-timing.json"
rc=0
"${MAKE_CMD[@]}" report RUN="$X" DATA_DIR="$TMP/data" FIG_DIR="$TMP/x/figures" REPORT_DIR="$TMP/x/out" >"$TMP/x.log" 2>&1 || rc=$?
tap_ok "corrupted run-timing.json: make report exits non-zero" test "$rc" -ne 0
tap_ok "corrupted run-timing.json: message names the file and the field" \
  grep -qF "$X/run-timing.json: field 'timing.0.summary.median' missing" "$TMP/x.log"
tap_ok "corrupted run-timing.json: no report written" test ! -e "$TMP/x/out/stage2-wmma-pv/$(basename "$X")/report.pdf"
rc=0
"${MAKE_CMD[@]}" report RUN="$TMP/data/stage2-wmma-pv/nonexistent" DATA_DIR="$TMP/data" >"$TMP/y.log" 2>&1 || rc=$?
tap_ok "make report on a missing run directory: exits non-zero naming RUN and the path" \
  bash -c "[ $rc -ne 0 ] && grep -qF 'report: RUN=$TMP/data/stage2-wmma-pv/nonexistent: no such run directory' '$TMP/y.log'"
tap_done
