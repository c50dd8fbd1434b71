#!/usr/bin/env bash
# campaign.sh: everything this study measures on one GPU node, into one tarball per command
# (tools/campaign/README.md, "Measuring on a GPU node"). It runs from the unpacked bundle (make bundle): bin/,
# lib/, experiments/, peers/, ptxas.json; no compiler, package, root or network is needed, and
# nothing of the checkout. Every command first runs
#   probe        which backend runs (sdpa-bench --probe): --backend cuda, or auto on a node where
#                /dev/nvidia* exists, stops here with the probe's reason when CUDA is unusable
#   checks       each variant alone, in its own process under a timeout, at the single shape, then
#                (the deep check) at shapes where its K/V ring wraps, causal and D = 128: a
#                variant that faults (device error, crash) or hangs in either is recorded so and
#                left out of every timed step (sanitizers still run memcheck on it first)
#   device       the device's metadata (one check run of the healthy variants), nvidia-smi -q
# then the parts it was given (--part; default all), each a group of steps:
#   probes       the wgmma/TMA layout probes (bin/sdpa-probes, sm_90a: an H100 or H200; about a
#                second): where the hardware puts each element, against the PTX ISA's formulas
#                (probes/probes.json; the emulator's tests compare themselves with it once ingested)
#   matrix       the correctness matrix: every healthy variant at the small, mission, ragged, partial,
#                single and label-a shapes, seeds 0,1,2, codecs e4m3 and seed-linear, then outlier
#                inputs, then head dimension 128 and causal masks (the register-resident rows;
#                the others are recorded as not supported) (sdpa-bench --check-only;
#                matrix/<codec|outliers|wide>.json): the bars and the bit-identity claims between
#                stages on the device
#   ceilings     copy bandwidth and cuBLAS/cuBLASLt GEMM throughput (sdpa-bench --ceilings)
#   experiment:<name>  one experiment, as `make stageN` runs it (experiments/run.sh)
#   history      every variant at the mission and long shapes in one interleaved process
#                (history.json); the same variants with a warm L2 at the mission shape
#                (history-warm.json); an A/A control, stage0 timed against itself (aa-control.json)
#   scaling      S = 128 ... 16384 (scaling:S1,S2,... a slice): one process per S with every
#                variant and the cuBLAS peer, references sampled above S = 256 (scaling() below)
#   peers        the cuBLAS peer beside every variant; PyTorch's SDPA backends (peers/torch_sdpa.py)
#   sanitizers   compute-sanitizer memcheck, racecheck, synccheck, initcheck (gpu-checks.sh)
#   profiles     Nsight Compute, a fixed metric set (gpu-checks.sh)
# and packs: campaign.json (sdpa-report campaign-json), SHA256SUMS, the tarball.
# Nothing is lost to a time limit or a kill: the work directory lies beside --out (<out>.partial/);
# SIGINT or SIGTERM (timeout, Slurm) stops the running step, writes campaign.json with
# "interrupted": true and the parts completed, and packs what exists; after a SIGKILL,
# `campaign.sh --pack <out>.partial` does the same. `--resume TARBALL|DIR` runs, as a new campaign
# on the same kind of device, the parts an earlier one planned and did not complete.
# With --time-limit S (the node's limit per command), a part starts only if its budget fits what
# is left, and the campaign stops itself in time to pack; --plan --time-limit S prints the parts in
# groups that fit, one command per group (with --first, each command keeps the plan's order).
# The step guard (--step-guard F; default 4 on CUDA, 0 = off on the emulator, whose own checks
# report a deadlock): a step still running after F x its budget (x the L4 factor; at least 60 s)
# is stopped (TERM, then KILL), recorded with exit 124 and a note, and the campaign goes on. A
# kernel that hangs only at a timed shape then costs that much, not the rest of the command, and
# the kernel the stopped sdpa-bench names as in flight is left out of the steps after it
# (leave_out). Why 4: the first H100's steps took about a third of their budgets (so 4 x is ~12 x
# what they took), and the timed steps bound their own sampling (an experiment's --max-time 30 s,
# the history's 10 s per shape), so a slow but working kernel ends well inside its step's guard.
# Usage: campaign.sh [--quick] [--backend auto|cuda|emu] [--out FILE.tar.gz] [--part P]... [--first P]...
#                    [--time-limit S] [--check-timeout S] [--step-guard F] [--plan] [--resume TARBALL|DIR]
#                    [--throttle-threshold F|auto]   (the timing runs' threshold; default auto:
#                    sdpa-bench's table per device kind, host/bench/throttle.c)
#                    [--left-out FILE]   (variants the caller already saw hang or fault, one
#                    "<variant>\t<why>" line each, e.g. short-lease.sh's "stage7f\tsmoke exit 137":
#                    recorded in the checks with that status and not run again, so a hang is not
#                    paid for twice; the file is read as data, never executed)
#        campaign.sh --pack DIR [--out FILE.tar.gz]
# Exit: 0 every step passed; 1 a step failed (the rest ran); 2 usage, or nothing can be measured
# here (the backend, --out); 3 the tarball could not be written (the work directory stays);
# 4 the time limit left parts for a later command (--resume the tarball); 130/143 interrupted
# (the tarball holds what was measured).
set -u
here=$(cd "$(dirname "$0")" && pwd)
bench=$here/bin/sdpa-bench report=$here/bin/sdpa-report torch_peer=$here/peers/torch_sdpa.py
# shellcheck source=tools/campaign/campaign-lib.sh
. "$here/campaign-lib.sh"
die() { echo "campaign.sh: $*" >&2; exit 2; }
OPTIONS="--quick, --backend auto|cuda|emu, --out FILE.tar.gz, --part P, --first P, --time-limit S, --check-timeout S, --step-guard F, --plan, --resume TARBALL|DIR, --pack DIR, --throttle-threshold F|auto, --left-out FILE"
backend=auto quick=0 out= plan_only=0 parts=() firsts=() time_limit=0 check_timeout= step_guard= pack_dir= resume= left_out=
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1; shift; continue ;;
    --plan) plan_only=1; shift; continue ;;
    --backend|--out|--part|--first|--time-limit|--check-timeout|--step-guard|--pack|--resume|--throttle-threshold|--left-out)
      [ $# -ge 2 ] && [ -n "$2" ] && [[ $2 != --* ]] || die "$1 needs a value (accepted: $OPTIONS)" ;;
    *) die "unknown option '$1' (accepted: $OPTIONS)" ;;
  esac
  case $1 in
    --backend) backend=$2 ;;
    --out) out=$2 ;;
    --part) parts+=("$2") ;;
    --first) firsts+=("$2") ;;
    --time-limit) time_limit=$2 ;;
    --check-timeout) check_timeout=$2 ;;
    --step-guard) step_guard=$2 ;;
    --pack) pack_dir=$2 ;;
    --resume) resume=$2 ;;
    --left-out) left_out=$2 ;;
    # Every sdpa-bench below reads it (host/bench/throttle.c); default: each device's row of its table.
    --throttle-threshold) export SDPA_THROTTLE_THRESHOLD=$2 ;;
  esac
  shift 2
