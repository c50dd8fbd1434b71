#!/usr/bin/env bash
# Runs that survive real use (tests/README.md, "Reliability guarantees"), with tests/report/fake-bench.sh standing in
# for the harness, in temporary directories: 8 runs started at once into one data directory give
# 8 distinct complete directories; a run interrupted during timing exits 143, leaves no manifest
# and no temporary file but an incomplete.txt, renders an INCOMPLETE banner, is skipped by the
# latest-run pick of `make paper`, and `make resume` completes it; a failed harness is recorded;
# a changed file makes a complete run incomplete.
# Usage: tests/experiments/reliability.sh [SDPA_REPORT]
set -u
. tests/tap.sh
. tests/report/lib.sh
SDPA_REPORT=${1:-build/bin/sdpa-report}
fake_run
temps() { find "$TMP/data" -name '*.tmp.*' | wc -l; }

# ---- 8 runs at once, one data directory, one second, one commit ------------------------------
pids=()
for i in 1 2 3 4 5 6 7 8; do run_sh >"$TMP/c$i.out" 2>"$TMP/c$i.err" & pids+=($!); done
fails=0
for p in "${pids[@]}"; do wait "$p" || fails=$((fails + 1)); done
tap_ok "8 concurrent runs: all exit 0" test "$fails" -eq 0
dirs=$(cat "$TMP"/c?.out | sort -u)
tap_ok "8 concurrent runs: 8 distinct run directories printed" test "$(wc -l <<<"$dirs")" -eq 8
tap_ok "8 concurrent runs: 8 directories on disk" test "$(ls "$TMP/data/stage2-wmma-pv" | wc -l)" -eq 8
complete=0
for d in $dirs; do "$SDPA_REPORT" check-run "$d" 2>/dev/null && complete=$((complete + 1)); done
tap_ok "8 concurrent runs: each complete (its manifest matches its files)" test "$complete" -eq 8
tap_ok "8 concurrent runs: the ids sort by start time (same UTC second prefix or later)" \
  bash -c "ls '$TMP/data/stage2-wmma-pv' | cut -c1-16 | sort -c"
tap_ok "no temporary file left anywhere" test "$(temps)" -eq 0
# The one id generator (runs, campaigns, sweeps): a host name a shell would interpret becomes a
# name the run-id grammar admits, and two callers in one second get two ids.
mkdir -p "$TMP/hostbin" && printf '#!/bin/sh\necho "gpu node;\$(x)"\n' >"$TMP/hostbin/hostname" && chmod +x "$TMP/hostbin/hostname"
id1=$(PATH=$TMP/hostbin:$PATH experiments/new-run.sh --id 11) id2=$(PATH=$TMP/hostbin:$PATH experiments/new-run.sh --id 12)
tap_ok "new-run.sh --id: an odd host name gives an id of [A-Za-z0-9._-], time first ($id1)" \
  bash -c '[[ $1 =~ ^[0-9]{8}T[0-9]{6}Z-[A-Za-z0-9._-]+\.11$ ]] && [[ $1 == *-gpu-node---x-.11 ]] && [ "$1" != "$2" ]' _ "$id1" "$id2"
tap_ok "  ... a tag a shell would interpret is refused" bash -c '! experiments/new-run.sh --id "a;b" 2>/dev/null'

# ---- the manifest --------------------------------------------------------------------------
d=$(head -n1 <<<"$dirs")
tap_ok "manifest: kind run-manifest, complete, a schema_version" \
  grep -qE '^run-manifest true [0-9]+\.[0-9]+\.[0-9]+$' <<<"$(json "$d/manifest.json" '.kind + " " + (.complete|tostring) + " " + .schema_version')"
tap_ok "manifest: lists run.json with its SHA-256" \
  test "$(json "$d/manifest.json" '.files[] | select(.name == "run.json") | .sha256')" = "$(sha256sum <"$d/run.json" | cut -d' ' -f1)"
tap_ok "manifest: derived files (tables/, *.tsv, summary.json) are not listed" \
  bash -c "report_tables() { $(declare -f report_tables | tail -n +2); }; SDPA_REPORT='$SDPA_REPORT' report_tables '$d' >/dev/null && \
    ! jq -e '.files[] | select(.name | test(\"tsv|summary|meta.yaml|plot-vars\"))' '$d/manifest.json' >/dev/null && '$SDPA_REPORT' check-run '$d'"
tap_ok "manifest: never replaced" bash -c "! '$SDPA_REPORT' manifest --run '$d' 2>'$TMP/m.err' && grep -q 'refusing to overwrite' '$TMP/m.err'"
cp "$d/run.json" "$TMP/keep.json"; echo ' ' >> "$d/run.json"
tap_fail "manifest: a changed run.json makes the run incomplete" "$SDPA_REPORT" check-run "$d"
tap_ok "manifest: check-run names the changed file" bash -c "'$SDPA_REPORT' check-run '$d' 2>&1 | grep -q 'run.json does not match its SHA-256'"
cp "$TMP/keep.json" "$d/run.json"
tap_ok "complete run: tables/incomplete.md is empty" test ! -s "$d/tables/incomplete.md" -a -e "$d/tables/incomplete.md"
cp -r "$d" "$TMP/complete-run"

