# campaign-parts.sh: what each part of a campaign measures, as functions that campaign.sh sources
# where the parts are defined and calls from run_part (part_probes, part_ceilings, part_experiment,
# part_history, part_peers, part_sanitizers, part_profiles, and the matrix and scaling steps). They
# read campaign.sh's state (bench, report, root, state, the budgets, the variants left after the
# checks) and record their steps through campaign-lib.sh's step and skip_step.
# shellcheck shell=bash disable=SC2154 # campaign.sh sets the variables these functions read

# The probes are sm_90a code: compute capability 9.0 only (sdpa-probes refuses others, exit 2).
part_probes() {
  local why= cc
  cc=$("$report" get "$root/device-run.json" meta.device.cc 2>/dev/null)
  if [ "$measured" != cuda ]; then why="backend $measured: the probes run on a GPU (the emulator's own record is make test's)"
  elif [ ! -x "$here/bin/sdpa-probes" ]; then why="this bundle has no bin/sdpa-probes (built where nvcc could target sm_90a)"
  elif [ "$cc" != 9.0 ]; then why="the device is compute capability ${cc:-unknown}; the probes are sm_90a code (9.0)"; fi
  if [ -n "$why" ]; then skip_step probes $b_probes "$why"; return; fi
  mkdir -p "$root/probes"
  step probes $b_probes "$here/bin/sdpa-probes" --out "$root/probes/probes.json"
}

# The correctness matrix: four sdpa-bench processes (each a file even when another fails).
matrix() {
  local rc=0 v
  mkdir -p "$root/matrix"
  [ -n "$all_variants" ] || { echo "$none_left"; return 1; }
  set -- ; for v in $all_variants; do set -- "$@" --variant "$v"; done
  "$bench" --backend "$backend" --check-only "$@" "${matrix_args[@]}" --seeds "$matrix_seeds" --codec e4m3 \
    --out "$root/matrix/e4m3.json" || rc=1
  "$bench" --backend "$backend" --check-only "$@" "${matrix_args[@]}" --seeds "$matrix_seeds" --codec seed-linear \
    --out "$root/matrix/seed-linear.json" || rc=1
  "$bench" --backend "$backend" --check-only "$@" "${matrix_args[@]}" --seeds 0 --dist outliers \
    --out "$root/matrix/outliers.json" || rc=1
  "$bench" --backend "$backend" --check-only "$@" "${matrix_wide_args[@]}" --seeds "$matrix_seeds" --codec e4m3 \
    --out "$root/matrix/wide.json" || rc=1
  return $rc
}

part_ceilings() {
  if has_option --ceilings; then
    step ceilings $b_ceil "$bench" --backend "$backend" --ceilings --out "$root/ceilings.json"
  else
    # Not a failure of the campaign: this build predates the ceilings (sdpa-bench's message kept).
    skip_step ceilings $b_ceil "this sdpa-bench has no --ceilings: $("$bench" --ceilings 2>&1 | head -n 1)"
  fi
}

ptxas=$([ -f ptxas.json ] && echo "$here/ptxas.json" || echo "")
part_experiment() {
  local e=$1 baseline candidate shapes seeds timing_shape gpu emu l2
  # shellcheck disable=SC1090 # the bundle's own resolved parameters (make bundle), not data from elsewhere
  . "experiments/$e/params.sh"
  if [ $quick = 1 ]; then shapes=small seeds=0 timing_shape=small emu="0 4 0 10" gpu="2 10 0 5"; fi
  for v in $baseline $candidate; do
    case " $(echo $all_variants) " in *" $v "*) ;; *)
      skip_step "experiment-$e" "$b_exp" "$(why_out "$v")"
      return ;;
    esac
  done
  step "experiment-$e" "$b_exp" experiments/run.sh exp="$e" data="$root/runs" bench="$bench" report="$report" \
    ptxas="$ptxas" baseline="$baseline" candidate="$candidate" shapes="$shapes" seeds="$seeds" \
    timing_shape="$timing_shape" gpu="$gpu" emu="$emu" l2="$l2" run_id="$id" backend="$backend"
}