done
# The one list of backends (host/lib/backend_names.h), through sdpa-report's parameter grammar.
msg=$("$report" params check backend="$backend" 2>&1) || die "--${msg#*parameters: }"
[[ ${SDPA_THROTTLE_THRESHOLD-auto} =~ ^(auto|0(\.[0-9]+)?|1(\.0+)?|\.[0-9]+)$ ]] ||
  die "--throttle-threshold '$SDPA_THROTTLE_THRESHOLD': accepted: auto, or a fraction 0 to 1"
case $time_limit in ''|*[!0-9]*|0?*) die "--time-limit '$time_limit': whole seconds, e.g. 600" ;; esac
case ${check_timeout:-1} in *[!0-9]*|0*) die "--check-timeout '$check_timeout': whole seconds >= 1" ;; esac
[[ ${step_guard:-0} =~ ^([0-9]+(\.[0-9]*)?|\.[0-9]+)$ ]] || die "--step-guard '$step_guard': a factor >= 0 (0: off), e.g. 4"
if [ -n "$left_out" ]; then
  [ -f "$left_out" ] && [ -r "$left_out" ] || die "--left-out '$left_out': not a readable file"
  left_out=$(cd "$(dirname "$left_out")" && pwd)/$(basename "$left_out")
fi
for f in "$bench" "$report"; do
  [ -x "$f" ] || die "$f is missing: run this script from an unpacked bundle (make bundle)"
done
if [ -n "$out" ]; then case $out in *.tar.gz) ;; *) die "--out $out: must end in .tar.gz" ;; esac; fi

