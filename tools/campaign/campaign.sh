#!/usr/bin/env bash
# campaign.sh: everything this study measures on one GPU node, in one command, into one tarball
# (README, "Measuring on a GPU node"). It runs from the unpacked bundle (make bundle): bin/,
# lib/, experiments/, peers/, ptxas.json; no compiler, package, root or network is needed, and
# nothing of the checkout. Steps, each announced with the time spent and the time left of the plan:
#   probe        which backend runs (sdpa-bench --probe); --backend cuda stops here without a GPU
#   device       the device's metadata (a one-launch check run) and, when present, nvidia-smi -q
#   ceilings     copy bandwidth and cuBLAS/cuBLASLt GEMM throughput (sdpa-bench --ceilings):
#                ceilings.json, the roofs the scaling sweep is compared with
#   experiments  every experiment of the bundle, as `make stageN` runs it: correctness on its
#                shapes and seeds, then interleaved A/B timing (experiments/run.sh)
#   history      every variant at the mission and long shapes in one interleaved process
#   scaling      S = 128 ... 16384 (x2; --quick: 128, 256), B*H chosen so that the grid fills
#                the device (at least 4 CTAs per SM): one process per S with every variant and the
#                cuBLAS peer, references sampled for S > 256 (scaling() below); an S whose
#                predicted time (x4 per doubling of S: the work is quadratic) exceeds the step's
#                budget is skipped and recorded as skipped, never dropped
#   peers-cublas the unfused cuBLAS peer and every variant at the mission shape, one process
#   peers-torch  PyTorch's SDPA backends (peers/torch_sdpa.py) at the mission shape and across the
#                scaling S values within the step's budget; skipped, with the reason, without
#                python3, torch or a GPU
#   sanitizers   compute-sanitizer memcheck, racecheck, synccheck, initcheck on every variant at
#                the ragged shape: sanitizers.json (every entry skipped, with the reason, without
#                the tool or a GPU); gpu-checks.sh
#   profiles     Nsight Compute on every variant at the mission shape, a fixed metric set
#                (sdpa-report ncu-json --list-metrics): profile.json, parsed from ncu's CSV;
#                gpu-checks.sh
#   pack         campaign.json (plan, steps, status, durations), SHA256SUMS, the tarball
# A step that fails is recorded as failed with its log, and the campaign goes on; a step that
# cannot run here is recorded as skipped with the reason; the tarball is written atomically and
# never overwrites. Budgets: the plan's total stays within 8 minutes on an H100 and 20 on an L4.
# Usage: campaign.sh [--quick] [--backend auto|cuda|emu] [--out FILE.tar.gz] [--plan] [--part P]...
#   --quick  a smoke run: small shapes, one seed, a few samples (minutes on the emulator)
#   --plan   print the plan and exit
#   --throttle-threshold F|auto  the timing runs' throttle threshold (default auto: sdpa-bench's
#            table per device kind, host/bench/throttle.c: 0.5 on the power-capped L4, else 0.75)
#   --part   run only these parts (repeatable; default all): experiment:<name>, history,
#            scaling, scaling:S1,S2,... (a slice of the sweep), ceilings, peers, sanitizers,
#            profiles; probe and device always run. A cluster sweep (make sweep) runs one part
#            per job.
set -u
here=$(cd "$(dirname "$0")" && pwd)
bench=$here/bin/sdpa-bench report=$here/bin/sdpa-report torch_peer=$here/peers/torch_sdpa.py
backend=auto quick=0 out= plan_only=0 parts=()
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --plan) plan_only=1 ;;
    --backend) backend=${2:-}; shift ;;
    --out) out=${2:-}; shift ;;
    --part) parts+=("${2:-}"); shift ;;
    # Every sdpa-bench below reads it (host/bench/throttle.c); default: each device's row of its table.
    --throttle-threshold) export SDPA_THROTTLE_THRESHOLD=${2:-}; shift ;;
    *) echo "campaign.sh: unknown option '$1' (--quick, --backend auto|cuda|emu, --out FILE.tar.gz, --plan, --part P, --throttle-threshold F|auto)" >&2; exit 2 ;;
  esac
  shift
