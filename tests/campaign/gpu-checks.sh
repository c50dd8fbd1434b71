#!/usr/bin/env bash
# The campaign's sanitizer and profile steps (tools/campaign/gpu-checks.sh) on their GPU path,
# with stand-ins for compute-sanitizer and ncu that print what the real tools print
# (tests/campaign/fake/; no GPU here; the stand-ins never run sdpa-bench): memcheck alone on a
# faulted variant first, then one process per tool; racecheck's own summary; findings attributed
# to the variant whose kernel they name; a finding in the harness's own kernel; a tool that cannot
# attach (unavailable, once); the budget (skipped, never failed); ncu with the filtered metric set,
# without counter permission (skipped) and without any CSV (unavailable, ncu's error line); the
# skipped forms the campaign writes without a GPU; sanitizers-json's refusal of a malformed record.
# Usage: tests/campaign/gpu-checks.sh SDPA_REPORT
# shellcheck disable=SC2016 # the checks' bash -c scripts expand their own arguments
set -u
. tests/tap.sh
report=$(realpath "$1")
checks=tools/campaign/gpu-checks.sh fake=$(realpath tests/campaign/fake)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpu-checks-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
V="stage0 stage1 stage2 stage3b"
san() { # DIR BUDGET [ARGS...]: the sanitizer step with the fake tool; its exit status in $rc
  local d=$tmp/$1 b=$2; shift 2
  mkdir -p "$d"
  bash "$checks" sanitizers "$d" /no/bench "$fake/compute-sanitizer" "$b" ragged "$V" "$report" "$@" >"$d.out" 2>&1
  rc=$?
}
st() { jq -r --arg t "$2" --arg v "$3" '.results[] | select(.tool == $t and .variant == $v) | "\(.status) \(.errors) \(.warnings)"' "$tmp/$1/sanitizers.json"; }

san a 60 --faulted stage3b
tap_ok "sanitizers: findings make the step fail (exit 1)" test $rc -eq 1
tap_ok "  ... sanitizers.json: 4 tools x 4 variants, kind sanitizers, ragged, the tool's version" \
  test "$(jq -r '"\(.kind) \(.shape) \(.results | length) \(.tool_version)"' "$tmp/a/sanitizers.json")" = "sanitizers ragged 16 2025.3.0.0 build 36000000"
tap_ok "  ... memcheck ran first, alone, on the faulted variant (its fault in its own kernel: fail, 1 error)" \
  bash -c '[ "$(jq -r ".runs[0] | \"\(.tool) \(.variants | join(\",\")) \(.exit_status)\"" "$1/sanitizers.json")" = "memcheck stage3b 99" ] &&
           [ "$2" = "fail 1 0" ]' _ "$tmp/a" "$(st a memcheck stage3b)"
tap_ok "  ... then one process per tool with the other variants (4 runs, not 16)" \
  test "$(jq -r '[.runs[] | select(.status == "ran" and (.variants | join(" ")) == "stage0 stage1 stage2") | .tool] | join(" ")' "$tmp/a/sanitizers.json")" = \
       "memcheck racecheck synccheck initcheck"
tap_ok "  ... each with --error-exitcode: the racecheck run that found a hazard exits 99" \
  test "$(jq -r '.runs[] | select(.tool == "racecheck" and .status == "ran") | .exit_status' "$tmp/a/sanitizers.json")" = 99
tap_ok "  ... racecheck's own summary: 1 error, 1 warning; the error in stage1's kernel, the warning in stage2's" \
  bash -c '[ "$(jq -r ".runs[] | select(.tool == \"racecheck\" and .status == \"ran\") | \"\(.errors) \(.warnings)\"" "$1/sanitizers.json")" = "1 1" ] &&
           [ "$2" = "fail 1 0" ] && [ "$3" = "pass 0 1" ]' _ "$tmp/a" "$(st a racecheck stage1)" "$(st a racecheck stage2)"
