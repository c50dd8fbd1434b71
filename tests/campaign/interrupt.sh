#!/usr/bin/env bash
# The first GPU hour keeps every result (issue 19), on this machine's emulator with the bundle
# unpacked outside the checkout and its sdpa-bench wrapped (tests/campaign/fake/sdpa-bench: a step
# made slow enough to interrupt, a variant that faults, one that hangs):
#   - SIGTERM in a part chosen at random: exit 143, a tarball with campaign.json "interrupted" and
#     the parts completed, ingestible; `--resume` it: a new campaign runs exactly the missing parts,
#     ingestible, and the two together complete the plan
#   - SIGKILL mid-part: the work directory stays beside --out; `--pack` under a full disk (a file-size
#     limit) says so and leaves no tarball; `--pack` packs it, ingestible
#   - --time-limit: --plan's groups fit and cover the plan; a part that does not fit is skipped
#     (exit 4, resumable); the campaign stops itself before the limit and packs
#   - --step-guard: a step that overruns its factor x budget is stopped (exit 124) and the rest runs;
#     a kernel that hangs only when timed is named in the stopped step's note (the bench's line)
#     and left out of the steps after it; a step stopped while each launch is short (slow, not
#     hung) keeps the kernel in flight
#   - a variant that faults and one that hangs in their own checks, and one that hangs only in its
#     deep check, are recorded (fault, hang) and left out of every timed step, while the rest runs
# Usage: tests/campaign/interrupt.sh BUNDLE.tar.gz SDPA_REPORT   (about a minute)
# shellcheck disable=SC2016 # the checks' bash -c scripts expand their own arguments
set -u
. tests/tap.sh
# quiet CMD...: CMD with its stdout dropped (a tap_ok line redirected whole would drop its TAP line).
quiet() { "$@" >/dev/null; }
bundle=$(realpath "$1") report=$(realpath "$2")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/interrupt-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/node" && tar -C "$tmp/node" -xzf "$bundle"
B=$tmp/node/bundle
mv "$B/bin/sdpa-bench" "$B/bin/sdpa-bench.real" && cp tests/campaign/fake/sdpa-bench "$B/bin/sdpa-bench"
# node VAR=VALUE... -- ARGS...: the bundle's campaign.sh as a bare node runs it, in the background ($pid).
node() {
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  (cd "$tmp" && exec env -i HOME="$tmp" PATH=/usr/bin:/bin TMPDIR="$tmp" "${envs[@]}" "$B/campaign.sh" "$@") \
    >"$tmp/${log:-run.log}" 2>&1 &
  pid=$!
}
# until_slow STEP OUT: waits until STEP of the campaign writing OUT sleeps in the wrapper, for 300 s
# at most: a deadline, not a count of polls (a quick campaign reached its last parts after ~70 s on
# this 2-core machine with four other processes busy, and the test starts five campaigns at once).
until_slow() {
  local end=$((SECONDS + 300))
  while [ $SECONDS -lt $end ]; do
    grep -qs "fake sdpa-bench: slow step $1" "${2%.tar.gz}".partial/campaign-*/logs/"$1"*.log && return 0 # scaling: scaling-S<S>.log
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}
cj() { tar -xzOf "$1" --wildcards '*/campaign.json' 2>/dev/null; }
# member TGZ NAME: one file of a campaign tarball to $tmp/m.json; false when it is not there (jq -e
# passes on an empty input, so every check of a member starts with this).
member() { tar -xzOf "$1" --wildcards "*/$2" >"$tmp/m.json" 2>/dev/null && [ -s "$tmp/m.json" ]; }
# each_member TGZ FILTER NAME...: every NAME.json of the tarball is there and passes the jq FILTER.
each_member() {
  local tgz=$1 filter=$2 f bad=0
  shift 2
  for f in "$@"; do
    member "$tgz" "$f.json" && jq -e "$filter" "$tmp/m.json" >/dev/null || { bad=1; tap_diag "$f.json fails $filter, or is missing"; }
  done
  return $bad
}
ingest() { tools/campaign/ingest.sh "$1" "$tmp/data" "$report" --allow-emulated >"$tmp/ingest.log" 2>&1; }

