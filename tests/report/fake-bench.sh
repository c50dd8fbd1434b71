#!/usr/bin/env bash
# A stand-in for build/bin/sdpa-bench in the pipeline tests: it records its command line in
# $FAKE_BENCH_LOG and writes the SYNTHETIC fixture matching the invocation (run.json for
# --check-only, run-timing.json otherwise) to --out, then exits with $FAKE_BENCH_RC (default 0;
# 1 = "a correctness check failed", which the pipeline must treat as a result); a timing run first
# sleeps $FAKE_BENCH_TIMING_SLEEP seconds when set (the interruption tests). --probe: usable.
set -eu
echo "$*" >> "${FAKE_BENCH_LOG:-/dev/null}"
# --probe (run.sh asks before it creates a run directory): usable, like the real harness on auto.
for a in "$@"; do [ "$a" = --probe ] && { echo "emu: the fake harness"; exit 0; }; done
out= check=0
while [ $# -gt 0 ]; do
  case $1 in --out) out=$2; shift ;; --check-only) check=1 ;; esac
  shift
done
fx=tests/report/fixtures/${FAKE_BENCH_FIXTURE:-emulated}
rc=${FAKE_BENCH_RC:-0}
[ $check = 0 ] && [ -n "${FAKE_BENCH_TIMING_SLEEP:-}" ] && sleep "$FAKE_BENCH_TIMING_SLEEP"
[ "$rc" -ge 2 ] && { echo "fake-bench: failing with $rc" >&2; exit "$rc"; }
[ -e "$out" ] && { echo "fake-bench: $out exists" >&2; exit 2; }
if [ $check = 1 ]; then cp "$fx/run.json" "$out"; else cp "$fx/run-timing.json" "$out"; fi
exit "$rc"