# ---- --pack DIR: what a SIGKILL left ------------------------------------------------------
if [ -n "$pack_dir" ]; then
  [ ${#parts[@]} -eq 0 ] && [ -z "$resume" ] && [ $plan_only = 0 ] || die "--pack takes only --out"
  [ -d "$pack_dir/state" ] || pack_dir=$(dirname "$pack_dir") # given campaign-<id>/ itself
  [ -d "$pack_dir/state" ] && [ -s "$pack_dir/state/out" ] ||
    die "--pack $pack_dir: not the work directory of a campaign (no state/; it is <out>.partial/)"
  work=$(cd "$pack_dir" && pwd) state=$work/state
  root=$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'campaign-*' | head -n 1)
  [ -n "$root" ] || die "--pack $pack_dir: no campaign-<id>/ inside"
  id=${root##*/campaign-} t0=$(date +%s) total_est=0 cur_part=
  if [ -n "$out" ]; then case $out in /*) ;; *) out=$PWD/$out ;; esac; printf '%s\n' "$out" >"$state/out"; fi
  [ -e "$(cat "$state/out")" ] && die "--pack: $(cat "$state/out") exists; give another --out"
  if [ -s "$state/current" ]; then # the step a SIGKILL stopped
    IFS=$'\t' read -r s_name cur_part s_start s_est <"$state/current"
    [ "$cur_part" = - ] && cur_part=
    record "$s_name" 137 $(( t0 - s_start )) "$s_est" "killed (SIGKILL, or the node went away) during this step"
    rm -f "$state/current"
  fi
  cur_part=
  finish "killed (SIGKILL, or the node went away); packed by campaign.sh --pack" || exit 3
  echo "campaign $id: packed what was measured: $(cat "$state/out" 2>/dev/null || echo "$out")" >&2
  exit 0
fi

experiments=$(cd "$here/experiments" && ls -d */ 2>/dev/null | tr -d / | sort)
id=$("$here/experiments/new-run.sh" --id $$) || die "cannot make a campaign id (experiments/new-run.sh)"
[ -n "$out" ] || out=$PWD/campaign-$id.tar.gz
case $out in /*) ;; *) out=$PWD/$out ;; esac
work=${out%.tar.gz}.partial

# ---- --resume: the parts an earlier campaign planned and did not complete ------------------
resumes= resume_device=
if [ -n "$resume" ]; then
  [ ${#parts[@]} -eq 0 ] || die "--resume runs the parts the earlier campaign left; no --part with it"
  rtmp=$(mktemp -d "$(dirname "$out")/.campaign-resume.XXXXXX") || die "--out $out: its directory is not writable"
  if [ -d "$resume" ]; then
    cjson=$(find "$resume" -maxdepth 2 -name campaign.json -type f | head -n 1)
  else
    tar -xzf "$resume" -C "$rtmp" --no-same-owner --wildcards '*/campaign.json' 2>/dev/null
    cjson=$(find "$rtmp" -maxdepth 2 -name campaign.json -type f | head -n 1)
  fi
  [ -n "$cjson" ] || { rm -rf "$rtmp"; die "--resume $resume: no campaign.json (a campaign tarball or directory$([ -d "$resume/state" ] && echo "; a killed campaign's work directory: campaign.sh --pack $resume first"))"; }
  rget() { "$report" get "$cjson" "$1" 2>/dev/null; }
  resumes=$(rget campaign_id) resume_device=$(rget device)
  [ "$(rget kind)" = gpu-campaign ] && [ -n "$resumes" ] ||
    { rm -rf "$rtmp"; die "--resume $resume: campaign.json is not a campaign's (kind gpu-campaign)"; }
  rget parts_planned.0 >/dev/null ||
    { rm -rf "$rtmp"; die "--resume $resume: campaign $resumes records no parts_planned (an older campaign.sh): give its missing parts with --part"; }
  [ "$(rget quick)" = true ] && quick=1 || quick=0
  i=0 planned_before=() done_before=" "
  while p=$(rget "parts_planned.$i"); do planned_before+=("$p"); i=$((i + 1)); done
  i=0; while p=$(rget "parts_completed.$i"); do done_before="$done_before$p "; i=$((i + 1)); done
  rm -rf "$rtmp"
  for p in "${planned_before[@]}"; do case $done_before in *" $p "*) ;; *) parts+=("$p") ;; esac; done
  if [ ${#parts[@]} -eq 0 ]; then echo "campaign.sh: --resume: campaign $resumes completed every part it planned; nothing to do" >&2; exit 0; fi
  echo "campaign.sh: resuming campaign $resumes ($resume_device): ${parts[*]}" >&2
fi

# The parts to run, in order: every part, or those given (checked against what the bundle has).
# Sanitizers and profiles come before the scaling sweep and the peers: under a time limit the last
# parts are the ones left for a later command, and on the Hopper line's first device the checks of
# its hazards and stage 7g's go/no-go (profiles-gate, paper/methods.md#prereg-stage7g) outweigh
# the context that scaling and peers add.
all_parts=(probes matrix ceilings $(for e in $experiments; do echo "experiment:$e"; done) history sanitizers profiles scaling peers)
part_S=
if [ ${#parts[@]} -gt 0 ]; then
  for p in "${parts[@]}"; do
    case $p in
      experiment:*) [ -d "$here/experiments/${p#experiment:}" ] || die "--part $p: no such experiment; accepted: $(echo $experiments)" ;;
      history|scaling|ceilings|peers|sanitizers|profiles|probes|matrix) ;;
      scaling:*) part_S=$(echo "${p#scaling:}" | tr , ' ')
        # Digits only, none 0 or with a leading 0 (an empty problem; octal to the shell), at least one.
        case " $part_S " in *[!0-9\ ]*|*\ 0*) part_S= ;; esac
        [ -n "${part_S// /}" ] || die "--part $p: expected scaling:S1,S2,... (integers >= 1)" ;;
      *) die "--part '$p': accepted: experiment:<name>, history, scaling, scaling:S1,S2,..., ceilings, peers, sanitizers, profiles, probes, matrix" ;;
    esac
  done
  planned=()
  for p in "${all_parts[@]}"; do for q in "${parts[@]}"; do [ "$p" = "$q" ] && planned+=("$p"); done; done
  for q in "${parts[@]}"; do case $q in scaling:*) planned+=("$q") ;; esac; done
else
  planned=("${all_parts[@]}")
