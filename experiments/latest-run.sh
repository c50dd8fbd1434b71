#!/usr/bin/env bash
# Prints the latest COMPLETE run directory of an experiment (run ids sort by their UTC start
# time), or nothing. Incomplete ones (no manifest matching their files: interrupted, failed,
# still running) are skipped, each said on stderr with why.
# Usage: experiments/latest-run.sh DATA EXPERIMENT SDPA_REPORT
set -u
data=$1 exp=$2 report=$3
for r in $(ls -d "$data/$exp"/*/ 2>/dev/null | sed 's#/$##' | sort -r); do
  if why=$("$report" check-run "$r" 2>&1); then
    echo "$r"
    exit 0
  fi
  echo "[paper] skipping $why" >&2
done