tap_ok "  ... a clean variant passes with 0 errors" test "$(st a synccheck stage0)" = "pass 0 0"
tap_ok "  ... the faulted variant in the other tools: skipped, saying why" \
  test "$(jq -r '.results[] | select(.tool == "initcheck" and .variant == "stage3b") | "\(.status): \(.reason)"' "$tmp/a/sanitizers.json")" = \
       "skipped: faulted or hung (in its own check or a timed step): left out of the combined run"
tap_ok "  ... the launch failure after the fault names no variant's kernel: counted as unattributed" \
  test "$(jq -r '.runs[0].unattributed' "$tmp/a/sanitizers.json")" = 1
tap_ok "  ... every run's log kept under logs/sanitizers/" \
  bash -c 'for l in $(jq -r ".runs[] | select(.log) | .log" "$1/sanitizers.json"); do [ -s "$1/$l" ] || exit 1; done' _ "$tmp/a"
tap_ok "  ... read by sdpa-report (a result file of this schema)" test "$("$report" get "$tmp/a/sanitizers.json" schema_version)" = "$("$report" schema-version)"

san d 60 --faulted stage3b --faulted-shapes "mission mission-d128-causal"
tap_ok "--faulted-shapes: the faulted variant's memcheck runs at SHAPE and those (its process given all three)" \
  bash -c '[ "$(jq -c ".runs[0].shapes" "$1/sanitizers.json")" = "[\"ragged\",\"mission\",\"mission-d128-causal\"]" ] &&
           grep -qx "fake application: shapes ragged mission mission-d128-causal" "$1/logs/sanitizers/memcheck-stage3b.log"' _ "$tmp/d"