fi
# --first P (repeatable): P runs before the other planned parts, in the order given; the others keep
# theirs. Under a time limit the parts at the end are the ones left for a later command: a short
# lease (short-lease.sh) puts first what only its device can measure.
if [ ${#firsts[@]} -gt 0 ]; then
  rest=()
  for q in "${firsts[@]}"; do
    n=0; for p in "${planned[@]}"; do [ "$p" = "$q" ] && n=1; done
    [ $n = 1 ] || die "--first $q: not a part this campaign plans (planned: ${planned[*]})"
  done
  for p in "${planned[@]}"; do
    n=0; for q in "${firsts[@]}"; do [ "$p" = "$q" ] && n=1; done
    [ $n = 1 ] || rest+=("$p")
  done
  planned=()
  for q in "${firsts[@]}"; do
    n=0; for p in "${planned[@]}"; do [ "$p" = "$q" ] && n=1; done # a part given twice runs once
    [ $n = 1 ] || planned+=("$q")
  done
  planned+=("${rest[@]}")
fi

# The plan: each step's budget in seconds on an H100. The steps that sample (scaling, the torch
# peers, sanitizers) stop starting work once their budget is spent and record what they left;
# the others are bounded by their sampling limits (--max-time). An L4 is slower on the timed and
# checked work: the plan prints its total as L4_FACTOR x the H100's, and the time limit's checks
# scale the budgets by it on an L4 (the full plan must stay near one 10-minute command on an
# H100, 8 minutes before the Hopper line's experiments, and within 25 on an L4; quick plans
# are smoke runs).
L4_FACTOR=2.4
# shellcheck disable=SC2034 # b_prof_gate*: read by name (gate_profiles, ${!b})
if [ $quick = 1 ]; then
  hist_shapes=(--shape small); hist_args=(--iters 5 --min-time 0 --max-time 5) mission=small
  matrix_args=(--shape small --shape ragged --shape single) matrix_seeds=0 b_matrix=20
  matrix_wide_args=(--shape ragged-d128 --shape ragged-causal --shape ragged-d128-causal)
  scaling_S="128 256" peer_shape=small san_shape=ragged deep_shapes=ragged-d128-causal
  b_probe=5 b_checks=10 b_probes=5 b_ceil=10 b_exp=20 b_hist=20 b_warm=10 b_aa=10 b_scaling=20 b_cublas=10 b_torch=20 b_san=30 b_prof=30 b_prof_gate=20 b_prof_gate_d128=20 b_prof_gate_causal=5 b_pack=5
else
  hist_shapes=(--shape mission --shape long); hist_args=(--iters 100 --min-time 1 --max-time 10) mission=mission
  matrix_args=(--shape small --shape mission --shape ragged --shape partial --shape single --shape label-a)
  matrix_wide_args=(--shape ragged-d128 --shape ragged-causal --shape ragged-d128-causal --shape mission-d128
                    --shape mission-causal --shape mission-d128-causal)
  matrix_seeds=0,1,2 b_matrix=20
  scaling_S="128 256 512 1024 2048 4096 8192 16384" peer_shape=mission san_shape=ragged
  # The deep checks: S = 512 is 16 key tiles of 32 and 4 of 128 against a ring of 3 slots (every
  # ring wraps at least once), with and without the causal mask, at D = 64 and 128; S = 200 has
  # whole 128-key tiles and a masked last one (stage 7i's two bodies); long (S = 2048) wraps a
  # 128-key ring five times, as the timed steps' shapes do, here under the check's short timeout.
  deep_shapes="mission mission-causal mission-d128 mission-d128-causal partial long"
  # From the first H100 (campaign 20261127T092705Z, steps in seconds: ceilings 6, experiments
  # 6-10, history 12, A/A control 3, scaling to S = 8192 44 and S = 16384 alone 8, peers-torch
  # 17-20, sanitizers 4, profiles 6) with about twice that as margin (sanitizers more: the Hopper
  # line's kernels have not run under them); the scaling budget lets the 4x-the-last-S
  # prediction admit S = 16384.
  # The checks: 4 s for 11 variants at the single shape; the deep checks add, per variant, one
  # process and up to four fp64 references of ~0.3 GFLOP (each well under a second): ~25 s for 15.
  # profiles-gate is not measured yet: one ncu process, eight launches at (2,32,8192,64) of ~1.1
  # TFLOP each (~10 ms at stage 6's 100 TFLOP/s, fewer from 7b on), ~40 replays each, plus the
  # check's input generation (~2 s, one thread) and sampled references at that shape (both fp64
  # ones and the mirror on tiles of 32 and of 128: ~70 CPU-seconds, ~5 s on 16; the mirror took
  # ~40 s alone before it ran on every CPU): ~15 s, doubled as the others;
  # profiles-gate-d128 the same for six launches at (2,16,8192,128) (7e, 7f, 7i, 7j, 7k, 7l), also ~1.1
  # TFLOP each: ~12 s; profiles-gate-causal two at (2,32,8192,64) causal (7l, 7m), half the work
  # each: ~5 s.
  b_probe=10 b_checks=30 b_probes=5 b_ceil=12 b_exp=20 b_hist=25 b_warm=10 b_aa=6 b_scaling=90 b_cublas=10 b_torch=40 b_san=30 b_prof=20 b_prof_gate=30 b_prof_gate_d128=20 b_prof_gate_causal=10 b_pack=5
fi
# SDPA_SCALING_BUDGET (seconds) replaces the scaling step's budget: for tests, whose quick sweeps
# must not be cut short by a loaded machine (the sweep skips an S predicted not to fit its budget).
if [ -n "${SDPA_SCALING_BUDGET:-}" ]; then
  case $SDPA_SCALING_BUDGET in *[!0-9]*|0*) die "SDPA_SCALING_BUDGET '$SDPA_SCALING_BUDGET': whole seconds >= 1" ;; esac
  b_scaling=$SDPA_SCALING_BUDGET
fi
# The gate shapes the Hopper line is profiled at, each with every variant that an experiment times
# there, in the bundle's order (part profiles): stage 7f's (2, 32, 8192, 64), whose profile decides
# stage 7g's go/no-go (paper/methods.md#prereg-stage7g; 7a to 7f, 7h and 7i); stage 7j's at D = 128,
# whose issue and XU shares its failure reading names (#prereg-stage7j; 7e, 7f, 7i, 7j, 7k and 7l);
# stage 7m's causal one, whose SM busy shares and DRAM bytes its failure reading names
# (#prereg-stage7m; 7l and 7m). One line each: STEP EXPERIMENT QUICK_SHAPE (quick plans use small
# shapes: smoke that decides nothing); the file is the step's name, "profiles" made "profile"
# (profile-gate.json, ...), the budget b_prof_gate..., its dashes made underscores.
gate_profiles=(
  "profiles-gate stage7f-overlap small"
  "profiles-gate-d128 stage7j-pingpong ragged-d128"
  "profiles-gate-causal stage7m-causal-lpt ragged-causal"
)
# gate_at EXP: EXP's timing shape on one line and those variants on the next (nothing without EXP).
gate_at() {
  local s e vs=
  [ -f "$here/experiments/$1/params.sh" ] || return 0
  # shellcheck disable=SC1090 # the bundle's own resolved parameters (make bundle), as part_experiment
  s=$(. "$here/experiments/$1/params.sh" && echo "$timing_shape")
  for e in $experiments; do
    # shellcheck disable=SC1090
    vs="$vs $(. "$here/experiments/$e/params.sh" && [ "$timing_shape" = "$s" ] && echo "$baseline $candidate")"
  done
  printf '%s\n%s\n' "$s" "$(echo $vs | tr ' ' '\n' | awk 'NF && !seen[$0]++' | tr '\n' ' ' | sed 's/ $//')"
}
# Per step: gp_exp (its experiment), gp_shape (empty without it), gp_variants, gp_file, gp_budget.
declare -A gp_exp gp_shape gp_variants gp_file gp_budget
gp_steps=() gp_budget_args=()
for g in "${gate_profiles[@]}"; do
  read -r s e q <<<"$g"
  gp_steps+=("$s") gp_exp[$s]=$e gp_file[$s]=profile${s#profiles}.json
  b=b_prof${s#profiles}; b=${b//-/_}; gp_budget[$s]=${!b}
  { read -r gp_shape[$s]; read -r gp_variants[$s]; } < <(gate_at "$e")
  [ $quick = 1 ] && [ -n "${gp_shape[$s]}" ] && gp_shape[$s]=$q
  gp_budget_args+=(--budget "${s//-/_}=${gp_budget[$s]}")
done
unset g s e q b
warm_args=("${hist_args[@]:0:4}" --max-time 8)
# Quick plans sample little (3 rounds for the scaling series, 5 for the peers; no minimum time):
# their timings are smoke, and the scaling and peer steps were ~18 of a quick emulated campaign's
# ~23 s.
if [ $quick = 1 ]; then peer_args=(--iters 5 --min-time 0 --max-time 5) scaling_iters=(--warmup 1 --iters 3)
else peer_args=(--iters 20 --min-time 0.5 --max-time 5) scaling_iters=(--warmup 2 --iters 10); fi
# The checks' timeout bounds what a hung kernel costs: on the first H100 all 11 checks took 4 s
# (contexts included), and at 60 s six hanging Hopper rows would have spent 6 minutes of a
# 15-minute lease. Quick plans (the emulator's smoke runs) keep 30.
: "${check_timeout:=$([ $quick = 1 ] && echo 30 || echo 20)}"
[ -n "$part_S" ] && scaling_S=$part_S
# part_steps PART: "NAME BUDGET" per step of the part.
part_steps() {
  case $1 in
    probes) echo "probes $b_probes" ;;
    matrix) echo "matrix $b_matrix" ;;
    ceilings) echo "ceilings $b_ceil" ;;
    experiment:*) echo "experiment-${1#experiment:} $b_exp" ;;
    history) printf '%s\n' "history $b_hist" "history-warm $b_warm" "aa-control $b_aa" ;;
    scaling|scaling:*) echo "scaling $b_scaling" ;;
    peers) printf '%s\n' "peers-cublas $b_cublas" "peers-torch $b_torch" ;;
    sanitizers) echo "sanitizers $b_san" ;;
    profiles) echo "profiles $b_prof"; for g in "${gp_steps[@]}"; do echo "$g ${gp_budget[$g]}"; done ;;
  esac
}
part_budget() { part_steps "$1" | awk '{ s += $2 } END { print s + 0 }'; }
overhead=$((b_probe + b_checks + b_pack))
total_est=$overhead
for p in "${planned[@]}"; do total_est=$((total_est + $(part_budget "$p"))); done
# With a time limit: a part starts only if it fits with a reserve (a tenth of the limit, at least
# 15 s) for packing; the campaign stops itself stop_reserve seconds before the limit.
stop_reserve=$((b_pack + 10)) usable=0
if [ "$time_limit" -gt 0 ]; then
  usable=$(( time_limit - (time_limit / 10 > 15 ? time_limit / 10 : 15) - overhead ))
  [ $usable -gt 0 ] || die "--time-limit $time_limit: too short for a campaign (probe, checks, device and pack alone take ~$overhead s plus a reserve)"