# history: every variant against stage0, cold L2 (history.json) and warm at the mission shape
# (history-warm.json); the A/A control calibrates the verdicts' SAME band on this device.
part_history() {
  local hv why=
  case " $(echo $all_variants) " in *" stage0 "*) ;; *) why="stage0, the history's baseline, is left out: $(why_out stage0)" ;; esac
  if [ -n "$why" ]; then
    skip_step history $b_hist "$why"; skip_step history-warm $b_warm "$why"; skip_step aa-control $b_aa "$why"
    return
  fi
  hv=$(for v in $all_variants; do [ "$v" = stage0 ] || printf ' --variant %s' "$v"; done)
  if [ -z "$hv" ]; then
    skip_step history $b_hist "no variant besides stage0 passed its own check"
    skip_step history-warm $b_warm "no variant besides stage0 passed its own check"
  else
    # shellcheck disable=SC2086
    step history "$b_hist" "$bench" --backend "$backend" --vs stage0 $hv "${hist_shapes[@]}" --seeds 0 \
      "${hist_args[@]}" --out "$root/history.json"
    # shellcheck disable=SC2086
    step history-warm "$b_warm" "$bench" --backend "$backend" --vs stage0 $hv --shape "$mission" --seeds 0 \
      "${warm_args[@]}" --l2 warm --out "$root/history-warm.json"
  fi
  step aa-control "$b_aa" "$bench" --backend "$backend" --vs stage0 --variant stage0 --shape "$mission" --seeds 0 \
    "${warm_args[@]}" --out "$root/aa-control.json"
}

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
  local b h s t_left t0s last=0 rc series n_series per_arm log why failed=0
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
      --seeds 0 --ref-rows "$SCALING_REF_ROWS" "${scaling_iters[@]}" --min-time 0 --max-time "$per_arm" \
      --quiet --out "$root/scaling/S$s.json" >"$log" 2>&1
    rc=$?
    last=$(( $(date +%s) - t0s ))
    [ $rc -eq 0 ] || failed=1
    case $rc in
      0) echo "scaling S=$s B=$b H=$h: $last s" ;;
      1) echo "scaling S=$s B=$b H=$h: $last s; a correctness check FAILED (recorded in scaling/S$s.json); the sweep goes on" ;;
      *) why=$(grep -v '^ *$' "$log" | tail -n 1 | tr -d '\r')
         echo "scaling S=$s B=$b H=$h: sdpa-bench exit $rc, no result (logs/scaling-S$s.log): $why; the sweep goes on"
         for v in $series; do echo "$v S=$s B=$b H=$h failed: sdpa-bench exit $rc: $why" >>"$root/scaling/failed.txt"; done ;;
    esac
  done
  return $failed
}