done
case $backend in auto|cuda|emu) ;; *) echo "campaign.sh: --backend '$backend': accepted values are auto, cuda and emu" >&2; exit 2 ;; esac
[[ ${SDPA_THROTTLE_THRESHOLD-auto} =~ ^(auto|0(\.[0-9]+)?|1(\.0+)?|\.[0-9]+)$ ]] ||
  { echo "campaign.sh: --throttle-threshold '$SDPA_THROTTLE_THRESHOLD': accepted: auto, or a fraction 0 to 1" >&2; exit 2; }
for f in "$bench" "$report"; do
  [ -x "$f" ] || { echo "campaign.sh: $f is missing: run this script from an unpacked bundle (make bundle)" >&2; exit 2; }
done
experiments=$(cd "$here/experiments" && ls -d */ 2>/dev/null | tr -d / | sort)
# The parts to run: every part, or those given (checked against what the bundle has).
run_hist=1 run_scaling=1 run_ceil=1 run_peers=1 run_san=1 run_prof=1 part_S=
if [ ${#parts[@]} -gt 0 ]; then
  sel= run_hist=0 run_scaling=0 run_ceil=0 run_peers=0 run_san=0 run_prof=0
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
      ceilings) run_ceil=1 ;;
      peers) run_peers=1 ;;
      sanitizers) run_san=1 ;;
      profiles) run_prof=1 ;;
      *) echo "campaign.sh: --part '$p': accepted: experiment:<name>, history, scaling, scaling:S1,S2,..., ceilings, peers, sanitizers, profiles" >&2; exit 2 ;;
    esac
  done
  experiments=$sel
fi
id=$(date -u +%Y%m%dT%H%M%SZ)-$(hostname -s 2>/dev/null || echo host)-$$
[ -n "$out" ] || out=$PWD/campaign-$id.tar.gz
case $out in *.tar.gz) ;; *) echo "campaign.sh: --out $out: must end in .tar.gz" >&2; exit 2 ;; esac
[ -e "$out" ] && { echo "campaign.sh: --out $out exists; campaigns never overwrite results" >&2; exit 2; }

# The plan: each step's budget in seconds on an H100. The steps that sample (scaling, the torch
# peers, sanitizers) stop starting work once their budget is spent and record what they left;
# the others are bounded by their sampling limits (--max-time). An L4 is slower on the timed and
# checked work: the plan prints its total as L4_FACTOR x the H100's (the full plan must stay
# within 8 minutes on an H100 and 20 on an L4; quick plans are smoke runs).
L4_FACTOR=2.4
if [ $quick = 1 ]; then
  hist_shapes=(--shape small); hist_args=(--iters 5 --min-time 0 --max-time 5)
  scaling_S="128 256" peer_shape=small san_shape=ragged
  b_probe=5 b_ceil=10 b_exp=20 b_hist=20 b_scaling=20 b_cublas=10 b_torch=20 b_san=30 b_prof=30 b_pack=5
else
  hist_shapes=(--shape mission --shape long); hist_args=(--iters 100 --min-time 1 --max-time 10)
  scaling_S="128 256 512 1024 2048 4096 8192 16384" peer_shape=mission san_shape=ragged
  b_probe=10 b_ceil=15 b_exp=25 b_hist=30 b_scaling=60 b_cublas=10 b_torch=50 b_san=70 b_prof=40 b_pack=5
