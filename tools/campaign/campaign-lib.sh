# shellcheck shell=bash disable=SC2154 # the variables campaign.sh sets before sourcing this file
# campaign-lib.sh: the campaign's bookkeeping, sourced by campaign.sh (shipped beside it in the
# bundle; never a file that came from elsewhere). What a killed campaign must not lose lives here:
#   the work directory   <out without .tar.gz>.partial/ beside --out (never in TMPDIR, which a
#                        node may wipe and which the tarball does not bring home), holding
#                        campaign-<id>/ (what the tarball will hold), state/ (the records below)
#                        and tmp/ (the children's TMPDIR)
#   state/args           campaign-json's fixed arguments, NUL-separated, appended as they become
#                        known (the backend after the probe, the device after the device step)
#   state/steps.tsv      one line per step as it ends: name, part, exit status, seconds, budget,
#                        note; state/current the step running now (for --pack after a SIGKILL)
#   state/checks.tsv     the variants' own checks; state/completed the parts that ran to their end
#   state/out            the tarball's path
# Every step runs as a background job in its own process group (set -m), so that a signal stops
# the step's whole process tree at once and the trap below still records, writes campaign.json
# ("interrupted": true, the parts completed) and packs what exists.
# Expects: report (sdpa-report), root, work, state, t0, cur_part, total_est set by campaign.sh.

# record NAME EXIT SECONDS BUDGET NOTE: a step's line (tabs and newlines out of the note).
record() {
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "${cur_part:--}" "$2" "$3" "$4" \
    "$(printf '%s' "${5:--}" | tr '\t\n\r' '   ')" >>"$state/steps.tsv"
}
arg() { printf '%s\0' "$@" >>"$state/args"; } # campaign-json arguments

progress() { # NAME: the progress line of a step about to start
  local left=$((total_est - ($(date +%s) - t0))); [ $left -lt 0 ] && left=0
  echo "[campaign $(( $(date +%s) - t0 ))s, ~${left}s left] $1" >&2
}

# step NAME BUDGET_S CMD...: runs CMD (a command or a function) with its output in logs/NAME.log,
# in its own process group; records the outcome. Returns CMD's exit status.
step() {
  local name=$1 est=$2; shift 2
  local s rc=0 lim note=-
  s=$(date +%s)
  progress "$name"
  printf '%s\t%s\t%s\t%s\n' "$name" "${cur_part:--}" "$s" "$est" >"$state/current"
  : >"$state/step-start" # what the step's logs were written after (in_flight)
  cur_step=$name cur_start=$s cur_est=$est
  CAMPAIGN_STEP=$name "$@" >"$root/logs/$name.log" 2>&1 </dev/null &
  child=$!
  lim=$(guard_limit "$name" "$est")
  start_guard "$lim"
  wait "$child" || rc=$?
  stop_guard
  child= cur_step=
  rm -f "$state/current"
  # The marker counts only for a step that the signal ended (143 TERM, 137 KILL): one that ended by
  # itself as the guard fired keeps its own exit status.
  if [ -e "$state/guard-fired" ] && { rm -f "$state/guard-fired"; [ $rc -eq 143 ] || [ $rc -eq 137 ]; }; then
    rc=124 note="stopped by the step guard after $lim s (--step-guard $step_guard x its budget of $est s$([ "${factor:-1}" = 1 ] || echo " x $factor"), at least ${SDPA_STEP_GUARD_FLOOR:-60} s): a hang, or a device far slower than the budgets assume"
    local fl v ran hang_s=${SDPA_HANG_MIN_S:-10}
    fl=$(in_flight)
    if [ -n "$fl" ]; then
      v=$(awk '{ print $8 }' <<<"$fl")
      ran=$(sed -n 's/.*, for \([0-9][0-9]*\) s$/\1/p' <<<"$fl")
      note="$note; in flight: ${fl#sdpa-bench: stopped by a signal while }"
      # A launch that had run under hang_s is a slow step's last launch, not a hang: no launch of
      # this study lasts a second on a GPU, so 10 s leaves room for a sanitizer's slowdown.
      if [ -n "$ran" ] && [ "$ran" -lt "$hang_s" ]; then
        note="$note: not a hang (that launch had run under $hang_s s), $v stays in the steps after it"
      elif declare -F leave_out >/dev/null && leave_out "$v" "$name"; then
        note="$note; $v is left out of the steps after it"
      fi
    fi
    echo "  $name: $note" >"$root/logs/$name.guard"
  fi
  record "$name" $rc $(( $(date +%s) - s )) "$est" "$note"
  if [ $rc -ne 0 ]; then
    echo "  $name: FAILED (exit $rc), see logs/$name.log in the tarball" >&2
    tail -n 5 "$root/logs/$name.log" | sed 's/^/    /' >&2
  fi
  return $rc
}

# in_flight: what the last sdpa-bench the guard stopped was doing, from the line its signal handler
# writes ("sdpa-bench: stopped by a signal while timing V on SHAPE, seed N, for S s": the launch in
# flight and for how long; host/bench/harness.c, host/lib/fileio.c; none while the host checks an
# output or pauses for a throttled clock),
# in any log the step wrote (a step's own log, scaling's per-S logs, a sanitizer's); empty if none.
# Searched anywhere in a line: a flush of buffered stdout can end mid-line before it.
in_flight() {
  find "$root/logs" -type f -newer "$state/step-start" -exec \
    grep -ho 'sdpa-bench: stopped by a signal while \(timing\|checking\) [^ ]* on .*' {} + 2>/dev/null | tail -n 1
}

