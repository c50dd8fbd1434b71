#!/usr/bin/env bash
# The paper's "Measured on GPUs" part (host/report/gpu_*.c, figures/{scaling,roofline,ecdf,profile}.gp)
# on the SYNTHETIC campaign fixture tests/report/fixtures/gpu-campaign/ (gen-gpu-campaign.sh),
# rendered into temporary directories only: the tables hold the fixture's numbers (one TFLOP/s,
# one ceiling share and two ratios recomputed here from its JSON), skipped and failed entries show
# their reason, the figures are drawn, the fixture banner is shown; with no campaign the paper says
# none is committed and draws no GPU figure; a corrupted campaign file stops make paper naming it;
# nothing is written under the checkout's data/ or figures/.
# With a second argument (the ASan+UBSan build), the GPU part's reader and writers run under it
# on the fixture and on a malformed input: no leak, no undefined behaviour.
# Usage: tests/report/paper-gpu.sh build/bin/sdpa-report [build/tests/report/sdpa-report-asan]
set -u
. tests/tap.sh
. tests/report/lib.sh
SDPA_REPORT=$1
for tool in pandoc gnuplot pdflatex pdftotext; do
  command -v $tool >/dev/null || { tap_skip "paper GPU part" "$tool not installed (make deps)"; tap_done; }
done
get() { "$SDPA_REPORT" get "$@"; }
# The checkout's data/ and figures/ before: names, sizes and times of every file.
snap() { find data figures -printf '%p %s %T@\n' 2>/dev/null | sort; }
snap >"$TMP/before"

# The fixture: what its generator makes (but for the manifest's own meta and the checksums over it),
# laid out as ingest leaves a campaign (SHA256SUMS holds), every file labelled synthetic.
FX=$FIXTURES/gpu-campaign/data/gpu
if command -v jq >/dev/null; then
  bash "$FIXTURES/gen-gpu-campaign.sh" "$SDPA_REPORT" "$TMP/regen" >/dev/null 2>&1
  tap_ok "the committed fixture is what gen-gpu-campaign.sh writes" \
    diff -r -q -x manifest.json -x SHA256SUMS "$TMP/regen" "$FIXTURES/gpu-campaign"
else
  tap_skip "the committed fixture is what gen-gpu-campaign.sh writes" "jq not installed"
fi
tap_ok "  ... its SHA256SUMS holds, as after make ingest" bash -c 'cd "$(ls -d "$1"/fixture-*/*/)" && sha256sum --quiet --strict -c SHA256SUMS' _ "$FX"
tap_ok "  ... every result file is labelled synthetic-fixture (the manifest: sdpa-report's own)" \
  bash -c 'for j in $(find "$1" -name "*.json" ! -name manifest.json); do
             [ "$("$2" get "$j" meta.tool)" = synthetic-fixture ] || { echo "# $j"; exit 1; }; done' _ "$FX" "$SDPA_REPORT"
tap_ok "  ... and its device says it is not a measurement" \
  bash -c '[ "$("$2" get "$(ls "$1"/fixture-*/*/campaign.json)" device)" = "FIXTURE GPU (synthetic, not a measurement)" ]' _ "$FX" "$SDPA_REPORT"