fi

plan_line() { [ "$2" -gt 0 ] && printf '    %-20s %4d s  %s\n' "$1" "$2" "$3" >&2; }
echo "campaign $id: backend $backend$([ $quick = 1 ] && echo ', quick')$([ "$time_limit" -gt 0 ] && echo ", time limit $time_limit s per command")" >&2
plan_parts() { # the planned parts as one phrase: "ceilings, 7 experiments, history, ..."
  local p n=0 words=()
  for p in "${planned[@]}"; do case $p in experiment:*) n=$((n + 1)) ;; esac; done
  for p in "${planned[@]}"; do
    case $p in experiment:*) [ $n -gt 0 ] && words+=("$n experiment$([ $n -eq 1 ] || echo s)") && n=0 ;; *) words+=("$p") ;; esac
  done
  local IFS=,; echo "${words[*]}" | sed 's/,/, /g'
}
echo "  plan: probe, checks, device, $(plan_parts), pack (budgets on an H100):" >&2
plan_line "probe+device" $b_probe "backend, device metadata, nvidia-smi -q"
plan_line checks $b_checks "each variant alone at the single shape, then at $deep_shapes, each under a ${check_timeout} s timeout (fault, hang)"
for p in "${planned[@]}"; do
  while read -r s b; do
    case $s in
      matrix) what="correctness of every variant: ${matrix_args[*]} --seeds $matrix_seeds, e4m3, seed-linear, outliers; D = 128 and causal: ${matrix_wide_args[*]}" ;;
      probes) what="wgmma/TMA layout probes against the PTX ISA (sm_90a GPUs only)" ;;
      ceilings) what="copy bandwidth, cuBLAS GEMM fp16/fp8 (sdpa-bench --ceilings)" ;;
      experiment-*) what=${s#experiment-} s=experiment ;;
      history) what="every variant, ${hist_shapes[*]}, one interleaved process" ;;
      history-warm) what="the same, warm L2, --shape $mission" ;;
      aa-control) what="A/A control: stage0 against itself, --shape $mission" ;;
      scaling) what="S = $scaling_S, every variant and the cuBLAS peer" ;;
      peers-cublas) what="cuBLAS unfused peer with every variant at $peer_shape" ;;
      peers-torch) what="PyTorch SDPA backends at $peer_shape and the scaling S values" ;;
      sanitizers) what="memcheck, racecheck, synccheck, initcheck, one process each, at $san_shape" ;;
      profiles) what="Nsight Compute, fixed metric set, every variant at $peer_shape" ;;
      profiles-gate*) e=${gp_exp[$s]%%-*}
        what="the same at stage ${e#stage}'s gate shape: ${gp_shape[$s]:+${gp_shape[$s]}, }${gp_variants[$s]:-no ${gp_exp[$s]} in this bundle}" ;;
    esac
    plan_line "$s" "$b" "$what"
  done < <(part_steps "$p")
