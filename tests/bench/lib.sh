# Shared by the sdpa-bench shell suites (run.sh, peers.sh); sourced after tests/tap.sh, with
# $bin (sdpa-bench), $check (check_run_json) and $tmp set by the suite.
fast=(--backend emu --iters 6 --min-time 0 --max-time 5 --l2 warm)
n=0

# bench NAME EXPECTED_STATUS ARGS...: runs with --out $tmp/<k>.json; sets $out.
bench() {
  local name=$1 want=$2; shift 2
  n=$((n + 1)); out=$tmp/$n.json
  "$bin" "$@" --out "$out" >"$tmp/$n.stdout" 2>"$tmp/$n.stderr"
  local rc=$?
  [ $rc -eq "$want" ] || tap_diag "$name: exit $rc, expected $want; stderr: $(tail -3 "$tmp/$n.stderr")"
  tap_ok "$name: exit status $want" test $rc -eq "$want"
  tap_ok "$name: the JSON validates against the schema" "$check" "$out"
}
