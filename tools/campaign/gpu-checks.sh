#!/usr/bin/env bash
# The campaign's sanitizer and profiler steps (campaign.sh calls it; shipped in the bundle beside
# it). Each writes its file into the campaign directory whatever happens, through sdpa-report (the
# library's atomic, never-overwriting writer): every entry has a status and, when it is not a
# plain pass, the reason.
#   gpu-checks.sh sanitizers ROOT BENCH TOOL BUDGET_S SHAPE VARIANTS REPORT [--faulted VARIANTS]
#                [--faulted-shapes SHAPES] [--hung VARIANTS] [--skip REASON]
#       compute-sanitizer (TOOL): first memcheck alone on each --faulted variant (one that faulted
#       or hung in its own check, or hung in a timed step: the combined runs leave it out, so that
#       it cannot take the others down), at SHAPE and the --faulted-shapes (the campaign's
#       deep-check shapes: a fault found only past a ring wrap, under a mask or at D = 128 recurs
#       there); a --hung one (hung rather than faulted) at SHAPE alone, since memcheck does not end
#       a hang and would spend its whole share there (the run's reason says so); then one process per tool
#       (memcheck, racecheck, synccheck, initcheck) with every other variant at SHAPE, each under
#       `timeout` at its share of what is left of BUDGET_S (an overrun is "skipped", never a failure
#       of the variants), with --error-exitcode 99. The logs
#       (ROOT/logs/sanitizers/) go to `REPORT sanitizers-json`, which reads each summary (racecheck:
#       its own), attributes each finding to the variant whose kernel it names, and records a tool
#       that cannot attach to the device ("Device not supported", error 999) once as unavailable.
#       Writes ROOT/sanitizers.json; exit 1 when an entry is fail or error.
#   gpu-checks.sh profiles ROOT BENCH TOOL BUDGET_S SHAPE VARIANTS REPORT [--skip REASON] [--out NAME]
#       ncu (TOOL) --csv on one sdpa-bench --check-only process at SHAPE (one launch per variant),
#       the metric set of `REPORT ncu-json --list-metrics` filtered against `ncu --query-metrics`
#       (the others recorded unavailable; launch__* attributes are never listed there and always
#       asked for); ERR_NVGPUCTRPERM (no permission to read the counters) is recorded as skipped;
#       a metric ncu refuses by name ("Failed to find metric": a name this ncu or device does not
#       know, where --query-metrics offered its base) is left out and ncu run again, twice at most,
#       within the same time (recorded rejected: an unknown name does not cost the whole profile);
#       no CSV at all (the driver or a library refused) as unavailable with ncu's first error line.
#       ncu's CSV kept as ROOT/logs/ncu.csv; writes ROOT/profile.json with REPORT ncu-json. With
#       --out NAME (a file name, e.g. profile-gate.json: stage 7g's gate shape) ROOT/NAME instead,
#       its CSV and stderr as ROOT/logs/ncu-<NAME less .json>.{csv,stderr}.
# With --skip REASON (no GPU, tool not installed) nothing runs and every entry is skipped with it.
# VARIANTS (every variant reported) and --faulted's (some of them) are one argument each, space-separated.
set -u
cmd=${1:-}
usage() {
  echo "usage: gpu-checks.sh sanitizers ROOT BENCH TOOL BUDGET_S SHAPE VARIANTS REPORT [--faulted VARIANTS] [--faulted-shapes SHAPES] [--hung VARIANTS] [--skip REASON]" >&2
  echo "       gpu-checks.sh profiles ROOT BENCH TOOL BUDGET_S SHAPE VARIANTS REPORT [--skip REASON] [--out NAME]" >&2
  exit 2
}
case $cmd in sanitizers|profiles) [ $# -ge 8 ] || usage ;; *) usage ;; esac
root=$2 bench=$3 tool=$4 budget=$5 shape=$6 variants=$7 report=$8 faulted= fshapes= hung= why= pname=profile.json
shift 8
while [ $# -gt 0 ]; do
  case $1 in
    --faulted) [ $# -ge 2 ] && [ "$cmd" = sanitizers ] || usage; faulted=$2 ;;
    --faulted-shapes) [ $# -ge 2 ] && [ "$cmd" = sanitizers ] || usage; fshapes=$2 ;;
    --hung) [ $# -ge 2 ] && [ "$cmd" = sanitizers ] || usage; hung=$2 ;;
    --skip) [ $# -ge 2 ] && [ -n "$2" ] || usage; why=$2 ;;
    --out) [ $# -ge 2 ] && [ "$cmd" = profiles ] || usage
      case $2 in */*|.*|*[!A-Za-z0-9._-]*|'') echo "gpu-checks.sh: --out '$2': a file name ([A-Za-z0-9._-], no directory)" >&2; exit 2 ;;
        *.json) pname=$2 ;; *) echo "gpu-checks.sh: --out '$2': expected a .json name" >&2; exit 2 ;; esac ;;
    *) usage ;;
  esac
  shift 2
done
case $budget in ''|*[!0-9]*) echo "gpu-checks.sh: BUDGET_S '$budget': expected whole seconds" >&2; exit 2 ;; esac
vargs() { local v; for v in $1; do printf -- '--variant\n%s\n' "$v"; done; }
one_line() { printf '%s' "$1" | tr '\t\n\r' '   '; }

sanitizers() {
  local t v rc log left share n_left runs=$root/logs/sanitizers/runs.tsv end=$(( $(date +%s) + budget )) ver= healthy=
  local tools=(memcheck racecheck synccheck initcheck) args=()
  mapfile -t args < <(vargs "$variants")
  mkdir -p "$root/logs/sanitizers"
  if [ -n "$why" ]; then
    "$report" sanitizers-json "$root/sanitizers.json" --root "$root" --shape "$shape" --skipped "$why" "${args[@]}"
    return $(( $? == 0 ? 0 : 2 ))
  fi
  ver=$("$tool" --version 2>/dev/null | sed -n 's/^Version //p' | tail -n 1)
  for v in $variants; do case " $faulted " in *" $v "*) ;; *) healthy="$healthy $v" ;; esac; done
  : >"$runs"
  # run TOOL VARIANTS SHARE_S [SHAPES [REASON]]: one compute-sanitizer process (at SHAPE, and
  # SHAPES), its line in runs.tsv (the shapes column "-" for SHAPE alone; REASON a note, else "-").
  run() {
    local vs=() name sh=(--shape "$shape") s
    mapfile -t vs < <(vargs "$2")
    for s in ${4:-}; do sh+=(--shape "$s"); done
    name=$1$([ "$(wc -w <<<"$2")" -eq 1 ] && echo "-$(echo $2)")
    log=logs/sanitizers/$name.log
    timeout -k 5 "$3" "$tool" --tool "$1" --error-exitcode 99 "$bench" --backend cuda --check-only --quiet \
      "${vs[@]}" "${sh[@]}" --seeds 0 >"$root/$log" 2>&1
    rc=$?
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$(echo $2)" "$rc" "$log" "$(one_line "${5:--}")" \
      "$([ -n "${4:-}" ] && echo $shape $4 || echo -)" >>"$runs"
  }
  not_run() { printf '%s\t%s\t-\t-\t%s\t-\n' "$1" "$(echo $2)" "$(one_line "$3")" >>"$runs"; }
  # memcheck first on what faulted: where the fault is, before anything else spends the budget.
  for v in $faulted; do
    left=$(( end - $(date +%s) ))
    if [ $left -le 0 ]; then not_run memcheck "$v" "the step's budget ($budget s) was spent"; continue; fi
    share=$(( left / 2 > 0 ? left / 2 : 1 ))
    case " $hung " in
      *" $v "*) run memcheck "$v" $share "" "hung (in its own check or a timed step): memcheck at $shape alone (it does not end a hang)" ;;
      *) run memcheck "$v" $share "$fshapes" ;;
    esac
  done
  for v in "${!tools[@]}"; do
    t=${tools[$v]}
    [ -n "$faulted" ] && not_run "$t" "$faulted" "faulted or hung (in its own check or a timed step): left out of the combined run$([ "$t" = memcheck ] && echo '; memcheck ran on it alone')"
    [ -n "${healthy// /}" ] || continue
    left=$(( end - $(date +%s) )) n_left=$(( ${#tools[@]} - v ))
    if [ $left -le 0 ]; then not_run "$t" "$healthy" "the step's budget ($budget s) was spent"; continue; fi
    share=$(( left / n_left )); [ $share -ge 1 ] || share=1
    run "$t" "$healthy" "$share"
  done
  # memcheck alone on a faulted variant is listed first, so that it covers that variant.
  "$report" sanitizers-json "$root/sanitizers.json" --root "$root" --shape "$shape" \
    ${ver:+--tool-version "$ver"} --runs "$runs" "${args[@]}"
  case $? in 0) return 0 ;; 3) return 1 ;; *) return 2 ;; esac
}

profiles() {
  local vargs_=() all use=() unavailable=() rejected=() rejected_args=() offered m name rc first stem t_end try
  stem=ncu$([ "$pname" = profile.json ] || echo "-${pname%.json}")
  local csv=$root/logs/$stem.csv err=$root/logs/$stem.stderr out=$root/$pname
  mapfile -t vargs_ < <(vargs "$variants")
  if [ -n "$why" ]; then
    "$report" ncu-json --skipped "$why" "$out" --tool none --shape "$shape" "${vargs_[@]}"
    return
  fi
  # --clock-control none: ncu's default locks the SM clocks to base while it profiles, and leaves them
  # locked if it is killed; the campaign never changes a device's clocks. The tool line says so.
  name="ncu $("$tool" --version 2>/dev/null | sed -nE 's/.*Version ([0-9][0-9.]*).*/\1/p' | tail -n 1), --clock-control none"
  all=$("$report" ncu-json --list-metrics) || return 2
  # --query-metrics lists base names (no .sum/.avg/.pct... suffix) of what this device offers; the
  # launch__* attributes are not among them and are always available.
  offered=$("$tool" --query-metrics 2>/dev/null | awk 'NR > 1 {print $1}')
  for m in $all; do
    case $m in launch__*) use+=("$m"); continue ;; esac
    if [ -z "$offered" ] || grep -qxF "${m%%.*}" <<<"$offered"; then use+=("$m"); else unavailable+=(--unavailable "$m"); fi
  done
  [ -n "$offered" ] || echo "ncu --query-metrics answered nothing: the whole set is requested, unfiltered"
  mkdir -p "$root/logs"
  # The application's output precedes ncu's CSV on stdout; the parser skips it. Under ncu the
  # blocking kernel cannot hold the stream (ncu serialises launches): --no-blocking-kernel. The
  # check beside the profile samples 512 query rows per slice (every row up to S = 512): at the
  # gate shape full fp64 references would take the CPU ~45 s.
  t_end=$((SECONDS + budget * 3))
  for try in 1 2 3; do
    timeout -k 5 $((t_end - SECONDS > 1 ? t_end - SECONDS : 1)) "$tool" --clock-control none --csv --print-units base \
      --metrics "$(IFS=,; echo "${use[*]}")" --kernel-name regex:^sdpa_ "$bench" --backend cuda --check-only \
      --no-blocking-kernel --quiet "${vargs_[@]}" --shape "$shape" --seeds 0 --ref-rows 512 >"$csv" 2>"$err"
    rc=$?
    cat "$err"
    [ $try -lt 3 ] && ! grep -q '^"ID",' "$csv" && drop_rejected || break
    echo "ncu refused ${#rejected[@]} metric name(s) (${rejected[*]}): run again without them"
  done
  for m in "${rejected[@]}"; do rejected_args+=(--rejected "$m"); done
  if grep -q ERR_NVGPUCTRPERM "$csv" "$err"; then
    "$report" ncu-json --skipped "no permission to read the GPU's performance counters (ERR_NVGPUCTRPERM)" \
      "$out" --tool "$name" --shape "$shape" "${vargs_[@]}"
    return
  fi
  if ! grep -q '^"ID",' "$csv"; then
    # The first ==ERROR== line, with the next when it only announces it ("... reported by the driver:").
    first=$(cat "$err" "$csv" | grep '^==ERROR==' | sed 's/^==ERROR== *//' |
      awk 'NR == 1 { l = $0; if (l !~ /:$/) exit } NR == 2 { l = l " " $0; exit } END { print l }')
    [ -n "$first" ] || first="no CSV and no ==ERROR== line (exit $rc$([ $rc -eq 124 ] && echo ', timed out'))"
    "$report" ncu-json --tool-unavailable "$(one_line "ncu produced no profile: $first")" "$out" \
      --tool "$name" --shape "$shape" "${vargs_[@]}"
    return
  fi
  [ $rc -eq 0 ] || echo "ncu exited $rc; parsing what it wrote"
  "$report" ncu-json "$csv" "$out" --tool "$name" --shape "$shape" "${vargs_[@]}" "${unavailable[@]}" \
    "${rejected_args[@]}"
}
# drop_rejected: the metrics of use[] that ncu's "Failed to find metric NAME" lines name (NAME itself,
# or its "regex:^base\.(sum|...)$" form, which names every metric of that base) move to rejected[];
# false when none did (nothing to run again without).
drop_rejected() {
  local named keep=() m n0=${#rejected[@]}
  named=$(cat "$err" "$csv" | sed -n 's/^==ERROR== *Failed to find metric *//p' |
    sed 's/regex://; s/[]\\^$[]//g; s/[[:space:]]*$//')
  [ -n "$named" ] || return 1
  for m in "${use[@]}"; do
    if awk -v m="$m" -v b="${m%%.*}.(" '$0 == m || index($0, b) == 1 { f = 1 } END { exit !f }' <<<"$named"; then
      rejected+=("$m")
    else keep+=("$m"); fi
  done
  [ ${#rejected[@]} -gt "$n0" ] && [ ${#keep[@]} -gt 0 ] || return 1
  use=("${keep[@]}")
}

"$cmd"
