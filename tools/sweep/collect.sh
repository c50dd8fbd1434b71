#!/usr/bin/env bash
# The collector of a sweep (its sbatch script runs it after every array, --dependency=afterany):
#   1 ingest every complete part (tools/campaign/ingest.sh, as make ingest does) under
#     SWEEP_DIR/data/gpu/<device>/<campaign-id>/, once (results/<kind>/<part>.ingested);
#     emulated kinds with --allow-emulated
#   2 render the report of up to REPORTS ingested experiment runs (make report in CHECKOUT) where
#     the checkout, make and pandoc are reachable from this node; else say why not
#   3 summary.md and summary.json: per kind and part, complete or missing, with the Slurm state
#     and the reason; the same JSON (kind sweep-summary) as data/gpu/sweeps/<name>.json under the
#     sweep's data directory, where `make paper` finds it and lists the missing parts
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
declare -A STATES=() LAST=()
while IFS=$'\t' read -r _ k p _ _ tid; do LAST[$k/$p]=$tid; done <"$dir/submissions.tsv"
# shellcheck disable=SC2046
while read -r t s; do [ -n "$t" ] && [ -z "${STATES[$t]+set}" ] && STATES[$t]=$s; done < \
  <(slurm_states $(printf '%s\n' "${LAST[@]}" | cut -d_ -f1 | sort -u))

# A row's fields are joined by the unit separator: a tab, being white space to read, would merge
# empty fields.
US=$'\x1f' rows=() n_ok=0 n_miss=0 n_new=0
while IFS=$'\t' read -r k p slug emu; do
  res=$dir/results/$k tid=${LAST[$k/$p]:--}
  state=${STATES[$tid]:-}
  [ -n "$state" ] || { [ -f "$dir/state/$k/$slug" ] && state=$(cut -d' ' -f1 "$dir/state/$k/$slug"); }
  state=${state:-$([ "$tid" = - ] && echo NOT_SUBMITTED || echo UNKNOWN)}
  status=missing why='' where=''
  if complete "$res" "$slug"; then
    if [ ! -f "$res/$slug.ingested" ]; then
      flag=(); [ "$emu" = yes ] && flag=(--allow-emulated)
      if out=$(bash "$ingest" "$res/$slug.tar.gz" "$dir/data" "$report" "${flag[@]}" 2>&1); then
        echo "$out"
        echo "$out" | sed -nE 's/^ingest: ([^ ]+) .*/\1/p' >"$res/$slug.ingested"
        n_new=$((n_new + 1))
      elif [[ $out == *"exists already at "* ]]; then
        # Ingested by a collector that stopped before it wrote the marker.
        echo "${out##*exists already at }" | sed 's/; ingest never overwrites$//' >"$res/$slug.ingested"
      else
        why="refused by ingest: ${out#ingest: }"
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
  n=0
  for r in $(for row in "${rows[@]}"; do w=$(echo "$row" | cut -d"$US" -f6); [ -n "$w" ] && ls -d "$w"/runs/*/* 2>/dev/null; done); do
    [ "$reports" != all ] && [ $n -ge "$reports" ] && { render_note="reports rendered: $n (reports = $reports in the sweep file)"; break; }
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

stamp=$(date -u +%Y%m%dT%H%M%SZ)-${SLURM_JOB_ID:-$$}
json_s() { printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g' | tr '\n\t' '  '; }
# summary_json PAPER_NOTE: the sweep-summary document (data/SCHEMA.md).
summary_json() {
  printf '{\n  "schema_version": "1.3.0",\n  "kind": "sweep-summary",\n'
  printf '  "meta": {"tool": "collect.sh", "tool_version": "%s", "utc_time": "%s", "host": "%s"},\n' \
    "$(json_s "$(cut -d' ' -f2 "$bundle/VERSION" 2>/dev/null)")" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$(json_s "$(hostname 2>/dev/null)")"
  printf '  "sweep": "%s",\n  "collected": "%s",\n  "complete": %d,\n  "missing": %d,\n  "parts": [' \
    "$(json_s "$name")" "$stamp" $n_ok $n_miss
  local sep=
  for row in "${rows[@]}"; do
    IFS=$US read -r k p s st t w y <<<"$row"
    printf '%s\n    {"kind": "%s", "part": "%s", "status": "%s", "slurm_state": "%s", "task": "%s", "ingested": "%s", "reason": "%s"}' \
      "$sep" "$(json_s "$k")" "$(json_s "$p")" "$s" "$(json_s "$st")" "$t" "$(json_s "${w#"$dir"/}")" "$(json_s "$y")"
    sep=,
  done
  printf '\n  ],\n  "reports": ['
  sep=
  for r in "${rendered[@]}"; do printf '%s"%s"' "$sep" "$(json_s "${r#"$dir"/}")"; sep=", "; done
  printf '],\n  "paper": "%s"\n}\n' "$(json_s "$1")"
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
  summary_json "$1" >"$dir/.summary.json.$$" && mv -f "$dir/.summary.json.$$" "$dir/summary.json"
  mkdir -p "$dir/data/gpu/sweeps" && cp "$dir/summary.json" "$dir/data/gpu/sweeps/.$name.json.$$" &&
    mv -f "$dir/data/gpu/sweeps/.$name.json.$$" "$dir/data/gpu/sweeps/$name.json"
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
