#!/usr/bin/env bash
# campaign.sh: everything this study measures on one GPU node, in one command, into one tarball
# (README, "Measuring on a GPU node"). It runs from the unpacked bundle (make bundle): bin/,
# lib/, experiments/, ptxas.json; no compiler, package, root or network is needed, and nothing of
# the checkout. Steps, each announced with the time spent and the time left of the plan:
#   1 probe        which backend runs (sdpa-bench --probe); --backend cuda stops here without a GPU
#   2 device       the device's metadata (a one-launch check run) and, when present, nvidia-smi -q
#   3 experiments  every experiment of the bundle, as `make stageN` runs it: correctness on its
#                  shapes and seeds, then interleaved A/B timing (experiments/run.sh)
#   4 history      every variant at the mission and long shapes in one interleaved process
#   5 scaling      S = 128 ... 16384 (x2; --quick: 128, 256), B*H chosen so that the grid fills
#                  the device (at least 4 CTAs per SM), every variant; a variant whose predicted
#                  time (x4 per doubling of S: the work is quadratic) exceeds the step's budget is
#                  skipped and recorded as skipped, never dropped
#   6 pack         campaign.json (plan, steps, status, durations), SHA256SUMS, the tarball
# A step that fails is recorded as failed with its log, and the campaign goes on; the tarball is
# written atomically and never overwrites.
# Usage: campaign.sh [--quick] [--backend auto|cuda|emu] [--out FILE.tar.gz] [--plan] [--part P]...
#   --quick  a smoke run: small shapes, one seed, a few samples (minutes on the emulator)
#   --plan   print the plan and exit
#   --part   run only these parts (repeatable; default all): experiment:<name>, history,
#            scaling, or scaling:S1,S2,... (a slice of the sweep); probe and device always run.
#            A cluster sweep (make sweep) runs one part per job.
set -u
here=$(cd "$(dirname "$0")" && pwd)
bench=$here/bin/sdpa-bench report=$here/bin/sdpa-report
backend=auto quick=0 out= plan_only=0 parts=()
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --plan) plan_only=1 ;;
    --backend) backend=${2:-}; shift ;;
    --out) out=${2:-}; shift ;;
    --part) parts+=("${2:-}"); shift ;;
    *) echo "campaign.sh: unknown option '$1' (--quick, --backend auto|cuda|emu, --out FILE.tar.gz, --plan)" >&2; exit 2 ;;
  esac
  shift
done
case $backend in auto|cuda|emu) ;; *) echo "campaign.sh: --backend '$backend': accepted values are auto, cuda and emu" >&2; exit 2 ;; esac
for f in "$bench" "$report"; do
  [ -x "$f" ] || { echo "campaign.sh: $f is missing: run this script from an unpacked bundle (make bundle)" >&2; exit 2; }
done
experiments=$(cd "$here/experiments" && ls -d */ 2>/dev/null | tr -d / | sort)
# The parts to run: every part, or those given (checked against what the bundle has).
run_hist=1 run_scaling=1 part_S=
if [ ${#parts[@]} -gt 0 ]; then
  sel= run_hist=0 run_scaling=0
  for p in "${parts[@]}"; do
    case $p in
      experiment:*) e=${p#experiment:}
        [ -d "$here/experiments/$e" ] || { echo "campaign.sh: --part $p: no such experiment; accepted: $(echo $experiments)" >&2; exit 2; }
        sel="$sel $e" ;;
      history) run_hist=1 ;;
      scaling) run_scaling=1 ;;
      scaling:*) run_scaling=1 part_S=$(echo "${p#scaling:}" | tr , ' ')
        # Digits only, none 0 or with a leading 0 (an empty problem; octal to the shell), at least one.
        case " $part_S " in *[!0-9\ ]*|*\ 0*) part_S= ;; esac
        [ -n "${part_S// /}" ] || { echo "campaign.sh: --part $p: expected scaling:S1,S2,... (integers >= 1)" >&2; exit 2; } ;;
      *) echo "campaign.sh: --part '$p': accepted: experiment:<name>, history, scaling, scaling:S1,S2,..." >&2; exit 2 ;;
    esac
  done
  experiments=$sel
fi
id=$(date -u +%Y%m%dT%H%M%SZ)-$(hostname -s 2>/dev/null || echo host)-$$
[ -n "$out" ] || out=$PWD/campaign-$id.tar.gz
case $out in *.tar.gz) ;; *) echo "campaign.sh: --out $out: must end in .tar.gz" >&2; exit 2 ;; esac
[ -e "$out" ] && { echo "campaign.sh: --out $out exists; campaigns never overwrite results" >&2; exit 2; }