cp -r "$FX" "$TMP/gpu"
C=$(ls -d "$TMP"/gpu/fixture-*/*/)
C=${C%/}
paper() { # NAME GPU_DATA_DIR [FORMATS]: FORMATS "md" where only the generated Markdown is checked
  "${MAKE_CMD[@]}" paper DATA_DIR="$TMP/data" GPU_DATA_DIR="$2" FIG_DIR="$TMP/$1/fig" REPORT_DIR="$TMP/$1/out" \
    ${3:+PANDOC_FORMATS="$3"} >"$TMP/$1.log" 2>&1
}
paper f "$TMP/gpu"
rc=$?
[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/f.log" | tail -n 20
tap_ok "make paper GPU_DATA_DIR=<fixture copy>: exits 0" test $rc -eq 0
G=$TMP/f/out/gen/gpu.md
tap_ok "  ... writes gen/gpu.md and the paper in PDF, HTML and Markdown" \
  test -s "$G" -a -s "$TMP/f/out/paper.pdf" -a -s "$TMP/f/out/paper.html" -a -s "$TMP/f/out/paper.md"
for fig in scaling roofline ecdf profile; do
  tap_ok "  ... draws $fig.png and the paper shows it" \
    bash -c 'test -s "$1/fig/paper/gpu/c1/$2.png" && grep -q "gpu/c1/$2.png" "$1/out/paper.md"' _ "$TMP/f" "$fig"
done
# gnuplot says nothing on stderr for the fixture's campaign, nor for one a short lease leaves: a
# sweep of one S, no ceiling measured, no profile (the first H100's third campaign drew both with
# warnings: gnuplot widened the one-S range itself, and read an empty file and 1/0 roofs).
quiet_figs() { # RUNDIR: 0 when scaling.gp and roofline.gp draw it without a word on stderr
  local o=$TMP/quiet-$(basename "$1") fig
  mkdir -p "$o" && for fig in scaling roofline; do
    gnuplot -e "rundir='$1'; figdir='$o'" "figures/$fig.gp" 2>"$o/$fig.err" && [ -s "$o/$fig.png" ] && [ ! -s "$o/$fig.err" ] ||
      { sed 's/^/# /' "$o/$fig.err"; return 1; }
  done
}
R1=$TMP/f/out/gen/gpu/c1 R2=$TMP/one-s
cp -r "$R1" "$R2"
awk -F'\t' '/^#/ || NF == 0 || $1 == 512' "$R1/scaling.tsv" >"$R2/scaling.tsv"
awk -F'\t' '/^#/ || NF == 0 || $3 == 512' "$R1/roofline.tsv" >"$R2/roofline.tsv"
grep '^#' "$R1/roofline-measured.tsv" >"$R2/roofline-measured.tsv"
sed -i -E 's/^(ceil_fp16|ceil_fp8|ceil_copy_gbs|n_measured) = .*/\1 = 0/' "$R2/plot-vars.gp"
tap_ok "scaling.gp and roofline.gp: no gnuplot warning on the fixture's campaign" quiet_figs "$R1"
tap_ok "  (the one-S campaign: one S, points, no ceiling, no profile)" \
  bash -c '[ "$(awk -F"\t" "!/^#/ && NF { print \$1 }" "$1/scaling.tsv" | sort -u)" = 512 ] &&
           grep -qx "ceil_fp8 = 0" "$1/plot-vars.gp" && grep -qx "n_measured = 0" "$1/plot-vars.gp"' _ "$R2"
tap_ok "  ... nor on one S, no ceiling, no profile" quiet_figs "$R2"
pdftotext -layout "$TMP/f/out/paper.pdf" "$TMP/f.txt"
tap_ok "the PDF has the part 'Measured on GPUs' under the fixture's banner" \
  bash -c 'grep -q "Measured on GPUs" "$1" && grep -q "SYNTHETIC FIXTURE, NOT A MEASUREMENT" "$1" &&
           grep -q "SYNTHETIC FIXTURE IN THE GPU PART" "$1"' _ "$TMP/f.txt"
tap_ok "  ... and never as a measured GPU campaign" bash -c '! grep -q "GPU CAMPAIGNS\." "$1"' _ "$TMP/f.txt"
tap_ok "  ... naming the fixture device, never another" \
  bash -c 'grep -q "FIXTURE GPU (synthetic, not a measurement)" "$1" && ! grep -q "Synthetic GPU (fixture)" "$1"' _ "$G"

# A row of a table of gpu.md: the line that starts with "| A | B |" (cells given).
row() { local IFS='|'; grep -F "| $1 | $2 |" "$G" | head -n 1; }
# edit_copy NAME FILE: $TMP/NAME a fresh copy of the fixture's data, P its campaign's FILE (to edit);
# render_copy NAME: the paper of that copy into $TMP/NAME-out (its gpu.md read by the checks).
edit_copy() { rm -rf "${TMP:?}/$1" && cp -r "$TMP/gpu" "$TMP/$1" && P=$(ls -d "$TMP/$1"/fixture-*/*/)$2; }
render_copy() { "$SDPA_REPORT" paper --published data/published/seed-l4.json --out "$TMP/$1-out" --gpu-data "$TMP/$1" >/dev/null 2>&1; }
# TFLOP/s of stage2 at S = 512, from its run file: 4*B*H*S^2*D / median.
F=$C/scaling/stage2-S512.json
tf=$(awk -v b="$(get "$F" config.shapes.0.B)" -v h="$(get "$F" config.shapes.0.H)" -v s="$(get "$F" config.shapes.0.S)" \
  -v d="$(get "$F" config.shapes.0.D)" -v m="$(get "$F" timing.0.summary.median)" 'BEGIN { printf "%.2f", 4*b*h*s*s*d / (m*1e6) }')
tap_diag "stage2 at S = 512: $tf TFLOP/s recomputed from $F"
tap_ok "scaling table: stage2 at S = 512 reads the TFLOP/s recomputed from its JSON ($tf)" \
  bash -c 'grep -F "| stage2 | 512 |" "$1" | grep -qF "| $2 |"' _ "$G" "$tf"
[ "$(get "$C/ceilings.json" ceilings.1.name)" = gemm_fp16 ] || tap_diag "fixture: ceilings.1 is not gemm_fp16"
pct=$(awk -v t="$tf" -v c="$(get "$C/ceilings.json" ceilings.1.value)" 'BEGIN { printf "%.1f", 100 * t / c }')
tap_ok "  ... and its share of the measured fp16 GEMM ceiling ($pct %)" \
  bash -c 'grep -F "| stage2 | 512 |" "$1" | grep -qF "| $2 |"' _ "$G" "$pct"
# ... and of the exponentials' roof: the model from the device run (no recorded rate in the
# fixture): 4 D x 16 per clock per SM x SMs x default clock.
xs=$(awk -v t="$tf" -v m="$(get "$C/device-run.json" meta.device.sm_count)" -v f="$(get "$C/device-run.json" meta.device.sm_clock_default_mhz)" \
  'BEGIN { printf "%.1f", 100 * t / (4 * 64 * 16 * m * f * 1e6 / 1e12) }')
tap_ok "  ... and its share of the exponentials' roof, a model ($xs %), the status after it" \
  bash -c 'grep -F "| stage2 | 512 |" "$1" | grep -qF "| $2 | SYNTHETIC |" && grep -qF "of the exponentials'"'"' roof, a model, not measured" "$1"' _ "$G" "$xs"
tap_ok "  ... a skipped point shows its reason, not a number" \
  grep -qF "| stage5 | 1024 | 1 × 64 | n/a | n/a | n/a | n/a | n/a | n/a | n/a | skipped: FIXTURE predicted" "$G"
tap_ok "  ... a failed peer shows its reason" grep -qF "failed: FIXTURE peer failure: out of memory" "$G"
tap_ok "  ... the peers stand beside the variants" \
  bash -c 'grep -qF "| peer-cublas-unfused | 512 |" "$1" && grep -qF "| peer-torch-flash | 512 |" "$1"' _ "$G"
tv=$(get "$C/scaling/peer-torch-flash-S128.json" library.torch)
tap_ok "  ... each peer named with the libraries its file records (torch $tv)" \
  grep -qF "\`peer-torch-flash\`: torch $tv, cuda" "$G"
# The peers at the mission shape (peers/*.json): each timed peer's median, CI and n from its file,
# beside the fastest stage of the history at the same shape and their ratio, all recomputed here
# with jq; a peer not supported shows its reason; the results' lead counts the campaigns with peers.
if command -v jq >/dev/null; then
  best=$(jq -r '[.timing[] | select(.shape == "mission" and (.peer | not)) | {v: .variant, m: .summary.median, lo: .summary.ci_lo, hi: .summary.ci_hi}] | min_by(.m) | "\(.v) \(.m) \(.lo) \(.hi)"' "$C/history.json")
  read -r bv bm blo bhi <<<"$best"
  nrows=0 bad=
  for f in "$C"/peers/*.json; do
    while IFS=$'\t' read -r v lib m lo hi n; do
      want=$(awk -v v="$v" -v lib="$lib" -v m="$m" -v lo="$lo" -v hi="$hi" -v n="$n" -v bv="$bv" -v bm="$bm" -v blo="$blo" -v bhi="$bhi" \
        'BEGIN { printf "| %s | %s | 1 × 8 × 512 × 64 | %.2f | [%.2f, %.2f] | %d | %s: %.2f | %.3f [%.3f, %.3f] | SYNTHETIC (fixture) |", v, lib, m, lo, hi, n, bv, bm, bm / m, blo / hi, bhi / lo }')
      grep -qxF "$want" "$G" || bad="$bad; $want"
      nrows=$((nrows + 1))
    done < <(jq -r '. as $d | .timing[] | select(.peer) | [.variant, (.library // $d.library | if type == "string" then . else to_entries | map("\(.key) \(.value)") | join(", ") end),
                    .summary.median, .summary.ci_lo, .summary.ci_hi, .summary.n] | @tsv' "$f")
  done
  tap_ok "peers at the mission shape: $nrows timed peers, median, CI, n and t(stage)/t(peer) with its interval against the history's fastest ($bv) as jq computes them" \
    bash -c '[ "$1" -ge 2 ] && [ -z "$2" ] || { echo "# missing:$2"; exit 1; }' _ "$nrows" "$bad"
  why=$(jq -r '.not_supported[0].reason' "$C/peers/peer-torch-fp8-mission.json")
  tap_ok "  ... a peer not supported shows its reason, no number" \
    grep -qF "| peer-torch-fp8 | torch 0.0.0+fixture, cuda 0.0, cudnn 0 | n/a | n/a | n/a | n/a | n/a | n/a | not supported: $why |" "$G"
  tap_ok "  ... the caption names the device, the ratio's direction and its interval's limits (two processes), marked SYNTHETIC" \
    bash -c 'grep "{#tbl:gpu-c1-peers}" "$1" | grep -F "SYNTHETIC FIXTURE, NOT A MEASUREMENT: Peers of campaign" | grep -qF "measured on FIXTURE GPU (synthetic, not a measurement)" &&
             grep "{#tbl:gpu-c1-peers}" "$1" | grep -qF "above 1 the peer is faster" &&
             grep "{#tbl:gpu-c1-peers}" "$1" | grep -qF "this interval leaves out how medians move between processes"' _ "$G"
  tap_ok "  ... and the lead counts the campaigns that ran peers, at the mission shape and in the sweep" \
    grep -qxF "Section @sec:gpu does so for the 1 committed campaign (here only the SYNTHETIC FIXTURE of the tests: not a measurement): it ran the peers, which stand beside the stages at the mission shape in 1 (Section @sec:gpu-c1-peers for the first) and in the scaling sweep of 1 (Section @sec:gpu-c1-scaling for the first)." "$TMP/f/out/gen/gpu-lead.md"
else
  tap_skip "peers at the mission shape" "jq not installed"
fi
# The published ratio of Stage 2 (original study, L4) from data/published/seed-l4.json, and the
# reproduced one from the campaign's run, side by side in the GPU part.
P=data/published/seed-l4.json
[ "$(get $P claims.1.experiment)" = stage2-wmma-pv ] || tap_diag "seed-l4.json: claims.1 is not stage2-wmma-pv"
pub=$(awk -v b="$(get $P claims.1.baseline_p50_us)" -v c="$(get $P claims.1.candidate_p50_us)" 'BEGIN { printf "%.3f", b / c }')
RT=$(ls "$C"/runs/stage2-wmma-pv/*/run-timing.json)
rep=$(awk -v b="$(get "$RT" comparisons.0.base_median)" -v c="$(get "$RT" comparisons.0.cand_median)" 'BEGIN { printf "%.3f", b / c }')
tap_diag "stage2: published ratio $pub (L4), reproduced $rep (fixture)"
tap_ok "published vs reproduced: the published ratio ($pub) beside the reproduced one ($rep), device named on each side" \
  bash -c 'l=$(grep -F "| stage2-wmma-pv | $4 |" "$1" | grep -F "FIXTURE GPU"); [ -n "$l" ] &&
           echo "$l" | grep -qF "| $2 |" && echo "$l" | grep -qF "| $3 [" && grep -qF "(original study, NVIDIA L4)" "$1"' \
  _ "$G" "$pub" "$rep" "$(get $P claims.1.as_published)"
s2=$(awk -v b="$(get "$C/history.json" comparisons.1.base_median)" -v c="$(get "$C/history.json" comparisons.1.cand_median)" \
  'BEGIN { printf "%.3f", b / c }')
tap_ok "history: stage2's speedup ratio vs stage0 ($s2) and its latency reduction, named apart" \
  bash -c 'grep -F "| stage2 | mission |" "$1" | grep -qF "| $2 [" && grep -qF "latency reduction \$1 - t_v/t_\\text{stage0}\$" "$1"' _ "$G" "$s2"
step=$(jq '[.timing[] | .samples_us | sort | unique | . as $s | range(1; length) | ($s[.] - $s[. - 1]) | select(. > 0.001)] | min * 1000 | round' "$C/history.json")
tap_ok "history: the caption names the timer's step, the smallest difference between two samples ($step ns)" \
  bash -c '[ -n "$2" ] && grep -q "smallest difference between two samples of one entry is $2 ns, the event timer" "$1"' _ "$G" "$step"
n=$(get "$C/scaling/stage2-S512.json" timing.0.summary.n)
tap_ok "scaling table: the sample count of stage2 at S = 512 ($n) beside its median" \
  bash -c 'grep -F "| stage2 | 512 |" "$1" | grep -qF "| $2 |"' _ "$G" "$n"
tap_ok "the scaling sweep leads the campaign: before the mission-shape history" \
  bash -c '[ "$(grep -n "{#sec:gpu-c1-scaling}" "$1" | cut -d: -f1)" -lt "$(grep -n "{#sec:gpu-c1-history}" "$1" | cut -d: -f1)" ]' _ "$G"
# Warm L2 beside cold: stage2's warm median and warm/cold from history-warm.json and history.json.
W=$C/history-warm.json
wm=$(printf '%.2f' "$(get "$W" timing.2.summary.median)")
wc=$(awk -v w="$(get "$W" timing.2.summary.median)" -v c="$(get "$C/history.json" timing.2.summary.median)" 'BEGIN { printf "%.3f", w / c }')
[ "$(get "$W" timing.2.variant)" = stage2 ] || tap_diag "fixture: history-warm timing.2 is not stage2"
tap_ok "warm L2 beside cold: stage2 warm median $wm and warm/cold $wc, as the JSON says" \
  bash -c 'grep -F "| stage2 | mission |" "$1" | grep -F "| $2 [" | grep -qF "| $3 |"' _ "$G" "$wm" "$wc"
# The A/A control: the noise floor from its speedup CI, the SAME band from its epsilon.
A=$C/aa-control.json
fl=$(awk -v lo="$(get "$A" comparisons.0.speedup_ci.0)" -v hi="$(get "$A" comparisons.0.speedup_ci.1)" \
  'BEGIN { f = 1 - lo; if (hi - 1 > f) f = hi - 1; printf "%.2f %%", 100 * f }')
tap_ok "A/A control: noise floor ±$fl from its CI, the SAME band ±2.0 % from its epsilon, calibrated" \
  bash -c 'grep -F "| stage0 against stage0 | mission |" "$1" | grep -F "| ±$2 |" | grep -qF "| ±2.0 % |" &&
           grep -q "the SAME band of ±2.0 % is .* times that noise floor" "$1"' _ "$G" "$fl"
if command -v jq >/dev/null; then
  # The arms rotated: each arm's samples split by position ((arm + round) mod 2 = 0: first), medians
  # by jq (type 7, as the report), beside the report's table.
  pos_median() { # FILE ENTRY POSITION
    jq -r --argjson j "$2" --argjson p "$3" '.timing[$j] as $t | [$t.samples_us | to_entries[] |
      select((.key + $t.arm) % 2 == $p) | .value] | sort as $s | ((($s | length) - 1) * 0.5) as $h |
      ($h | floor) as $lo | (if $lo + 1 < ($s | length) then $s[$lo + 1] else $s[$lo] end) as $up |
      $s[$lo] + ($h - $lo) * ($up - $s[$lo])' "$1"
  }
  for j in 0 1; do
    m0=$(pos_median "$A" $j 0) m1=$(pos_median "$A" $j 1)
    row=$(printf '| %s (stage0, mission) | %.2f [' "$(get "$A" timing.$j.aa_arm)" "$m0")
    second=$(printf '| %.2f [' "$m1") ratio=$(awk -v a="$m0" -v b="$m1" 'BEGIN { printf "| %.4f |", b / a }')
    tap_ok "A/A position table, arm $j: medians first $m0 and second $m1 µs, second/first, as jq splits the samples" \
      bash -c 'grep -F "$2" "$1" | grep -F "$3" | grep -qF "$4"' _ "$G" "$row" "$second" "$ratio"
  done
else
  tap_skip "A/A position table" "jq not installed"
fi
tap_ok "  ... its caption names the arms' order, rotated (config.arm_order)" \
  bash -c 'grep "^Table: .*A/A control of campaign" "$1" | grep -qF "order within a round: rotated from round to round"' _ "$G"
# Every table caption and figure caption of the fixture's part says SYNTHETIC; its timing and
# verdict cells too.
tap_ok "fixture: every table caption of the campaign says SYNTHETIC FIXTURE" \
  bash -c 'sed -n "/{#sec:gpu-c1}/,/{#sec:gpu-sweeps}/p" "$1" | grep "^Table: " | grep -v "SYNTHETIC FIXTURE, NOT A MEASUREMENT" | grep . && exit 1; exit 0' _ "$G"
tap_ok "fixture: every figure caption of the campaign says SYNTHETIC FIXTURE" \
  bash -c 'sed -n "/{#sec:gpu-c1}/,\$p" "$1" | grep "^!\[" | grep -v "^!\[SYNTHETIC FIXTURE" | grep . && exit 1; exit 0' _ "$G"
tap_ok "fixture: no timing cell reads a bare gpu, no verdict a bare PASS" \
  bash -c '! grep -E "\| (gpu|PASS[^|]*|ready to merge) \|" "$1"' _ "$G"
tap_ok "the paper says a campaign is committed instead of 'Until such a campaign is committed'" \
  bash -c 'grep -q "does so for the 1 committed campaign" "$1/out/gen/gpu-lead.md" && ! grep -q "Until such a campaign" "$1/out/paper.md"' _ "$TMP/f"
tap_ok "verdicts: the campaign's stage2 run judged against its gate (summary.json)" \
  bash -c 'grep -F "| stage2-wmma-pv | stage1 -> stage2 |" "$1" | grep -q "PASS.*ready to merge"' _ "$G"
# Section 4 reads this build's local runs (none here): an experiment a campaign ran says where its
# verdict is, and which kind of campaign ran it; one no campaign ran reads "not run".
tap_ok "Section 4: stage2 not run locally, run by the SYNTHETIC fixture (verdicts, history, published vs reproduced)" \
  bash -c 'for f in verdicts history published-vs-reproduced; do
             grep "^| stage2-wmma-pv " "$1/$f.md" | grep -qF "| not run locally; SYNTHETIC fixture: Section @sec:gpu-verdicts |" || exit 1; done
           grep "^| stage1-cp-async " "$1/verdicts.md" | grep -qF "| not run |" && grep -qx "gpu_campaigns = 0" "$1/plot-vars.gp"' _ "$TMP/f/out/gen"
cp -r "$TMP/gpu" "$TMP/meas"
CM=$(ls -d "$TMP"/meas/fixture-*/*/)
if command -v jq >/dev/null; then
  jq '.meta.tool = "sdpa-report"' "${CM}campaign.json" >"$TMP/cm.json" && mv "$TMP/cm.json" "${CM}campaign.json"
  # ... its device step measured no clock (as the first H100's did not): the history's is named.
  jq '.meta.device.sm_clock_measured_mhz = null' "${CM}device-run.json" >"$TMP/dr.json" && mv "$TMP/dr.json" "${CM}device-run.json"
  "$SDPA_REPORT" paper --published data/published/seed-l4.json --out "$TMP/meas-out" --gpu-data "$TMP/meas" \
    --stage stage1-cp-async - "$TMP/meas-fig" --stage stage2-wmma-pv - "$TMP/meas-fig" >"$TMP/meas.log" 2>&1
  tap_ok "  ... by a measured campaign: says so, the captions count the campaigns and name the device, and so does the figure's label" \
    bash -c '[ $1 -eq 0 ] && grep "^| stage2-wmma-pv " "$2/verdicts.md" | grep -qF "| not run locally; measured on a GPU: Section @sec:gpu-verdicts |" &&
             grep "^| stage1-cp-async " "$2/verdicts.md" | grep -qF "| not run |" &&
             grep -qF "the experiments the 1 committed GPU campaign ($3) ran are judged in Section @sec:gpu-verdicts." "$2/verdicts.md" &&
             grep -qx "gpu_campaigns = 1" "$2/plot-vars.gp" && grep -qxF "gpu_campaigns_text = \"1 committed GPU campaign ($3)\"" "$2/plot-vars.gp"' \
    _ $? "$TMP/meas-out" "$(jq -r .device "${CM}campaign.json")"
  hc=$(jq -r '.meta.device.sm_clock_measured_mhz | round' "${CM}history.json")
  tap_ok "device line: no clock measured by the device step, the stage history's ($hc MHz) named as such" \
    grep -qF "SM clock: default 2040 MHz, measured $hc MHz during the stage history (history.json);" "$TMP/meas-out/gpu.md"
  # Between campaigns: one measured campaign alone has nobody to be compared with; a second of the
  # same device, whose stage2 ran 2 % slower (its interval apart) and the rest as the first, gives a
  # row per history entry, stage2's medians 2.0 % apart and its ratio unchanged.
  tap_ok "between campaigns: one measured campaign: the section and the Limitations say it is not measured" \
    bash -c 'grep -qF "No device has two campaigns measured on a GPU with a stage history yet" "$1/gpu.md" &&
             grep -qF "**Between campaigns.** No device has two campaigns" "$1/gpu-between-lead.md"' _ "$TMP/meas-out"
  id2=20260102T040405Z-fixture-2 C2=$(dirname "$CM")/20260102T040405Z-fixture-2
  cp -r "$CM" "$C2"
  jq --arg id "$id2" '.campaign_id = $id' "$C2/campaign.json" >"$TMP/c2.json" && mv "$TMP/c2.json" "$C2/campaign.json"
  jq '(.timing[] | select(.variant == "stage2") | .summary) |= (.median *= 1.02 | .ci_lo *= 1.02 | .ci_hi *= 1.02)' \
    "$C2/history.json" >"$TMP/h2.json" && mv "$TMP/h2.json" "$C2/history.json"
  "$SDPA_REPORT" paper --published data/published/seed-l4.json --out "$TMP/btw-out" --gpu-data "$TMP/meas" >"$TMP/btw.log" 2>&1
  n=$(jq '[.timing[] | select(.summary != null)] | length' "${CM}history.json")
  napart=$(jq '[.timing[] | select(.variant == "stage2") | select(.summary.ci_hi * 1.02 < .summary.ci_lo * 1 or .summary.ci_lo * 1.02 > .summary.ci_hi)] | length' "${CM}history.json")
  nratio=$(jq '[.comparisons[]] | length' "${CM}history.json")
  rows=$(sed -n '/{#sec:gpu-between}/,/{#tbl:gpu-between-1}/p' "$TMP/btw-out/gpu.md" | grep -c '^| stage')
  tap_ok "between campaigns: two of one device: a row per timed history entry ($rows of $n), measured on a GPU" \
    bash -c '[ $1 -eq 0 ] && [ "$2" = "$3" ] && grep "{#tbl:gpu-between-1}" "$4" | grep -qF "timed by 2 campaigns of the FIXTURE GPU"' \
    _ $? "$rows" "$n" "$TMP/btw-out/gpu.md"
  tap_ok "  ... stage2's medians 2.0 % apart, intervals apart; stage1's 0.00 %, overlapping; its ratio as before" \
    bash -c 'grep "^| stage2 | mission | cold |" "$1" | grep -qF "| 2.0 %, **apart** |" &&
             grep "^| stage1 | mission | cold |" "$1" | grep -qF "| 0.00 %, overlap |" &&
             grep "^| stage2 | mission | cold |" "$1" | grep -qE "\| 0\.00 %, overlap \|$"' _ "$TMP/btw-out/gpu.md"
  tap_ok "  ... and the Limitations count them: up to 2.0 %, $napart of $n apart, ratios up to 0.00 % ($nratio compared)" \
    grep -qF "timed $n of the same variant and shape pairs (Section @sec:gpu-between). Their medians differ by up to 2.0 %, and in $napart of the $n pairs their 95 % intervals do not overlap" "$TMP/btw-out/gpu-between-lead.md"
  tap_ok "  ... the ratios: up to 0.00 %, 0 of $nratio apart, less than the absolute times" \
    grep -qF "The speedup ratios, each measured within one process, differ by up to 0.00 % (0 of $nratio with intervals apart), less than the absolute times" "$TMP/btw-out/gpu-between-lead.md"
  tap_ok "  ... the caption: both histories ran their arms in one order (config.arm_order absent: fixed)" \
    bash -c 'grep "{#tbl:gpu-between-1}" "$1" | grep -qF "The arms'"'"' order within a round: fixed in every one."' _ "$TMP/btw-out/gpu.md"
  jq '.config.arm_order = "rotated"' "$C2/history.json" >"$TMP/h2.json" && mv "$TMP/h2.json" "$C2/history.json"
  "$SDPA_REPORT" paper --published data/published/seed-l4.json --out "$TMP/btw2-out" --gpu-data "$TMP/meas" >"$TMP/btw2.log" 2>&1
  tap_ok "  ... and when the second rotated them, says the orders differ and what a fixed order may hold" \
    bash -c '[ $1 -eq 0 ] && grep "{#tbl:gpu-between-1}" "$2" | grep -F "differs between them (c1 fixed, c2 rotated;" | grep -qF "may hold the position effect"' \
    _ $? "$TMP/btw2-out/gpu.md"
  rm -rf "$C2"
else
  tap_skip "  ... by a measured campaign" "jq not installed"
  tap_skip "device line: the stage history's clock" "jq not installed"
  tap_skip "between campaigns" "jq not installed"
fi
tap_ok "the stage's own section names the campaign that ran it: SYNTHETIC device, verdict, its gates' section" \
  bash -c 'grep -qE "^- SYNTHETIC FIXTURE GPU \(synthetic, not a measurement\), campaign .*: verdict \*\*SYNTHETIC ready to merge\*\* \(Section @sec:gpu-c1-verdicts\)" "$1/out/gen/stage-stage2-wmma-pv.md" &&
           grep -A3 "SYNTHETIC FIXTURE GPU (synthetic" "$1/out/paper.md" | grep -qE "\(Section [0-9]+(\.[0-9]+)+\)" &&
           ! grep -q "@sec:gpu" "$1/out/paper.md"' _ "$TMP/f"
tap_ok "sanitizers: a skipped tool shows its reason" \
  grep -qF "skipped: FIXTURE skip: racecheck does not model named barriers" "$G"
tap_ok "  ... an errored tool shows its reason" grep -qF "error: FIXTURE error: compute-sanitizer exited 139" "$G"
tap_ok "  ... a run at more shapes than the file's names them (a faulted variant's memcheck), the others do not" \
  bash -c 'grep -F "| stage5 |" "$1" | grep -qF "| pass (0 errors) (at small, mission, mission-causal) |" &&
           [ "$(grep -c "(at small" "$1")" -eq 1 ]' _ "$G"
tap_ok "profile: a skipped variant shows its reason, no value" \
  grep -qF "| stage5 | n/a | n/a | n/a | n/a | skipped: FIXTURE skip: ncu replay exceeded the step budget |" "$G"
# (metric names hold dots, which sdpa-report get reads as a path: the value is taken with grep)
occ=$(grep -o '"sm__warps_active.avg.pct_of_peak_sustained_active": [0-9.]*' "$C/profile.json" | head -n 1 | sed 's/.*: //')
tap_ok "profile: stage0's achieved occupancy as its JSON says ($occ)" \
  bash -c '[ -n "$2" ] && grep -F "| stage0 |" "$1" | grep -qF "| $2 |"' _ "$G" "$occ"
# The clocks under ncu: a profile whose tool line names --clock-control none ran at the device's own
# clocks; one that names none (the first H100's) under ncu's default, locked to base; the
# fixture's (no status) says neither.
tap_ok "profile: the fixture's caption says nothing of clocks (its file has no status)" \
  bash -c '! grep "{#tbl:gpu-c1-profile}" "$1" | grep -q "SM clocks"' _ "$G"
if command -v jq >/dev/null; then
  for t in "ncu 2025.3.1.0" "ncu 2025.3.1.0, --clock-control none"; do
    edit_copy clk profile.json
    jq --arg t "$t" '.status = "ok" | .tool = $t' "$P" >"$P.new" && mv "$P.new" "$P"
    render_copy clk
    grep "{#tbl:gpu-c1-profile}" "$TMP/clk-out/gpu.md" >"$TMP/clk-$(wc -w <<<"$t").cap"
  done
  tap_ok "  ... a tool line without --clock-control: locked to base by ncu (its default)" \
    grep -qF "SM clocks locked to base by ncu while it profiled" "$TMP/clk-2.cap"
  tap_ok "  ... with --clock-control none: the device's own clocks" \
    grep -qF "SM clocks as the device set them (ncu --clock-control none)." "$TMP/clk-4.cap"
else
  tap_skip "profile: the clocks under ncu" "jq not installed"
fi
H=$C/history.json
dram=$(grep -o '"dram__bytes.sum": [0-9.]*' "$C/profile.json" | head -n 1 | sed 's/.*: //')
ai=$(awk -v b="$(get "$H" config.shapes.0.B)" -v h="$(get "$H" config.shapes.0.H)" -v s="$(get "$H" config.shapes.0.S)" \
  -v d="$(get "$H" config.shapes.0.D)" -v m="$dram" 'BEGIN { printf "%.6g", 4*b*h*s*s*d / m }')
tap_ok "roofline: stage0 placed by its measured DRAM bytes too (intensity $ai FLOP/B), and the caption says so" \
  bash -c 'grep -qx "$2	[0-9.e+-]*	stage0" "$1/out/gen/gpu/c1/roofline-measured.tsv" &&
           grep -q "measured (dram__bytes.sum)" "$1/out/gen/gpu.md"' _ "$TMP/f" "$ai"
tap_ok "steps: the failed step is shown failed" grep -qF "| sanitizers | FAILED (exit 1) |" "$G"
tap_ok "  ... and one with a note (the step guard's) shows it" \
  grep -qF "| profiles-gate | FAILED (exit 124): FIXTURE: stopped by the step guard after 120 s | 120 | 30 |" "$G"
tap_ok "  ... and the skipped one skipped, with its reason" \
  grep -qF "| peers-torch | skipped: FIXTURE: PyTorch is not installed on the node |" "$G"
# Stage 7j's gate shape (profile-gate-d128.json): its own section after 7f's, the XU and issue shares first,
# what 7j's and 7k's failure readings take from it and no verdict; without stage 7j's row it says so; a
# campaign without the file (before the step) has no such section.
tap_ok "profile at stage 7j's gate shape: its section after 7f's, the fixture's values, the skip's reason" \
  bash -c 'awk "/{#sec:gpu-c1-profile-gate}/ { a = NR } /{#sec:gpu-c1-profile-gate-d128}/ { b = NR } END { exit !(a && b > a) }" "$1" &&
           grep -qF "### Profile metrics at stage 7j'"'"'s gate shape (D = 128) {#sec:gpu-c1-profile-gate-d128}" "$1" &&
           grep -qF "| XU (MUFU) pipe busy (%) | issue slots busy (%) | status |" "$1" &&
           grep -qF "| stage7j | 71.5 | 88.75 | ok |" "$1" && grep -qF "| stage7i | 66.25 | 81.5 | ok |" "$1" &&
           grep -qF "| stage7k | 74.5 | 84.25 | ok |" "$1" &&
           grep -qF "| stage7e | n/a | n/a | skipped: FIXTURE skip: ncu replay exceeded the step budget |" "$1" &&
           grep -q "at the 2,16,8192,128 shape (ncu 0.0 (FIXTURE), profile-gate-d128.json: the variants an experiment times at stage 7j.s gate shape)" "$1" &&
           grep -q "^Two failure readings .*stage 7j.s (Methods, \"Stage 7j\").*stage 7k.s (Methods, \"Stage 7k\").*no verdict is drawn from them here; stages 7i, 7j and 7k were all profiled in this campaign\.$" "$1"' _ "$G"
if command -v jq >/dev/null; then
  edit_copy d128 profile-gate-d128.json
  jq '.variants |= map(select(.variant != "stage7j"))' "$P" >"$P.new" && mv "$P.new" "$P"
  render_copy d128
  tap_ok "  ... without stage 7j's row: it says the campaign did not profile all three" \
    grep -q "no verdict is drawn from them here; this campaign did not profile all of stages 7i, 7j and 7k (the status column says why)\.$" "$TMP/d128-out/gpu.md"
  rm "$P"
  render_copy d128
  tap_ok "  ... without the file: no such section, stage 7f's still there" \
    bash -c '! grep -q "gpu-c1-profile-gate-d128" "$1" && grep -q "{#sec:gpu-c1-profile-gate}" "$1"' _ "$TMP/d128-out/gpu.md"
else
  tap_skip "profile at stage 7j's gate shape: edited copies" "jq not installed"
fi
# Stage 7m's causal gate shape (profile-gate-causal.json): its own section after 7j's, the SMs' busy
# shares first, then the DRAM and L2 bytes; the reading's ratios and the difference's time at the
# fixture's copy bandwidth (3000 GB/s: 16777216 B in 5.6 us), marked synthetic, no verdict; without
# 7m's row it says so.
tap_ok "profile at stage 7m's causal gate shape: its section after 7j's, the busy shares first, the fixture's values" \
  bash -c 'awk "/{#sec:gpu-c1-profile-gate-d128}/ { a = NR } /{#sec:gpu-c1-profile-gate-causal}/ { b = NR } END { exit !(a && b > a) }" "$1" &&
           grep -qF "### Profile metrics at stage 7m'"'"'s gate shape (causal) {#sec:gpu-c1-profile-gate-causal}" "$1" &&
           grep -qF "| SMs busy (mean) (%) | busiest SM busy (%) | DRAM bytes read (byte) | L2 bytes (all requests) (byte) | status |" "$1" &&
           grep -qF "| stage7l | 92.5 | 99.5 | 1.342e+08 | 2.5e+10 | ok |" "$1" &&
           grep -q "^Stage 7m.s failure reading (Methods, \"Stage 7m\").* SYNTHETIC FIXTURE, NOT A MEASUREMENT: The tail: the SMs were busy 92.5 % of the elapsed cycles on average under stage 7l (the busiest 99.5 %) and 97.2 % under stage 7m (the busiest 99.8 %).*stage 7m read 1.125 times stage 7l.s DRAM bytes (a difference of 16.8 MB, 5.6 µs at the campaign.s measured copy bandwidth of 3000 GB/s, ceilings.json copy_d2d) and moved 1.020 times its L2 bytes\. .*no verdict is drawn from them here\.$" "$1"' _ "$G"
if command -v jq >/dev/null; then
  edit_copy causal profile-gate-causal.json
  rm "$(dirname "$P")/ceilings.json"
  render_copy causal
  tap_ok "  ... without ceilings.json: the DRAM difference not put in time, the ratios still there" \
    grep -q "stage 7m read 1.125 times stage 7l.s DRAM bytes (a difference of 16.8 MB, no measured copy bandwidth in this campaign to put it in time) and moved 1.020 times" "$TMP/causal-out/gpu.md"
  jq '.variants |= map(if .variant == "stage7m" then .status = "skipped" | .reason = "FIXTURE" | .values = {} else . end)' "$P" >"$P.new" &&
    mv "$P.new" "$P"
  render_copy causal
  tap_ok "  ... with stage 7m skipped: no ratios, it says the campaign did not profile both" \
    bash -c 'grep -q "^Stage 7m.s failure reading .*This campaign did not profile both stage 7l and stage 7m at this shape (the status column says why)\.$" "$1" &&
             ! grep -q "times stage 7l.s DRAM bytes" "$1"' _ "$TMP/causal-out/gpu.md"
else
  tap_skip "profile at stage 7m's causal gate shape: an edited copy" "jq not installed"
fi
tap_ok "device line: the device as its device step recorded it" \
  grep -qF "Device: **FIXTURE GPU (synthetic, not a measurement)**, compute capability 8.9, 132 SMs; SM clock: default 2040 MHz, measured 2010 MHz" "$G"
tap_ok "sweeps: the missing part and why" grep -qF "| fixture-sweep | scaling:8192,16384 | fixture-gpu | TIMEOUT | FIXTURE: the job hit its time limit |" "$G"

tap_ok "the artifact inventory lists the campaign's files and the GPU figures with their SHA-256" \
  bash -c 'i=$1/out/gen/inventory.md; c=gpu/${2#$3/}
           grep -qF "| \`$c/campaign.json\` | $(stat -c %s "$4/campaign.json") | \`$(sha256sum "$4/campaign.json" | cut -d" " -f1)\` |" "$i" &&
           grep -qF "\`$c/scaling/stage2-S512.json\`" "$i" && grep -qF "\`figures/gpu/c1/roofline.png\`" "$i"' \
  _ "$TMP/f" "$C" "$TMP/gpu" "$C"
paper f2 "$TMP/gpu" "pdf html"
tap_ok "a second build: PDF and HTML byte-identical" \
  bash -c 'cmp -s "$1/f/out/paper.pdf" "$1/f2/out/paper.pdf" && cmp -s "$1/f/out/paper.html" "$1/f2/out/paper.html"' _ "$TMP"

# The encoder-bias section's sentence on the published-correctness table, from what the table
# holds: without make seed-linear's run and without local runs, it says so; with a seed-linear run
# (made up here), its span and how many of its rows fall inside the published span, as jq counts.
PUBC=data/published/seed-l4.json
if command -v jq >/dev/null; then
  pspan=$(jq -r '[.correctness[].mean_abs] | "\(min) \(max)"' "$PUBC")
  pspan=$(awk -v a="${pspan% *}" -v b="${pspan#* }" 'BEGIN { printf "%.4f to %.4f", a, b }')
  tap_ok "published correctness: without make seed-linear and local runs the sentence says so, the published span ($pspan) from the JSON" \
    bash -c 'l=$(cat "$1/published-correctness-lead.md") && grep -qF "The published mean absolute errors span $2." <<<"$l" &&
             grep -qF "This build has not run the original'"'"'s codec and encoder (\`make seed-linear\`)" <<<"$l" &&
             grep -qF "no E4M3 run of this build holds those shapes yet." <<<"$l" && ! grep -q "several times" <<<"$l"' _ "$TMP/f/out/gen" "$pspan"
  jq '.config.codec = "seed-linear" | .correctness = [
        {variant: "stage1", shape: "small", seed: "0", legacy: {max_abs: 0.05, mean_abs: 0.0140}},
        {variant: "stage1", shape: "mission", seed: "1", legacy: {max_abs: 0.06, mean_abs: 0.0200}}]' \
    "$FIXTURES/gpu-pass/run.json" >"$TMP/seed-linear.json"
  RS=$(ls -d "$C"/runs/stage2-wmma-pv/*/) RS=${RS%/} # an E4M3 run (with its summary.json, from make paper above)
  "$SDPA_REPORT" paper --published "$PUBC" --out "$TMP/sl-out" --seed-linear "$TMP/seed-linear.json" \
    --stage stage2-wmma-pv "$RS" "$TMP/sl-fig" >"$TMP/sl.log" 2>&1
  rc=$?
  read -r lo hi <<<"$(jq -r '[.correctness[].mean_abs] | "\(min) \(max)"' "$PUBC")"
  inside=$(jq --argjson lo "$lo" --argjson hi "$hi" '[.correctness[].legacy.mean_abs | select(. >= $lo and . <= $hi)] | length' "$TMP/seed-linear.json")
  nrow=$(jq '.correctness | length' "$PUBC")
  tap_ok "  ... with a seed-linear run: its span over its 2 of $nrow rows, $inside of them inside the published span" \
    bash -c '[ $1 -eq 0 ] && grep -qF "With the original'"'"'s codec and encoder this artifact'"'"'s span 0.0140 to 0.0200 in 2 of the table'"'"'s $4 rows, $3 of them inside the published span;" "$2/published-correctness-lead.md" &&
             grep "^| small | 0 |" "$2/published-correctness.md" | grep -qF "| 0.0500 | 0.0140 |"' _ $rc "$TMP/sl-out" "$inside" "$nrow"
  # E4M3: the run's legacy mean abs at each published (shape, seed) it has (its first variant's),
  # and the published figure over it, row by row.
  e4=$(jq -r --slurpfile r "$RS/run.json" '[.correctness[] | . as $p | [$r[0].correctness[] | select(.shape == $p.shape and .seed == $p.seed)][0]
         | select(. != null) | {e: .legacy.mean_abs, q: ($p.mean_abs / .legacy.mean_abs)}]
         | "\(length) \(map(.e) | min) \(map(.e) | max) \(map(.q) | min) \(map(.q) | max)"' "$PUBC")
  want=$(awk -v n="${e4%% *}" -v t="$nrow" -v s="${e4#* }" 'BEGIN { split(s, x, " "); printf "with E4M3 this artifact'"'"'s span %.4f to %.4f in %d of the %d rows, the published figure %.1f to %.1f times ours row by row.", x[1], x[2], n, t, x[3], x[4] }')
  tap_ok "  ... and an E4M3 run: its span and the published figure over it, as jq computes them (${e4%% *} rows)" \
    grep -qF "$want" "$TMP/sl-out/published-correctness-lead.md"
else
  tap_skip "published correctness: the sentence from the table" "jq not installed"
fi

# Two campaigns of one device: both shown, with their own table and figure numbers.
cp -r "$TMP/gpu" "$TMP/two"
cp -r "$(ls -d "$TMP"/two/fixture-*/*/)" "$(dirname "$(ls -d "$TMP"/two/fixture-*/*/)")/20260103T000000Z-fixture-2"
# The second one's FP8 GEMM ceiling was not measured: shown skipped with its reason, no FP8 share, no FP8 roof.
C2=$(ls -d "$TMP"/two/fixture-*/20260103T000000Z-fixture-2)
if command -v jq >/dev/null; then
  jq '(.ceilings[] | select(.name == "gemm_fp8_e4m3")) |= (.status = "skipped" | .value = null | .ci = null
      | .reason = "FIXTURE: no FP8 GEMM on this device")' "$C/ceilings.json" >"$C2/ceilings.json"
  # ... and its device records the exponentials' rate (schema 1.5.0), which the roof then uses.
  jq '.meta.device.peak_exp2_tps = 2.5' "$C/device-run.json" >"$C2/device-run.json"