# Peers: the cuBLAS peer beside every variant in one process; then PyTorch's backends.
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
peers_torch() {
  local end=$(( $(date +%s) + b_torch )) s b h t0s last=0 t_left
  torch_metrics=validate
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
part_peers() {
  local why=
  mkdir -p "$root/peers"
  if [ -z "$all_variants" ]; then
    skip_step peers-cublas $b_cublas "$none_left"
  elif [ -z "$cublas_peer" ]; then
    skip_step peers-cublas $b_cublas "this sdpa-bench has no cuBLAS peer (--list-peers: $("$bench" --list-peers 2>&1 | head -n 1))"
  else
    # shellcheck disable=SC2086
    step peers-cublas $b_cublas "$bench" --backend "$backend" --peer "$cublas_peer" $variant_args --shape "$peer_shape" \
      --seeds 0 "${peer_args[@]}" --out "$root/peers/$cublas_peer-$peer_shape.json"
  fi
  if ! command -v python3 >/dev/null 2>&1; then why="python3 not found"
  elif ! timeout -k 5 60 python3 -c 'import torch' >/dev/null 2>&1; then why="torch not installed (python3 -c 'import torch' failed)"
  elif [ "$measured" != cuda ]; then why="backend $measured: PyTorch's SDPA peers need the GPU"
  elif [ ! -f "$torch_peer" ]; then why="$torch_peer is missing from the bundle"
  fi
  if [ -n "$why" ]; then skip_step peers-torch $b_torch "$why"; else step peers-torch $b_torch peers_torch; fi
}

# Sanitizers and profiles (gpu-checks.sh): sanitizers.json and profile.json are written in every
# case; without a GPU or the tool, every entry is skipped with the reason and so is the step.
checks=$here/gpu-checks.sh
part_sanitizers() {
  local why= tool
  tool=$(command -v compute-sanitizer || ls "${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer" 2>/dev/null)
  if [ "$measured" != cuda ]; then why="backend $measured: no GPU to check"
  elif [ -z "$tool" ]; then why="compute-sanitizer not installed"; fi
  if [ -n "$why" ]; then
    bash "$checks" sanitizers "$root" "$bench" none "$b_san" "$san_shape" "$(echo $all_variants $faulted)" "$report" \
      --skip "$why" >>"$root/logs/sanitizers.log" 2>&1
    skip_step sanitizers $b_san "$why"
  else
    step sanitizers $b_san bash "$checks" sanitizers "$root" "$bench" "$tool" "$b_san" "$san_shape" \
      "$(echo $all_variants $faulted)" "$report" --faulted "$(echo $faulted)" --faulted-shapes "$deep_shapes" \
      --hung "$(echo $(with_status hang) $guard_hung)"
  fi
}
part_profiles() {
  local why= tool
  tool=$(command -v ncu || ls "${CUDA_HOME:-/usr/local/cuda}/bin/ncu" 2>/dev/null)
  if [ "$measured" != cuda ]; then why="backend $measured: no GPU to profile"
  elif [ -z "$tool" ]; then why="ncu (Nsight Compute) not installed"
  elif [ -z "$all_variants" ]; then why=$none_left; fi
  if [ -n "$why" ]; then
    bash "$checks" profiles "$root" "$bench" none "$b_prof" "$peer_shape" "$(echo $all_variants)" "$report" \
      --skip "$why" >>"$root/logs/profiles.log" 2>&1
    skip_step profiles $b_prof "$why"
  else
    step profiles $b_prof bash "$checks" profiles "$root" "$bench" "$tool" "$b_prof" "$peer_shape" "$(echo $all_variants)" "$report"
  fi
  # The gate shapes' profiles (campaign.sh, gate_profiles): 7f's for stage 7g's go/no-go, 7j's at
  # D = 128, 7m's causal.
  local g
  for g in "${gp_steps[@]}"; do
    profile_gate "$g" "${gp_budget[$g]}" "${gp_exp[$g]}" "${gp_shape[$g]}" "${gp_variants[$g]}" "${gp_file[$g]}" \
      "$why" "$tool"
  done
}
# profile_gate STEP BUDGET EXP SHAPE VARIANTS FILE WHY TOOL: the variants timed at EXP's gate shape that
# passed their own check here (the Hopper rows are "not supported" but on an sm_90a device), each
# named in FILE; skipped with WHY (no GPU, no ncu), or with why none of them can run.
profile_gate() {
  local step=$1 budget=$2 exp=$3 shape=$4 variants=$5 file=$6 why=$7 tool=$8 gv= v
  for v in $all_variants; do case " $variants " in *" $v "*) gv="$gv $v" ;; esac; done
  if [ -z "$why" ]; then
    if [ -z "$shape" ]; then why="no experiment $exp in this bundle"
    elif [ -z "$gv" ]; then why="none of the variants timed at $shape ($variants) passed its own check here (not supported on this device, or faulted: checks.tsv)"; fi
  fi
  if [ -n "$why" ]; then
    [ -n "$shape" ] && bash "$checks" profiles "$root" "$bench" none "$budget" "$shape" "$variants" "$report" \
      --skip "$why" --out "$file" >>"$root/logs/profiles.log" 2>&1
    skip_step "$step" "$budget" "$why"
  else
    step "$step" "$budget" bash "$checks" profiles "$root" "$bench" "$tool" "$budget" "$shape" "$(echo $gv)" \
      "$report" --out "$file"
  fi
}