fi
peer_args=(--iters 20 --min-time 0.5 --max-time 5)
[ -n "$part_S" ] && scaling_S=$part_S
n_exp=$(echo "$experiments" | wc -w)
[ $run_hist = 1 ] || b_hist=0
[ $run_scaling = 1 ] || b_scaling=0
[ $run_ceil = 1 ] || b_ceil=0
[ $run_peers = 1 ] || b_cublas=0 b_torch=0
[ $run_san = 1 ] || b_san=0
[ $run_prof = 1 ] || b_prof=0
total_est=$((b_probe + b_ceil + n_exp * b_exp + b_hist + b_scaling + b_cublas + b_torch + b_san + b_prof + b_pack))
plan_line() { [ "$2" -gt 0 ] && printf '    %-13s %4d s  %s\n' "$1" "$2" "$3" >&2; }
echo "campaign $id: backend $backend$([ $quick = 1 ] && echo ', quick')" >&2
echo "  plan: probe, device$([ $run_ceil = 1 ] && echo ", ceilings")$([ $n_exp -gt 0 ] && echo ", $n_exp experiments")$([ $run_hist = 1 ] && echo ", history")$([ $run_scaling = 1 ] && echo ", scaling")$([ $run_peers = 1 ] && echo ", peers")$([ $run_san = 1 ] && echo ", sanitizers")$([ $run_prof = 1 ] && echo ", profiles"), pack (budgets on an H100):" >&2
plan_line "probe+device" $b_probe "backend, device metadata, nvidia-smi -q"
plan_line ceilings $b_ceil "copy bandwidth, cuBLAS GEMM fp16/fp8 (sdpa-bench --ceilings)"
for e in $experiments; do plan_line "experiment" $b_exp "$e"; done
plan_line history $b_hist "every variant, ${hist_shapes[*]}, one interleaved process"
plan_line scaling $b_scaling "S = $scaling_S, every variant and the cuBLAS peer"
plan_line peers-cublas $b_cublas "cuBLAS unfused peer with every variant at $peer_shape"
plan_line peers-torch $b_torch "PyTorch SDPA backends at $peer_shape and the scaling S values"
plan_line sanitizers $b_san "memcheck, racecheck, synccheck, initcheck x every variant at $san_shape"
plan_line profiles $b_prof "Nsight Compute, fixed metric set, every variant at $peer_shape"
plan_line pack $b_pack "campaign.json, SHA256SUMS, the tarball"
echo "  expected: $(awk -v t=$total_est -v f=$L4_FACTOR 'BEGIN {printf "%.1f min on an H100 (%d s), %.1f min on an L4", t / 60, t, t * f / 60}'); the tarball: $out" >&2
[ $plan_only = 1 ] && exit 0

