#!/usr/bin/env bash
# Full disks and interruptions, without root: every writer under a file-size limit (ulimit -f;
# SIGXFSZ ignored as a full disk would not signal) fails with a non-zero exit naming the path and
# the OS error, leaves the earlier file as it was and no temporary file (*.tmp.*): sdpa-bench's
# JSON (--out) and .npy (--dump), sdpa-report's TSV, Markdown, YAML and summary.json, the manifest,
# the campaign's campaign.json and sanitizers.json (campaign-json, sanitizers-json), the sweep
# collector's summary (sweep-summary), gnuplot's figures and pandoc's reports (through `sdpa-report install`). A read-only target (a
# path under a regular file, which fails even for root) is refused the same way. SIGTERM and
# SIGINT to sdpa-bench in a long emulated run: exit 143 / 130, no result file, no temporary file.
# Usage: tests/report/write-failures.sh SDPA_BENCH SDPA_REPORT
set -u
. tests/tap.sh
. tests/report/lib.sh
SDPA_BENCH=$1 SDPA_REPORT=$2
temps() { find "$TMP" -name '*.tmp.*' | wc -l; }
# limited KIB CMD...: CMD under a file-size limit of KIB KiB, SIGXFSZ ignored; its stderr in $TMP/err
limited() { (trap '' XFSZ; ulimit -f "$1"; "${@:2}") >/dev/null 2>"$TMP/err"; }
says() { grep -qF -- "$1" "$TMP/err" && grep -q 'File too large' "$TMP/err"; }
SMALL=(--backend emu --variant stage0 --shape small --seeds 0 --check-only)

# ---- sdpa-bench ----------------------------------------------------------------------------
rc=0; limited 4 "$SDPA_BENCH" "${SMALL[@]}" --out "$TMP/r.json" || rc=$?
tap_ok "sdpa-bench --out under a full disk: exit 3 (got $rc)" test "$rc" -eq 3
tap_ok "sdpa-bench --out: the message names the file and the OS error" says "$TMP/r.json"
tap_ok "sdpa-bench --out: no result file, no temporary file" test ! -e "$TMP/r.json" -a "$(temps)" -eq 0
rc=0; limited 4 "$SDPA_BENCH" "${SMALL[@]}" --dump "$TMP/dump" || rc=$?
tap_ok "sdpa-bench --dump (.npy) under a full disk: exit 3, names x_q.npy" \
  bash -c "[ $rc -eq 3 ] && grep -qF '$TMP/dump/x_q.npy' '$TMP/err' && grep -q 'File too large' '$TMP/err'"
tap_ok "sdpa-bench --dump: the files written before stay whole, no temporary file" \
  bash -c "[ \$(stat -c %s '$TMP/dump/q.npy') -eq 2176 ] && [ ! -e '$TMP/dump/x_q.npy' ] && [ $(temps) -eq 0 ]"

# ---- sdpa-report: TSV, Markdown, YAML, summary.json; the manifest -------------------------
R=$(new_run gpu-pass stage2-wmma-pv 20260102T030405Z-full 2>/dev/null)
report_tables "$R" >/dev/null
before=$(cd "$R" && find . -type f ! -name '*.tmp.*' -exec sha256sum {} + | sort)
rc=0; limited 1 report_tables "$R" || rc=$?
tap_ok "sdpa-report experiment under a full disk: exit 1 (got $rc), names the file and the error" \
  bash -c "[ $rc -eq 1 ] && grep -qF '$R/' '$TMP/err' && grep -q 'File too large' '$TMP/err'"
tap_ok "sdpa-report experiment: every earlier file intact, no temporary file" \
  bash -c "[ \"\$(cd '$R' && find . -type f ! -name '*.tmp.*' -exec sha256sum {} + | sort)\" = '$before' ] && [ $(temps) -eq 0 ]"
rm "$R/manifest.json"
rc=0; limited 1 "$SDPA_REPORT" manifest --run "$R" || rc=$?
tap_ok "sdpa-report manifest under a full disk: exit 1, names manifest.json, no file left" \
  bash -c "[ $rc -eq 1 ] && grep -qF '$R/manifest.json' '$TMP/err' && grep -q 'File too large' '$TMP/err' && [ ! -e '$R/manifest.json' ] && [ $(temps) -eq 0 ]"
# The campaign's own files (tools/campaign/): campaign.json and sanitizers.json, through sdpa-report.
printf 'probe\t-\t0\t1\t10\t-\n' >"$TMP/steps.tsv"
for i in $(seq 200); do printf 'step-%s\t-\t0\t1\t10\ta note long enough to fill the file past the limit\n' "$i"; done >>"$TMP/steps.tsv"
cj=(campaign-json "$TMP/campaign.json" --id c-1 --backend emu --device emulator --bundle b --started 1 --expected 10
    --l4-factor 2.4 --steps "$TMP/steps.tsv")
rc=0; limited 4 "$SDPA_REPORT" "${cj[@]}" || rc=$?
tap_ok "sdpa-report campaign-json under a full disk: exit 1, names campaign.json, no file left" \
  bash -c "[ $rc -eq 1 ] && grep -qF '$TMP/campaign.json' '$TMP/err' && grep -q 'File too large' '$TMP/err' && [ ! -e '$TMP/campaign.json' ] && [ $(temps) -eq 0 ]"
