#!/usr/bin/env bash
# Steps 2 and 3 of an experiment (experiments/common.mk runs the build before and the report
# after): a new run directory with the experiment definition copied into it, then the harness:
#   a. correctness only, every shape and seed               -> run.json
#   b. timing of the timing shape, first seed, A/B interleaved -> run-timing.json
#   c. manifest.json, written last: the run's files with their SHA-256; the run is complete
# The timing budget of (b) is chosen from meta.backend of run.json, which the harness itself
# chose (--backend $backend, BACKEND of make, auto by default): the GPU budget on CUDA, a small one on the CPU emulator, whose
# wall-clock samples are labelled "emulated" in every file and decide no gate. (b) runs on the
# same backend as (a). Exit status 1 of the harness (a correctness check failed) is a result, not
# an error: the report shows it; any other failure stops here. Progress goes to stderr; the run
# directory is printed on stdout.
# A run that stops early (a failure, SIGINT, SIGTERM) gets no manifest but an incomplete.txt
# saying why; signals end it with 130/143 after the harness, which removes its temporary file.
# resume=DIR runs only the steps whose files are missing in DIR, with the parameters recorded in
# DIR/run.args, once the experiment definition copied there is intact (`make resume RUN=DIR`):
# `sdpa-report params resume` parses run.args and experiment.mk strictly (a run directory may have
# arrived from elsewhere: nothing in it is sourced or evaluated) and compares both copies with the
# digests run.args recorded before they were made. A new run's parameters pass the same grammar
# (`sdpa-report params check`) before its run directory is created.
# emu_timing_shape=SHAPE (optional, default timing_shape): the shape timed on the emulator.
# throttle=F|auto (optional, default auto) is the timing's --throttle-threshold: auto lets
# sdpa-bench take the device's row of its table (host/bench/throttle.c: e.g. 0.5 on the
# power-capped L4, NVBench's 0.75 elsewhere), or SDPA_THROTTLE_THRESHOLD when the campaign sets it.
# Usage: experiments/run.sh KEY=VALUE... with the keys below (all required; run_id may be empty;
#        resume and throttle optional).
set -eu
keys="exp data bench report ptxas baseline candidate shapes seeds timing_shape gpu emu l2 run_id backend"
resume= throttle=auto emu_timing_shape=
for a in "$@"; do
  k=${a%%=*}
  case " $keys resume throttle emu_timing_shape " in *" $k "*) printf -v "$k" '%s' "${a#*=}" ;; *) echo "run.sh: unknown key '$k'" >&2; exit 2 ;; esac
done
for k in $keys; do [ -n "${!k+set}" ] || { echo "run.sh: missing $k=" >&2; exit 2; }; done
emu_timing_shape=${emu_timing_shape:-$timing_shape}
# What a resumed run must repeat exactly (bench, report, ptxas and data come from the caller).
recorded="exp baseline candidate shapes seeds timing_shape gpu emu l2 backend throttle emu_timing_shape"

dir= current="setting up" child=
step() { current=$2; echo "[$exp $1/6] $2" >&2; }
# incomplete.txt, atomically: why the run stopped (the report's INCOMPLETE banner shows it).
note() {
  [ -n "$dir" ] && [ -d "$dir" ] && [ ! -e "$dir/manifest.json" ] || return 0
  printf '%s\n' "$1" > "$dir/incomplete.txt.tmp.$$" && mv -f "$dir/incomplete.txt.tmp.$$" "$dir/incomplete.txt"
}
on_signal() { # SIG STATUS: stop the harness (it removes its temporary file), say why, exit
  trap - INT TERM EXIT
  if [ -n "$child" ]; then kill -"$1" "$child" 2>/dev/null || true; wait "$child" 2>/dev/null || true; fi
  note "interrupted (SIG$1) during: $current"
  echo "run.sh: interrupted (SIG$1) during: $current; ${dir:-no run directory} is incomplete" >&2
  exit "$2"
}
trap 'on_signal INT 130' INT
trap 'on_signal TERM 143' TERM
trap 'rc=$?; [ "$rc" -eq 0 ] || note "failed (exit status $rc) during: $current"' EXIT

# Runs the harness in the background, so that a signal reaches the trap at once; 0 and 1 (a
# correctness check failed) are results.
harness() {
  echo "  \$ $*" >&2
  local rc=0
  "$@" >&2 &   # its progress goes to stderr: stdout carries only the run directory
  child=$!
  wait "$child" || rc=$?
  child=
  if [ "$rc" -gt 1 ]; then echo "run.sh: the harness failed (exit status $rc); the run directory is left as it is" >&2; exit "$rc"; fi
  [ "$rc" -eq 1 ] && echo "  (a correctness check failed: recorded in the result file and reported)" >&2
  return 0
}

