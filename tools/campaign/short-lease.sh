#!/usr/bin/env bash
# short-lease.sh: the README's first hour (steps 2 to 5) as ONE command, for a lease whose whole
# device time is about one command (a borrowed node for 15 minutes). Everything it measures is a
# file under OUT the moment its step ends; a kill at any point loses only the running step.
#   short-lease.sh BUNDLE OUT DEADLINE_S
# BUNDLE      an unpacked bundle (make bundle: build/bundle, bin/sdpa-bench and campaign.sh), or its
#             tarball (build/sdpa-bundle-<sha>.tar.gz, ~6 MB against the directory's ~25: a device
#             lease that copies the checkout caps what travels), unpacked into a temporary directory
#             (the caller's TMPDIR, else /tmp) and removed at the end; its time counts
# OUT         an empty or new directory whose files come home
# DEADLINE_S  seconds this command may run in all (the node's limit, less a margin)
# Order, most valuable first (tools/campaign/README.md: never give up steps 2 to 4): environment
# and probe; each variant alone under a 20 s timeout (smoke-<v>.json; a hung kernel costs 20 s, not
# the lease; a wrong one leaves its output in failed/); the e4m3 correctness matrix and its D = 128
# / causal twin, over the variants whose smoke ended with a verdict (a hung or faulting one is left
# out: left-out.txt); the first variant that hung and the first that faulted run again with the
# driver's GPU core dumps on (gpu-capture.sh: capture-<v>/, where the threads stood); the campaign
# with what is left less 45 s as its --time-limit, the probes, the profiles and the Hopper line's
# experiments first (it plans its own parts, packs c1.tar.gz, exit 4 when parts are left: --resume
# it later); the seed-linear and outlier matrices where its tarball lacks them (steps.tsv: in-c1
# where it has them). Each step runs only if its limit fits what is left. The loose files are
# packed into node-files.tar.gz after every step; steps.tsv says what ran, its exit status and
# seconds. Tested on a stand-in bundle by tests/campaign/short-lease.sh.
set -u
t0=$SECONDS
[ $# -eq 3 ] || { echo "usage: short-lease.sh BUNDLE OUT DEADLINE_S" >&2; exit 2; }
out=$2 deadline=$3
case $deadline in ''|*[!0-9]*) echo "short-lease.sh: DEADLINE_S '$deadline': whole seconds" >&2; exit 2 ;; esac
if [ -f "$1" ]; then
  case $1 in *.tar.gz) ;; *) echo "short-lease.sh: BUNDLE '$1': a directory or a .tar.gz from make bundle" >&2; exit 2 ;; esac
  unpacked=$(mktemp -d "${TMPDIR:-/tmp}/short-lease-bundle.XXXXXX") || exit 2
  trap 'rm -rf "$unpacked"' EXIT
  tar -xzf "$1" -C "$unpacked" --no-same-owner || { echo "short-lease.sh: BUNDLE '$1' does not unpack" >&2; exit 2; }
  bundle=$unpacked/bundle
else
  bundle=$(cd "$1" 2>/dev/null && pwd) || { echo "short-lease.sh: BUNDLE '$1' does not exist" >&2; exit 2; }