# guard_limit NAME BUDGET_S: the step guard's limit in seconds (0: none): --step-guard x the budget
# x the device's factor, at least SDPA_STEP_GUARD_FLOOR (60; tests lower it). The checks step has
# its own timeout per process and no guard (stopping it would leave variants unchecked).
guard_limit() {
  [ "$1" = checks ] && { echo 0; return; }
  awk -v g="${step_guard:-0}" -v b="$2" -v f="${factor:-1}" -v floor="${SDPA_STEP_GUARD_FLOOR:-60}" \
    'BEGIN { l = g * b * f; if (g <= 0) { print 0; exit } if (l < floor) l = floor; printf "%d\n", l + 0.999 }'
}
# start_guard LIMIT_S: a watcher that stops the running step's process group (TERM, KILL 10 s
# later) once it has run LIMIT_S seconds, and leaves state/guard-fired; stop_guard ends it.
start_guard() {
  guard=
  [ "$1" -gt 0 ] || return 0
  ( sleep "$1" && : >"$state/guard-fired" && kill -TERM -- "-$child" && sleep 10 && kill -KILL -- "-$child" ) \
    </dev/null >/dev/null 2>&1 &
  guard=$!
  disown "$guard" 2>/dev/null
}
stop_guard() { [ -n "${guard:-}" ] && kill -- "-$guard" 2>/dev/null; guard=; }

# skip_step NAME BUDGET_S REASON: a step that does not run here, recorded with the reason.
skip_step() {
  progress "$1"
  echo "  $1: skipped: $3" >&2
  record "$1" - 0 "$2" "$3"
}

# on_signal SIG: stop the running step's process group, record it, pack what exists, exit 128+n.
on_signal() {
  local sig=$1 why code=143
  trap '' INT TERM
  stop_guard
  [ "$sig" = INT ] && code=130
  why=SIG$sig
  [ -e "$state/time-limit" ] && why="the time limit (--time-limit $time_limit s)"
  stop_watchdog
  if [ -n "${child:-}" ]; then
    kill -TERM -- "-$child" 2>/dev/null
    wait "$child" 2>/dev/null
    rm -f "$state/current"
    record "$cur_step" $code $(( $(date +%s) - cur_start )) "$cur_est" "interrupted by $why"
  fi
  echo "campaign $id: interrupted by $why during ${cur_step:-the bookkeeping}; packing what was measured" >&2
  finish "$why"
  exit $code
}

# The time limit's own stop, so that packing happens before the node's kill: TERM to this
# script at LIMIT - RESERVE seconds (the trap above packs).
start_watchdog() {
  [ "$time_limit" -gt 0 ] || return 0
  ( sleep "$(( time_limit - stop_reserve > 1 ? time_limit - stop_reserve : 1 ))" && : >"$state/time-limit" &&
    kill -TERM $$ ) </dev/null >/dev/null 2>&1 &
  watchdog=$!
  disown "$watchdog" 2>/dev/null # its end is expected: no "Terminated" job notice in the log
}
stop_watchdog() { [ -n "${watchdog:-}" ] && kill -- "-$watchdog" 2>/dev/null; watchdog=; }

# finish [INTERRUPTION]: campaign.json through sdpa-report, SHA256SUMS, the tarball (renamed
# into place, never over an existing file), the work directory removed. Without the backend and
# device (stopped before the device step) nothing was measured: the work directory is kept for
# its logs and no tarball is written.
finish() {
  local cj=() done_parts=() p out
  progress pack
  out=$(cat "$state/out")
  if [ ! -e "$root/campaign.json" ]; then
    mapfile -d '' -t cj <"$state/args"
    if ! printf '%s\n' "${cj[@]}" | grep -qx -- --device; then
      echo "campaign: stopped before the device step: nothing measured, no tarball; its logs stay in $work" >&2
      return 1
    fi
    [ -e "$state/completed" ] && mapfile -t done_parts <"$state/completed"
    for p in "${done_parts[@]}"; do cj+=(--completed "$p"); done
    [ -e "$state/checks.tsv" ] && cj+=(--checks "$state/checks.tsv")
    "$report" campaign-json "$root/campaign.json" "${cj[@]}" --steps "$state/steps.tsv" \
      ${1:+--interrupted "$1"} || { echo "campaign: campaign.json could not be written; the work directory stays: $work" >&2; return 3; }
  fi
  (cd "$root" && find . -type f ! -name SHA256SUMS -print0 | sort -z | xargs -0 sha256sum >SHA256SUMS) ||
    { echo "campaign: SHA256SUMS could not be written; the work directory stays: $work" >&2; return 3; }
  if tar -C "$work" -czf "$out.tmp.$$" "$(basename "$root")" && mv -n "$out.tmp.$$" "$out" && [ ! -e "$out.tmp.$$" ]; then
    rm -rf "$work"
    return 0
  fi
  rm -f "$out.tmp.$$"
  echo "campaign: could not write $out (exists, or the disk is full); everything measured stays in $work" \
    "(campaign.sh --pack $work --out OTHER.tar.gz packs it)" >&2
  return 3
}