fi
paper t "$TMP/two" md
tap_ok "two campaigns: make paper exits 0" test $? -eq 0
if command -v jq >/dev/null; then
  tap_ok "  ... a skipped ceiling shows its reason; no share of it and no roof for it" \
    bash -c 'sed -n "/{#sec:gpu-c2}/,\$p" "$1" >"$1.c2" &&
             grep -qF "| gemm_fp8_e4m3 | n/a | n/a | TFLOP/s | skipped: FIXTURE: no FP8 GEMM on this device |" "$1.c2" &&
             grep -F "| stage2 | 512 |" "$1.c2" | grep -qF "| $3 | n/a |" && grep -qx "ceil_fp8 = 0" "$2"' \
    _ "$TMP/t/out/gen/gpu.md" "$TMP/t/out/gen/gpu/c2/plot-vars.gp" "$pct"
else
  tap_skip "  ... a skipped ceiling shows its reason" "jq not installed"
fi
# The exponentials' roof: without a recorded rate (c1, as files before 1.5.0), the model from the
# device's cc, SM count and default clock, 16 per clock per SM, times 4 D FLOPs; with one (c2), it.
want=$(awk -v m="$(get "$C/device-run.json" meta.device.sm_count)" -v f="$(get "$C/device-run.json" meta.device.sm_clock_default_mhz)" \
  'BEGIN { printf "%.6g", 4 * 64 * 16 * m * f * 1e6 / 1e12 }')