done
plan_line pack $b_pack "campaign.json, SHA256SUMS, the tarball"
echo "  expected: $(awk -v t=$total_est -v f=$L4_FACTOR 'BEGIN {printf "%.1f min on an H100 (%d s), %.1f min on an L4", t / 60, t, t * f / 60}'); the tarball: $out" >&2

# --plan --time-limit: the parts in groups that fit one command each (first fit, in order).
if [ $plan_only = 1 ]; then
  [ "$time_limit" -gt 0 ] || exit 0
  echo "  groups for --time-limit $time_limit s: parts of at most $usable s each, besides ~$overhead s of probe, checks, device and pack" >&2
  g=() g_s=0 n_g=0
  flush() {
    [ ${#g[@]} -gt 0 ] || return 0
    n_g=$((n_g + 1))
    echo "    group $n_g (~$((g_s + overhead)) s): ${g[*]}" >&2
    printf '%s' "$0$([ $quick = 1 ] && echo ' --quick') --backend $backend --time-limit $time_limit"
    printf ' --part %s' "${g[@]}"
    # A plan reordered by --first: the group runs in the plan's order, not the campaign's.
    [ ${#firsts[@]} -eq 0 ] || printf ' --first %s' "${g[@]}"
    echo
    g=() g_s=0
  }
  for p in "${planned[@]}"; do
    b=$(part_budget "$p")
    [ $b -le $usable ] || echo "  warning: part $p (~$b s) alone exceeds a command's usable time ($usable s): it will be skipped; raise --time-limit" >&2
    [ $((g_s + b)) -le $usable ] || flush
    g+=("$p") g_s=$((g_s + b))
  done
  flush
  exit 0
fi

# ---- the work directory, beside --out, before anything is measured ------------------------
[ -e "$out" ] && die "--out $out exists; campaigns never overwrite results"
odir=$(dirname "$out")
[ -d "$odir" ] && [ -w "$odir" ] || die "--out $out: the directory $odir does not exist or is not writable"
[ -e "$work" ] && die "$work exists (a campaign killed earlier? campaign.sh --pack $work packs it); give another --out"
mkdir "$work" || die "cannot create $work beside --out"
state=$work/state root=$work/campaign-$id
mkdir -p "$state" "$root/logs" "$root/runs" "$work/tmp" "$work/dumps" || die "cannot write under $work"
printf '%s\n' "$out" >"$state/out"
probe_file=$work/tmp/write-test
{ printf 'x' >"$probe_file" && rm -f "$probe_file"; } 2>/dev/null || die "cannot write under $work"
export TMPDIR=$work/tmp # the children's temporaries come home too, or go with the work directory
t0=$(date +%s) cur_part= child= watchdog=
: >"$state/steps.tsv"
arg --id "$id" --bundle "$(cat "$here/VERSION" 2>/dev/null || echo unknown)" --started "$t0" --expected "$total_est" \
  --l4-factor "$L4_FACTOR" --budget "probe_device=$b_probe" --budget "checks=$b_checks" --budget "probes=$b_probes" --budget "matrix=$b_matrix" --budget "ceilings=$b_ceil" \
  --budget "experiment=$b_exp" --budget "history=$b_hist" --budget "history_warm=$b_warm" --budget "aa_control=$b_aa" \
  --budget "scaling=$b_scaling" --budget "peers_cublas=$b_cublas" --budget "peers_torch=$b_torch" \
  --budget "sanitizers=$b_san" --budget "profiles=$b_prof" "${gp_budget_args[@]}" --budget "pack=$b_pack"
[ $quick = 1 ] && arg --quick
[ "$time_limit" -gt 0 ] && arg --time-limit "$time_limit"
[ -n "$resumes" ] && arg --resumes "$resumes"
for p in "${parts[@]}"; do arg --part "$p"; done
for p in "${planned[@]}"; do arg --planned "$p"; done
set -m # each step in its own process group: a signal stops its whole tree
trap 'on_signal INT' INT
trap 'on_signal TERM' TERM
start_watchdog
cd "$here" || exit 2

# ---- probe: the backend, from sdpa-bench itself; never the emulator on a GPU node by default ----
gpu_node=$(ls -d "${SDPA_DEV_DIR:-/dev}"/nvidia[0-9]* 2>/dev/null | head -n 1)
want=$backend
[ "$backend" = auto ] && [ -n "$gpu_node" ] && want=cuda
if ! step probe 1 "$bench" --backend "$want" --probe; then
  sed 's/^/  /' "$root/logs/probe.log" >&2
  [ "$want" != "$backend" ] && echo "campaign.sh: --backend auto on a node with $gpu_node: the campaign never falls back to the emulator there; fix the cause above, or give --backend emu to measure the emulator on purpose" >&2
  echo "campaign.sh: --backend $want is not usable here; nothing was measured" >&2
  stop_watchdog; rm -rf "$work"; exit 2
fi
# auto on a node without /dev/nvidia*: CUDA if its probe says so, else the emulator.
if [ "$want" = auto ]; then
  "$bench" --backend cuda --probe >/dev/null 2>&1 && backend=cuda || backend=emu
else
  backend=$want
fi
arg --backend "$backend"
echo "  backend: $backend (from the probe)" >&2
: "${step_guard:=$([ "$backend" = cuda ] && echo 4 || echo 0)}"

# ---- checks: each variant alone, under a timeout ----------------------------------------
# Two processes per variant, each under the timeout: the single shape (its status: ok, fail,
# not_supported on this device...), then, where that ran, the deep check at the shapes that reach
# what a single key cannot (deep_shapes above): the K/V ring's wrap (the mbarrier parity flip),
# the causal tile count the producer and the consumers must agree on, head dimension 128. A kernel
# that hangs only there would otherwise hang the matrix and every timed step after it; its status
# becomes hang (or fault) and it is left out of them. Shapes a variant does not support are
# recorded as such and not run, so the deep check costs the D = 64 rows one shape.
listed=$("$bench" --list-variants | awk '$1 != "custom" {print $1}')
# check_status EXIT: the status of a check process's exit status.
check_status() {
  case $1 in 0) echo ok ;; 1) echo fail ;; 2) echo error ;; 124|137) echo hang ;; *) echo fault ;; esac
}
check_variants() {
  local v rc st log bad=0 s d drc dst deep=()
  mkdir -p "$root/checks/deep" "$root/logs/checks"
  for d in $deep_shapes; do deep+=(--shape "$d"); done
  for v in $listed; do
    log=logs/checks/$v.log s=$(date +%s)
    # Seen hanging or faulting by the caller (--left-out): its status from the exit status the
    # caller names ("... exit N"; else a fault), its log says so, and no process runs it again.
    why=$([ -n "$left_out" ] && awk -F'\t' -v v="$v" '$1 == v { print $2; exit }' "$left_out")
    if [ -n "$why" ]; then
      rc=$(printf '%s\n' "$why" | sed -n 's/.*exit \([0-9][0-9]*\)$/\1/p')
      st=$(check_status "${rc:-3}")
      [ "$st" = ok ] || [ "$st" = fail ] && st=fault # a caller leaves out only what it cannot run
      printf 'not run again: the caller left it out (--left-out %s): %s\n' "$left_out" "$why" >"$root/$log"
      echo "$v: $st (left out by the caller: $why)"
      printf '%s\t%s\t%s\t%s\t%s\n' "$v" "$st" "${rc:-3}" 0 "$log" >>"$state/checks.tsv"
      bad=1
      continue
    fi
    timeout -k 5 "$check_timeout" "$bench" --backend "$backend" --check-only --quiet --variant "$v" --shape single \
      --seeds 0 --out "$root/checks/$v.json" >"$root/$log" 2>&1
    rc=$?
    st=$(check_status "$rc")
    [ "$st" = ok ] && "$report" get "$root/checks/$v.json" not_supported.0.variant >/dev/null 2>&1 && st=not_supported
    if [ "$st" = ok ] || [ "$st" = fail ]; then
      timeout -k 5 "$check_timeout" "$bench" --backend "$backend" --check-only --quiet --variant "$v" "${deep[@]}" \
        --seeds 0 --out "$root/checks/deep/$v.json" >"$root/logs/checks/$v-deep.log" 2>&1
      drc=$?
      dst=$(check_status "$drc")
      # The worse of the two (the single shape passed, or only failed): a wrong result there is
      # a fail (the timed steps still run it and record it); a hang, a fault or an error there
      # leaves the variant out as it would here. The record names the process that decided.
      case $dst in fail|hang|fault|error) st=$dst rc=$drc log=logs/checks/$v-deep.log ;; esac
    fi
    echo "$v: $st (exit $rc)"
    printf '%s\t%s\t%s\t%s\t%s\n' "$v" "$st" "$rc" $(( $(date +%s) - s )) "$log" >>"$state/checks.tsv"
    case $st in hang|fault|error) bad=1 ;; esac
  done
  return $bad
}
: >"$state/checks.tsv"
step checks "$b_checks" check_variants
with_status() { awk -F'\t' -v s=" $1 " 'index(s, " " $2 " ") {print $1}' "$state/checks.tsv"; }
all_variants=$(with_status "ok fail")
faulted=$(with_status "fault hang")
unsupported=$(with_status not_supported)
[ -z "$faulted" ] || echo "  faulted or hung in its own check (left out of every timed step): $(echo $faulted)" >&2
[ -z "$(with_status error)" ] || echo "  could not be checked (see logs/checks/): $(echo $(with_status error))" >&2
[ -z "$unsupported" ] || echo "  not supported on this device (left out): $(echo $unsupported)" >&2
variant_args=$(for v in $all_variants; do printf ' --variant %s' "$v"; done)
# leave_out V STEP (campaign-lib.sh's step, when the step guard stopped STEP with V's kernel in
# flight): V is left out of every step after it, as a variant that hung in its own check is (the
# sanitizers run memcheck on it alone, at their shape only); false when V is no variant still in.
guard_hung=
leave_out() {
  case " $(echo $all_variants) " in *" $1 "*) ;; *) return 1 ;; esac
  all_variants=$(for v in $all_variants; do [ "$v" = "$1" ] || echo "$v"; done)
  variant_args=$(for v in $all_variants; do printf ' --variant %s' "$v"; done)
  faulted="$faulted $1" guard_hung="$guard_hung $1"
  printf '%s\t%s\n' "$1" "$2" >>"$state/guard-hung.tsv"
  echo "  $1: in flight when the step guard stopped $2: left out of the steps after it" >&2
}
# why_out V: why a variant is not among all_variants (its own check's status, or the step it hung in).
why_out() {
  local s
  s=$(awk -F'\t' -v v="$1" '$1 == v { s = $2 } END { print s }' "$state/guard-hung.tsv" 2>/dev/null)
  if [ -n "$s" ]; then echo "$1 hung in step $s (stopped by the step guard)"
  else echo "$1 did not pass its own check ($(awk -F'\t' -v v="$1" '$1 == v {print $2}' "$state/checks.tsv"))"; fi
}