# ---- interrupted during timing -------------------------------------------------------------
rm -rf "$TMP/data"
# run.sh itself in the background (not a subshell around it), so the signal reaches it
FAKE_BENCH_TIMING_SLEEP=30 experiments/run.sh "${RUN_ARGS[@]}" >"$TMP/i.out" 2>"$TMP/i.err" &
pid=$!
for _ in $(seq 100); do ls "$TMP"/data/stage2-wmma-pv/*/run.json >/dev/null 2>&1 && grep -q 'timing on' "$TMP/i.err" && break; sleep 0.1; done
sleep 0.3
kill -TERM "$pid"; rc=0; wait "$pid" || rc=$?
I=$(ls -d "$TMP"/data/stage2-wmma-pv/*)
tap_ok "SIGTERM during timing: run.sh exits 143 (got $rc)" test "$rc" -eq 143
tap_ok "SIGTERM during timing: no manifest, no run-timing.json, no temporary file" \
  test ! -e "$I/manifest.json" -a ! -e "$I/run-timing.json" -a "$(temps)" -eq 0
tap_ok "SIGTERM during timing: incomplete.txt says interrupted, and in which step" \
  grep -q '^interrupted (SIGTERM) during: harness: timing' "$I/incomplete.txt"
tap_fail "SIGTERM during timing: check-run says incomplete" "$SDPA_REPORT" check-run "$I"
report_tables "$I" >/dev/null 2>"$TMP/rt.err"
tap_ok "incomplete run: the report's tables/incomplete.md has the INCOMPLETE banner, what is missing and why" \
  bash -c "grep -q 'INCOMPLETE RUN' '$I/tables/incomplete.md' && grep -q 'missing run-timing.json' '$I/tables/incomplete.md' && grep -q 'interrupted (SIGTERM)' '$I/tables/incomplete.md'"
if command -v pandoc >/dev/null && command -v pdftotext >/dev/null; then
  banner_pdf() {
    "${MAKE_CMD[@]}" report RUN="$I" FIG_DIR="$TMP/fig0" REPORT_DIR="$TMP/rep0" PANDOC_FORMATS=pdf >/dev/null 2>&1 &&
      pdftotext -l 1 "$TMP/rep0/stage2-wmma-pv/$(basename "$I")/report.pdf" - | grep -q 'INCOMPLETE RUN'
  }
  tap_ok "incomplete run: make report renders, the PDF opens with the INCOMPLETE banner" banner_pdf
else
  tap_skip "incomplete run: the PDF's INCOMPLETE banner" "pandoc or pdftotext not installed (make deps)"
fi
# latest-run (make paper): an older complete run is picked over the newer incomplete one.
mkdir -p "$TMP/data/stage2-wmma-pv/00000000T000000Z-old"
cp -r "$TMP/complete-run"/. "$TMP/data/stage2-wmma-pv/00000000T000000Z-old/"
latest=$("$SDPA_REPORT" latest-run "$TMP/data/stage2-wmma-pv" 2>"$TMP/lr.err")
tap_ok "make paper's pick: the latest COMPLETE run" test "$latest" = "$TMP/data/stage2-wmma-pv/00000000T000000Z-old"
tap_ok "make paper's pick: says which incomplete run it skipped, and why" \
  bash -c "grep -qF '[paper] skipping $I: incomplete: no manifest.json; missing run-timing.json; why: interrupted (SIGTERM)' '$TMP/lr.err'"
# make resume: only the missing step, with the recorded parameters; the finished run is complete.
: > "$TMP/bench.log"
resume() {
  FAKE_BENCH_LOG="$TMP/bench.log" "${MAKE_CMD[@]}" resume RUN="$I" SDPA_BENCH=tests/report/fake-bench.sh \
    DATA_DIR="$TMP/data" FIG_DIR="$TMP/fig" REPORT_DIR="$TMP/rep" PANDOC_FORMATS=pdf >"$TMP/resume.log" 2>&1 || { sed 's/^/# /' "$TMP/resume.log" | tail -n 20; return 1; }
}
tap_ok "make resume RUN=...: exits 0" resume
tap_ok "make resume: ran the timing step only, with the run's recorded shape and seeds" \
  bash -c "[ \$(wc -l < '$TMP/bench.log') -eq 1 ] && grep -q -- '--shape small --seeds 0 --warmup 1 --iters 6' '$TMP/bench.log'"
tap_ok "make resume: the run is complete, incomplete.txt gone, the report has no banner" \
  bash -c "'$SDPA_REPORT' check-run '$I' && test ! -e '$I/incomplete.txt' && test ! -s '$I/tables/incomplete.md' && test -s '$TMP/rep/stage2-wmma-pv/$(basename "$I")/report.pdf'"
tap_ok "make resume on a complete run: nothing to do" bash -c "experiments/run.sh resume='$I' exp=stage2-wmma-pv data= bench=false report='$SDPA_REPORT' ptxas= baseline= candidate= shapes= seeds= timing_shape= gpu= emu= l2= run_id= backend= 2>&1 | grep -q 'complete; nothing to do'"
rm "$I/manifest.json" "$I/run-timing.json" "$I/run.args"
tap_fail "make resume: refused when the run's inputs are not intact (run.args missing)" \
  experiments/run.sh resume="$I" exp=stage2-wmma-pv data= bench=false report="$SDPA_REPORT" ptxas= baseline= candidate= \
  shapes= seeds= timing_shape= gpu= emu= l2= run_id= backend= 2>/dev/null

# ---- a failed harness ----------------------------------------------------------------------
rm -rf "$TMP/data"
rc=0; FAKE_BENCH_RC=3 run_sh >/dev/null 2>&1 || rc=$?
F=$(ls -d "$TMP"/data/stage2-wmma-pv/*)
tap_ok "failed harness: exit 3, incomplete.txt says failed, no manifest" \
  bash -c "[ $rc -eq 3 ] && grep -q '^failed (exit status 3) during: harness: correctness' '$F/incomplete.txt' && test ! -e '$F/manifest.json'"
tap_done