tap_ok "the exponentials' roof of c1: 4 D x 16 x SMs x default clock = $want TFLOP/s, named a model in the caption" \
  bash -c 'grep -qx "roof_exp2 = $3" "$1/c1/plot-vars.gp" && grep -qx "roof_exp2_d = 64" "$1/c1/plot-vars.gp" &&
           sed -n "/{#sec:gpu-c1}/,/{#sec:gpu-c2}/p" "$2" | grep "fig:gpu-c1-roofline" |
             grep -qF "the exponentials'"'"' bound at D = 64, a model, not measured"' _ "$TMP/t/out/gen/gpu" "$TMP/t/out/gen/gpu.md" "$want"
if command -v jq >/dev/null; then
  tap_ok "  ... of c2: the recorded peak_exp2_tps (2.5 x 10^12/s): 640 TFLOP/s" \
    bash -c 'grep -qx "roof_exp2 = 640" "$1/c2/plot-vars.gp" && grep "fig:gpu-c2-roofline" "$2" | grep -qF "\$2.5 \\times 10^{12}\$"' \
    _ "$TMP/t/out/gen/gpu" "$TMP/t/out/gen/gpu.md"
else
  tap_skip "  ... of c2: the recorded peak_exp2_tps" "jq not installed"
fi
tap_ok "  ... each with its section, tables and figures (c1, c2)" \
  bash -c 'grep -q "campaign 20260102T030405Z-fixture-1 {#sec:gpu-c1}" "$1" && grep -q "campaign 20260103T000000Z-fixture-2 {#sec:gpu-c2}" "$1" &&
           test -s "$2/fig/paper/gpu/c2/scaling.png"' _ "$TMP/t/out/gen/gpu.md" "$TMP/t"

