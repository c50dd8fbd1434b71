#!/usr/bin/env bash
# Steps 2 and 3 of an experiment (experiments/common.mk runs the build before and the report
# after): a new run directory with the experiment definition copied into it, then the harness:
#   a. correctness only, every shape and seed               -> run.json
#   b. timing of the timing shape, first seed, A/B interleaved -> run-timing.json
# The timing budget of (b) is chosen from meta.backend of run.json, which the harness itself
# chose (--backend $backend, BACKEND of make, auto by default): the GPU budget on CUDA, a small one on the CPU emulator, whose
# wall-clock samples are labelled "emulated" in every file and decide no gate. (b) runs on the
# same backend as (a). Exit status 1 of the harness (a correctness check failed) is a result, not
# an error: the report shows it; any other failure stops here. Progress goes to stderr; the run
# directory is printed on stdout.
# Usage: experiments/run.sh KEY=VALUE... with the keys below (all required; run_id may be empty).
set -eu
keys="exp data bench report ptxas baseline candidate shapes seeds timing_shape gpu emu l2 run_id backend"
for a in "$@"; do
  k=${a%%=*}
  case " $keys " in *" $k "*) printf -v "$k" '%s' "${a#*=}" ;; *) echo "run.sh: unknown key '$k'" >&2; exit 2 ;; esac
done
for k in $keys; do [ -n "${!k+set}" ] || { echo "run.sh: missing $k=" >&2; exit 2; }; done

step() { echo "[$exp $1/6] $2" >&2; }
# Runs the harness; 0 and 1 (a correctness check failed) are results.
harness() {
  echo "  \$ $*" >&2
  local rc=0
  "$@" >&2 || rc=$?   # its progress goes to stderr: stdout carries only the run directory
  if [ "$rc" -gt 1 ]; then echo "run.sh: the harness failed (exit status $rc); the run directory is left as it is" >&2; exit "$rc"; fi
  [ "$rc" -eq 1 ] && echo "  (a correctness check failed: recorded in the result file and reported)" >&2
  return 0
}

# BACKEND=cuda with no usable GPU stops here, with the harness's one-line reason, before a run
# directory exists; auto says which backend it will use.
if ! "$bench" --backend "$backend" --probe >&2; then
  echo "run.sh: BACKEND=$backend: no usable backend (reason above); nothing was run" >&2
  exit 2
fi
dir=$(experiments/new-run.sh "$data" "$exp" "$run_id")
step 2 "run directory $dir"
cp "experiments/$exp/experiment.mk" "experiments/$exp/hypothesis.md" "$dir/"
ptxas_arg=()
if [ -n "$ptxas" ] && [ -f "$ptxas" ]; then
  cp "$ptxas" "$dir/ptxas.json"
  ptxas_arg=(--ptxas "$ptxas")
else
  echo "  no ptxas.json (nvcc not found): the static gates will read NOT EVALUATED" >&2
fi

shape_args=()
for s in $shapes; do shape_args+=(--shape "$s"); done
step 3 "harness: correctness of $baseline and $candidate on $shapes, seeds $seeds"
harness "$bench" --backend "$backend" --variant "$candidate" --vs "$baseline" "${shape_args[@]}" --seeds "$seeds" \
  --check-only "${ptxas_arg[@]}" --out "$dir/run.json"

backend=$("$report" get "$dir/run.json" meta.backend)
if [ "$backend" = cuda ]; then read -r warmup iters tmin tmax <<<"$gpu"; else read -r warmup iters tmin tmax <<<"$emu"; fi
step 3 "harness: timing on $timing_shape (backend $backend: warm-up $warmup, >= $iters samples, $tmin-$tmax s)"
harness "$bench" --backend "$backend" --variant "$candidate" --vs "$baseline" --shape "$timing_shape" \
  --seeds "${seeds%%,*}" --warmup "$warmup" --iters "$iters" --min-time "$tmin" --max-time "$tmax" --l2 "$l2" \
  "${ptxas_arg[@]}" --out "$dir/run-timing.json"
echo "$dir"