ptxas_arg=()
if [ -n "$resume" ]; then
  dir=${resume%/}
  [ -d "$dir" ] || { echo "run.sh: resume: $dir: no such run directory" >&2; exit 2; }
  if "$report" check-run "$dir" 2>/dev/null; then echo "run.sh: resume: $dir is complete; nothing to do" >&2; echo "$dir"; exit 0; fi
  if ! "$report" params resume "$dir"; then
    echo "run.sh: resume: $dir: the run's inputs are not intact (above); start a new run" >&2; dir=; exit 2
  fi
  while IFS= read -r line; do # every key and value checked by params resume just now
    k=${line%%=*}
    case " $recorded " in *" $k "*) printf -v "$k" '%s' "${line#*=}" ;; esac
  done < "$dir/run.args"
  emu_timing_shape=${emu_timing_shape:-$timing_shape} # a run recorded before the key existed
  for f in run.json run-timing.json; do # a result that does not load is not resumed over
    if [ -e "$dir/$f" ] && ! "$report" get "$dir/$f" meta.backend >/dev/null; then
      echo "run.sh: resume: $dir/$f is damaged (above); start a new run" >&2; dir=; exit 2
    fi
  done
  [ -f "$dir/ptxas.json" ] && ptxas_arg=(--ptxas "$dir/ptxas.json")
  rm -f "$dir/incomplete.txt"
  step 2 "resuming $dir"
else
  # Bad parameters stop here, naming the key, before a run directory exists.
  args=()
  for k in $recorded; do args+=("$k=${!k}"); done
  if ! "$report" params check "${args[@]}"; then
    echo "run.sh: bad parameters (above); nothing was run" >&2
    exit 2
  fi
  # BACKEND=cuda with no usable GPU stops here, with the harness's one-line reason, before a run
  # directory exists; auto says which backend it will use. The harness parses the run's own
  # variants, shapes (the timing shapes too) and seeds first, so that one it does not know (SHAPES=
  # on the command line) is named here and leaves no run directory behind.
  probe_args=(--variant "$candidate" --vs "$baseline" --seeds "$seeds")
  for s in $shapes $timing_shape $emu_timing_shape; do
    case " ${probe_args[*]} " in *" --shape $s "*) ;; *) probe_args+=(--shape "$s") ;; esac
  done
  if ! "$bench" --backend "$backend" --probe "${probe_args[@]}" >&2; then
    echo "run.sh: BACKEND=$backend, or the run's variants, shapes or seeds (above): nothing was run" >&2
    exit 2
  fi
  dir=$(experiments/new-run.sh "$data" "$exp" "$run_id")
  step 2 "run directory $dir"
  # The copies' digests go into run.args first, so that resume can tell a copy cut short.
  { for k in $recorded; do printf '%s=%s\n' "$k" "${!k}"; done
    for f in experiment hypothesis; do
      sum=$(sha256sum "experiments/$exp/$([ $f = experiment ] && echo experiment.mk || echo hypothesis.md)") || exit 2
      printf '%s_sha256=%s\n' "$f" "${sum%% *}"
    done; } > "$dir/run.args.tmp.$$"
  mv "$dir/run.args.tmp.$$" "$dir/run.args"
  for f in experiment.mk hypothesis.md; do
    cp "experiments/$exp/$f" "$dir/$f.tmp.$$" && mv "$dir/$f.tmp.$$" "$dir/$f"
  done
  if [ -n "$ptxas" ] && [ -f "$ptxas" ]; then
    cp "$ptxas" "$dir/ptxas.json"
    ptxas_arg=(--ptxas "$ptxas")
  else
    echo "  no ptxas.json (nvcc not found): the static gates will read NOT EVALUATED" >&2
  fi
fi

shape_args=()
for s in $shapes; do shape_args+=(--shape "$s"); done
if [ ! -e "$dir/run.json" ]; then
  step 3 "harness: correctness of $baseline and $candidate on $shapes, seeds $seeds"
  harness "$bench" --backend "$backend" --variant "$candidate" --vs "$baseline" "${shape_args[@]}" --seeds "$seeds" \
    --check-only "${ptxas_arg[@]}" --out "$dir/run.json"
fi

if [ ! -e "$dir/run-timing.json" ]; then
  backend=$("$report" get "$dir/run.json" meta.backend)
  # The emulator times its own shape when the experiment names one (EMU_TIMING_SHAPE: its times
  # decide nothing, and a GPU-sized shape can take hours on a CPU); the GPU the timing shape.
  shape=$timing_shape
  if [ "$backend" = cuda ]; then read -r warmup iters tmin tmax <<<"$gpu"; else
    read -r warmup iters tmin tmax <<<"$emu"; shape=${emu_timing_shape:-$timing_shape}; fi
  step 3 "harness: timing on $shape (backend $backend: warm-up $warmup, >= $iters samples, $tmin-$tmax s)"
  # The timing run checks its shape too, against references of at most 512 query rows per slice
  # (every row up to S = 512, the mission shape; sdpa-bench --ref-rows, methods#sampled-reference):
  # the full fp64 references of the Hopper line's (2,32,8192,64) are ~3 TFLOP, ~45 s of a 16-CPU
  # node per experiment. The gates' correctness is step a's, every row of every shape.
  harness "$bench" --backend "$backend" --variant "$candidate" --vs "$baseline" --shape "$shape" \
    --seeds "${seeds%%,*}" --warmup "$warmup" --iters "$iters" --min-time "$tmin" --max-time "$tmax" --l2 "$l2" \
    --ref-rows 512 --throttle-threshold "$throttle" "${ptxas_arg[@]}" --out "$dir/run-timing.json"
fi
current="the manifest"
"$report" manifest --run "$dir"
echo "$dir"
