#!/usr/bin/env bash
# BACKEND= of the experiment targets (experiments/common.mk): an unknown value stops make naming
# it (the one list, host/lib/backend_names.h, through experiments/run.sh's parameter check); BACKEND=cuda on a machine without a usable GPU stops with the harness's one-line reason
# before any run directory exists (on a machine with one, it must get past the probe).
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
if "$bench" --backend cuda --probe >/dev/null 2>&1; then
  tap_skip "BACKEND=cuda without a GPU stops before a run directory exists" "a usable GPU is present"
else
  "${MAKE_CMD[@]}" stage2 BACKEND=cuda "${DIRS[@]}" >"$TMP/cuda.log" 2>&1
  tap_ok "BACKEND=cuda without a usable GPU: make stage2 fails" test $? -ne 0
  tap_ok "  ... with the harness's reason" grep -q "^sdpa-bench: --backend cuda: " "$TMP/cuda.log"
  tap_ok "  ... and no run directory was created" test ! -e "$TMP/data/stage2-wmma-pv"
fi
tap_done
