#!/usr/bin/env bash
# .ci/run, CI's entry point: make test, then make test-long, one closing line summing both; a goal
# that fails, or dies before its suites (no closing line), fails CI, and a malformed count never
# stops the loop before the second goal. A stand-in `make` first on PATH writes each goal's summary
# as tools/run-tests.sh does (FAKE_test, FAKE_test_long: the closing line and exit status, or
# "none STATUS" for a build error).
. "$(dirname "$0")/../tap.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/co/.ci" "$tmp/bin"
cp "$root/.ci/run" "$tmp/co/.ci/run"
cat >"$tmp/bin/make" <<'M'
#!/usr/bin/env bash
v=FAKE_${1//-/_}; read -r line rc <<<"${!v}"
echo "make $1 ran" >>"$LOG"
case $1 in test) d=build/test-logs ;; test-long) d=build/test-logs-long ;; esac # as the Makefile names them
rm -rf "$d"
if [ "$line" != none ]; then mkdir -p "$d"; echo "${line//_/ }" | tee "$d/summary"; fi
exit "$rc"
M
chmod +x "$tmp/bin/make"
ci() { # ci "TEST_LINE RC" "LONG_LINE RC": .ci/run's output; its exit status in $tmp/rc
  export LOG=$tmp/log; : >"$LOG"
  FAKE_test=$1 FAKE_test_long=$2 PATH="$tmp/bin:$PATH" bash "$tmp/co/.ci/run" >"$tmp/out" 2>&1
  echo $? >"$tmp/rc"
}
last() { tail -n 1 "$tmp/out"; }
rc() { cat "$tmp/rc"; }

ci "7_passed,_0_failed,_2_skipped 0" "5_passed,_0_failed,_1_skipped 0"
tap_ok "both tiers pass: '12 passed, 0 failed, 3 skipped', exit 0" test "$(last) $(rc)" = "12 passed, 0 failed, 3 skipped 0"
tap_ok "  ... make test ran first, then make test-long" test "$(tr '\n' ' ' <"$LOG")" = "make test ran make test-long ran "
ci "7_passed,_2_failed,_2_skipped 2" "5_passed,_0_failed,_1_skipped 0"
tap_ok "make test fails: its failures counted, make test-long still runs, exit non-zero" \
  bash -c '[ "$1" = "12 passed, 2 failed, 3 skipped" ] && [ "$2" -ne 0 ] && grep -q "test-long ran" "$3"' _ "$(last)" "$(rc)" "$LOG"
ci "7_passed,_0_failed,_2_skipped 0" "none 2"
tap_ok "make test-long dies in its build: one failure, exit non-zero" \
  bash -c '[ "$1" = "7 passed, 1 failed, 2 skipped" ] && [ "$2" -ne 0 ]' _ "$(last)" "$(rc)"
ci "none 0" "5_passed,_0_failed 0"
tap_ok "no closing line though make exits 0, and a line without skips: one failure, exit non-zero" \
  bash -c '[ "$1" = "5 passed, 1 failed, 0 skipped" ] && [ "$2" -ne 0 ]' _ "$(last)" "$(rc)"
tap_done