# The time limit's own stop takes ~45 s of sleeping: started first, checked last. The ceilings part
# starts only if the probe, checks and device steps before it leave its budget (10 s) and the reserve
# (15 s) within the limit: at --time-limit 36 they had 11 s, which a loaded 2-core machine overran
# once (the part was then skipped as not fitting and nothing overran the limit); 60 leaves them 35 s.
log=w.log node FAKE_BENCH_SLOW_STEP=ceilings FAKE_BENCH_SLOW_S=300 -- --quick --backend emu --time-limit 60 --part ceilings --out "$tmp/w.tar.gz"
wpid=$pid

# The step guard: a step that overruns its factor x budget is stopped and the campaign goes on
# (the floor lowered from 60 s so that the test takes seconds; ceilings' quick budget is 10 s). The
# guards of the steps that must pass are their budgets, 5 s at least: at --step-guard 0.2 with a floor
# of 1 s, history's 4 s guard was all it took on this machine with four other processes busy.
log=g.log node SDPA_STEP_GUARD_FLOOR=5 FAKE_BENCH_SLOW_STEP=ceilings FAKE_BENCH_SLOW_S=300 -- --quick --backend emu \
  --step-guard 1 --part ceilings --part history --out "$tmp/g.tar.gz"
gpid=$pid

# The step guard names the kernel in flight: stage2 hangs in any timed run, first in the experiment
# whose candidate it is; the guard stops that step, the line the bench leaves names stage2, and
# stage2 is left out of the steps after it: the experiment whose baseline it is, the history.
# (SDPA_HANG_MIN_S=0: the stall starts after the experiment's own check, so the launch in flight may
# have run under the 10 s that make a hang by the time the guard stops it. The guards are the steps'
# budgets, 5 s at least, so that the steps that must pass have room on a loaded machine.)
log=h.log node SDPA_STEP_GUARD_FLOOR=5 SDPA_HANG_MIN_S=0 FAKE_BENCH_HANG_TIMING=stage2 -- --quick --backend emu --step-guard 1 \
  --part experiment:stage2-wmma-pv --part experiment:stage3a-fusion --part history --part sanitizers --out "$tmp/h.tar.gz"
hpid=$pid
# A slow step is no hang: the guard stops stage2's experiment while each launch is short (the
# bench's line says "for 0 s"); stage2 stays, and the experiment whose baseline it is runs.
log=s.log node SDPA_STEP_GUARD_FLOOR=5 FAKE_BENCH_SLOW_LAUNCHES=experiment-stage2-wmma-pv -- --quick --backend emu \
  --step-guard 1 --part experiment:stage2-wmma-pv --part experiment:stage3a-fusion --out "$tmp/s.tar.gz"
spid=$pid

