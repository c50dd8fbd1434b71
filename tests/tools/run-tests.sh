#!/usr/bin/env bash
# tools/run-tests.sh, the runner of make test: its closing count, a suite that fails without
# saying so, the report in the order given, at most TEST_JOBS suites at once in the slots, and the
# TEST_BESIDE suites started first, beside the slots (each stand-in suite records when it ran);
# each suite's CPU time beside its wall time.
. "$(dirname "$0")/../tap.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# A stand-in suite: suite.sh NAME SECONDS [fail|silent]: logs its start and end, then reports.
cat >"$tmp/suite.sh" <<'S'
#!/usr/bin/env bash
echo "start $1 $(date +%s.%N)" >>"$T/events"
sleep "$2"
echo "end $1 $(date +%s.%N)" >>"$T/events"
case ${3:-} in fail) echo "not ok 1 - $1" ;; silent) exit 3 ;; busy) awk 'BEGIN { for (i = 0; i < 2e7; i++) x += i }'; times >"$T/times-$1"; echo "ok 1 - $1" ;;
  *) echo "ok 1 - $1" ;; esac
S
chmod +x "$tmp/suite.sh"
export T=$tmp
s() { echo "$tmp/suite.sh $*"; }

# 2 s a suite, 3 s the waiter: the overlaps and the order below hold as long as each suite starts
# within 2 s of the first (a loaded machine took more than the 0.6 s they once had).
out=$(TEST_JOBS=2 TEST_BESIDE="waiter" tools/run-tests.sh "$tmp/logs" "$(s a 2)" "$(s b 2)" "$(s c 2)" \
  "$(s waiter 3)" 2>/dev/null)
tap_ok "four passing suites: exit 0 and '4 passed, 0 failed, 0 skipped'" \
  bash -c '[ $1 -eq 0 ] && [ "$(tail -n 1 <<<"$2")" = "4 passed, 0 failed, 0 skipped" ]' _ $? "$out"
tap_ok "  ... the report in the order given" \
  test "$(grep -oE 'suite.sh [a-z]+' <<<"$out" | cut -d' ' -f2 | tr '\n' ' ')" = "a b c waiter "
# Most concurrent suites, beside ones excluded and included.
most() { # EXCLUDE: the most suites running at once, not counting EXCLUDE
  awk -v x="$1" '{print $3, ($1 == "start" ? 1 : -1), $2}' "$tmp/events" | sort -n |
    awk -v x="$1" '$3 != x {n += $2; if (n > m) m = n} END {print m}'
}
tap_ok "  ... at most TEST_JOBS = 2 suites in the slots at once ($(most waiter))" test "$(most waiter)" -eq 2
tap_ok "  ... the TEST_BESIDE suite ran beside them: 3 at once ($(most none))" test "$(most none)" -eq 3
# Listed last, it started before c, which had to wait ~2 s for a slot.
order=$(awk '$1 == "start" {print $3, $2}' "$tmp/events" | sort -n | cut -d' ' -f2 | tr '\n' ' ')
tap_ok "  ... and started before the slots freed up ($order)" bash -c '[[ "$1" == *waiter*c* ]]' _ "$order"

rm -f "$tmp/events"
# 2 s: b waits that long for a slot, and long need only start within it (0.3 s, on a loaded machine, did not).
TEST_JOBS=2 TEST_FIRST="long" tools/run-tests.sh "$tmp/logs3" "$(s a 2)" "$(s b 2)" "$(s long 2)" >/dev/null 2>&1
order=$(awk '$1 == "start" {print $3, $2}' "$tmp/events" | sort -n | cut -d' ' -f2 | tr '\n' ' ')
tap_ok "TEST_FIRST: the long suite, listed last, takes a first slot; b waits ($order)" \
  bash -c '[[ "$1" == *long*b* ]]' _ "$order"

rm -f "$tmp/events"
out=$(TEST_JOBS=1 TEST_BESIDE="waiter" tools/run-tests.sh "$tmp/logs1" "$(s a 0.2)" "$(s waiter 0.2)" "$(s c 0.2)" 2>/dev/null)
tap_ok "TEST_JOBS=1: one suite at a time, the beside one included, in the order given" \
  bash -c '[ "$(awk "{print \$1 \$2}" "$1" | tr "\n" " ")" = "starta enda startwaiter endwaiter startc endc " ]' _ "$tmp/events"

out=$(TEST_JOBS=2 tools/run-tests.sh "$tmp/logs2" "$(s a 0.1)" "$(s b 0.1 fail)" "$(s c 0.1 silent)" 2>/dev/null)
rc=$?
tap_ok "a failing suite and one that exits 3 without a TAP line: exit 1, '1 passed, 2 failed, 0 skipped'" \
  bash -c '[ $1 -ne 0 ] && [ "$(tail -n 1 <<<"$2")" = "1 passed, 2 failed, 0 skipped" ]' _ $rc "$out"
tap_ok "  ... the silent one named with its exit status" grep -q "suite.sh c 0.1 silent .*(exit status 3)" <<<"$out"

# A suite whose command line is longer than a file name may be (the planted suite lists every plant):
# its log still gets written, and two such suites that differ only at the end get two logs.
long=$(printf 'p%.0s' {1..300})
out=$(TEST_JOBS=2 tools/run-tests.sh "$tmp/logs4" "$(s a 0.1) ${long}x" "$(s a 0.1) ${long}y" 2>/dev/null)
rc=$?
tap_ok "two suites with 300-character arguments: exit 0 and '2 passed, 0 failed, 0 skipped'" \
  bash -c '[ $1 -eq 0 ] && [ "$(tail -n 1 <<<"$2")" = "2 passed, 0 failed, 0 skipped" ]' _ $rc "$out"
tap_ok "  ... two logs, each with its status and time" test "$(ls "$tmp/logs4" | grep -c '\.log\.rc$')" -eq 2

# CPU time: a suite that sleeps 1 s uses next to none; one whose child computes, what its own
# `times` says its children used (a loaded machine stretches wall time, not CPU time).
out=$(TEST_JOBS=2 tools/run-tests.sh "$tmp/logs5" "$(s idle 1)" "$(s busy 0 busy)" 2>/dev/null)
cpu_of() { sed -nE "s/.*suite.sh $1 .*\(([0-9.]+)s, CPU ([0-9.]+)s\)$/\2/p" <<<"$out"; }
own=$(awk 'END { for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); c += 60 * t[1] + t[2] }; print c }' "$tmp/times-busy")
tap_ok "CPU time per suite: the sleeping one < 0.2 s ($(cpu_of idle) s), the computing one its child's $own s to +0.3 s ($(cpu_of busy) s)" \
  awk -v i="$(cpu_of idle)" -v b="$(cpu_of busy)" -v o="$own" 'BEGIN { exit !(i != "" && b != "" && o > 0.2 && i < 0.2 && b >= o - 0.1 && b <= o + 0.3) }'
tap_ok "  ... and their sum before the closing line" bash -c 'grep -qE "^the suites. CPU time: [0-9.]+ s" <<<"$1"' _ "$out"
tap_done
