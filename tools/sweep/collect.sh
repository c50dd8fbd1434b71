#!/usr/bin/env bash
# The collector of a sweep (its sbatch script runs it after every array, --dependency=afterany):
#   1 ingest every complete part (tools/campaign/ingest.sh, as make ingest does) under
#     SWEEP_DIR/data/gpu/<device>/<campaign-id>/, once (results/<kind>/<part>.ingested, written
#     by the ingest itself); emulated kinds with --allow-emulated; the campaign must be of that
#     one part (--expect-part), and one ingested before with the same SHA256SUMS counts as
#     ingested (--same-ok: a collector stopped between an ingest and its record). A tarball the
#     ingest refuses is moved aside (results/<kind>/<part>.refused-<stamp>.tar.gz, with the reason
#     in .refused-<stamp>.txt): the part is missing in every view and the next submission runs it
#     again. A task whose own record still says RUNNING though Slurm has ended it (SIGKILL, OOM,
#     a lost node) gets its record corrected (lib.sh: state_fix).
#   2 render the report of up to REPORTS ingested experiment runs (make report in CHECKOUT) where
#     the checkout, make and pandoc are reachable from this node; else say why not
#   3 summary.md and summary.json: per kind and part, complete or missing, with the Slurm state
#     and the reason; the same JSON (kind sweep-summary, written by sdpa-report sweep-summary) as
#     data/gpu/sweeps/<name>.json under the sweep's data directory, where `make paper` finds it and
#     lists the missing parts
#   4 the paper (make paper GPU_DATA_DIR=<data>/gpu REPORT_DIR=<sweep>/paper in CHECKOUT) where the
#     checkout, make and pandoc are reachable and a part was ingested since the last paper; else
#     the summary says why not
#   5 sweep-<name>-<stamp>.tar.gz: the complete parts' tarballs and the summary, for make ingest
#     elsewhere (tar xzf it, then make ingest RESULTS=... per tarball)
# Exit 0 when it could do all that (missing parts are listed, not an error of the collector).
# Usage: collect.sh SWEEP_DIR BUNDLE_DIR CHECKOUT REPORTS(all|N)
set -u
[ $# -eq 4 ] || { echo "collect.sh: expected SWEEP_DIR BUNDLE_DIR CHECKOUT REPORTS" >&2; exit 2; }
dir=$1 bundle=$2 checkout=$3 reports=$4
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tools/sweep/lib.sh
. "$here/lib.sh"
report=$bundle/bin/sdpa-report ingest=$here/ingest.sh
name=$(basename "$dir")
[ -f "$dir/parts.tsv" ] || { echo "collect.sh: $dir/parts.tsv is missing (not a sweep directory)" >&2; exit 2; }
# One collector at a time (a resubmission may queue a second one while the first runs).
exec 9>"$dir/.collect.lock"
flock 9 2>/dev/null || echo "collect.sh: flock unavailable; assuming no other collector runs" >&2
declare -A LAST=()
while IFS=$'\t' read -r _ k p _ _ tid; do LAST[$k/$p]=$tid; done <"$dir/submissions.tsv"
states_load "${LAST[@]}"
stamp=$("$bundle/experiments/new-run.sh" --id "${SLURM_JOB_ID:-$$}") || { echo "collect.sh: cannot make an id ($bundle/experiments/new-run.sh)" >&2; exit 2; }

# A row's fields are joined by the unit separator: a tab, being white space to read, would merge
# empty fields.
US=$'\x1f' rows=() n_ok=0 n_miss=0 n_new=0
while IFS=$'\t' read -r k p slug emu; do
  res=$dir/results/$k tid=${LAST[$k/$p]:--}
  [ "$tid" = - ] || state_fix "$tid" "$dir/state/$k/$slug"
  if [ "$tid" = - ]; then state=NOT_SUBMITTED; else state=$(task_state "$tid" "$dir/state/$k/$slug"); state=${state%% *}; fi
  status=missing why='' where=''
  if complete "$res" "$slug"; then
    if [ ! -f "$res/$slug.ingested" ]; then
      flag=(--same-ok --expect-part "$p" --record "$res/$slug.ingested"); [ "$emu" = yes ] && flag+=(--allow-emulated)
      out=$(bash "$ingest" "$res/$slug.tar.gz" "$dir/data" "$report" "${flag[@]}" 2>&1)
      rc=$?
      echo "$out"
      if [ $rc -eq 0 ]; then
        n_new=$((n_new + 1))
      elif [ $rc -eq 2 ]; then # the tarball itself is refused: aside, so that every view says missing
        why="refused by ingest: ${out##*"$res/$slug.tar.gz: "}"
        mv -n "$res/$slug.tar.gz" "$res/$slug.refused-$stamp.tar.gz" && rm -f "$res/$slug.tar.gz.sha256" &&
          printf '%s (kept as %s)\n' "$why" "$slug.refused-$stamp.tar.gz" >"$res/$slug.refused-$stamp.txt"
        why="$why (kept as results/$k/$slug.refused-$stamp.tar.gz; resubmit to run it again)"
      else
        why="not ingested here (exit $rc): ${out##*: }"
      fi
    fi
    if [ -f "$res/$slug.ingested" ]; then status=complete where=$(cat "$res/$slug.ingested"); fi
  else
    why="no complete tarball; Slurm state $state"
    [ -f "$dir/state/$k/$slug" ] && why="$why; the task recorded: $(cut -d' ' -f1,4- "$dir/state/$k/$slug")"
    [ "$tid" != - ] && [ -f "$dir/logs/$k/${tid#*_}.${tid%_*}.log" ] && why="$why; log: logs/$k/${tid#*_}.${tid%_*}.log"
  fi
  if [ $status = complete ]; then n_ok=$((n_ok + 1)); else n_miss=$((n_miss + 1)); fi
  rows+=("$k$US$p$US$status$US$state$US$tid$US$where$US$why")
done <"$dir/parts.tsv"

# Reports of the ingested experiment runs, as many as REPORTS says.
rendered=() render_note=
if [ ! -f "$checkout/Makefile" ]; then render_note="no reports: the checkout ($checkout) is not reachable from $(hostname -s 2>/dev/null)"
elif ! command -v make >/dev/null 2>&1 || ! command -v pandoc >/dev/null 2>&1; then render_note="no reports: make or pandoc is missing on $(hostname -s 2>/dev/null)"
else
  n=0 runs=()
  for row in "${rows[@]}"; do
    w=$(echo "$row" | cut -d"$US" -f6)
    [ -n "$w" ] && for r in "$w"/runs/*/*; do [ -d "$r" ] && runs+=("$r"); done
  done
  for r in "${runs[@]}"; do
    [ "$reports" != all ] && [ $n -ge "$reports" ] && { render_note="reports rendered: $n (reports = $reports in the sweep file)"; break; }
    # RUN goes through make, which would expand a '$': only plain paths (ingest allows no other names).
    [[ $r =~ ^[A-Za-z0-9._/+,=@-]+$ ]] || { echo "collect.sh: $r: not a plain path; not rendered"; continue; }
    if make -C "$checkout" --no-print-directory -s report RUN="$r" FIG_DIR="$dir/figures" REPORT_DIR="$dir/reports" >"$dir/logs/report.$$.log" 2>&1; then
      rendered+=("$(ls -d "$dir/reports/$(basename "$(dirname "$r")")/$(basename "$r")")")
    else
      echo "collect.sh: make report RUN=$r failed:"; tail -n 5 "$dir/logs/report.$$.log"
    fi
    n=$((n + 1))
  done
fi

# The paper, with the sweep's GPU data (make paper's GPU_DATA_DIR: its data section lists the
# missing parts from data/gpu/sweeps/*.json): only when a part was ingested since the last one.
# Until the paper reads GPU_DATA_DIR, this renders the paper as the checkout has it.
paper_note=
if [ ! -f "$checkout/Makefile" ]; then paper_note="skipped: the checkout ($checkout) is not reachable from $(hostname -s 2>/dev/null)"
elif ! command -v make >/dev/null 2>&1 || ! command -v pandoc >/dev/null 2>&1; then paper_note="skipped: make or pandoc is missing on $(hostname -s 2>/dev/null)"
elif [ $n_new -eq 0 ] && [ -f "$dir/paper/paper.html" ]; then paper_note="skipped: no part ingested since the last paper (paper/paper.html)"
elif [ $n_ok -eq 0 ]; then paper_note="skipped: no complete part to show"
else paper_pending=1; fi

# summary_json PAPER_NOTE: summary.json and data/gpu/sweeps/<name>.json, the sweep-summary
# document (data/SCHEMA.md), through sdpa-report's JSON writer (each replaced atomically).
summary_json() {
  local args=() row k p s st t w y r
  for row in "${rows[@]}"; do
    IFS=$US read -r k p s st t w y <<<"$row"
    args+=(--row "$k" "$p" "$s" "$st" "$t" "${w#"$dir"/}" "$y")
  done
  for r in "${rendered[@]}"; do args+=(--report "${r#"$dir"/}"); done
  mkdir -p "$dir/data/gpu/sweeps" &&
    "$report" sweep-summary --out "$dir/summary.json" --out "$dir/data/gpu/sweeps/$name.json" --sweep "$name" \
      --collected "$stamp" --paper "$1" "${args[@]}"
}
# write_summaries PAPER_NOTE: summary.md, summary.json and data/gpu/sweeps/<name>.json, each
# renamed into place (this sweep's own earlier summary is the only file replaced).
write_summaries() {
  {
    echo "# Sweep $name: data"
    echo
    echo "Collected $stamp: $n_ok part(s) complete and ingested, $n_miss missing. Ingested campaigns lie"
    echo "under \`data/gpu/<device>/<campaign-id>/\` of the sweep directory ($dir)."
    echo
    echo "| kind | part | status | Slurm state | task | ingested as / reason |"
    echo "|---|---|---|---|---|---|"
    for row in "${rows[@]}"; do
      IFS=$US read -r k p s st t w y <<<"$row"
      echo "| $k | \`$p\` | $s | $st | $t | ${w:+\`${w#"$dir"/}\`}${y} |"
    done
    echo
    if [ $n_miss -gt 0 ]; then
      echo "## Missing"; echo
      for row in "${rows[@]}"; do
        IFS=$US read -r k p s st t w y <<<"$row"
        [ "$s" = missing ] && echo "- $k \`$p\` (task $t, $st): $y"
      done
      echo
      echo "Resubmit the same sweep (make sweep SWEEP=...) to run only these."
      echo
    fi
    echo "## Reports"; echo
    for r in "${rendered[@]}"; do echo "- ${r#"$dir"/}/report.html"; done
    if [ -n "$render_note" ]; then echo "- $render_note"; fi
    echo "- paper: $1"
  } >"$dir/.summary.md.$$" && mv -f "$dir/.summary.md.$$" "$dir/summary.md"
  summary_json "$1" || { echo "collect.sh: the summary could not be written (above)" >&2; exit 3; }
}
# The summary first (make paper reads it), then the paper, then the summary again with its outcome.
write_summaries "${paper_note:-pending}"
if [ -n "${paper_pending:-}" ]; then
  if make -C "$checkout" --no-print-directory -s paper GPU_DATA_DIR="$dir/data/gpu" REPORT_DIR="$dir/paper" \
       FIG_DIR="$dir/figures" >"$dir/logs/paper.$$.log" 2>&1 && [ -s "$dir/paper/paper.html" ]; then
    paper_note="ok: paper/paper.{pdf,html,md}"
  else
    paper_note="failed: make paper (logs/paper.$$.log)"
    tail -n 5 "$dir/logs/paper.$$.log"
  fi
  write_summaries "$paper_note"
fi
cat "$dir/summary.md"

# One tarball to carry home: the complete parts and the summary (never overwrites: a new stamp).
t=$(mktemp -d "${TMPDIR:-/tmp}/sweep-collect.XXXXXX") || { echo "collect.sh: cannot create a temporary directory (TMPDIR=${TMPDIR:-unset})" >&2; exit 2; }
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/sweep-$name"
cp "$dir/summary.md" "$dir/summary.json" "$t/sweep-$name/"
while IFS=$'\t' read -r k p slug _; do
  complete "$dir/results/$k" "$slug" && mkdir -p "$t/sweep-$name/results/$k" && cp "$dir/results/$k/$slug.tar.gz" "$t/sweep-$name/results/$k/"
done <"$dir/parts.tsv"
merged=$dir/sweep-$name-$stamp.tar.gz
tar -C "$t" -czf "$merged.tmp" "sweep-$name" && mv -n "$merged.tmp" "$merged" && echo "collector: $merged" ||
  { echo "collect.sh: could not write $merged" >&2; exit 3; }