# The plan: what runs, and roughly how long (seconds on an H100; the emulator takes longer).
if [ $quick = 1 ]; then hist_shapes=(--shape small); hist_args=(--iters 5 --min-time 0 --max-time 5); else
  hist_shapes=(--shape mission --shape long); hist_args=(--iters 100 --min-time 1 --max-time 20); fi
if [ $quick = 1 ]; then scaling_S="128 256"; scaling_budget_s=20; else
  scaling_S="128 256 512 1024 2048 4096 8192 16384"; scaling_budget_s=120; fi
[ -n "$part_S" ] && scaling_S=$part_S
[ $run_scaling = 1 ] || scaling_budget_s=0
n_exp=$(echo "$experiments" | wc -w)
est_exp=$([ $quick = 1 ] && echo 20 || echo 90) est_hist=$([ $quick = 1 ] && echo 20 || echo 60)
[ $run_hist = 1 ] || est_hist=0
total_est=$((10 + n_exp * est_exp + est_hist + scaling_budget_s))
echo "campaign $id: backend $backend$([ $quick = 1 ] && echo ', quick')" >&2
echo "  plan: probe, device, $n_exp experiments ($(echo $experiments))$([ $run_hist = 1 ] && echo ", history (${hist_shapes[*]})")$([ $run_scaling = 1 ] && echo ", scaling (S = $scaling_S, ${scaling_budget_s} s)"), pack" >&2
echo "  expected: about $((total_est / 60 + 1)) min on a GPU; the tarball: $out" >&2
[ $plan_only = 1 ] && exit 0

work=$(mktemp -d "${TMPDIR:-/tmp}/campaign.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/campaign-$id
mkdir -p "$root/logs" "$root/runs"
t0=$(date +%s)
steps_json=
# step NAME EST_S CMD...: runs CMD with its output in logs/NAME.log, records the outcome.
step() {
  local name=$1 est=$2; shift 2
  local s=$(date +%s) rc=0
  local left=$((total_est - (s - t0))); [ $left -lt 0 ] && left=0
  echo "[campaign $(( $(date +%s) - t0 ))s, ~${left}s left] $name" >&2
  "$@" >"$root/logs/$name.log" 2>&1 || rc=$?
  local d=$(( $(date +%s) - s ))
  [ $rc -eq 0 ] || { echo "  $name: FAILED (exit $rc), see logs/$name.log in the tarball" >&2; tail -n 5 "$root/logs/$name.log" | sed 's/^/    /' >&2; }
  steps_json="$steps_json${steps_json:+,}{\"name\": \"$name\", \"exit_status\": $rc, \"seconds\": $d, \"expected_seconds\": $est}"
  return $rc
}

cd "$here" || exit 2
if ! step probe 1 "$bench" --backend "$backend" --probe; then
  cat "$root/logs/probe.log" >&2
  echo "campaign.sh: --backend $backend is not usable here; nothing was measured" >&2
  exit 2
fi
step device 5 "$bench" --backend "$backend" --check-only --quiet --variant stage0 --shape single --seeds 0 \
  --out "$root/device-run.json"
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -q >"$root/nvidia-smi.txt" 2>&1
ptxas=$([ -f ptxas.json ] && echo "$here/ptxas.json" || echo "")
for e in $experiments; do
  # shellcheck disable=SC1090
  . "experiments/$e/params.sh"
  if [ $quick = 1 ]; then shapes=small seeds=0 timing_shape=small emu="0 4 0 10" gpu="2 10 0 5"; fi
  step "experiment-$e" "$est_exp" experiments/run.sh exp="$e" data="$root/runs" bench="$bench" report="$report" \
    ptxas="$ptxas" baseline="$baseline" candidate="$candidate" shapes="$shapes" seeds="$seeds" \
    timing_shape="$timing_shape" gpu="$gpu" emu="$emu" l2="$l2" run_id="$id" backend="$backend"
done
variants=$("$bench" --list-variants | awk '$1 != "custom" && $1 != "stage0" {printf " --variant %s", $1}')
# shellcheck disable=SC2086
[ $run_hist = 1 ] && step history "$est_hist" "$bench" --backend "$backend" --vs stage0 $variants "${hist_shapes[@]}" --seeds 0 \
  "${hist_args[@]}" --out "$root/history.json"

# Scaling: one file per (variant, S). The grid is ceil(S/32) x H x B CTAs; B*H is chosen so that
# it holds at least 4 CTAs per SM (the device's SM count from the device step; on the emulator,
# which has no SMs, one, so that the sweep stays small), as H = min(B*H, 64) heads of B batches. A variant is skipped once its predicted time
# at the next S (4x the last median) passes what is left of the budget.
scaling() {
  local sms bh cta h b s v t_left skip med
  sms=$("$report" get "$root/device-run.json" meta.device.sm_count 2>/dev/null)
  case $sms in ''|null|*[!0-9]*) sms=1 ;; esac
  mkdir -p "$root/scaling"
  local end=$(( $(date +%s) + scaling_budget_s ))
  declare -A last_us
  : >"$root/scaling/skipped.txt"
  for s in $scaling_S; do
    cta=$(( (s + 31) / 32 )); bh=$(( (4 * sms + cta - 1) / cta )); [ $bh -lt 1 ] && bh=1
    h=$(( bh < 64 ? bh : 64 )); b=$(( (bh + h - 1) / h ))
    for v in $("$bench" --list-variants | awk '$1 != "custom" {print $1}'); do
      t_left=$(( end - $(date +%s) ))
      med=${last_us[$v]:-0}
      skip=$(awk -v m="$med" -v left="$t_left" 'BEGIN { print (left <= 0 || 4 * m * 1e-6 * 20 > left) ? 1 : 0 }')
      if [ "$skip" = 1 ]; then
        echo "$v S=$s B=$b H=$h skipped: predicted $(awk -v m="$med" 'BEGIN {printf "%.0f", 4*m}') us x 20 samples > ${t_left} s left of the scaling budget" >>"$root/scaling/skipped.txt"
        continue
      fi
      "$bench" --backend "$backend" --variant "$v" --shape "$b,$h,$s,64" --seeds 0 --warmup 2 --iters 10 \
        --min-time 0 --max-time "$(( t_left < 10 ? t_left : 10 ))" --quiet --out "$root/scaling/$v-S$s.json" || return 1
      last_us[$v]=$("$report" get "$root/scaling/$v-S$s.json" timing.0.summary.median 2>/dev/null || echo 0)
    done
  done
}
[ $run_scaling = 1 ] && step scaling "$scaling_budget_s" scaling