work=$(mktemp -d "${TMPDIR:-/tmp}/campaign.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/campaign-$id
mkdir -p "$root/logs" "$root/runs" "$work/dumps"
t0=$(date +%s)
steps_json=
json_s() { printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g' | tr '\n\t\r' '   '; }
progress() { # NAME: the progress line of a step about to start
  local left=$((total_est - ($(date +%s) - t0))); [ $left -lt 0 ] && left=0
  echo "[campaign $(( $(date +%s) - t0 ))s, ~${left}s left] $1" >&2
}
# step NAME EST_S CMD...: runs CMD with its output in logs/NAME.log, records the outcome.
step() {
  local name=$1 est=$2; shift 2
  local s=$(date +%s) rc=0
  progress "$name"
  "$@" >"$root/logs/$name.log" 2>&1 || rc=$?
  local d=$(( $(date +%s) - s ))
  [ $rc -eq 0 ] || { echo "  $name: FAILED (exit $rc), see logs/$name.log in the tarball" >&2; tail -n 5 "$root/logs/$name.log" | sed 's/^/    /' >&2; }
  steps_json="$steps_json${steps_json:+,}{\"name\": \"$name\", \"exit_status\": $rc, \"seconds\": $d, \"expected_seconds\": $est}"
  return $rc
}
# skip_step NAME EST_S REASON: a step that cannot run here, recorded with the reason.
skip_step() {
  progress "$1"
  echo "  $1: skipped: $3" >&2
  steps_json="$steps_json${steps_json:+,}{\"name\": \"$1\", \"exit_status\": null, \"seconds\": 0, \"expected_seconds\": $2, \"skipped\": \"$(json_s "$3")\"}"
}
# has_option OPTION: this sdpa-bench offers OPTION (its --help lists every option).
has_option() { "$bench" --help 2>&1 | grep -q -- "$1\b"; }
# scaling_shape S: "B H" such that the grid (ceil(S/32) x H x B CTAs) holds at least 4 CTAs per
# SM (the device's SM count from the device step; on the emulator, which has no SMs, one, so that
# the sweep stays small), with H = min(B*H, 64).
scaling_shape() {
  local sms cta bh h
  sms=$("$report" get "$root/device-run.json" meta.device.sm_count 2>/dev/null)
  case $sms in ''|null|*[!0-9]*) sms=1 ;; esac
  cta=$(( ($1 + 31) / 32 )); bh=$(( (4 * sms + cta - 1) / cta )); [ $bh -lt 1 ] && bh=1
  h=$(( bh < 64 ? bh : 64 ))
  echo "$(( (bh + h - 1) / h )) $h"
}

cd "$here" || exit 2
if ! step probe 1 "$bench" --backend "$backend" --probe; then
  cat "$root/logs/probe.log" >&2
  echo "campaign.sh: --backend $backend is not usable here; nothing was measured" >&2
  exit 2
fi
# The device step checks every variant once at the single shape: besides the device's metadata, its
# not_supported list names the variants this device cannot run (MIN_SM: stage6 needs sm_89), which
# every later step leaves out (they stay listed as not supported in the device run, never failed).
listed=$("$bench" --list-variants | awk '$1 != "custom" {print $1}')
step device 5 "$bench" --backend "$backend" --check-only --quiet $(for v in $listed; do printf ' --variant %s' "$v"; done) \
  --shape single --seeds 0 --out "$root/device-run.json"
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -q >"$root/nvidia-smi.txt" 2>&1
measured=$("$report" get "$root/device-run.json" meta.backend 2>/dev/null || echo unknown)
unsupported= i=0
while u=$("$report" get "$root/device-run.json" "not_supported.$i.variant" 2>/dev/null); do unsupported="$unsupported $u"; i=$((i + 1)); done
all_variants=$(for v in $listed; do case " $unsupported " in *" $v "*) ;; *) echo "$v" ;; esac; done)
[ -z "$unsupported" ] || echo "  not supported on this device (left out):$unsupported" >&2
variant_args=$(for v in $all_variants; do printf ' --variant %s' "$v"; done)
# The cuBLAS peer, where this sdpa-bench has it (sdpa-bench --list-peers).
cublas_peer=$("$bench" --list-peers 2>/dev/null | awk '$1 == "cublas-unfused" {print $1}')

if [ $run_ceil = 1 ]; then
  if has_option --ceilings; then
    step ceilings $b_ceil "$bench" --backend "$backend" --ceilings --out "$root/ceilings.json"
  else
    # Not a failure of the campaign: this build predates the ceilings (sdpa-bench's message kept).
    skip_step ceilings $b_ceil "this sdpa-bench has no --ceilings: $("$bench" --ceilings 2>&1 | head -n 1)"
  fi
fi

ptxas=$([ -f ptxas.json ] && echo "$here/ptxas.json" || echo "")
for e in $experiments; do
  # shellcheck disable=SC1090
  . "experiments/$e/params.sh"
  if [ $quick = 1 ]; then shapes=small seeds=0 timing_shape=small emu="0 4 0 10" gpu="2 10 0 5"; fi
  step "experiment-$e" "$b_exp" experiments/run.sh exp="$e" data="$root/runs" bench="$bench" report="$report" \
    ptxas="$ptxas" baseline="$baseline" candidate="$candidate" shapes="$shapes" seeds="$seeds" \
    timing_shape="$timing_shape" gpu="$gpu" emu="$emu" l2="$l2" run_id="$id" backend="$backend"
done
hist_variants=$(for v in $all_variants; do [ "$v" = stage0 ] || printf ' --variant %s' "$v"; done)
# shellcheck disable=SC2086
[ $run_hist = 1 ] && step history "$b_hist" "$bench" --backend "$backend" --vs stage0 $hist_variants "${hist_shapes[@]}" --seeds 0 \
  "${hist_args[@]}" --out "$root/history.json"