# Verdicts across campaigns: one row per campaign that ran an experiment, grouped by experiment,
# with the gate's value and the verdict of that run's summary.json, marked SYNTHETIC. The second
# campaign also ran "stage1-cp-async" (a copy of its run under that name): grouped by experiment,
# its row comes after both stage2-wmma-pv rows, where campaign order would put it between them.
cp -r "$TMP/two" "$TMP/across"
A2=$(ls -d "$TMP"/across/fixture-*/20260103T000000Z-fixture-2)
cp -r "$A2/runs/stage2-wmma-pv" "$A2/runs/stage1-cp-async"
"$SDPA_REPORT" paper --published data/published/seed-l4.json --out "$TMP/across-out" --gpu-data "$TMP/across" >"$TMP/across.log" 2>&1
rc=$?
if command -v jq >/dev/null; then
  S=$(ls "$C"/runs/stage2-wmma-pv/*/summary.json)
  val=$(jq -r '.gates[] | select(.group == "performance") | .value' "$S") gst=$(jq -r '.gates[] | select(.group == "performance") | .status' "$S")
  dev=$(get "$C/campaign.json" device) vd=$(jq -r .verdict "$S")
  tap_ok "verdicts across campaigns: a row per campaign that ran the experiment, with its summary's gate status, value and verdict (SYNTHETIC)" \
    bash -c '[ $1 -eq 0 ] && grep -qxF "| stage2-wmma-pv | $3 | 20260102T030405Z-fixture-1 | SYNTHETIC $4 | SYNTHETIC $5 | SYNTHETIC $6 |" "$2" &&
             grep -qxF "| stage2-wmma-pv | $3 | 20260103T000000Z-fixture-2 | SYNTHETIC $4 | SYNTHETIC $5 | SYNTHETIC $6 |" "$2"' \
    _ $rc "$TMP/across-out/gpu.md" "$dev" "$gst" "$val" "$vd"
else
  tap_skip "verdicts across campaigns: a row per campaign" "jq not installed"
fi
tap_ok "  ... grouped by experiment (stage2-wmma-pv: the original's claim, c1, c2; then stage1-cp-async: the claim, c2), before the devices' sections" \
  bash -c '[ "$(sed -n "/{#sec:gpu-verdicts}/,/^Table: /p" "$1" | awk -F" [|] " "/^[|] stage/ { print substr(\$1, 3) \" \" \$3 }" | tr "\n" ";")" = \
            "stage2-wmma-pv original study (8b5b2ac:STAGE2_VALIDATION_REPORT.md);stage2-wmma-pv 20260102T030405Z-fixture-1;stage2-wmma-pv 20260103T000000Z-fixture-2;stage1-cp-async original study (619de8f:STAGE1_VALIDATION_REPORT.md);stage1-cp-async 20260103T000000Z-fixture-2;" ] &&
           [ "$(grep -n "{#sec:gpu-verdicts}" "$1" | cut -d: -f1)" -lt "$(grep -n "{#sec:gpu-c1}" "$1" | cut -d: -f1)" ] &&
           sed -n "/{#sec:gpu-verdicts}/,/^Table: /p" "$1" | grep -q "^Table: SYNTHETIC FIXTURE, NOT A MEASUREMENT (rows marked SYNTHETIC): "' _ "$TMP/across-out/gpu.md"
if command -v jq >/dev/null; then
  # The original's claim: device, source, gate and verdict as its published file words them, and
  # the ratio and latency reduction recomputed here from its two p50s (awk, not the report's code).
  PUBF=data/published/seed-l4.json
  cl() { jq -r --arg e stage2-wmma-pv ".claims[] | select(.experiment == \$e) | .$1" "$PUBF"; }
  pdev=$(jq -r .device "$PUBF") pdev=${pdev%% (*}
  ratio=$(awk -v b="$(cl baseline_p50_us)" -v c="$(cl candidate_p50_us)" 'BEGIN { printf "%.3f", b / c }')
  lr=$(awk -v b="$(cl baseline_p50_us)" -v c="$(cl candidate_p50_us)" 'BEGIN { printf "%.1f", 100 * (1 - c / b) }')
  tap_ok "  ... the original study's claim first, labelled published, with its source, its own gate and verdict, and the ratio of its p50s (not SYNTHETIC)" \
    grep -qxF "| stage2-wmma-pv | $pdev (published) | original study ($(cl source)) | its own: $(cl published_gate) | as published: $(cl as_published); from its p50s: ratio $ratio, latency reduction $lr % | $(cl published_verdict) |" "$TMP/across-out/gpu.md"
  tap_ok "  ... and the caption says what the published row is" \
    bash -c 'sed -n "/{#sec:gpu-verdicts}/,/^Table: /p" "$1" | grep "^Table: " | grep -qF "its experiment'"'"'s first row is that claim, labelled published"' _ "$TMP/across-out/gpu.md"
else
  tap_skip "  ... the original study's claim first" "jq not installed"
  tap_skip "  ... and the caption says what the published row is" "jq not installed"
fi
tap_ok "  ... and the results' lead points to it" grep -qF "Section @sec:gpu-verdicts sets each experiment" "$TMP/across-out/gpu-results.md"

# A campaign's run whose manifest no longer matches its files is not complete: the GPU part reads
# the same latest complete run as make paper (sdpa-report latest-run), not any run with a manifest.
# The copy plans its experiment (the fixture's campaign.json names no part), so that its verdicts
# section is written.
cp -r "$TMP/gpu" "$TMP/tampered"
R=$(ls -d "$TMP"/tampered/fixture-*/*/runs/stage2-wmma-pv/*/)
sed -i 's/"parts": \[\]/"parts": ["experiment:stage2-wmma-pv"]/' "${R%/runs/*}/campaign.json"
gpu_paper() { "$SDPA_REPORT" paper --published data/published/seed-l4.json --out "$TMP/$1" --gpu-data "$TMP/tampered" >"$TMP/$1.log" 2>&1; }
gpu_paper tp0
tap_ok "a campaign's complete run is read: its verdict row (control)" \
  bash -c 'test $1 -eq 0 && grep -F "| stage2-wmma-pv | stage1 -> stage2 |" "$2" | grep -qv "no complete run"' _ $? "$TMP/tp0/gpu.md"
echo " " >>"${R}run.json"
gpu_paper tp
tap_ok "  ... but not once its run.json changed after its manifest: said so (its summary.json stays)" \
  bash -c 'test $1 -eq 0 && test -s "$2/summary.json" && grep -F "| stage2-wmma-pv | n/a |" "$3" | grep -q "no complete run"' \
  _ $? "$R" "$TMP/tp/gpu.md"
tap_ok "  ... and sdpa-report latest-run names why" \
  bash -c '"$1" latest-run "${2%/*/}" 2>&1 >/dev/null | grep -q "run.json does not match its SHA-256"' _ "$SDPA_REPORT" "$R"