# campaign.json: what was planned, what ran, how it went. Strings here are ours (ids, step names).
cat >"$root/campaign.json" <<JSON
{
  "schema_version": "$("$report" get "$root/device-run.json" schema_version 2>/dev/null || echo 1.2.0)",
  "kind": "gpu-campaign",
  "meta": {"tool": "campaign.sh", "tool_version": "$(cut -d' ' -f2 VERSION 2>/dev/null)",
           "utc_time": "$(date -u -d @"$t0" +%Y-%m-%dT%H:%M:%SZ)", "host": "$(hostname 2>/dev/null)"},
  "campaign_id": "$id",
  "bundle": "$(cat VERSION 2>/dev/null)",
  "backend": "$("$report" get "$root/device-run.json" meta.backend 2>/dev/null || echo unknown)",
  "device": "$("$report" get "$root/device-run.json" meta.device.name 2>/dev/null || echo emulator)",
  "quick": $([ $quick = 1 ] && echo true || echo false),
  "parts": [$(for p in "${parts[@]}"; do printf '%s"%s"' "${sep:-}" "$p"; sep=", "; done)],
  "started_unix": $t0,
  "seconds": $(( $(date +%s) - t0 )),
  "steps": [$steps_json]
}
JSON
(cd "$root" && find . -type f ! -name SHA256SUMS | sort | xargs sha256sum > SHA256SUMS)
tar -C "$work" -czf "$out.tmp.$$" "campaign-$id" && mv -n "$out.tmp.$$" "$out" && [ ! -e "$out.tmp.$$" ] ||
  { rm -f "$out.tmp.$$"; echo "campaign.sh: could not write $out" >&2; exit 3; }
failed=$(grep -o '"exit_status": [1-9][0-9]*' "$root/campaign.json" | wc -l)
echo "campaign $id: done in $(( $(date +%s) - t0 )) s, $failed step(s) failed; results: $out" >&2
echo "  bring it home and run: make ingest RESULTS=$(basename "$out")" >&2
[ "$failed" -eq 0 ]
