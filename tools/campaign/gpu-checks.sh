#!/usr/bin/env bash
# The campaign's sanitizer and profiler steps (campaign.sh calls it; shipped in the bundle beside
# it). Each writes its file into the campaign directory whatever happens: every entry has a status
# and, when it is not a plain pass, the reason.
#   gpu-checks.sh sanitizers ROOT BENCH TOOL BUDGET_S SHAPE VARIANTS [SKIP_REASON]
#       compute-sanitizer (TOOL) --tool memcheck|racecheck|synccheck|initcheck on each variant at
#       SHAPE, one process per (tool, variant) so that a finding names its variant, until BUDGET_S
#       is spent; "ERROR SUMMARY: N errors" gives pass (0), fail (N > 0); no summary line, or an
#       exit status other than 0 with 0 errors, is "error" (the tool itself failed). Logs in
#       ROOT/logs/sanitizers/. Writes ROOT/sanitizers.json; exit 1 when an entry is fail or error.
#   gpu-checks.sh profiles ROOT BENCH TOOL BUDGET_S SHAPE VARIANTS REPORT [SKIP_REASON]
#       ncu (TOOL) --csv on one sdpa-bench --check-only process at SHAPE (one launch per
#       variant), the metric set of `REPORT ncu-json --list-metrics` filtered against `ncu
#       --query-metrics` (the others recorded unavailable); ERR_NVGPUCTRPERM (no permission to
#       read the counters) is recorded as skipped. ncu's CSV kept as ROOT/logs/ncu.csv; writes
#       ROOT/profile.json with REPORT ncu-json.
# With SKIP_REASON (no GPU, tool not installed) nothing runs and every entry is skipped with it.
# VARIANTS is one argument, space-separated.
set -u
cmd=${1:-}
case $cmd in sanitizers) [ $# -ge 7 ] && [ $# -le 8 ] ;; profiles) [ $# -ge 8 ] && [ $# -le 9 ] ;; *) false ;; esac ||
  { echo "usage: gpu-checks.sh sanitizers ROOT BENCH TOOL BUDGET_S SHAPE VARIANTS [SKIP_REASON]" >&2
    echo "       gpu-checks.sh profiles ROOT BENCH TOOL BUDGET_S SHAPE VARIANTS REPORT [SKIP_REASON]" >&2; exit 2; }
root=$2 bench=$3 tool=$4 budget=$5 shape=$6 variants=$7
json_s() { printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g' | tr '\n\t\r' '   '; }
json_str() { if [ -n "$1" ]; then printf '"%s"' "$(json_s "$1")"; else printf null; fi; }

sanitizers() {
  local why=${1:-} t v st n rc log reason left res=() end=$(( $(date +%s) + budget )) ver=
  [ -n "$why" ] || ver=$("$tool" --version 2>/dev/null | tail -n 1)
  mkdir -p "$root/logs/sanitizers"
  for t in memcheck racecheck synccheck initcheck; do
    for v in $variants; do
      st=skipped n=null log= reason=$why left=$(( end - $(date +%s) ))
      if [ -z "$why" ] && [ $left -le 0 ]; then reason="the step's budget ($budget s) was spent"
      elif [ -z "$why" ]; then
        log=logs/sanitizers/$t-$v.log
        timeout "$left" "$tool" --tool "$t" "$bench" --backend cuda --check-only --quiet --variant "$v" \
          --shape "$shape" --seeds 0 >"$root/$log" 2>&1
        rc=$?
        n=$(sed -nE 's/.*ERROR SUMMARY: ([0-9]+) error.*/\1/p' "$root/$log" | tail -n 1)
        if [ -z "$n" ]; then
          st=error n=null reason="no ERROR SUMMARY line (exit $rc$([ $rc -eq 124 ] && echo ', timed out'))"
        elif [ "$n" -gt 0 ]; then st=fail reason="$n error(s) reported"
        elif [ $rc -ne 0 ]; then st=error reason="0 errors, but exit $rc"
        else st=pass reason=; fi
      fi
      res+=("{\"tool\": \"$t\", \"variant\": \"$v\", \"status\": \"$st\", \"errors\": $n, \"reason\": $(json_str "$reason"), \"log\": $(json_str "$log")}")
    done
  done
  {
    printf '{\n  "schema_version": "1.3.0",\n  "kind": "sanitizers",\n'
    printf '  "meta": {"tool": "gpu-checks.sh", "utc_time": "%s", "host": %s},\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$(json_str "$(hostname 2>/dev/null)")"
    printf '  "shape": "%s",\n  "tool_version": %s,\n  "skipped": %s,\n  "results": [\n' "$shape" "$(json_str "$ver")" "$(json_str "$why")"
    (IFS=$'\n'; echo "${res[*]}") | sed '$!s/$/,/; s/^/    /'
    printf '  ]\n}\n'
  } >"$root/.sanitizers.json.$$" && mv -n "$root/.sanitizers.json.$$" "$root/sanitizers.json" && [ ! -e "$root/.sanitizers.json.$$" ] ||
    { rm -f "$root/.sanitizers.json.$$"; echo "gpu-checks.sh: cannot write $root/sanitizers.json (exists?)" >&2; return 2; }
  ! grep -qE '"status": "(fail|error)"' "$root/sanitizers.json"
}

profiles() {
  local report=$1 why=${2:-} vargs=() all use=() unavailable=() offered m csv=$root/logs/ncu.csv name rc
  for m in $variants; do vargs+=(--variant "$m"); done
  if [ -n "$why" ]; then
    "$report" ncu-json --skipped "$why" "$root/profile.json" --tool none --shape "$shape" "${vargs[@]}"
    return
  fi
  name="ncu $("$tool" --version 2>/dev/null | sed -nE 's/.*Version ([0-9][0-9.]*).*/\1/p' | tail -n 1)"
  all=$("$report" ncu-json --list-metrics) || return 2
  # --query-metrics lists base names (no .sum/.avg/.pct... suffix) of what this device offers.
  offered=$("$tool" --query-metrics 2>/dev/null | awk 'NR > 1 {print $1}')
  for m in $all; do
    if [ -z "$offered" ] || grep -qxF "${m%%.*}" <<<"$offered"; then use+=("$m"); else unavailable+=(--unavailable "$m"); fi
  done
  [ -n "$offered" ] || echo "ncu --query-metrics answered nothing: the whole set is requested, unfiltered"
  mkdir -p "$root/logs"
  # The application's output precedes ncu's CSV on stdout; the parser skips it. Under ncu the
  # blocking kernel cannot hold the stream (ncu serialises launches): --no-blocking-kernel.
  timeout $(( budget * 3 )) "$tool" --csv --print-units base --metrics "$(IFS=,; echo "${use[*]}")" \
    --kernel-name regex:^sdpa_ "$bench" --backend cuda --check-only --no-blocking-kernel --quiet "${vargs[@]}" \
    --shape "$shape" --seeds 0 >"$csv" 2>"$root/logs/ncu.stderr"
  rc=$?
  cat "$root/logs/ncu.stderr"
  if grep -q ERR_NVGPUCTRPERM "$csv" "$root/logs/ncu.stderr"; then
    "$report" ncu-json --skipped "no permission to read the GPU's performance counters (ERR_NVGPUCTRPERM)" \
      "$root/profile.json" --tool "$name" --shape "$shape" "${vargs[@]}"
    return
  fi
  [ $rc -eq 0 ] || echo "ncu exited $rc; parsing what it wrote"
  "$report" ncu-json "$csv" "$root/profile.json" --tool "$name" --shape "$shape" "${vargs[@]}" "${unavailable[@]}"
}

if [ "$cmd" = sanitizers ]; then sanitizers "${8:-}"; else profiles "$8" "${9:-}"; fi
