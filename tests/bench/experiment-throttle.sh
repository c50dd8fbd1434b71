#!/usr/bin/env bash
# The throttle threshold of an experiment's timing (experiments/run.sh throttle=, make THROTTLE=):
# given, it reaches run-timing.json with its source and is recorded in run.args, so that a
# resumed run times with the same one; left at auto, sdpa-bench resolves it (the environment's
# SDPA_THROTTLE_THRESHOLD, which campaign.sh --throttle-threshold sets, else the device table).
# Emulated runs at the small shape: seconds.
# Usage: tests/bench/experiment-throttle.sh SDPA_BENCH SDPA_REPORT
set -u
. tests/tap.sh
bench=$(realpath "$1") report=$(realpath "$2")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/experiment-throttle.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
get() { "$report" get "$1" "$2" 2>/dev/null; }
# run NAME [KEY=VALUE...]: stage0 vs stage1 at the small shape; the run directory in $dir.
run() {
  local name=$1; shift
  dir=$(experiments/run.sh exp=stage1-cp-async data="$tmp/data-$name" bench="$bench" report="$report" ptxas= \
    baseline=stage0 candidate=stage1 shapes=small seeds=0 timing_shape=small gpu="1 3 0 5" emu="0 3 0 5" \
    l2=warm run_id= backend=emu "$@" 2>"$tmp/$name.err")
}
run given throttle=0.25
tap_ok "run.sh throttle=0.25: the timing ran with --throttle-threshold 0.25" \
  test "$(get "$dir/run-timing.json" config.throttle_threshold)" = 0.25
tap_ok "  ... its source is the flag" test "$(get "$dir/run-timing.json" config.throttle_threshold_source)" = --throttle-threshold
tap_ok "  ... recorded in run.args" grep -qx "throttle=0.25" "$dir/run.args"
rm "$dir/manifest.json" "$dir/run-timing.json"
experiments/run.sh resume="$dir" exp= data= bench="$bench" report="$report" ptxas= baseline= candidate= shapes= \
  seeds= timing_shape= gpu= emu= l2= run_id= backend= >/dev/null 2>"$tmp/resume.err"
tap_ok "  ... a resumed run times with the recorded threshold" \
  test "$(get "$dir/run-timing.json" config.throttle_threshold)" = 0.25
run auto
tap_ok "run.sh without throttle=: auto, which sdpa-bench resolves (no device: NVBench's 0.75)" \
  test "$(get "$dir/run-timing.json" config.throttle_threshold)" = 0.75
tap_ok "  ... and says so" grep -q '"throttle_threshold_source":."default: NVBench' "$dir/run-timing.json"
SDPA_THROTTLE_THRESHOLD=0.625 run env
tap_ok "  ... SDPA_THROTTLE_THRESHOLD (campaign.sh --throttle-threshold) reaches it" \
  test "$(get "$dir/run-timing.json" config.throttle_threshold)" = 0.625
tap_ok "  ... and says so" grep -q '"throttle_threshold_source":."SDPA_THROTTLE_THRESHOLD' "$dir/run-timing.json"
tap_done