# Scaling: one sdpa-bench process per S with every variant and the cuBLAS peer, scaling/S<S>.json.
# The inputs and both fp64 references are computed once per S, on every CPU of the node, over a
# sample of SCALING_REF_ROWS query rows per (b,h) slice (all rows while S <= SCALING_REF_ROWS;
# sdpa-bench --ref-rows, paper/methods.md): the process's own work is then GPU work. A correctness
# failure is recorded in the file (exit 1) and the sweep goes on; a process that stops without a
# result (exit >= 2) is listed per series in scaling/failed.txt with its exit status and last
# message, and the sweep goes on; either way the step ends failed once every S has had its turn.
# An S is skipped, and listed per series in skipped.txt, once 4 x
# the last S's process time (the work is quadratic in S) passes what is left of the budget.
# Time on an H100, an ESTIMATE from the work (not measured; no H100 has run it): per S a process
# start, CUDA context and cuBLAS load (~1-3 s, the largest part), the references (23 GFLOP of fp64
# over the 8 S values in all: ~5 s on one core, well under 1 s on 16), and 12 launches per series;
# at S = 16384 (B x H = 2, 137 GFLOP a launch) a series at 5 TFLOP/s takes 0.3 s, at 1 TFLOP/s
# 1.6 s. Whole sweep, 10 series, S = 128 ... 16384: ~0.5-1 minute, under 4 even if every launch
# were 4 x slower than assumed. (Before: one process per series and S, each with two full
# single-threaded references: ~60 s per process at S = 16384 alone.)
SCALING_REF_ROWS=256
scaling() {
  local b h s t_left t0s last=0 rc series n_series per_arm log failed=0
  mkdir -p "$root/scaling"
  local end=$(( $(date +%s) + b_scaling ))
  series="$all_variants ${cublas_peer:+peer-$cublas_peer}"
  n_series=$(echo $series | wc -w)
  : >"$root/scaling/skipped.txt"
  for s in $scaling_S; do
    read -r b h <<<"$(scaling_shape "$s")"
    t_left=$(( end - $(date +%s) ))
    if [ $t_left -le 0 ] || [ $(( 4 * last )) -gt $t_left ]; then
      for v in $series; do
        echo "$v S=$s B=$b H=$h skipped: predicted $(( 4 * last )) s (4 x the last S's process) > ${t_left} s left of the scaling budget" >>"$root/scaling/skipped.txt"
      done
      continue
    fi
    per_arm=$(( t_left / (2 * n_series) )); [ $per_arm -lt 1 ] && per_arm=1; [ $per_arm -gt 10 ] && per_arm=10
    log=$root/logs/scaling-S$s.log
    t0s=$(date +%s)
    # shellcheck disable=SC2086
    "$bench" --backend "$backend" $variant_args ${cublas_peer:+--peer "$cublas_peer"} --shape "$b,$h,$s,64" \
      --seeds 0 --ref-rows "$SCALING_REF_ROWS" --warmup 2 --iters 10 --min-time 0 --max-time "$per_arm" \
      --quiet --out "$root/scaling/S$s.json" >"$log" 2>&1
    rc=$?
    last=$(( $(date +%s) - t0s ))
    [ $rc -eq 0 ] || failed=1
    case $rc in
      0) echo "scaling S=$s B=$b H=$h: $last s" ;;
      1) echo "scaling S=$s B=$b H=$h: $last s; a correctness check FAILED (recorded in scaling/S$s.json); the sweep goes on" ;;
      *) echo "scaling S=$s B=$b H=$h: sdpa-bench exit $rc, no result (logs/scaling-S$s.log); the sweep goes on"
         for v in $series; do
           echo "$v S=$s B=$b H=$h failed: sdpa-bench exit $rc: $(grep -v '^ *$' "$log" | tail -n 1 | tr -d '\r')" >>"$root/scaling/failed.txt"
         done ;;
    esac
  done
  return $failed
}
[ $run_scaling = 1 ] && step scaling "$b_scaling" scaling

