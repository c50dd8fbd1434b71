#!/usr/bin/env bash
# Runs test suites and prints one closing line: "N passed, N failed, N skipped".
# A suite is an executable that speaks TAP on stdout (cmocka binaries do with
# CMOCKA_MESSAGE_OUTPUT=TAP; shell suites use tests/lib/tap.sh). Counting rules:
#   "ok ..."                 -> passed      "... # SKIP ..." -> skipped
#   "not ok ..." (no SKIP)   -> failed
#   a suite that exits non-zero without reporting a failure, or reports nothing, counts one failure.
# Usage: tools/run-tests.sh LOGDIR SUITE [SUITE ...]   (SUITE may carry arguments: "path arg ...")
set -u
logdir=$1; shift
mkdir -p "$logdir"
rm -f "$logdir/summary"
export CMOCKA_MESSAGE_OUTPUT=TAP
timeout_s=${SUITE_TIMEOUT:-1200}
tp=0; tf=0; ts=0; failed_suites=()
for suite in "$@"; do
  name=$(echo "$suite" | sed 's#^build/##; s#[^A-Za-z0-9._-]#_#g')
  log="$logdir/$name.log"
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  timeout "$timeout_s" $suite >"$log" 2>&1
  rc=$?
  secs=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN{printf "%.1f", e-s}')
  p=$(grep -E '^ok '      "$log" | grep -vc '# SKIP')
  s=$(grep -E '^(not )?ok ' "$log" | grep -c '# SKIP')
  f=$(grep -E '^not ok '  "$log" | grep -vc '# SKIP')
  note=""
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    f=1; note=" (exit status $rc$([ $rc -eq 124 ] && echo ": timed out after ${timeout_s}s"))"
  elif [ $((p + f + s)) -eq 0 ]; then
    f=1; note=" (reported no test)"
  fi
  # Show failures and skips in full; keep passing suites to one line.
  if [ "$f" -gt 0 ]; then
    echo "---- $suite: output"; cat "$log"; echo "----"
    failed_suites+=("$suite")
  else
    grep -E '# SKIP' "$log" | sed 's/^/  /'
  fi
  printf '%-48s %3d passed, %d failed, %d skipped  (%ss)%s\n' "$suite" "$p" "$f" "$s" "$secs" "$note"
  tp=$((tp + p)); tf=$((tf + f)); ts=$((ts + s))
done
[ ${#failed_suites[@]} -gt 0 ] && echo "failing suites: ${failed_suites[*]}"
echo "$tp passed, $tf failed, $ts skipped" | tee "$logdir/summary"
[ "$tf" -eq 0 ]
