#!/usr/bin/env bash
# Run directories and the experiment pipeline, with tests/report/fake-bench.sh standing in for
# the harness (it writes SYNTHETIC fixtures; everything goes to temporary directories):
# new-run.sh refuses an existing directory and leaves it untouched; run.sh invokes the harness
# with the experiment's parameters and the timing budget of the backend it reported; and
# `make stage2` run twice makes two run directories and two reports, the first left intact.
set -u
. tests/tap.sh
. tests/report/lib.sh

# ---- new-run.sh --------------------------------------------------------------------------
d=$(experiments/new-run.sh "$TMP/data" stage2-wmma-pv)
tap_ok "new-run: creates data/<experiment>/<run-id>" test -d "$d"
tap_ok "new-run: run id is UTC time + short SHA (+ -dirty) + host.pid.counter" \
  grep -qE '^[0-9]{8}T[0-9]{6}Z-([0-9a-f]{4,}(-dirty)?|nogit)-[A-Za-z0-9-]+\.[0-9]+\.[0-9]+$' <<<"$(basename "$d")"
mkdir -p "$TMP/data/stage2-wmma-pv/fixed" && echo keep > "$TMP/data/stage2-wmma-pv/fixed/marker"
rc=0; experiments/new-run.sh "$TMP/data" stage2-wmma-pv fixed >/dev/null 2>"$TMP/err" || rc=$?
tap_ok "new-run: refuses an existing run directory (exit 1)" test "$rc" -eq 1
tap_ok "new-run: the refusal says why" grep -q "exists already; run directories are never reused" "$TMP/err"
tap_ok "new-run: the existing directory is untouched" test "$(cat "$TMP/data/stage2-wmma-pv/fixed/marker")" = keep
tap_fail "new-run: a run id with a slash is refused" experiments/new-run.sh "$TMP/data" stage2-wmma-pv "a/b" 2>/dev/null

# ---- run.sh with the fake harness ----------------------------------------------------------
export FAKE_BENCH_LOG=$TMP/bench.log
run_sh() { # RUN_ID [extra KEY=VALUE]
  experiments/run.sh exp=stage2-wmma-pv data="$TMP/data" bench=tests/report/fake-bench.sh \
    report="$SDPA_REPORT" ptxas="$FIXTURES/emulated/ptxas.json" baseline=stage1 candidate=stage2 \
    shapes="small mission" seeds=0,1,2 timing_shape=mission gpu="20 200 2 30" emu="1 6 0 40" l2=cold \
    run_id="$1" backend=auto "${@:2}"
}
SDPA_REPORT=${1:-build/bin/sdpa-report}
: > "$FAKE_BENCH_LOG"
out=$(run_sh r1 2>"$TMP/run.err")
tap_ok "run.sh: prints the new run directory" test "$out" = "$TMP/data/stage2-wmma-pv/r1"
tap_ok "run.sh: run.json, run-timing.json, ptxas.json, experiment.mk, hypothesis.md in the run directory" \
  bash -c "cd '$out' && test -s run.json -a -s run-timing.json -a -s ptxas.json -a -s experiment.mk -a -s hypothesis.md"
tap_ok "run.sh: correctness invocation (every shape and seed, --check-only)" grep -qxF -- \
  "--backend auto --variant stage2 --vs stage1 --shape small --shape mission --seeds 0,1,2 --check-only --ptxas $FIXTURES/emulated/ptxas.json --out $out/run.json" \
  "$FAKE_BENCH_LOG"
tap_ok "run.sh: timing invocation on the backend of run.json with the emulator budget" grep -qxF -- \
  "--backend emu --variant stage2 --vs stage1 --shape mission --seeds 0 --warmup 1 --iters 6 --min-time 0 --max-time 40 --l2 cold --ref-rows 512 --throttle-threshold auto --ptxas $FIXTURES/emulated/ptxas.json --out $out/run-timing.json" \
  "$FAKE_BENCH_LOG"
tap_ok "run.sh: progress lines for steps 2 and 3" bash -c "grep -q '^\[stage2-wmma-pv 2/6\] run directory' '$TMP/run.err' && grep -q '^\[stage2-wmma-pv 3/6\] harness' '$TMP/run.err'"
: > "$FAKE_BENCH_LOG"
FAKE_BENCH_FIXTURE=gpu-pass run_sh r2 >/dev/null 2>&1
tap_ok "run.sh: a CUDA run is timed with the GPU budget" grep -q -- "--backend cuda .* --warmup 20 --iters 200 --min-time 2 --max-time 30" "$FAKE_BENCH_LOG"
# run_rc RC RUN_ID [KEY=VALUE]: run.sh with the fake harness exiting RC, quietly
run_rc() { (export FAKE_BENCH_RC=$1; run_sh "${@:2}" >/dev/null 2>&1); }
tap_ok "run.sh: harness exit 1 (a correctness check failed) is a result" run_rc 1 r3
tap_fail "run.sh: harness exit 3 stops the pipeline" run_rc 3 r4
tap_fail "run.sh: an existing run id is refused" run_rc 0 r1
run_rc 0 r5 ptxas=
tap_ok "run.sh: without ptxas.json the run directory has none" \
  test -s "$TMP/data/stage2-wmma-pv/r5/run.json" -a ! -e "$TMP/data/stage2-wmma-pv/r5/ptxas.json"

# ---- make stage2, twice, end to end (fake harness, no ptxas) -------------------------------
stage2() { # RUN_ID [VAR=VALUE ...]
  "${MAKE_CMD[@]}" stage2 SDPA_BENCH=tests/report/fake-bench.sh PTXAS_JSON= DATA_DIR="$TMP/e2e/data" \
    FIG_DIR="$TMP/e2e/figures" REPORT_DIR="$TMP/e2e/out" RUN_ID="$1" "${@:2}" > "$TMP/e2e-$1.log" 2>&1
}
tap_ok "make stage2: first run" stage2 first PANDOC_FORMATS=pdf # (only the PDF is looked at)
first=$TMP/e2e/data/stage2-wmma-pv/first
tap_ok "make stage2: progress lines 1 to 6" bash -c \
  "for s in 1 2 3 4 5 6; do grep -q \"^\[stage2-wmma-pv \$s/6\]\" '$TMP/e2e-first.log' || exit 1; done"
tap_ok "make stage2: report built" test -s "$TMP/e2e/out/stage2-wmma-pv/first/report.pdf"
tap_ok "make stage2: static gates NOT EVALUATED without ptxas.json" \
  grep -q '"reason":[[:space:]]*"nvcc not found"' "$first/summary.json"
sum_before=$(cd "$first" && sha256sum run.json run-timing.json experiment.mk hypothesis.md)
tap_ok "make stage2: second run" stage2 second PANDOC_FORMATS=md
tap_ok "make stage2: a second run directory" test -s "$TMP/e2e/data/stage2-wmma-pv/second/run.json"
tap_ok "make stage2: the first run directory is left intact" \
  test "$(cd "$first" && sha256sum run.json run-timing.json experiment.mk hypothesis.md)" = "$sum_before"
rc=0; stage2 first || rc=$?
tap_ok "make stage2 with an existing RUN_ID: refused" bash -c "[ $rc -ne 0 ] && grep -q 'never reused' '$TMP/e2e-first.log'"
tap_done