# Peers: the cuBLAS peer beside every variant in one process; then PyTorch's backends.
if [ $run_peers = 1 ]; then
  mkdir -p "$root/peers"
  if [ -z "$cublas_peer" ]; then
    "$bench" --list-peers >"$work/list-peers.log" 2>&1
    skip_step peers-cublas $b_cublas "this sdpa-bench has no cuBLAS peer (--list-peers: $(head -n 1 "$work/list-peers.log"))"
  else
    # shellcheck disable=SC2086
    step peers-cublas $b_cublas "$bench" --backend "$backend" --peer "$cublas_peer" $variant_args --shape "$peer_shape" \
      --seeds 0 "${peer_args[@]}" --out "$root/peers/$cublas_peer-$peer_shape.json"
  fi
  # torch_peer NAME SHAPE OUT: the inputs of SHAPE dumped by sdpa-bench (--dump), then the script on them.
  torch_peer() {
    local dump=$work/dumps/$1
    "$bench" --backend "$backend" --check-only --quiet --variant stage0 --shape "$2" --seeds 0 --dump "$dump" \
      --out "$dump.json" >/dev/null || return 2
    python3 "$torch_peer" --dump "$dump" --out "$3" --shape-name "$1" --git-sha "$(cut -d' ' -f2 VERSION)" \
      --metrics "$torch_metrics" "${peer_args[@]}"
    local rc=$?
    if [ $rc -eq 4 ]; then # the device's metric reductions disagreed with the Python loop's: use the loop
      echo "peers-torch: device metrics disagreed with peerlib's at $1; --metrics python from here on"
      torch_metrics=python
      python3 "$torch_peer" --dump "$dump" --out "$3" --shape-name "$1" --git-sha "$(cut -d' ' -f2 VERSION)" \
        --metrics python "${peer_args[@]}"
      rc=$?
    fi
    [ $rc -le 1 ] || return $rc # 1: a backend failed the bar, which its file records
  }
  # Checked against the Python loop on the first shape, then trusted (tools/peers/README.md).
  torch_metrics=validate
  peers_torch() {
    local end=$(( $(date +%s) + b_torch )) s b h t0s last=0 t_left
    torch_peer "$peer_shape" "$peer_shape" "$root/peers/peer-torch-{backend}-$peer_shape.json" || return 1
    [ "$torch_metrics" = validate ] && torch_metrics=torch
    mkdir -p "$root/scaling"
    for s in $scaling_S; do
      t_left=$(( end - $(date +%s) ))
      if [ $t_left -le 0 ] || [ $(( 4 * last )) -gt $t_left ]; then
        echo "peer-torch-* S=$s skipped: predicted $(( 4 * last )) s > ${t_left} s left of the peers-torch budget" >>"$root/peers/skipped.txt"
        continue
      fi
      read -r b h <<<"$(scaling_shape "$s")"
      t0s=$(date +%s)
      torch_peer "S$s" "$b,$h,$s,64" "$root/scaling/peer-torch-{backend}-S$s.json" || return 1
      last=$(( $(date +%s) - t0s ))
    done
  }
  why=
  if ! command -v python3 >/dev/null 2>&1; then why="python3 not found"
  elif ! python3 -c 'import torch' >/dev/null 2>&1; then why="torch not installed (python3 -c 'import torch' failed)"
  elif [ "$measured" != cuda ]; then why="backend $measured: PyTorch's SDPA peers need the GPU"
  elif [ ! -f "$torch_peer" ]; then why="$torch_peer is missing from the bundle"
  fi
  if [ -n "$why" ]; then skip_step peers-torch $b_torch "$why"; else step peers-torch $b_torch peers_torch; fi
fi

