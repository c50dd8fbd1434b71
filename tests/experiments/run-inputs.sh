#!/usr/bin/env bash
# A run directory's inputs are checked before they are trusted (issue 20, item 7), with
# tests/report/fake-bench.sh standing in for the harness:
#   check-run    a manifest that lists no files, or not every file a run has, is not complete
#   readers      a fifo or a device where a result file should be is refused at once, never read
#                (check-run, get, experiment, make report)
#   resume       a copied experiment.mk cut short (against the digest run.args recorded, or, in a
#                run older than the digests, by the strict parse) is refused, never sealed
#   latest run   a complete run directory whose name is not a run id (shell code) is skipped
#   make stageN  bad parameters stop it before a run directory exists
# Usage: tests/experiments/run-inputs.sh [SDPA_REPORT]
set -u
. tests/tap.sh
. tests/report/lib.sh
SDPA_REPORT=${1:-build/bin/sdpa-report}
fake_run
# quick CMD...: CMD ends within 10 s (a reader that blocks on a fifo would not).
quick() { timeout 10 "$@"; [ $? -ne 124 ]; }

# ---- check-run -------------------------------------------------------------------------------
E=$TMP/empty && mkdir -p "$E"
printf '{"schema_version": "%s", "kind": "run-manifest", "meta": {}, "files": [], "complete": true}\n' "$("$SDPA_REPORT" schema-version)" >"$E/manifest.json"
"$SDPA_REPORT" check-run "$E" >"$TMP/e.log" 2>&1
tap_ok "check-run: a manifest that lists no files is not complete (exit 1, naming what it does not list)" \
  bash -c '[ "$1" -eq 1 ] && grep -q "does not list run.json" "$2"' _ $? "$TMP/e.log"
D=$(run_sh 2>/dev/null)
tap_ok "a run made by run.sh is complete (control)" "$SDPA_REPORT" check-run "$D"
cp -a "$D" "$TMP/partial" && jq '.files |= map(select(.name != "run-timing.json"))' "$D/manifest.json" >"$TMP/partial/manifest.json"
"$SDPA_REPORT" check-run "$TMP/partial" >"$TMP/p.log" 2>&1
tap_ok "check-run: a manifest that leaves out run-timing.json is not complete" \
  bash -c '[ "$1" -eq 1 ] && grep -q "does not list run-timing.json" "$2"' _ $? "$TMP/p.log"

# ---- fifos and devices are refused, not read ---------------------------------------------------
cp -a "$D" "$TMP/fifo" && rm "$TMP/fifo/run.json" && mkfifo "$TMP/fifo/run.json"
quick "$SDPA_REPORT" check-run "$TMP/fifo" >"$TMP/f.log" 2>&1
tap_ok "check-run: a fifo named in the manifest is refused at once (not a regular file)" \
  bash -c '[ "$1" -eq 0 ] && grep -q "run.json listed in manifest.json is not a regular file" "$2"' _ $? "$TMP/f.log"
quick "$SDPA_REPORT" get "$TMP/fifo/run.json" meta.backend >"$TMP/g.log" 2>&1
tap_ok "get: a fifo is refused at once" bash -c '[ "$1" -eq 0 ] && grep -q "not a regular file" "$2"' _ $? "$TMP/g.log"
quick "$SDPA_REPORT" experiment --run "$TMP/fifo" --experiment stage2-wmma-pv --definition "$TMP/fifo/experiment.mk" \
  --published data/published/seed-l4.json >"$TMP/x.log" 2>&1
tap_ok "experiment: a fifo as run.json is refused at once" bash -c '[ "$1" -eq 0 ] && grep -q "not a regular file" "$2"' _ $? "$TMP/x.log"
ln -s /dev/zero "$TMP/zero.json"
quick "$SDPA_REPORT" get "$TMP/zero.json" kind >"$TMP/z.log" 2>&1
tap_ok "get: a device (a link to /dev/zero) is refused at once" bash -c '[ "$1" -eq 0 ] && grep -q "not a regular file" "$2"' _ $? "$TMP/z.log"
cp -a "$D" "$TMP/fifo2" && rm "$TMP/fifo2/experiment.mk" && mkfifo "$TMP/fifo2/experiment.mk"
quick "${MAKE_CMD[@]}" report-tables RUN="$TMP/fifo2" >"$TMP/m.log" 2>&1
tap_ok "make report: a fifo as the run's experiment.mk is refused at once" \
  bash -c '[ "$1" -eq 0 ] && grep -q "experiment.mk: cannot read: not a regular file" "$2"' _ $? "$TMP/m.log"

