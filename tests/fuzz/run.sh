#!/usr/bin/env bash
# The fuzzing suite: for each harness in tests/fuzz/<name>/, replay its committed corpus (seeds
# and regression inputs: each must run clean), then fuzz for SECONDS with a scratch corpus (the
# committed one is never modified). A crash, leak, sanitizer report or timeout fails the check
# and names the input libFuzzer saved; fix the reader and commit that input to the corpus.
# Usage: tests/fuzz/run.sh FUZZ_DIR|none SECONDS   (FUZZ_DIR holds fuzz-<name>; none: SKIP)
set -u
. tests/tap.sh
dir=$1 secs=$2
names="run-json npy ptxas-log cli campaign-files ingest"
if [ "$dir" = none ]; then
  for n in $names; do tap_skip "fuzz $n" "clang with libFuzzer not found (make deps: clang-14, libclang-rt-14-dev)"; done
  tap_done
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/fuzz.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for n in $names; do
  bin=$dir/fuzz-$n corpus=tests/fuzz/$n/corpus
  files=("$corpus"/*)
  tap_ok "fuzz $n: the committed corpus replays clean (${#files[@]} inputs)" \
    bash -c "'$bin' -runs=0 '${corpus}' >'$TMP/$n-replay.log' 2>&1 || { tail -n 30 '$TMP/$n-replay.log' | sed 's/^/# /'; exit 1; }"
  mkdir -p "$TMP/$n-corpus" "$TMP/$n-crashes"
  ok=0
  "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$TMP/$n-crashes/" "$TMP/$n-corpus" "$corpus" >"$TMP/$n.log" 2>&1 || ok=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$TMP/$n.log" | grep -o '[0-9]*$')
  if [ "$ok" -ne 0 ]; then
    tail -n 40 "$TMP/$n.log" | sed 's/^/# /'
    mkdir -p build/fuzz-crashes && cp "$TMP/$n-crashes"/* build/fuzz-crashes/ 2>/dev/null
    tap_diag "crash inputs copied to build/fuzz-crashes/: fix the reader, then commit each to $corpus/"
  fi
  tap_ok "fuzz $n: ${secs} s, ${execs:-?} inputs, no crash" test "$ok" -eq 0
done
tap_done
