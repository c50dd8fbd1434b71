#!/usr/bin/env bash
# Runs test suites and prints one closing line: "N passed, N failed, N skipped".
# A suite is an executable that speaks TAP on stdout (cmocka binaries do with
# CMOCKA_MESSAGE_OUTPUT=TAP; shell suites use tests/tap.sh). Counting rules:
#   "ok ..."                 -> passed      "... # SKIP ..." -> skipped
#   "not ok ..." (no SKIP)   -> failed
#   a suite that exits non-zero without reporting a failure, or reports nothing, counts one failure.
# Suites run TEST_JOBS at a time (default: the number of CPUs, at most 4; TEST_JOBS=1 runs them
# one after another): each writes only its own log and temporary directory. The suites named in
# TEST_BESIDE (words matched against each suite's command line) mostly wait (a Slurm cluster's
# scheduling, a campaign's time limit: ~15 % of their wall time on the CPU), so with TEST_JOBS > 1
# they start first and run beside the others instead of holding a slot. The suites named in
# TEST_FIRST take the first slots (the longest: started last, one of them would run alone at the
# end). The report below is in the order given, whatever the order of completion.
# Usage: tools/run-tests.sh LOGDIR SUITE [SUITE ...]   (SUITE may carry arguments: "path arg ...")
set -u
logdir=$1; shift
mkdir -p "$logdir"
rm -f "$logdir/summary"
export CMOCKA_MESSAGE_OUTPUT=TAP
timeout_s=${SUITE_TIMEOUT:-1200}
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
[ "$jobs" -le 4 ] || jobs=4
# A suite's log is named after its command line; a long one (the planted suite lists every plant)
# is cut and made unique by a digest of the whole line: a file name has at most 255 bytes, and
# the name carries .log.secs after it.
log_of() {
  local n
  n=$(echo "$1" | sed 's#^build/##; s#[^A-Za-z0-9._-]#_#g')
  [ ${#n} -le 200 ] || n="${n:0:180}-$(printf '%s' "$1" | md5sum | cut -c1-16)"
  echo "$logdir/$n.log"
}

# Phase 1: run every suite, at most $jobs at once; each leaves LOG, LOG.rc, LOG.secs (wall) and
# LOG.cpu (user + system CPU seconds of the processes it waited for, not of daemons it started:
# what make test's time on 2 cores is made of, where a suite's wall time beside others is not).
# `times` must run in this shell (in a pipe or $(...) it reports a fresh subshell's zeros): its
# second line is the finished children's user and system time. Sets cpu_s.
children_cpu() { times >"$1"; cpu_s=$(awk 'END { for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); c += 60 * t[1] + t[2] }; printf "%.1f", c }' "$1"); }
run_one() {
  local suite=$1 log start rc cpu0 cpu_s
  log=$(log_of "$suite")
  start=$(date +%s.%N)
  children_cpu "$log.cpu" && cpu0=$cpu_s
  # shellcheck disable=SC2086
  timeout "$timeout_s" $suite >"$log" 2>&1
  rc=$?
  awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN{printf "%.1f", e-s}' >"$log.secs"
  children_cpu "$log.cpu" && awk -v a="$cpu0" -v b="$cpu_s" 'BEGIN{printf "%.1f", b-a}' >"$log.cpu"
  echo "$rc" >"$log.rc"
}
named_in() { # "WORD ..." SUITE: whether a word of the list occurs in the suite's command line
  local w
  for w in $1; do case $2 in *"$w"*) return 0 ;; esac; done
  return 1
}
beside() { [ "$jobs" -gt 1 ] && named_in "${TEST_BESIDE:-}" "$1"; } # runs beside the slots
first() { named_in "${TEST_FIRST:-}" "$1"; }                          # takes one of the first slots
echo "running $# suites, $jobs at a time (TEST_JOBS); the report follows in order" >&2
for suite in "$@"; do
  rm -f "$(log_of "$suite").rc"
  if beside "$suite"; then run_one "$suite" & fi
done
order=() # the slot suites, TEST_FIRST ones first
for suite in "$@"; do first "$suite" && ! beside "$suite" && order+=("$suite"); done
for suite in "$@"; do first "$suite" || beside "$suite" || order+=("$suite"); done
slots=() # pids of the suites holding a slot
for suite in "${order[@]}"; do
  if [ "$jobs" -eq 1 ]; then run_one "$suite"; continue; fi
  if [ ${#slots[@]} -ge "$jobs" ]; then
    wait -n -p done_pid "${slots[@]}"
    for i in "${!slots[@]}"; do [ "${slots[i]}" = "$done_pid" ] && unset 'slots[i]'; done
    slots=("${slots[@]}")
  fi
  run_one "$suite" &
  slots+=($!)
done
wait

# Phase 2: the report, in the order given.
tp=0; tf=0; ts=0; failed_suites=() cpu_sum=0
for suite in "$@"; do
  log=$(log_of "$suite")
  rc=$(cat "$log.rc" 2>/dev/null || echo 125)
  secs=$(cat "$log.secs" 2>/dev/null || echo "?") cpu=$(cat "$log.cpu" 2>/dev/null || echo "?")
  p=$(grep -E '^ok '      "$log" | grep -vc '# SKIP')
  s=$(grep -E '^(not )?ok ' "$log" | grep -c '# SKIP')
  f=$(grep -E '^not ok '  "$log" | grep -vc '# SKIP')
  note=""
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    f=1; note=" (exit status $rc$([ "$rc" -eq 124 ] && echo ": timed out after ${timeout_s}s"))"
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
  printf '%-48s %3d passed, %d failed, %d skipped  (%ss, CPU %ss)%s\n' "$suite" "$p" "$f" "$s" "$secs" "$cpu" "$note"
  tp=$((tp + p)); tf=$((tf + f)); ts=$((ts + s))
  cpu_sum=$(awk -v a="$cpu_sum" -v b="$cpu" 'BEGIN { printf "%.1f", a + b }')
done
echo "the suites' CPU time: ${cpu_sum} s (tools/run-tests.sh runs $jobs at a time)"
[ ${#failed_suites[@]} -gt 0 ] && echo "failing suites: ${failed_suites[*]}"
echo "$tp passed, $tf failed, $ts skipped" | tee "$logdir/summary"
[ "$tf" -eq 0 ]