tap_ok "  ... its memcheck result names them; the combined runs stay at SHAPE alone" \
  bash -c '[ "$(jq -c ".results[] | select(.tool == \"memcheck\" and .variant == \"stage3b\") | .shapes" "$1/sanitizers.json")" = "[\"ragged\",\"mission\",\"mission-d128-causal\"]" ] &&
           [ "$(jq -c "[.runs[1:][] | select(.status == \"ran\") | .shapes] | unique" "$1/sanitizers.json")" = "[[\"ragged\"]]" ] &&
           [ "$(jq -c "[.runs[] | select(.status == \"not_run\") | .shapes] | unique" "$1/sanitizers.json")" = "[null]" ] &&
           grep -qx "fake application: shapes ragged" "$1/logs/sanitizers/memcheck.log" &&
           [ "$(jq -c ".results[] | select(.tool == \"racecheck\" and .variant == \"stage3b\") | .shapes" "$1/sanitizers.json")" = null ]' _ "$tmp/d"

san g 60 --faulted "stage2 stage3b" --faulted-shapes "mission mission-d128-causal" --hung stage2
tap_ok "--hung: a variant that hung gets memcheck at SHAPE alone (it does not end a hang), its run saying why" \
  bash -c '[ "$(jq -c ".runs[0] | [.variants, .shapes, .reason]" "$1/sanitizers.json")" = "[[\"stage2\"],[\"ragged\"],\"hung (in its own check or a timed step): memcheck at ragged alone (it does not end a hang)\"]" ] &&
           grep -qx "fake application: shapes ragged" "$1/logs/sanitizers/memcheck-stage2.log"' _ "$tmp/g"
tap_ok "  ... the one that faulted still gets the deep shapes; a plain run has no reason" \
  bash -c '[ "$(jq -c ".runs[1] | [.variants, .shapes, .reason]" "$1/sanitizers.json")" = "[[\"stage3b\"],[\"ragged\",\"mission\",\"mission-d128-causal\"],null]" ]' _ "$tmp/g"

FAKE_SANITIZER_HARNESS=1 san h 60
tap_ok "initcheck finding in the harness's own kernel (the uncleared d_stamps): the step fails (exit 1)" test $rc -eq 1
tap_ok "  ... recorded on the run (unattributed 1, its first report), no variant blamed" \
  bash -c '[ "$(jq -r ".runs[] | select(.tool == \"initcheck\") | \"\(.unattributed) \(.first_report)\"" "$1/sanitizers.json")" = "1 Uninitialized __global__ memory read of size 4 bytes" ] &&
           [ "$(jq "[.results[] | select(.tool == \"initcheck\" and .status != \"pass\")] | length" "$1/sanitizers.json")" = 0 ]' _ "$tmp/h"

FAKE_SANITIZER_UNSUPPORTED=1 san u 60
tap_ok "a tool that cannot attach (Device not supported): not a failure (exit 0)" test $rc -eq 0
tap_ok "  ... each run unavailable once, with the tool's first error line" \
  test "$(jq -r '[.runs[] | "\(.status)|\(.reason)"] | unique | join(";")' "$tmp/u/sanitizers.json")" = \
       'unavailable|Error: Device not supported. Please refer to the "Supported Devices" section of the sanitizer documentation'
tap_ok "  ... and no entry failed: every one unavailable" \
  test "$(jq -r '[.results[].status] | unique | join(" ")' "$tmp/u/sanitizers.json")" = unavailable

FAKE_SANITIZER_CRASH=initcheck san c 60
tap_ok "a tool that dies without a summary: error, with the reason (exit 1)" \
  bash -c '[ $1 -eq 1 ] && [ "$(jq -r ".results[] | select(.tool == \"initcheck\" and .variant == \"stage0\") | \"\(.status) \(.reason)\"" "$2/sanitizers.json")" = "error no ERROR SUMMARY line (exit 255)" ]' _ $rc "$tmp/c"

# A budget of 3 s: every share is 1 s (at most 3/4, 2/3 and 1/2 s, which the step raises to 1),
# so each run that starts takes 1 s and initcheck, 3 s in, never runs; memcheck runs if it is
# reached within 2 s (a budget of 2 left 1 s, which a loaded machine can take).
FAKE_SANITIZER_SLEEP=3 san b 3
tap_ok "over budget: the run in flight stops at its share, skipped (not failed); later tools not run (exit 0)" \
  bash -c '[ $1 -eq 0 ] && [ "$(jq -r "[.results[] | select(.variant == \"stage0\") | .status] | unique | join(\" \")" "$2/sanitizers.json")" = skipped ] &&
           jq -r ".results[] | select(.tool == \"memcheck\" and .variant == \"stage0\") | .reason" "$2/sanitizers.json" | grep -q "stopped at its share of the step.s budget (exit 124)" &&
           jq -r ".results[] | select(.tool == \"initcheck\" and .variant == \"stage0\") | .reason" "$2/sanitizers.json" | grep -q "budget (3 s) was spent"' _ $rc "$tmp/b"

mkdir -p "$tmp/s"
bash "$checks" sanitizers "$tmp/s" /no/bench none 60 ragged "$V" "$report" --skip "compute-sanitizer not installed" >/dev/null 2>&1
tap_ok "sanitizers with a skip reason: every entry skipped with it, exit 0" \
  bash -c '[ "$1" -eq 0 ] && jq -e "[.results[] | select(.status == \"skipped\" and .reason == \"compute-sanitizer not installed\")] | length == 16" "$2/sanitizers.json" >/dev/null' _ $? "$tmp/s"
bash "$checks" sanitizers "$tmp/s" /no/bench none 60 ragged "$V" "$report" --skip "again" >/dev/null 2>&1
tap_ok "  ... and an existing sanitizers.json is never replaced (exit 2)" \
  bash -c '[ "$1" -eq 2 ] && grep -q "compute-sanitizer not installed" "$2/sanitizers.json"' _ $? "$tmp/s"
printf 'memcheck\tstage0\tbanana\tlogs/x.log\t-\t-\n' >"$tmp/bad.tsv"
"$report" sanitizers-json "$tmp/bad.json" --root "$tmp" --shape ragged --runs "$tmp/bad.tsv" --variant stage0 2>"$tmp/bad.err"
tap_ok "sanitizers-json refuses a malformed run record (exit 2, file and line named, nothing written)" \
  bash -c '[ "$1" -eq 2 ] && grep -qF "$2/bad.tsv:1:" "$2/bad.err" && [ ! -e "$2/bad.json" ]' _ $? "$tmp"
printf 'memcheck\tstage0\t0\t../../etc/passwd\t-\t-\n' >"$tmp/esc.tsv"
"$report" sanitizers-json "$tmp/esc.json" --root "$tmp" --shape ragged --runs "$tmp/esc.tsv" --variant stage0 2>/dev/null
tap_ok "  ... and a log path outside --root" test $? -eq 2 -a ! -e "$tmp/esc.json"
mkdir -p "$tmp/logs" && echo "========= ERROR SUMMARY: 0 errors" >"$tmp/logs/x.log"
printf 'memcheck\tstage0\t0\tlogs/x.log\t-\tmission;rm -rf x\n' >"$tmp/sh.tsv"
"$report" sanitizers-json "$tmp/sh.json" --root "$tmp" --shape ragged --runs "$tmp/sh.tsv" --variant stage0 2>"$tmp/sh.err"
tap_ok "  ... and shapes that are not shape names (they reach the report's tables)" \
  bash -c '[ "$1" -eq 2 ] && grep -q "shapes .mission;rm -rf x.: shape names" "$2" && [ ! -e "$3" ]' _ $? "$tmp/sh.err" "$tmp/sh.json"
printf 'memcheck\tstage0\t0\tlogs/x.log\t-\n' >"$tmp/five.tsv"
"$report" sanitizers-json "$tmp/five.json" --root "$tmp" --shape ragged --runs "$tmp/five.tsv" --variant stage0 2>/dev/null
tap_ok "  ... and a record without its shapes column (5 fields)" test $? -eq 2 -a ! -e "$tmp/five.json"
tap_fail "a wrong argument count is refused" bash "$checks" sanitizers "$tmp/s" /no/bench

prof() { # DIR [ENV...]: the profile step with the fake ncu
  local d=$tmp/$1; shift
  mkdir -p "$d"
  env "$@" bash "$checks" profiles "$d" /no/bench "$fake/ncu" 30 mission "stage0 stage3a-swz stage5" "$report" >"$d.out" 2>&1
  rc=$?
}
prof p
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/p.out"
tap_ok "profiles: ncu with the filtered metric set, CSV parsed into profile.json (exit 0)" test $rc -eq 0
tap_ok "  ... the tool's version and its clock control (none: the device's own clocks), values of the variants profiled, a variant without a launch failed" \
  test "$(jq -r '[.tool, (.variants[] | .status)] | join(" ")' "$tmp/p/profile.json")" = "ncu 2025.3.0.0, --clock-control none ok ok failed"
tap_ok "  ... the metric --query-metrics does not offer: recorded unavailable, never requested" \
  test "$(jq -r '.metrics[] | select(.name | contains("mio_throttle")) | .reason' "$tmp/p/profile.json")" = "not offered on this device (ncu --query-metrics)"
tap_ok "  ... the launch__ occupancy limits, the ldmatrix bank conflicts and the tensor pipe's activity are in the set and asked for" \
  bash -c 'for m in launch__occupancy_limit_registers launch__occupancy_limit_shared_mem sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum \
             sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active; do
             jq -e --arg m "$m" "[.metrics[] | select(.name == \$m and .reason != \"not offered on this device (ncu --query-metrics)\")] | length == 1" "$1" >/dev/null || exit 1; done' _ "$tmp/p/profile.json"
tap_ok "  ... ncu's CSV kept as logs/ncu.csv" test -s "$tmp/p/logs/ncu.csv"
prof q FAKE_NCU_PERM=1
tap_ok "profiles without counter permission (ERR_NVGPUCTRPERM): skipped with that reason" \
  test "$(jq -r '"\(.status) \(.variants[0].status) \(.reason)"' "$tmp/q/profile.json")" = \
       "skipped skipped no permission to read the GPU's performance counters (ERR_NVGPUCTRPERM)"
prof n FAKE_NCU_DRIVER=1
tap_ok "profiles where ncu produces no CSV: unavailable, with ncu's first error line (exit 0)" \
  bash -c '[ $1 -eq 0 ] && [ "$(jq -r "\"\(.status) \(.variants[0].status)|\(.reason)\"" "$2/profile.json")" = \
           "unavailable unavailable|ncu produced no profile: An error was reported by the driver: Cuda driver is not compatible with Nsight Compute." ]' _ $rc "$tmp/n"
# A metric name ncu does not know (its base offered): left out, ncu run once more, the rest kept.
W=sm__warps_active.avg.pct_of_peak_sustained_active
prof rj FAKE_NCU_REJECT=$W FAKE_NCU_CALLS="$tmp/rj.calls"
tap_ok "profiles where ncu refuses a metric by name: run again without it, profile.json ok (exit 0)" \
  bash -c '[ $1 -eq 0 ] && [ "$(jq -r .status "$2/profile.json")" = ok ] && [ "$(wc -l <"$3")" -eq 2 ] &&
           grep -qF "$4" <(head -n 1 "$3") && ! grep -qF "$4" <(tail -n 1 "$3")' _ $rc "$tmp/rj" "$tmp/rj.calls" "$W"
tap_ok "  ... that metric recorded rejected, no value; the others with theirs" \
  bash -c 'jq -e --arg w "$2" "(.metrics[] | select(.name == \$w) | .available == false and (.reason | test(\"rejected by ncu\"))) and
             (.variants[0].values | has(\$w) | not) and (.variants[0].values[\"dram__bytes_read.sum\"] != null)" "$1" >/dev/null' \
  _ "$tmp/rj/profile.json" "$W"
prof rx FAKE_NCU_REJECT=dram__bytes_read.sum FAKE_NCU_REJECT_REGEX=1
tap_ok "  ... named as ncu words a base (regex:^base\\.(sum|...)\$): that base's metrics rejected, another base's kept" \
  bash -c '[ $1 -eq 0 ] && jq -e "([.metrics[] | select(.name == \"dram__bytes_read.sum\")][0].reason | test(\"rejected\")) and
             ([.metrics[] | select(.name == \"dram__bytes_write.sum\")][0].available)" "$2/profile.json" >/dev/null' _ $rc "$tmp/rx"
# --out: stage 7g's gate-shape profile (campaign.sh's profiles-gate) beside profile.json, never over it.
mkdir -p "$tmp/g"
bash "$checks" profiles "$tmp/g" /no/bench "$fake/ncu" 30 2,32,8192,64 "stage0 stage3a-swz stage5" "$report" \
  --out profile-gate.json >"$tmp/g.out" 2>&1
tap_ok "profiles --out profile-gate.json: that file at its shape, the variants as profile.json's (exit 0)" \
  bash -c '[ "$1" -eq 0 ] && [ "$(jq -r "[.shape, (.variants[] | .status)] | join(\" \")" "$2/profile-gate.json")" = "2,32,8192,64 ok ok failed" ]' _ $? "$tmp/g"
tap_ok "  ... its CSV as logs/ncu-profile-gate.csv, no profile.json and no logs/ncu.csv written" \
  test -s "$tmp/g/logs/ncu-profile-gate.csv" -a ! -e "$tmp/g/profile.json" -a ! -e "$tmp/g/logs/ncu.csv"
for bad in ../x.json a/b.json profile.txt .hidden.json ''; do
  mkdir -p "$tmp/badout"
  bash "$checks" profiles "$tmp/badout" /no/bench "$fake/ncu" 30 mission stage0 "$report" --out "$bad" >"$tmp/badout.out" 2>&1
  tap_ok "profiles --out '$bad' is refused (exit 2, the option named, nothing written)" \
    bash -c '[ "$1" -eq 2 ] && grep -q -- "--out" "$2" && [ -z "$(ls -A "$3")" ]' _ $? "$tmp/badout.out" "$tmp/badout"
done
tap_fail "sanitizers take no --out" bash "$checks" sanitizers "$tmp/s2" /no/bench none 30 ragged stage0 "$report" --out x.json
mkdir -p "$tmp/r"
bash "$checks" profiles "$tmp/r" /no/bench none 30 mission "stage0 stage1" "$report" --skip "ncu (Nsight Compute) not installed" >/dev/null 2>&1
tap_ok "profiles with a skip reason: profile.json skipped, every variant listed" \
  test "$(jq -r '"\(.status) \(.variants | length) \(.reason)"' "$tmp/r/profile.json")" = "skipped 2 ncu (Nsight Compute) not installed"
tap_done
