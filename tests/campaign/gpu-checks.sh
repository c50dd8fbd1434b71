#!/usr/bin/env bash
# The campaign's sanitizer and profile steps (tools/campaign/gpu-checks.sh) on their GPU path,
# with stand-ins for compute-sanitizer and ncu (tests/campaign/fake/: no GPU here; the stand-ins
# never run sdpa-bench): the ERROR SUMMARY parse and the pass / fail / error / skipped statuses,
# the budget, the metric set filtered against --query-metrics, ncu's CSV to profile.json, the
# counter-permission failure; and the skipped form the campaign writes without a GPU.
# Usage: tests/campaign/gpu-checks.sh SDPA_REPORT
# shellcheck disable=SC2016 # the checks' bash -c scripts expand their own arguments
set -u
. tests/lib/tap.sh
report=$(realpath "$1")
checks=tools/campaign/gpu-checks.sh fake=$(realpath tests/campaign/fake)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpu-checks-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
V="stage0 stage1 stage2"
st() { jq -r --arg t "$2" --arg v "$3" '.results[] | select(.tool == $t and .variant == $v) | "\(.status) \(.errors)"' "$1/sanitizers.json"; }

mkdir -p "$tmp/a"
bash "$checks" sanitizers "$tmp/a" /no/bench "$fake/compute-sanitizer" 60 ragged "$V" >"$tmp/a.out" 2>&1
tap_ok "sanitizers: a finding makes the step fail (exit 1)" test $? -eq 1
tap_ok "  ... sanitizers.json: 4 tools x 3 variants, kind sanitizers, the ragged shape, the tool's version" \
  test "$(jq -r '"\(.kind) \(.shape) \(.results | length) \(.tool_version)"' "$tmp/a/sanitizers.json")" = "sanitizers ragged 12 Version 2025.3.0 (fake)"
tap_ok "  ... ERROR SUMMARY: 0 errors -> pass" test "$(st "$tmp/a" memcheck stage0)" = "pass 0"
tap_ok "  ... ERROR SUMMARY: 2 errors -> fail, 2 errors" test "$(st "$tmp/a" racecheck stage1)" = "fail 2"
tap_ok "  ... the tool failing without a summary -> error, with the reason" \
  test "$(jq -r '.results[] | select(.tool == "initcheck" and .variant == "stage2") | "\(.status) \(.reason)"' "$tmp/a/sanitizers.json")" = "error no ERROR SUMMARY line (exit 255)"
tap_ok "  ... each run's log kept under logs/sanitizers/" \
  bash -c 'grep -q "ERROR SUMMARY: 2 errors" "$1/$(jq -r ".results[] | select(.tool == \"racecheck\" and .variant == \"stage1\") | .log" "$1/sanitizers.json")"' _ "$tmp/a"
tap_ok "  ... read by sdpa-report (a result file)" test "$("$report" get "$tmp/a/sanitizers.json" results.0.status)" = pass

mkdir -p "$tmp/b"
FAKE_SANITIZER_SLEEP=3 bash "$checks" sanitizers "$tmp/b" /no/bench "$fake/compute-sanitizer" 1 ragged "$V" >/dev/null 2>&1
tap_ok "sanitizers over budget: the run in flight times out (error), the rest are skipped, saying so" \
  test "$(jq -r '[.results[0].status, .results[0].reason, .results[1].status, .results[1].reason] | join("|")' "$tmp/b/sanitizers.json")" = \
       "error|no ERROR SUMMARY line (exit 124, timed out)|skipped|the step's budget (1 s) was spent"

mkdir -p "$tmp/c"
bash "$checks" sanitizers "$tmp/c" /no/bench none 60 ragged "$V" "compute-sanitizer not installed" >/dev/null 2>&1
tap_ok "sanitizers with a skip reason: every entry skipped with it, exit 0" \
  bash -c '[ "$1" -eq 0 ] && jq -e "[.results[] | select(.status == \"skipped\" and .reason == \"compute-sanitizer not installed\")] | length == 12" "$2/sanitizers.json" >/dev/null' _ $? "$tmp/c"
bash "$checks" sanitizers "$tmp/c" /no/bench none 60 ragged "$V" "again" >/dev/null 2>&1
tap_ok "  ... and an existing sanitizers.json is never replaced (exit 2)" \
  bash -c '[ "$1" -eq 2 ] && grep -q "compute-sanitizer not installed" "$2/sanitizers.json"' _ $? "$tmp/c"

mkdir -p "$tmp/p"
bash "$checks" profiles "$tmp/p" /no/bench "$fake/ncu" 30 mission "stage0 stage3a-swz stage5" "$report" >"$tmp/p.out" 2>&1
rc=$?
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/p.out"
tap_ok "profiles: ncu with the filtered metric set, CSV parsed into profile.json (exit 0)" test $rc -eq 0
tap_ok "  ... the tool's version, values of the variants profiled, a variant without a launch failed" \
  test "$(jq -r '[.tool, (.variants[] | .status)] | join(" ")' "$tmp/p/profile.json")" = "ncu 2025.3.0.0 ok ok failed"
tap_ok "  ... the metric --query-metrics does not offer: recorded unavailable, never requested" \
  test "$(jq -r '.metrics[] | select(.name | contains("mio_throttle")) | .reason' "$tmp/p/profile.json")" = "not offered on this device (ncu --query-metrics)"
tap_ok "  ... ncu's CSV kept as logs/ncu.csv" test -s "$tmp/p/logs/ncu.csv"

mkdir -p "$tmp/q"
FAKE_NCU_PERM=1 bash "$checks" profiles "$tmp/q" /no/bench "$fake/ncu" 30 mission "stage0" "$report" >/dev/null 2>&1
tap_ok "profiles without counter permission (ERR_NVGPUCTRPERM): skipped with that reason" \
  test "$(jq -r '"\(.status) \(.variants[0].status) \(.reason)"' "$tmp/q/profile.json")" = \
       "skipped skipped no permission to read the GPU's performance counters (ERR_NVGPUCTRPERM)"
mkdir -p "$tmp/r"
bash "$checks" profiles "$tmp/r" /no/bench none 30 mission "stage0 stage1" "$report" "ncu (Nsight Compute) not installed" >/dev/null 2>&1
tap_ok "profiles with a skip reason: profile.json skipped, every variant listed" \
  test "$(jq -r '"\(.status) \(.variants | length) \(.reason)"' "$tmp/r/profile.json")" = "skipped 2 ncu (Nsight Compute) not installed"
tap_fail "a wrong argument count is refused" bash "$checks" profiles "$tmp/r" /no/bench
tap_done