# Sanitizers and profiles (gpu-checks.sh): sanitizers.json and profile.json are written in every
# case; without a GPU or the tool, every entry is skipped with the reason and so is the step.
checks=$here/gpu-checks.sh
sanitizer=$(command -v compute-sanitizer || ls "${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer" 2>/dev/null)
ncu=$(command -v ncu || ls "${CUDA_HOME:-/usr/local/cuda}/bin/ncu" 2>/dev/null)
if [ $run_san = 1 ]; then
  why=
  if [ "$measured" != cuda ]; then why="backend $measured: no GPU to check"
  elif [ -z "$sanitizer" ]; then why="compute-sanitizer not installed"; fi
  if [ -n "$why" ]; then
    bash "$checks" sanitizers "$root" "$bench" none "$b_san" "$san_shape" "$all_variants" "$why" >>"$root/logs/sanitizers.log" 2>&1
    skip_step sanitizers $b_san "$why"
  else
    step sanitizers $b_san bash "$checks" sanitizers "$root" "$bench" "$sanitizer" "$b_san" "$san_shape" "$all_variants"
  fi
fi
if [ $run_prof = 1 ]; then
  why=
  if [ "$measured" != cuda ]; then why="backend $measured: no GPU to profile"
  elif [ -z "$ncu" ]; then why="ncu (Nsight Compute) not installed"; fi
  if [ -n "$why" ]; then
    bash "$checks" profiles "$root" "$bench" none "$b_prof" "$peer_shape" "$all_variants" "$report" "$why" >>"$root/logs/profiles.log" 2>&1
    skip_step profiles $b_prof "$why"
  else
    step profiles $b_prof bash "$checks" profiles "$root" "$bench" "$ncu" "$b_prof" "$peer_shape" "$all_variants" "$report"
  fi
fi

# campaign.json: what was planned, what ran, how it went. Strings here are ours (ids, step names).
progress pack
cat >"$root/campaign.json" <<JSON
{
  "schema_version": "$("$report" get "$root/device-run.json" schema_version 2>/dev/null || echo 1.2.0)",
  "kind": "gpu-campaign",
  "meta": {"tool": "campaign.sh", "tool_version": "$(cut -d' ' -f2 VERSION 2>/dev/null)",
           "utc_time": "$(date -u -d @"$t0" +%Y-%m-%dT%H:%M:%SZ)", "host": "$(hostname 2>/dev/null)"},
  "campaign_id": "$id",
  "bundle": "$(cat VERSION 2>/dev/null)",
  "backend": "$measured",
  "device": "$("$report" get "$root/device-run.json" meta.device.name 2>/dev/null || echo emulator)",
  "quick": $([ $quick = 1 ] && echo true || echo false),
  "parts": [$(for p in "${parts[@]}"; do printf '%s"%s"' "${sep:-}" "$p"; sep=", "; done)],
  "plan": {"expected_seconds_h100": $total_est, "l4_factor": $L4_FACTOR,
           "budgets": {"probe_device": $b_probe, "ceilings": $b_ceil, "experiment": $b_exp, "history": $b_hist,
                       "scaling": $b_scaling, "peers_cublas": $b_cublas, "peers_torch": $b_torch,
                       "sanitizers": $b_san, "profiles": $b_prof, "pack": $b_pack}},
  "started_unix": $t0,
  "seconds": $(( $(date +%s) - t0 )),
  "steps": [$steps_json]
}
JSON
(cd "$root" && find . -type f ! -name SHA256SUMS | sort | xargs sha256sum > SHA256SUMS)
tar -C "$work" -czf "$out.tmp.$$" "campaign-$id" && mv -n "$out.tmp.$$" "$out" && [ ! -e "$out.tmp.$$" ] ||
  { rm -f "$out.tmp.$$"; echo "campaign.sh: could not write $out" >&2; exit 3; }
failed=$(grep -o '"exit_status": [1-9][0-9]*' "$root/campaign.json" | wc -l)
skipped=$(grep -o '"skipped": ' "$root/campaign.json" | wc -l)
echo "campaign $id: done in $(( $(date +%s) - t0 )) s, $failed step(s) failed, $skipped skipped; results: $out" >&2
echo "  bring it home and run: make ingest RESULTS=$(basename "$out")" >&2
[ "$failed" -eq 0 ]