# ---- device: its metadata, from one run of the variants that did not fault ---------------
# sdpa-bench with no --variant runs every variant: each step that lists variants needs one at least.
none_left="no variant passed its own check (variant_checks)"
if [ -z "$all_variants$unsupported" ]; then
  skip_step device 5 "$none_left"
else
  # shellcheck disable=SC2046
  step device 5 "$bench" --backend "$backend" --check-only --quiet \
    $(for v in $all_variants $unsupported; do printf ' --variant %s' "$v"; done) --shape single --seeds 0 --out "$root/device-run.json"
fi
# Under a time limit: a hung nvidia-smi (after an Xid) in the foreground would defer the TERM trap
# that packs the campaign until it returned.
command -v nvidia-smi >/dev/null 2>&1 && timeout -k 5 30 nvidia-smi -q >"$root/nvidia-smi.txt" 2>&1
device=$("$report" get "$root/device-run.json" meta.device.name 2>/dev/null)
for v in $all_variants; do [ -n "$device" ] && break; device=$("$report" get "$root/checks/$v.json" meta.device.name 2>/dev/null); done
[ -n "$device" ] || device=$([ "$backend" = emu ] && echo emulator || echo "unknown CUDA device")
if [ -n "$resume_device" ] && [ "$resume_device" != "$device" ]; then
  echo "campaign.sh: --resume: campaign $resumes was measured on '$resume_device', this node has '$device'; a resumed campaign adds parts for the same kind of device only" >&2
  stop_watchdog; rm -rf "$work"; exit 2