# ---- SIGTERM in a random part, then --resume ------------------------------------------------
parts=(ceilings experiment:stage2-wmma-pv experiment:stage5-warp-specialised history scaling peers)
part=${parts[$(( RANDOM % ${#parts[@]} ))]}
case $part in experiment:*) slow=experiment-${part#experiment:} ;; peers) slow=peers-cublas ;; *) slow=$part ;; esac
tap_diag "the part interrupted this time: $part (its step $slow)"
node FAKE_BENCH_SLOW_STEP="$slow" -- --quick --backend emu --out "$tmp/a.tar.gz"
until_slow "$slow" "$tmp/a.tar.gz" || { sed 's/^/# /' "$tmp/run.log" | tail -n 20; }
kill -TERM "$pid"; wait "$pid"
rc=$?
tap_ok "SIGTERM during $part: exit 143" test $rc -eq 143
tap_ok "  ... a tarball beside --out, the work directory gone" test -s "$tmp/a.tar.gz" -a ! -e "$tmp/a.partial"
cj "$tmp/a.tar.gz" >"$tmp/a.json"
tap_ok "  ... campaign.json: interrupted (SIGTERM), $part planned and not completed, the parts before it completed" \
  bash -c '[ -s "$1" ] && jq -e --arg p "$2" "
    .interrupted == true and .interruption == \"SIGTERM\" and (.parts_planned | index(\$p)) != null and
    (.parts_completed | index(\$p)) == null and .parts_completed == .parts_planned[0:(.parts_planned | index(\$p))]" "$1" >/dev/null' _ "$tmp/a.json" "$part"
tap_ok "  ... the interrupted step recorded (exit 143, interrupted by SIGTERM)" \
  test "$(jq -r --arg s "$slow" '.steps[] | select(.name == $s) | "\(.exit_status) \(.note)"' "$tmp/a.json")" = "143 interrupted by SIGTERM"
ingest "$tmp/a.tar.gz"
rc=$?
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/ingest.log"
tap_ok "  ... make ingest's script accepts the interrupted campaign" test $rc -eq 0
node -- --resume "$tmp/a.tar.gz" --out "$tmp/b.tar.gz"
wait "$pid"
rc=$?
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/run.log" | tail -n 20
tap_ok "--resume the interrupted tarball: exit 0" test $rc -eq 0
cj "$tmp/b.tar.gz" >"$tmp/b.json"
tap_ok "  ... a new campaign that resumes the first and runs exactly its missing parts, every one completed" \
  bash -c '[ -s "$1" ] && jq -e --slurpfile a "$2" "
    .interrupted == false and .resumes == \$a[0].campaign_id and .campaign_id != \$a[0].campaign_id and .quick == true and
    .parts_planned == (\$a[0].parts_planned - \$a[0].parts_completed) and .parts_completed == .parts_planned" "$1" >/dev/null' _ "$tmp/b.json" "$tmp/a.json"
ingest "$tmp/b.tar.gz"
tap_ok "  ... ingested too: the two together complete the plan" \
  bash -c '[ $1 -eq 0 ] && [ "$(jq -s -c "(.[0].parts_completed + .[1].parts_completed | sort) == (.[0].parts_planned | sort)" "$2" "$3")" = true ]' _ $? "$tmp/a.json" "$tmp/b.json"
node -- --resume "$tmp/b.tar.gz" --out "$tmp/c.tar.gz"
wait "$pid"
tap_ok "  ... resuming a complete campaign: nothing to do (exit 0, no tarball)" \
  bash -c '[ $1 -eq 0 ] && [ ! -e "$2" ] && grep -q "nothing to do" "$3"' _ $? "$tmp/c.tar.gz" "$tmp/run.log"

# ---- SIGKILL mid-part, then --pack ----------------------------------------------------------
node FAKE_BENCH_SLOW_STEP=history -- --quick --backend emu --part ceilings --part history --out "$tmp/k.tar.gz"
until_slow history "$tmp/k.tar.gz"
# The node going away: the campaign and the step's own process group, at once.
for c in $(ps -o pid= --ppid "$pid"); do kill -KILL -- "-$c" 2>/dev/null; done
kill -KILL "$pid"; wait "$pid" 2>/dev/null
tap_ok "SIGKILL mid-part: no tarball, the work directory stays beside --out" test ! -e "$tmp/k.tar.gz" -a -d "$tmp/k.partial"
# Packing under a full disk (a file-size limit: no root needed): reported, nothing half-written left.
(ulimit -f 8; exec env -i PATH=/usr/bin:/bin "$B/campaign.sh" --pack "$tmp/k.partial") >"$tmp/pack0.log" 2>&1
rc=$?
tap_ok "--pack under a full disk: exit 3, no tarball nor temporary, the work directory stays, said so" \
  bash -c '[ "$1" -eq 3 ] && [ ! -e "$2/k.tar.gz" ] && [ -z "$(ls "$2" | grep "\.tmp\.")" ] && [ -d "$2/k.partial" ] &&
           grep -q "stays" "$3"' _ $rc "$tmp" "$tmp/pack0.log"
[ $rc -eq 3 ] || sed 's/^/# /' "$tmp/pack0.log" | tail -n 5
env -i PATH=/usr/bin:/bin "$B/campaign.sh" --pack "$tmp/k.partial" >"$tmp/pack.log" 2>&1
rc=$?
tap_ok "  ... then campaign.sh --pack DIR packs it (exit 0) into the tarball --out named" test $rc -eq 0 -a -s "$tmp/k.tar.gz" -a ! -e "$tmp/k.partial"
cj "$tmp/k.tar.gz" >"$tmp/k.json"
tap_ok "  ... campaign.json: interrupted (killed), ceilings completed, history not; the killed step recorded (exit 137)" \
  test -s "$tmp/k.json" && jq -e '.interrupted == true and (.interruption | test("killed")) and .parts_completed == ["ceilings"] and
         ([.steps[] | select(.name == "history")][0].exit_status == 137)' "$tmp/k.json" >/dev/null
ingest "$tmp/k.tar.gz"
tap_ok "  ... ingestible" test $? -eq 0
tap_fail "--pack of a directory that is not a campaign's work directory is refused" \
  env -i PATH=/usr/bin:/bin "$B/campaign.sh" --pack "$tmp/node"

# ---- the time limit -------------------------------------------------------------------------
env -i PATH=/usr/bin:/bin "$B/campaign.sh" --quick --backend cuda --plan --time-limit 120 >"$tmp/groups" 2>"$tmp/plan.log"
usable=$(sed -nE 's/.*parts of at most ([0-9]+) s each.*/\1/p' "$tmp/plan.log")
tap_ok "--plan --time-limit 120: one command per group on stdout, each within the limit's usable time ($usable s)" \
  bash -c '[ "$(wc -l <"$1")" -ge 2 ] && grep -q -- "--backend cuda --time-limit 120 --part" "$1" &&
           sed -nE "s/.*group [0-9]+ \(~([0-9]+) s\).*/\1/p" "$2" | awk -v u="$3" "\$1 > u + 20 { bad = 1 } END { exit bad }"' _ "$tmp/groups" "$tmp/plan.log" "$usable"
tap_ok "  ... the groups cover every part of the plan once, in order" \
  bash -c '[ "$(grep -o -- "--part [^ ]*" "$1" | cut -d" " -f2 | tr "\n" " ")" = "$(env -i PATH=/usr/bin:/bin "$2" --quick --plan --time-limit 100000 2>/dev/null | grep -o -- "--part [^ ]*" | cut -d" " -f2 | tr "\n" " ")" ]' _ "$tmp/groups" "$B/campaign.sh"
env -i PATH=/usr/bin:/bin "$B/campaign.sh" --quick --backend cuda --plan --time-limit 120 --first profiles --first history >"$tmp/groups-first" 2>/dev/null
tap_ok "  ... with --first: each group keeps the plan's order (its parts again as --first), profiles and history leading" \
  bash -c '[ "$(grep -o -- "--part [^ ]*" "$1" | cut -d" " -f2 | tr "\n" " ")" = "$(grep -o -- "--first [^ ]*" "$1" | cut -d" " -f2 | tr "\n" " ")" ] &&
           [ "$(grep -o -- "--part [^ ]*" "$1" | cut -d" " -f2 | head -n 2 | tr "\n" " ")" = "profiles history " ] &&
           ! grep -q -- "--first" "$2"' _ "$tmp/groups-first" "$tmp/groups"
# A part fits if what has run, its budget and the reserve (15 s) are within the limit: ceilings
# (10 s) fits until 35 s have run (the steps before it took 2 s here, 11 s with four other processes
# busy), and the quick profiles part (75 s) never fits a limit of 60, however fast the rest.
node -- --quick --backend emu --time-limit 60 --part profiles --part ceilings --out "$tmp/t.tar.gz"
wait "$pid"
rc=$?
cj "$tmp/t.tar.gz" >"$tmp/t.json" 2>/dev/null
tap_ok "--time-limit 60: ceilings runs, profiles (~75 s) does not fit what is left: skipped, exit 4" \
  bash -c '[ $1 -eq 4 ] && [ -s "$2" ] && jq -e ".parts_completed == [\"ceilings\"] and .plan.time_limit_seconds == 60 and
           ([.steps[] | select(.name == \"profiles\")][0].skipped | test(\"^time limit\"))" "$2" >/dev/null' _ $rc "$tmp/t.json"
tap_ok "  ... and says how to run it later (--resume)" grep -q "left for a later command (time limit): profiles: campaign.sh --resume" "$tmp/run.log"

# ---- a variant that faults, one that hangs --------------------------------------------------
# --check-timeout 8: each real check here takes under a second (with four other processes busy),
# and a hang is stopped at 8 s all the same.
node FAKE_BENCH_FAULT=stage3b FAKE_BENCH_HANG=stage4 FAKE_BENCH_HANG_DEEP=stage5 -- --quick --backend emu --check-timeout 8 --part history --part sanitizers --out "$tmp/f.tar.gz"
wait "$pid"
rc=$?
cj "$tmp/f.tar.gz" >"$tmp/f.json"
tap_ok "a variant faulting and one hanging in their own checks: the campaign goes on (the checks step exit 1, history 0)" \
  bash -c '[ $1 -eq 1 ] && [ -s "$2" ] && jq -e "([.steps[] | select(.name == \"checks\")][0].exit_status == 1) and
           ([.steps[] | select(.name == \"history\")][0].exit_status == 0)" "$2" >/dev/null' _ $rc "$tmp/f.json"
tap_ok "  ... recorded: stage3b fault (exit 3), stage4 hang (timeout), stage5 hang in its deep check alone, the others ok" \
  test "$(jq -r '[.variant_checks[] | select(.status != "ok") | "\(.variant) \(.status) \(.exit_status) \(.log)"] | join(", ")' "$tmp/f.json")" = \
    "stage3b fault 3 logs/checks/stage3b.log, stage4 hang 124 logs/checks/stage4.log, stage5 hang 124 logs/checks/stage5-deep.log"
member "$tmp/f.tar.gz" checks/deep/stage6.json &&
  jq -e '[.correctness[] | select(.variant == "stage6" and .shape == "ragged-d128-causal")] | length == 1' "$tmp/m.json" >/dev/null
d6=$?
member "$tmp/f.tar.gz" checks/deep/stage0.json &&
  jq -e '.correctness == [] and (.not_supported[0].reason | startswith("ragged-d128-causal:"))' "$tmp/m.json" >/dev/null
tap_ok "  ... the deep checks ran where the single shape passed: stage6 at ragged-d128-causal, stage0 records it as not supported" \
  test $d6 -eq 0 -a $? -eq 0
tap_ok "  ... and not where it faulted or hung (stage3b, stage4)" \
  bash -c '! tar -tzf "$1" | grep -qE "checks/deep/stage(3b|4)\.json"' _ "$tmp/f.tar.gz"
tap_ok "  ... left out of the timed history, the device run and the warm history" \
  each_member "$tmp/f.tar.gz" '[.config.variants[] | select(. == "stage3b" or . == "stage4" or . == "stage5")] | length == 0' \
  history device-run history-warm
member "$tmp/f.tar.gz" sanitizers.json
tap_ok "  ... still listed in sanitizers.json (skipped here: no GPU), so that memcheck reaches them on a GPU" \
  bash -c '[ $1 -eq 0 ] && jq -e "[.results[] | select(.variant == \"stage3b\" or .variant == \"stage4\")] | length == 8" "$2" >/dev/null' _ $? "$tmp/m.json"
wait "$gpid"
rc=$?
member "$tmp/g.tar.gz" campaign.json
tap_ok "--step-guard 1: ceilings, stalled past 1 x its 10 s budget, is stopped (exit 124, the note says why); the campaign goes on (exit 1)" \
  bash -c '[ $1 -eq 1 ] && jq -e "[.steps[] | select(.name == \"ceilings\")][0] | .exit_status == 124 and .seconds < 30 and
           (.note | test(\"^stopped by the step guard after 10 s\"))" "$2" >/dev/null' _ $rc "$tmp/m.json"
tap_ok "  ... the steps after it run (history passed), and both parts count as completed (not resumed)" \
  quiet jq -e '([.steps[] | select(.name == "history")][0].exit_status == 0) and .parts_completed == ["ceilings", "history"] and
         .interrupted == false' "$tmp/m.json"
wait "$hpid"
rc=$?
member "$tmp/h.tar.gz" campaign.json
# stage2_stopped RC NOTE_FILTER: the campaign exited 1, its step experiment-stage2-wmma-pv was stopped
# by the guard (124), and its note passes the jq filter.
stage2_stopped() {
  [ "$1" -eq 1 ] && jq -e "[.steps[] | select(.name == \"experiment-stage2-wmma-pv\")][0] | .exit_status == 124 and (.note | $2)" \
    "$tmp/m.json" >/dev/null
}
tap_ok "--step-guard and a kernel that hangs only when timed: its step stopped (exit 124), the note names the kernel in flight and for how long" \
  stage2_stopped $rc 'test("; in flight: timing stage2 on small, seed 0 [(]interleaved[)], for [0-9]+ s; stage2 is left out of the steps after it$")'
tap_ok "  ... the experiment whose baseline it is: skipped, saying where it hung" \
  test "$(jq -r '[.steps[] | select(.name == "experiment-stage3a-fusion")][0].skipped' "$tmp/m.json")" = \
    "stage2 hung in step experiment-stage2-wmma-pv (stopped by the step guard)"
tap_ok "  ... the history runs without it (exit 0)" \
  quiet jq -e '[.steps[] | select(.name == "history" or .name == "history-warm")] | length == 2 and all(.exit_status == 0)' "$tmp/m.json"
tap_ok "  ... history.json and history-warm.json: stage2 not timed, stage3a is" \
  each_member "$tmp/h.tar.gz" '(.config.variants | index("stage2")) == null and (.config.variants | index("stage3a")) != null' \
  history history-warm
member "$tmp/h.tar.gz" sanitizers.json
tap_ok "  ... still in sanitizers.json, so that memcheck reaches it alone on a GPU" \
  bash -c '[ $1 -eq 0 ] && jq -e "[.results[] | select(.variant == \"stage2\")] | length == 4" "$2" >/dev/null' _ $? "$tmp/m.json"
wait "$spid"
rc=$?
member "$tmp/s.tar.gz" campaign.json
tap_ok "--step-guard and a slow step whose launch in flight had run 0 s: stopped (exit 124), the note says it is not a hang and stage2 stays" \
  stage2_stopped $rc 'endswith("; in flight: timing stage2 on small, seed 0 (interleaved), for 0 s: not a hang (that launch had run under 10 s), stage2 stays in the steps after it")'
stage3a_ran() {
  jq -e '[.steps[] | select(.name == "experiment-stage3a-fusion")][0] | .exit_status == 0 and .skipped == null' "$tmp/m.json" >/dev/null &&
    member "$tmp/s.tar.gz" "runs/stage3a-fusion/*/run-timing.json" && jq -e '[.timing[].variant] | index("stage2") != null' "$tmp/m.json" >/dev/null
}
tap_ok "  ... the experiment whose baseline it is runs (exit 0), with stage2 timed" stage3a_ran
wait "$wpid"
rc=$?
member "$tmp/w.tar.gz" campaign.json && took=$(jq -r .seconds "$tmp/m.json") || took=none
tap_ok "--time-limit 60 and a step that would overrun it: the campaign stops itself in time (exit 143, packed after $took s < 60)" \
  bash -c '[ $1 -eq 143 ] && [ "$2" != none ] && [ "$2" -lt 60 ]' _ $rc "$took"
tap_ok "  ... and packs: interrupted by the time limit" \
  bash -c '[ -s "$1" ] && jq -e ".interrupted and (.interruption | test(\"time limit\"))" "$1" >/dev/null' _ "$tmp/m.json"
tap_done
