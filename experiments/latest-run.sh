#!/usr/bin/env bash
# Prints the latest COMPLETE run directory of an experiment (run ids sort by their UTC start
# time), or nothing. Incomplete ones (no manifest matching their files: interrupted, failed,
# still running) are skipped, each said on stderr with why.
# Usage: experiments/latest-run.sh DATA EXPERIMENT SDPA_REPORT
set -u
data=$1 exp=$2 report=$3
# The name goes on to make (the paper's recipes) and to shells: a run directory of another name
# (one copied in from elsewhere) is skipped, never printed.
while IFS= read -r r; do
  [ -d "$r" ] || continue
  case ${r##*/} in *[!A-Za-z0-9._+,=@-]*|.*) echo "[paper] skipping $r: not a run id" >&2; continue ;; esac
  if why=$("$report" check-run "$r" 2>&1); then
    echo "$r"
    exit 0
  fi
  echo "[paper] skipping $why" >&2
done < <(printf '%s\n' "$data/$exp"/*/ | sed 's#/$##' | sort -r)