fi
arg --device "$device"
# The time limit's budgets scale by the L4 factor on an L4 (the budgets are an H100's).
factor=1; case $device in "NVIDIA L4") factor=$L4_FACTOR ;; esac # not the L40S, a faster card
cublas_peer=$("$bench" --list-peers 2>/dev/null | awk '$1 == "cublas-unfused" {print $1}')
measured=$backend

# fits BUDGET_S: the part fits what is left of --time-limit (always, without one).
fits() {
  [ "$time_limit" -gt 0 ] || return 0
  awk -v b="$1" -v f="$factor" -v used=$(( $(date +%s) - t0 )) -v limit="$time_limit" -v res=$(( time_limit / 10 > 15 ? time_limit / 10 : 15 )) \
    'BEGIN { exit !(used + b * f + res <= limit) }'
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

# ---- the parts ---------------------------------------------------------------------------
# shellcheck source=tools/campaign/campaign-parts.sh
. "$here/campaign-parts.sh"

# run_part PART: its steps if its budget fits the time limit; else each recorded as skipped. A
# part whose steps all ran (passed or failed) is completed; resuming runs the others.
left_for_later=()
run_part() {
  local p=$1 b s sb
  cur_part=$p
  b=$(part_budget "$p")
  if ! fits "$b"; then
    while read -r s sb; do
      skip_step "$s" "$sb" "time limit: ~$(( time_limit - ($(date +%s) - t0) )) s left of --time-limit $time_limit, the part needs ~$b s; run it in a later command (--resume this campaign's tarball)"
    done < <(part_steps "$p")
    left_for_later+=("$p")
    cur_part=
    return
  fi
  case $p in
    probes) part_probes ;;
    matrix) step matrix "$b_matrix" matrix ;;
    ceilings) part_ceilings ;;
    experiment:*) part_experiment "${p#experiment:}" ;;
    history) part_history ;;
    scaling|scaling:*) step scaling "$b_scaling" scaling ;;
    peers) part_peers ;;
    sanitizers) part_sanitizers ;;
    profiles) part_profiles ;;
  esac
  echo "$p" >>"$state/completed"
  cur_part=
}
for p in "${planned[@]}"; do run_part "$p"; done

# ---- pack ---------------------------------------------------------------------------------
stop_watchdog
trap '' INT TERM # packing is short; a signal now would only lose it
failed=$(awk -F'\t' '$3 != "-" && $3 != 0' "$state/steps.tsv" | wc -l)
finish || exit 3
echo "campaign $id: done in $(( $(date +%s) - t0 )) s; results: $out" >&2
[ ${#left_for_later[@]} -eq 0 ] || echo "  left for a later command (time limit): ${left_for_later[*]}: campaign.sh --resume $out" >&2
echo "  bring it home and run: make ingest RESULTS=$(basename "$out")" >&2
[ ${#left_for_later[@]} -eq 0 ] || exit 4
[ "$failed" -eq 0 ]