fi
B=$bundle/bin/sdpa-bench C=$bundle/campaign.sh here=$(cd "$(dirname "$0")" && pwd)
[ -x "$B" ] && [ -x "$C" ] || { echo "short-lease.sh: $1 is not a bundle (bin/sdpa-bench, campaign.sh)" >&2; exit 2; }
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
# The loose files live three folders down (OUT/tmp/lease/files/), where a lease that brings back
# only a few files of OUT, none deeper than two folders, does not look; OUT itself holds only
# packed files: node-files.tar.gz, rewritten after every step (a kill loses only the running
# step), and the campaign's tarball.
work=$out/tmp/lease f=$out/tmp/lease/files
mkdir -p "$f" "$out/tmp/t" || exit 2
pack() { tar -C "$work" -czf "$out/node-files.tar.gz.tmp" files && mv -f "$out/node-files.tar.gz.tmp" "$out/node-files.tar.gz"; }
export TMPDIR=$out/tmp/t PATH=/usr/local/nvidia/bin:/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=/usr/local/nvidia/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
left() { echo $((deadline - (SECONDS - t0))); }
# step NAME LIMIT_S CMD...: CMD under `timeout -s KILL`, its output in NAME.log, one line in steps.tsv.
step() {
  local name=$1 lim=$2 s=$SECONDS rc; shift 2
  if [ "$(left)" -lt "$lim" ]; then printf '%s\tskipped\t0\t%s\n' "$name" "$lim" >>"$f/steps.tsv"; pack; return 0; fi
  timeout -s KILL "$lim" "$@" >"$f/$name.log" 2>&1; rc=$?
  printf '%s\t%s\t%s\t%s\n' "$name" "$rc" $((SECONDS - s)) "$lim" >>"$f/steps.tsv"
  pack
  return $rc
}
printf 'step\texit\tseconds\tlimit\n' >"$f/steps.tsv"
env_txt() {
  date -u +%FT%TZ; uname -r
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,power.limit,mig.mode.current,persistence_mode,temperature.gpu --format=csv
  nvidia-smi -L; nvcc --version | tail -2
  ldconfig -p | grep -E 'libcuda\.|libnvidia-ml|libcublas' | head
  python3 -c 'import torch; print("torch", torch.__version__, torch.version.cuda, torch.cuda.is_available())'
  command -v compute-sanitizer ncu cuobjdump
  echo "bundle: $(cat "$1/VERSION" 2>/dev/null || echo 'no VERSION file')" # the commit whose kernels run
}
step env 40 bash -c "$(declare -f env_txt); env_txt \"\$1\"" _ "$bundle" # timeout runs programs, not functions
# Nothing touches the GPU unless the probe ran and passed (a deadline too short to probe included).
probed=0
[ "$(left)" -lt 20 ] || probed=1
step probe 20 "$B" --backend cuda --probe || probed=0 # 20 s: a fresh VM's first context can take seconds
[ $probed = 1 ] || { echo "short-lease.sh: CUDA unusable here, or no time to probe it (probe.log, steps.tsv)" >&2; deadline=0; }
mapfile -t variants < <("$B" --list-variants 2>/dev/null | awk '{ print $1 }')
# The smoke shapes are every shape the matrices run (partial tiles, the K/V ring's wrap at S = 512:
# 16 key tiles of 32, 4 of 128, against 3 slots, the causal mask, D = 128; partial, S = 200, is the
# only one with whole 128-key tiles and a masked last one, stage 7i's two bodies), all small: a
# fault at a shape the smoke skipped would cost whole matrix files (shapes a variant does not
# support are recorded as such, not run), and the long shape (S = 2048: 16 key tiles of 128 against 3
# slots, so the ring wraps five times, where the timed steps' shapes first would, under long guards).
# The matrices then run the variants whose smoke ended with
# a verdict (exit 0, or 1: a wrong result, which the matrices record): one that hung or faulted
# there would stop a matrix process (a hang until its limit, a fault poisons the CUDA context for
# every variant after it) and lose the whole file. What was left out: left-out.txt.
# SHORT_LEASE_SMOKE_S: a smoke's limit (tests shorten it; a lease keeps 20).
smoke_s=${SHORT_LEASE_SMOKE_S:-20}
smoke_cmd() { # sets sc: the smoke of variant $1, without its --out
  sc=("$B" --backend cuda --check-only --variant "$1" --shape single --shape ragged
    --shape mission --shape mission-causal --shape mission-d128 --shape mission-d128-causal
    --shape small --shape partial --shape label-a --shape ragged-causal --shape ragged-d128 --shape ragged-d128-causal
    --shape long --seeds 0)
}
healthy=()
: >"$f/left-out.txt"
# A wrong result comes home as more than its metrics: the output of each variant's first failing
# shape (sdpa-bench --dump-failed: failed/<v>-<shape>-s0/o.npy and meta.json; the inputs regenerate
# from the seed), which `sdpa-report dump-diff` sets against the emulator's output of the same
# problem to show the error's pattern (which fragment rows, tiles, columns). At most 16 MB in all
# (the long shape's output is 2 MB): past that, the later smokes dump nothing.
failed_kb() { du -sk "$f/failed" 2>/dev/null | awk '{ s = $1 } END { print s + 0 }'; }
for v in "${variants[@]}"; do
  smoke_cmd "$v"
  dfa=()
  [ "$(failed_kb)" -lt 16384 ] && dfa=(--dump-failed "$f/failed")
  step "smoke-$v" "$smoke_s" "${sc[@]}" --out "$f/smoke-$v.json" "${dfa[@]}"
  st=$(awk -F'\t' -v n="smoke-$v" '$1 == n { s = $2 } END { print s }' "$f/steps.tsv")
  case $st in
    0|1) healthy+=(--variant "$v") ;;
    *) printf '%s\tsmoke exit %s\n' "$v" "$st" >>"$f/left-out.txt" ;;
  esac