# No campaign: the paper says so, and no GPU figure exists.
mkdir -p "$TMP/empty"
paper e "$TMP/empty" "pdf md"
tap_ok "make paper with an empty GPU_DATA_DIR: exits 0" test $? -eq 0
pdftotext -layout "$TMP/e/out/paper.pdf" "$TMP/e.txt"
tap_ok "  ... the paper says no GPU campaign is committed and the GPU figures are NOT EVALUATED" \
  bash -c 'tr "\n" " " <"$1" | grep -q "No GPU campaign has been committed yet.*NOT EVALUATED"' _ "$TMP/e.txt"
tap_ok "  ... and draws no GPU figure" test ! -e "$TMP/e/fig/paper/gpu"
tap_ok "  ... and says 'Until such a campaign is committed, nothing is compared'" \
  grep -q "Until such a campaign is committed, nothing is compared" "$TMP/e/out/paper.md"
paper m "$TMP/missing-dir" md
tap_ok "  ... likewise when GPU_DATA_DIR does not exist" \
  bash -c 'test $1 -eq 0 && grep -q "No GPU campaign has been committed yet" "$2"' _ $? "$TMP/m/out/gen/gpu.md"

# A corrupted campaign file stops the paper, naming the file and the problem.
cp -r "$TMP/gpu" "$TMP/bad"
B=$(ls -d "$TMP"/bad/fixture-*/*/)
sed -i -E 's/"schema_version":[[:space:]]*"[0-9]+\.[0-9.]*"/"schema_version": "3.0.0"/' "${B}ceilings.json"
paper b "$TMP/bad"
tap_ok "a ceilings.json of schema 3.0.0: make paper fails" test $? -ne 0
tap_ok "  ... naming the file and the version" grep -q "ceilings.json.*3.0.0" "$TMP/b.log"
sed -i "s/\"schema_version\": \"3.0.0\"/\"schema_version\": \"$("$SDPA_REPORT" schema-version)\"/" "${B}ceilings.json"
echo "stage0 S=oops" >>"${B}scaling/skipped.txt"
paper b2 "$TMP/bad"
tap_ok "a malformed skipped.txt line: make paper fails naming the file" \
  bash -c 'test $1 -ne 0 && grep -q "skipped.txt: line .stage0 S=oops." "$2"' _ $? "$TMP/b2.log"

# A campaign of two parts (campaign.sh --part probes --part matrix) beside the fixture: only its
# parts' sections, each counted from its files (a made-up probe record and matrix with one failed
# check, labelled synthetic like the fixture).
if command -v jq >/dev/null; then
  cp -r "$TMP/gpu" "$TMP/pm"
  D=$(dirname "$(ls -d "$TMP"/pm/fixture-*/*/ | head -n 1)")/20260103T000000Z-fixture-2
  mkdir -p "$D/probes" "$D/matrix"
  jq '.campaign_id = "20260103T000000Z-fixture-2" | .parts = ["probes", "matrix"] |
      .parts_planned = ["probes", "matrix"] | .parts_completed = ["probes", "matrix"] | .interrupted = false' \
    "$C/campaign.json" >"$D/campaign.json"
  jq '{schema_version, meta: (.meta + {backend: "cuda", device: {name: "FIXTURE GPU", cc: "9.0"}}), kind: "probes",
       wgmma_acc: {values: [1, 2, 3]}, wgmma_a: {byte: [0, 1]}, wgmma_desc: [{}, {}], tma: [{}, {}, {}, {}],
       isa_check: {mismatches: 0, first: ""},
       tma_unaligned: {what: "x = 4", result: "cudaErrorIllegalInstruction"},
       exp2_poly: {inputs: "made up", points: 8192, bits_fnv1a64: "0123456789abcdef", host_twin_mismatches: 0, first_mismatch: ""},
       exp_ftz: {inputs: "made up", points: 8198, code_mismatches: 0, weight_mismatches: 0, flushed: 2671, first_mismatch: ""},
       smem_base: {dynamic_bytes: 148480, declared_align: 1024, window_address: 1024}}' \
    "$C/campaign.json" >"$D/probes/probes.json"
  for f in e4m3 seed-linear outliers wide; do
    jq --arg f "$f" '.config.codec = (if $f == "seed-linear" then "seed-linear" else "e4m3" end) |
        (if $f == "wide" then .config.shapes = [{name: "ragged-d128-causal", B: 2, H: 3, S: 33, D: 128, causal: true}] else . end) |
        .config.dist = (if $f == "outliers" then "outliers" else "normal" end) | .config.seeds = ["0", "1"] |
        .correctness = [{pass: true, kernel_only: {worst_ratio: 0.25}}, {pass: ($f != "outliers"), kernel_only: {worst_ratio: 1.5}},
                        {pass: true, kernel_only: {worst_ratio: 0.5}}] |
        .cross_variant = [{expected: "identical", n_diff: 0, pass: true}, {expected: "bounded", n_diff: 7, pass: true}] |
        .not_supported = []' "$C/device-run.json" >"$D/matrix/$f.json"
  done
  # The fixture's own campaign with a recorded plan (its bundle's parts and stage2's experiment):
  # every other experiment of this checkout is in no campaign of the device's plan.
  C1=$(dirname "$D")/$(basename "$C")
  jq '.parts_planned = ["ceilings", "experiment:stage2-wmma-pv", "history", "scaling", "peers", "sanitizers", "profiles"] |
      .parts_completed = .parts_planned' "$C1/campaign.json" >"$TMP/c1.json" && mv "$TMP/c1.json" "$C1/campaign.json"
  paper pm "$TMP/pm" md
  rc=$? PM=$TMP/pm/out/gen/gpu.md
  tap_ok "a campaign of the parts probes and matrix: make paper exits 0" test $rc -eq 0
  tap_ok "  ... says it ran only those parts, and shows no section of the others" \
    bash -c 'sec=$(awk "/^## .*20260103T000000Z-fixture-2/,0" "$1"); grep -q "This campaign ran only \`probes\` and \`matrix\`" <<<"$sec" &&
             ! grep -qE "^### (Scaling|Stage history|Sanitizers|Profile|Experiments)" <<<"$sec"' _ "$PM"
  tap_ok "  ... the probes: seven parts counted from the record (the exponentials' points and mismatches, stage 7's shared-memory base), no mismatch, the unaligned TMA load's result" \
    bash -c 'grep -qE "^\| wgmma accumulator .*\| +3 \|$" "$1" && grep -qE "^\| TMA boxes .*\| +4 \|$" "$1" &&
             grep -qE "^\| stage 7.s dynamic shared memory .*\| +0x400 \(on 1024 bytes\) \|$" "$1" &&
             grep -qE "^\| stage 7g.s exponential \(kernels/exp2_poly.h\) .*\| +8192 \(0 differ\) \|$" "$1" &&
             grep -qE "^\| stage 7h.s flushed exponential \(prims::expf_ftz\) .*\| +8198 \(0 codes, 0 weights differ; 2671 flushed\) \|$" "$1" &&
             grep -q "no mismatches with the PTX" "$1" && grep -q "\*\*cudaErrorIllegalInstruction\*\*" "$1"' _ "$PM"
  tap_ok "  ... the matrix: checks passed and the worst error over its bar counted, the failed check named in the caption" \
    bash -c 'grep -qE "^\| matrix/e4m3.json +\| e4m3, normal; seeds 2 +\| +3 of 3 \| +1.500 \| +2 of 2 \| +1 of 1 \|" "$1" &&
             grep -qE "^\| matrix/outliers.json .*\| +2 of 3 \|" "$1" && grep -q "SOME CHECKS OR CLAIMS FAILED" "$1"' _ "$PM"
  n_exp=$(ls -d experiments/*/ | grep -c /stage)
  tap_ok "  ... the parts table lists this checkout's experiments no campaign planned as NOT PLANNED ($((n_exp - 1)) of $n_exp), and counts them" \
    bash -c 'grep -qE "^\| experiment:stage7f-overlap +\| NOT PLANNED +\| added after this device.s campaigns: none planned it \|" "$1" &&
             grep -qE "^\| experiment:stage1-cp-async +\| NOT PLANNED " "$1" && ! grep -qE "^\| experiment:stage2-wmma-pv +\| NOT PLANNED" "$1" &&
             [ "$(grep -c "| NOT PLANNED |" "$1")" -eq "$2" ] &&
             grep -q "9 of $(( 9 + $2 )) complete; the experiments NOT PLANNED were added" "$1"' _ "$PM" $((n_exp - 1))
  tap_ok "  ... the wide file's row says its inputs go beyond D = 64 non-causal" \
    bash -c 'grep -qE "^\| matrix/wide.json +\| e4m3, normal; seeds 2; D = 128, causal +\|" "$1" &&
             ! grep -qE "^\| matrix/e4m3.json .*causal" "$1"' _ "$PM"
  tap_ok "  ... with the wide file, the caption says which rows run at D = 128 and causal" \
    bash -c 'grep "^Table: .*Correctness matrix of campaign 20260103T000000Z-fixture-2" "$1" | grep -q "at D = 128 and with a causal mask only the register-resident rows run"' _ "$PM"
  # Without the wide file, and two entries of the seed-linear file not supported (as the first
  # H100 matrix has): the caption names those entries and their reason, and says nothing of D = 128.
  cp -r "$TMP/pm" "$TMP/pm-narrow"
  DN=$(dirname "$(ls -d "$TMP"/pm-narrow/fixture-*/*/ | head -n 1)")/20260103T000000Z-fixture-2
  rm "$DN/matrix/wide.json"
  jq '.not_supported = [{variant: "stage6", reason: "FIXTURE: no FP8 form of this codec"},
                        {variant: "stage6-r64", reason: "FIXTURE: no FP8 form of this codec"}]' "$DN/matrix/seed-linear.json" >"$TMP/sl.json" &&
    mv "$TMP/sl.json" "$DN/matrix/seed-linear.json"
  "$SDPA_REPORT" paper --published data/published/seed-l4.json --out "$TMP/pm-narrow-out" --gpu-data "$TMP/pm-narrow" >"$TMP/pm-narrow.log" 2>&1
  rc=$?
  ns=$(jq -r '[.not_supported[].variant] | join(", ")' "$DN/matrix/seed-linear.json")
  why=$(jq -r '.not_supported[0].reason' "$DN/matrix/seed-linear.json")
  tap_ok "  ... without it, no word of D = 128; the entries not supported named with their reason ($ns)" \
    bash -c 'cap=$(grep "^Table: .*Correctness matrix of campaign 20260103T000000Z-fixture-2" "$2/gpu.md") && [ $1 -eq 0 ] &&
             ! grep -q "D = 128" <<<"$cap" && grep -qF "not supported: matrix/seed-linear.json: $3 ($4)" <<<"$cap" &&
             grep -qE "^\| matrix/seed-linear.json .*\| +2 \|$" "$2/gpu.md"' _ $rc "$TMP/pm-narrow-out" "$ns" "$why"
  # The probes' sentences of stage 7g's section and of the limitations, from which records hold
  # which probe: the fixture's never counts; a measured campaign's does, and one whose record
  # predates the exponentials' probes says they have not run.
  tap_ok "the probes' sentences: the fixture's record not counted, no campaign ran them on a GPU" \
    bash -c 'grep -q "no committed campaign has run the probes on a GPU yet, so its bits have been checked on the CPU only" "$1/gpu-exp-probes.md" &&
             grep -q "SYNTHETIC test fixture.s record is no measurement" "$1/gpu-exp-probes.md" &&
             grep -q "no committed campaign has run them on a GPU yet" "$1/gpu-probes-limits.md"' _ "$TMP/pm/out/gen"
  cp -r "$TMP/pm-narrow" "$TMP/pm-meas"
  DM=$(dirname "$(ls -d "$TMP"/pm-meas/fixture-*/*/ | head -n 1)")/20260103T000000Z-fixture-2
  jq '.meta.tool = "sdpa-report"' "$DM/campaign.json" >"$TMP/cm.json" && mv "$TMP/cm.json" "$DM/campaign.json"
  dv=$(jq -r .device "$DM/campaign.json")
  "$SDPA_REPORT" paper --published data/published/seed-l4.json --out "$TMP/pm-meas-out" --gpu-data "$TMP/pm-meas" >"$TMP/pm-meas.log" 2>&1
  tap_ok "  ... a measured campaign's record with both exponentials: counted, its device and section named" \
    bash -c '[ $1 -eq 0 ] && grep -qF "compared its bits with the twin'"'"'s in 1 committed campaign on $3 (Section @sec:gpu-c2-probes)" "$2/gpu-exp-probes.md" &&
             grep -qF "the layouts ran in 1 committed campaign on $3 (Section @sec:gpu-c2-probes); stage 7g'"'"'s exponential in 1 committed campaign on $3" "$2/gpu-probes-limits.md" &&
             grep -qF "stage 7h'"'"'s in 1 committed campaign" "$2/gpu-probes-limits.md"' _ $? "$TMP/pm-meas-out" "$dv"
  jq 'del(.exp2_poly, .exp_ftz)' "$DM/probes/probes.json" >"$TMP/pb.json" && mv "$TMP/pb.json" "$DM/probes/probes.json"
  "$SDPA_REPORT" paper --published data/published/seed-l4.json --out "$TMP/pm-old-out" --gpu-data "$TMP/pm-meas" >"$TMP/pm-old.log" 2>&1
  tap_ok "  ... a record from before the exponentials' probes: they have not run on a GPU, the layouts have" \
    bash -c '[ $1 -eq 0 ] && grep -qF "no committed campaign'"'"'s probe record holds that probe yet, so its bits have been checked on the CPU only" "$2/gpu-exp-probes.md" &&
             grep -qF "the layouts ran in 1 committed campaign on $3 (Section @sec:gpu-c2-probes); stage 7g'"'"'s exponential in none of them, and stage 7h'"'"'s in none." "$2/gpu-probes-limits.md"' _ $? "$TMP/pm-old-out" "$dv"
  jq '.smem_base = {dynamic_bytes: 148480, declared_align: 1024, window_address: 1040} |
      .isa_check = {mismatches: 1, first: "smem_base: made up"}' "$DM/probes/probes.json" >"$TMP/pb.json" &&
    mv "$TMP/pb.json" "$DM/probes/probes.json"
  "$SDPA_REPORT" paper --published data/published/seed-l4.json --out "$TMP/pm-sb-out" --gpu-data "$TMP/pm-meas" >"$TMP/pm-sb.log" 2>&1
  tap_ok "  ... a record whose dynamic shared memory starts off 1024 bytes: shown so, the stage 7 kernels that stop named, not a layout mismatch" \
    bash -c '[ $1 -eq 0 ] && grep -qE "^\| stage 7.s dynamic shared memory .*\| +0x410 \(NOT on 1024 bytes\) \|$" "$2" &&
             grep -qF "starts at shared-window address 0x410, not on the 1024 bytes" "$2" &&
             grep -qF "stages 7e-7k, and 7b-7d at D = 128, stop" "$2" && grep -q "no mismatches with the PTX ISA" "$2" &&
             ! grep -q "DISAGREES" "$2"' _ $? "$TMP/pm-sb-out/gpu.md"
  tap_ok "  ... the probes' and the matrix's captions marked as the fixture's, as every table of a fixture is" \
    bash -c 'grep -q "^Table: SYNTHETIC FIXTURE, NOT A MEASUREMENT: Hardware probes of campaign 20260103T000000Z-fixture-2" "$1" &&
             grep -q "^Table: SYNTHETIC FIXTURE, NOT A MEASUREMENT: Correctness matrix of campaign 20260103T000000Z-fixture-2" "$1"' _ "$PM"
else
  tap_skip "a campaign of the parts probes and matrix" "jq not installed"
fi

if [ -n "${2:-}" ]; then
  asan() { "$3" paper --published data/published/seed-l4.json --out "$TMP/asan-$1" --gpu-data "$2" >"$TMP/asan-$1.log" 2>&1; }
  asan ok "$TMP/gpu" "$2"
  tap_ok "ASan+UBSan build: the GPU part of the fixture, exit 0 and no report" \
    bash -c 'test $1 -eq 0 && ! grep -q "Sanitizer" "$2"' _ $? "$TMP/asan-ok.log"
  asan bad "$TMP/bad" "$2"
  tap_ok "ASan+UBSan build: a malformed skipped.txt, exit 1 and no report" \
    bash -c 'test $1 -eq 1 && ! grep -q "Sanitizer" "$2"' _ $? "$TMP/asan-bad.log"
fi

snap >"$TMP/after"
tap_ok "nothing was written under the checkout's data/ or figures/" cmp -s "$TMP/before" "$TMP/after"
tap_done