"$SDPA_REPORT" "${cj[@]}" 2>/dev/null
before=$(sha256sum "$TMP/campaign.json")
rc=0; "$SDPA_REPORT" "${cj[@]}" 2>"$TMP/err" || rc=$?
tap_ok "  ... an existing campaign.json is never replaced (exit 1, the file as it was)" \
  bash -c "[ $rc -eq 1 ] && [ \"\$(sha256sum '$TMP/campaign.json')\" = '$before' ] && grep -q 'exists' '$TMP/err'"
san=(sanitizers-json "$TMP/sanitizers.json" --root "$TMP" --shape ragged --skipped "no GPU")
for i in $(seq 60); do san+=(--variant "variant-$i"); done
rc=0; limited 4 "$SDPA_REPORT" "${san[@]}" || rc=$?
tap_ok "sdpa-report sanitizers-json under a full disk: exit 1, names sanitizers.json, no file left" \
  bash -c "[ $rc -eq 1 ] && grep -qF '$TMP/sanitizers.json' '$TMP/err' && grep -q 'File too large' '$TMP/err' && [ ! -e '$TMP/sanitizers.json' ] && [ $(temps) -eq 0 ]"
echo x > "$TMP/plainfile"
rc=0; "$SDPA_REPORT" install - "$TMP/plainfile/x.md" </dev/null 2>"$TMP/err" || rc=$?
tap_ok "sdpa-report install into an unwritable place: exit 1 with the path and the OS error" \
  bash -c "[ $rc -eq 1 ] && grep -qF '$TMP/plainfile/x.md' '$TMP/err' && grep -q 'Not a directory' '$TMP/err'"

# ---- the sweep collector's summary (sdpa-report sweep-summary) --------------------------------
sweep_summary() { "$SDPA_REPORT" sweep-summary --out "$TMP/summary.json" --sweep s --collected 20260102T030405Z-1 \
  --paper pending --row k history complete COMPLETED 1_0 data/gpu/x/y '' "$@"; }
sweep_summary >/dev/null 2>&1
before=$(sha256sum <"$TMP/summary.json")
rc=0; limited 1 sweep_summary --row k "scaling:$(printf '%01000d' 1)" missing FAILED 1_1 '' "$(printf 'x%.0s' {1..2000})" || rc=$?
tap_ok "sdpa-report sweep-summary under a full disk: exit 1, names summary.json, the earlier one intact" \
  bash -c "[ $rc -eq 1 ] && grep -qF '$TMP/summary.json' '$TMP/err' && grep -q 'File too large' '$TMP/err' &&
           [ \"\$(sha256sum <'$TMP/summary.json')\" = '$before' ] && [ $(temps) -eq 0 ]"

# ---- figures and reports (make report: gnuplot, pandoc) ------------------------------------
if command -v gnuplot >/dev/null && command -v pandoc >/dev/null && command -v pdflatex >/dev/null; then
  mk() { "${MAKE_CMD[@]}" "$@" RUN="$R" FIG_DIR="$TMP/fig" REPORT_DIR="$TMP/out"; }
  mk report >/dev/null 2>&1
  figs=$TMP/fig/stage2-wmma-pv/$(basename "$R") out=$TMP/out/stage2-wmma-pv/$(basename "$R")
  before=$(sha256sum "$figs"/*.png "$out"/report.* | sort)
  rc=0; limited 8 mk report-figures || rc=$?
  tap_ok "gnuplot figures under a full disk: make fails (got $rc), says which" \
    bash -c "[ $rc -ne 0 ] && grep -qE 'not a whole PNG|gnuplot figures/' '$TMP/err'"
  tap_ok "gnuplot figures: earlier PNGs intact, no temporary file or directory" \
    bash -c "[ \"\$(sha256sum '$figs'/*.png '$out'/report.* | sort)\" = '$before' ] && [ $(temps) -eq 0 ]"
  rc=0; limited 24 mk report -o report-tables -o report-figures || rc=$?  # pandoc only
  tap_ok "pandoc reports under a full disk: make fails (got $rc), says which report" \
    bash -c "[ $rc -ne 0 ] && grep -q 'report.pdf not written' '$TMP/err'"
  tap_ok "pandoc reports: earlier PDF, HTML, Markdown intact, no temporary file" \
    bash -c "[ \"\$(sha256sum '$figs'/*.png '$out'/report.* | sort)\" = '$before' ] && [ $(temps) -eq 0 ]"
else
  tap_skip "figures and reports under a full disk" "gnuplot, pandoc or pdflatex not installed (make deps)"
fi

# ---- signals in a long emulated run --------------------------------------------------------
for sig in TERM INT; do
  want=$([ $sig = TERM ] && echo 143 || echo 130)
  "$SDPA_BENCH" --backend emu --variant stage2 --vs stage1 --shape mission --seeds 0 --iters 1000 --min-time 60 --max-time 60 \
    --out "$TMP/t-$sig.json" >/dev/null 2>&1 &
  pid=$!
  sleep 2
  kill -$sig "$pid"; rc=0; wait "$pid" || rc=$?
  tap_ok "sdpa-bench --backend emu, SIG$sig mid-run: exit $want (got $rc), no result file, no temporary file" \
    test "$rc" -eq "$want" -a ! -e "$TMP/t-$sig.json" -a "$(temps)" -eq 0
done
tap_done