done
# matrix NAME LIMIT ARGS...: the matrix over the healthy variants; without any, skipped (sdpa-bench
# with no --variant would run every variant).
matrix() {
  local name=$1 lim=$2; shift 2
  if [ ${#healthy[@]} -eq 0 ]; then printf '%s\tskipped\t0\t%s\n' "$name" "$lim" >>"$f/steps.tsv"; pack; return 0; fi
  step "$name" "$lim" "$B" --backend cuda --check-only "${healthy[@]}" "$@" --out "$f/$name.json"
}
mshapes=(--shape small --shape mission --shape ragged --shape partial --shape single --shape label-a)
matrix matrix-e4m3 60 "${mshapes[@]}" --seeds 0,1,2 --codec e4m3
# Head dimension 128 and causal masks (the register-resident rows only; never run on a GPU before).
matrix matrix-wide 60 --shape ragged-d128 --shape ragged-causal --shape ragged-d128-causal \
  --shape mission-d128 --shape mission-causal --shape mission-d128-causal --seeds 0,1,2 --codec e4m3
# A smoke that hung (exit 137: killed at its limit) or faulted (any exit but 0, 1 and 137) says only
# that: the same command again under gpu-capture.sh brings home the GPU core dump and cuda-gdb's
# reading of it (each resident thread's source line; capture-<v>/), from which a CPU session can
# debug a kernel that never ran on hardware before. The first hang and the first fault only (a
# second is most likely the same defect in a descendant), up to smoke_s + 90 s each, and only while
# the campaign keeps at least 300 s after it: a variant that hangs loses its experiments anyway.
capture_s=$((smoke_s + 90))
for kind in hang fault; do
  v=$(awk -F'\t' -v k=$kind '{ n = $2; sub(/^smoke exit /, "", n) } n ~ /^[0-9]+$/ && (k == "hang") == (n == 137) { print $1; exit }' "$f/left-out.txt")
  [ -n "$v" ] || continue
  if [ $(($(left) - capture_s)) -lt 300 ]; then
    printf 'capture-%s\tskipped\t0\t%s\n' "$v" "$capture_s" >>"$f/steps.tsv"
    continue
  fi
  smoke_cmd "$v"
  step "capture-$v" "$capture_s" bash "$here/gpu-capture.sh" "$f/capture-$v" "$smoke_s" "${sc[@]}" \
    --out "$f/capture-$v/smoke.json"
done
# The campaign: what is left, less 45 s: 15 between the TERM at its limit and the KILL (on TERM it
# packs what it has; it stops itself 15 s before the limit anyway), and 30 for --pack after a KILL
# (seconds: a tar of ~15 MB of JSON). The seed-linear and outlier matrices after it are its own
# matrix part's files too: they run only where its tarball lacks them, in whatever it leaves.
tl=$(( $(left) - 45 ))
# What only a Hopper device can measure goes first (campaign.sh --first), since under the time limit
# the last parts are left for a later command: the probes, the profiles, whose gate-shape profiles
# decide stage 7g (paper/methods.md#prereg-stage7g) and inform stage 7j's and 7m's failure readings (seconds,
# where thirteen experiments of up to ~35 s each could crowd them out), and the Hopper line's experiments (stage7*, sm_90a; an L4 records them
# as not supported in seconds); then the rest in the campaign's order. The campaign's own checks of
# each variant get 10 s (the first H100 checked all 11 in 4 s), and the variants the smokes left out
# are recorded there as they ended (--left-out), not run again: a hang is not paid for twice.
# The campaign's arguments, the same for its plan and its run.
cargs=(--backend cuda --first probes --first profiles)
for e in "$bundle"/experiments/stage7*/; do [ -d "$e" ] && cargs+=(--first "experiment:$(basename "$e")"); done
cargs+=(--check-timeout 10)
[ -s "$f/left-out.txt" ] && cargs+=(--left-out "$f/left-out.txt")
if [ "$tl" -ge 120 ]; then
  s=$SECONDS
  "$C" "${cargs[@]}" --plan --time-limit "$tl" >"$f/campaign-plan.log" 2>&1
  timeout -k 15 -s TERM "$tl" "$C" "${cargs[@]}" --time-limit "$tl" \
    --out "$out/c1.tar.gz" >"$f/campaign.log" 2>&1
  printf 'campaign\t%s\t%s\t%s\n' $? $((SECONDS - s)) "$tl" >>"$f/steps.tsv"
  # Killed before it could pack (SIGKILL after the TERM): its work directory, beside c1.tar.gz,
  # packed by campaign.sh --pack, else as it is, so that OUT keeps one file for it.
  if [ -d "$out/c1.partial" ] && [ ! -e "$out/c1.tar.gz" ]; then
    timeout -s KILL 30 "$C" --pack "$out/c1.partial" >"$f/campaign-pack.log" 2>&1
    [ -e "$out/c1.tar.gz" ] || tar -C "$out" -czf "$out/c1-partial.tar.gz" c1.partial
    { [ -e "$out/c1.tar.gz" ] || [ -e "$out/c1-partial.tar.gz" ]; } && rm -rf "$out/c1.partial"
  fi
else
  printf 'campaign\tskipped\t0\t%s\n' "$tl" >>"$f/steps.tsv"
fi
pack
# in_c1 NAME: the campaign's tarball holds matrix/NAME.json (its matrix part ran that file here).
in_c1() { tar -tzf "$out/c1.tar.gz" 2>/dev/null | grep -q "^campaign-[^/]*/matrix/$1\.json$"; }
if in_c1 seed-linear; then printf 'matrix-seed-linear\tin-c1\t0\t30\n' >>"$f/steps.tsv"
else matrix matrix-seed-linear 30 "${mshapes[@]}" --seeds 0,1,2 --codec seed-linear; fi
if in_c1 outliers; then printf 'matrix-outliers\tin-c1\t0\t30\n' >>"$f/steps.tsv"
else matrix matrix-outliers 30 "${mshapes[@]}" --seeds 0 --dist outliers; fi
pack && rm -rf "$out/tmp"
ls -l "$out"
