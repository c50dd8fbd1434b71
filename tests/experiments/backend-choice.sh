#!/usr/bin/env bash
# BACKEND= of the experiment targets (experiments/common.mk): an unknown value stops make naming
# it (the one list, host/lib/backend_names.h, through experiments/run.sh's parameter check); BACKEND=cuda on a machine without a usable GPU stops with the harness's one-line reason
# before any run directory exists (on a machine with one, it must get past the probe), and so does a
# shape the harness does not know. make -n
# of an experiment, and of resume, measures and writes nothing (their recipes name $(MAKE), which
# -n runs: experiments/common.mk tests dry_run).
# Usage: tests/experiments/backend-choice.sh SDPA_BENCH
set -u
. tests/tap.sh
. tests/report/lib.sh
bench=$1
DIRS=(DATA_DIR="$TMP/data" FIG_DIR="$TMP/fig" REPORT_DIR="$TMP/rep")
"${MAKE_CMD[@]}" stage2 BACKEND=opencl "${DIRS[@]}" >"$TMP/bad.log" 2>&1
tap_ok "BACKEND=opencl stops make" test $? -ne 0
tap_ok "  ... naming the value and the accepted ones" grep -q "backend = 'opencl': expected auto, cuda or emu" "$TMP/bad.log"
tap_ok "  ... before a run directory exists" test ! -e "$TMP/data/stage2-wmma-pv"
"${MAKE_CMD[@]}" -n stage2 "${DIRS[@]}" >"$TMP/dry.log" 2>&1
tap_ok "make -n stage2: exit 0, says nothing was measured" \
  bash -c "[ $? -eq 0 ] && grep -q 'make -n: nothing measured' '$TMP/dry.log'"
tap_ok "  ... and no run directory, figure or report exists" test ! -e "$TMP/data" -a ! -e "$TMP/fig" -a ! -e "$TMP/rep"
mkdir -p "$TMP/data/stage2-wmma-pv/x"
"${MAKE_CMD[@]}" -n resume RUN="$TMP/data/stage2-wmma-pv/x" "${DIRS[@]}" >"$TMP/dry-resume.log" 2>&1
tap_ok "make -n resume: exit 0, the run directory left as it was (empty)" \
  bash -c "[ $? -eq 0 ] && [ -z \"\$(ls -A '$TMP/data/stage2-wmma-pv/x')\" ]"
rm -rf "$TMP/data"
if "$bench" --backend cuda --probe >/dev/null 2>&1; then
  tap_skip "BACKEND=cuda without a GPU stops before a run directory exists" "a usable GPU is present"
else
  "${MAKE_CMD[@]}" stage2 BACKEND=cuda "${DIRS[@]}" >"$TMP/cuda.log" 2>&1
  tap_ok "BACKEND=cuda without a usable GPU: make stage2 fails" test $? -ne 0
  tap_ok "  ... with the harness's reason" grep -q "^sdpa-bench: --backend cuda: " "$TMP/cuda.log"
  tap_ok "  ... and no run directory was created" test ! -e "$TMP/data/stage2-wmma-pv"
fi
# A shape of good grammar that the harness does not know (the parameter check reads only the
# grammar): the harness's probe parses the run's own arguments before a run directory exists.
for bad in "SHAPES=small bogus" "TIMING_SHAPE=bogus" "EMU_TIMING_SHAPE=bogus"; do
  rm -rf "$TMP/data"
  "${MAKE_CMD[@]}" stage2 "$bad" "${DIRS[@]}" >"$TMP/shape.log" 2>&1
  tap_ok "make stage2 $bad: fails naming the shape, and no run directory was created" \
    bash -c '[ "$1" -ne 0 ] && grep -q "^sdpa-bench: --shape: unknown shape .bogus." "$2" && [ ! -e "$3" ]' \
    _ $? "$TMP/shape.log" "$TMP/data/stage2-wmma-pv"
done
tap_done