# ---- make resume re-checks the definition it copied ------------------------------------------------
resume() { # DIR: make resume, with the fake harness
  "${MAKE_CMD[@]}" resume RUN="$1" SDPA_BENCH=tests/report/fake-bench.sh DATA_DIR="$TMP/data" FIG_DIR="$TMP/fig" \
    REPORT_DIR="$TMP/rep" >"$TMP/resume.log" 2>&1
}
interrupted() { # a copy of the complete run, as if stopped before its timing, definition cut in half
  rm -rf "$TMP/data/stage2-wmma-pv/$1" && cp -a "$D" "$TMP/data/stage2-wmma-pv/$1" && local I=$TMP/data/stage2-wmma-pv/$1
  rm "$I/manifest.json" "$I/run-timing.json" && echo "interrupted (SIGTERM) during: timing" >"$I/incomplete.txt"
  head -c "$(($(stat -c %s "$I/experiment.mk") / 2))" "$D/experiment.mk" >"$I/experiment.mk"
  echo "$I"
}
tap_ok "run.args records the digests of the copies it was made with" \
  bash -c 'grep -qx "experiment_sha256=$(sha256sum <"$1/experiment.mk" | cut -d" " -f1)" "$1/run.args"' _ "$D"
I=$(interrupted cut)
resume "$I"
tap_ok "make resume: an experiment.mk cut short is refused (its digest), the run not sealed" \
  bash -c '[ "$1" -ne 0 ] && grep -q "experiment.mk: its SHA-256 is not the one run.args recorded" "$2" && [ ! -e "$3/manifest.json" ]' \
  _ $? "$TMP/resume.log" "$I"
I=$(interrupted cut-old) && sed -i '/_sha256=/d' "$I/run.args" && head -n 8 "$D/experiment.mk" >"$I/experiment.mk"
resume "$I"
tap_ok "  ... and in a run older than the digests, cut at a line end: by the strict parse" \
  bash -c '[ "$1" -ne 0 ] && grep -q "experiment.mk: .* is missing (the file is truncated" "$2" && [ ! -e "$3/manifest.json" ]' \
  _ $? "$TMP/resume.log" "$I"
I=$(interrupted whole) && cp "$D/experiment.mk" "$I/experiment.mk"
resume "$I"
tap_ok "  ... an intact one is resumed and sealed (control)" "$SDPA_REPORT" check-run "$I"

# ---- a run directory whose name is shell code, copied in (complete: its manifest matches) -----------
mkdir -p "$TMP/bin" && printf '#!/bin/sh\ntouch "%s"\n' "$TMP/marker.run" >"$TMP/bin/markrun" && chmod +x "$TMP/bin/markrun"
mkdir -p "$TMP/ldata/stage2-wmma-pv" && cp -a "$D" "$TMP/ldata/stage2-wmma-pv/" &&
  cp -a "$D" "$TMP/ldata/stage2-wmma-pv/20990101T000000Z-x;markrun"
PATH=$TMP/bin:$PATH "$SDPA_REPORT" latest-run "$TMP/ldata/stage2-wmma-pv" >"$TMP/latest.out" 2>"$TMP/latest.err"
tap_ok "latest-run: a complete run whose name is not a run id is skipped, and named" \
  bash -c '[ "$(cat "$1")" != "" ] && ! grep -q ";" "$1" && grep -q "not a run id" "$2"' _ "$TMP/latest.out" "$TMP/latest.err"
PATH=$TMP/bin:$PATH "${MAKE_CMD[@]}" paper DATA_DIR="$TMP/ldata" FIG_DIR="$TMP/pfig" REPORT_DIR="$TMP/prep" >"$TMP/paper.log" 2>&1
tap_ok "  ... and make paper runs nothing its name holds" test ! -e "$TMP/marker.run"

# ---- make stageN checks its parameters before it creates a run directory --------------------------
for bad in "SHAPES=small bogus!" "SEEDS=0,x" "L2=hot" "EMU_TIMING=1 2 3" "TIMING_SHAPE=1,2,3"; do
  rm -rf "$TMP/sd"
  "${MAKE_CMD[@]}" stage2 "$bad" DATA_DIR="$TMP/sd" SDPA_BENCH=tests/report/fake-bench.sh FIG_DIR="$TMP/fig" \
    REPORT_DIR="$TMP/rep" >"$TMP/sd.log" 2>&1
  rc=$? k=${bad%%=*}
  k=${k,,} && k=${k/emu_timing/emu}
  tap_ok "make stage2 $bad: refused naming $k, no run directory created" \
    bash -c '[ "$1" -ne 0 ] && grep -q "$2 = " "$3" && [ -z "$(ls "$4/stage2-wmma-pv" 2>/dev/null)" ]' _ $rc "$k" "$TMP/sd.log" "$TMP/sd"
done
tap_done
