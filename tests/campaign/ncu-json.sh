#!/usr/bin/env bash
# sdpa-report ncu-json on committed fixtures shaped like Nsight Compute's --csv export
# (tests/report/ncu/, SYNTHETIC values): profiler lines and the application's output before the
# header, optional columns, thousands separators, scaled units, "n/a", a second launch, a kernel
# that is not ours, a metric missing from the output; a malformed line; the skipped form.
# Usage: tests/campaign/ncu-json.sh SDPA_REPORT
# shellcheck disable=SC2016 # the checks' bash -c scripts expand their own arguments
set -u
. tests/tap.sh
report=$(realpath "$1")
fx=tests/report/ncu
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ncu-json-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
get() { jq -r "$1" "$tmp/p.json"; }

"$report" ncu-json "$fx/ncu-mission.csv" "$tmp/p.json" --tool "ncu 2025.3.0" --variant stage0 \
  --variant stage3a-swz --variant stage5 \
  --unavailable smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio 2>"$tmp/err"
tap_ok "ncu-json parses the fixture (exit 0)" test $? -eq 0
tap_ok "  ... kind profile, the build's schema version, the tool and the mission shape" \
  test "$(get '[.kind, .schema_version, .tool, .shape] | join(" ")')" = "profile $("$report" schema-version) ncu 2025.3.0 mission"
tap_ok "  ... the whole metric set, each with a label and a hypothesis" \
  test "$(get '[.metrics[] | select(.label != "" and .hypothesis != "")] | length')" -eq "$("$report" ncu-json --list-metrics | wc -l)"
v0='.variants[] | select(.variant == "stage0") | .values'
tap_ok "  ... thousands separators: 1,048,576 bank conflicts on stores" \
  test "$(get "$v0"'["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"]')" = 1048576
tap_ok "  ... scaled units to base units: 1.57 Mbyte -> 1570000 byte, 85.41 usecond -> 85410 nsecond" \
  test "$(get "($v0"'["dram__bytes_read.sum"]), ('"$v0"'["gpu__time_duration.sum"])' | tr '\n' ' ')" = "1570000 85410 "
tap_ok "  ... units recorded per metric (byte, %, nsecond)" \
  test "$(get '[.metrics[] | select(.name == "dram__bytes_write.sum" or .name == "sm__warps_active.avg.pct_of_peak_sustained_active" or .name == "gpu__time_duration.sum") | .unit] | join(" ")')" = "byte % nsecond"
tap_ok "  ... the first launch's values; the second launch counted (launches 2), not mixed in" \
  test "$(get '.variants[] | select(.variant == "stage0") | "\(.launches) \(.values["sm__warps_active.avg.pct_of_peak_sustained_active"])"')" = "2 45.12"
tap_ok "  ... variant ids from kernel names (stage3a-swz is sdpa_stage3a_swz_e4m3)" \
  test "$(get '.variants[] | select(.variant == "stage3a-swz") | .kernel + " " + .status')" = "sdpa_stage3a_swz_e4m3 ok"
tap_ok "  ... \"n/a\" becomes null" \
  test "$(get '.variants[] | select(.variant == "stage3a-swz") | .values["smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio"]')" = null
tap_ok "  ... a metric absent from the CSV: unavailable, \"not in ncu's output\", no value" \
  test "$(get '(.metrics[] | select(.name == "lts__t_bytes.sum") | "\(.available) \(.reason)"), (.variants[0].values | has("lts__t_bytes.sum"))' | tr '\n' ' ')" = "false not in ncu's output false "
tap_ok "  ... a metric the device lacks (--unavailable): recorded with the reason" \
  test "$(get '.metrics[] | select(.name | startswith("smsp__average_warps_issue_stalled_mio")) | .reason')" = "not offered on this device (ncu --query-metrics)"
tap_ok "  ... a variant without a launch: failed, with the reason" \
  test "$(get '.variants[] | select(.variant == "stage5") | .status')" = failed
tap_ok "  ... the L2-flush kernel (not sdpa_) is left out" bash -c '! grep -q l2_flush "$1"' _ "$tmp/p.json"
tap_ok "  ... sdpa-report get reads it (a result file: schema head and meta)" \
  test "$("$report" get "$tmp/p.json" variants.0.launches)" = 2
tap_fail "an existing OUT.json is never overwritten" \
  "$report" ncu-json "$fx/ncu-mission.csv" "$tmp/p.json"

"$report" ncu-json "$fx/ncu-malformed.csv" "$tmp/bad.json" 2>"$tmp/bad.err"
tap_ok "a malformed line: exit 2" test $? -eq 2
tap_ok "  ... naming the file and the line" grep -q "ncu-malformed.csv:9: malformed CSV: 14 fields, the header has 15" "$tmp/bad.err"
tap_ok "  ... writing nothing" test ! -e "$tmp/bad.json"
printf '"ID","Kernel Name","Metric Name","Metric Unit","Metric Value"\n"1","sdpa_stage0_e4m3","dram__bytes_read.sum","byte","12x"\n' >"$tmp/nan.csv"
"$report" ncu-json "$tmp/nan.csv" "$tmp/nan.json" 2>"$tmp/nan.err"
tap_ok "a value that is not a number: exit 2, naming line and value" \
  bash -c '[ "$1" -eq 2 ] && grep -q "nan.csv:2: metric value .12x. is not a number" "$2"' _ $? "$tmp/nan.err"
printf '"ID","Kernel Name","Metric Name","Metric Unit","Metric Value"\n"1","sdpa_stage0_e4m3,"x","byte","1"\n' >"$tmp/q.csv"
tap_ok "an unbalanced quote: exit 2" bash -c '"$1" ncu-json "$2" "$3" 2>/dev/null; [ $? -eq 2 ]' _ "$report" "$tmp/q.csv" "$tmp/q.json"
printf 'sdpa-bench: nothing profiled\n==PROF== No kernels were profiled.\n' >"$tmp/none.csv"
"$report" ncu-json "$tmp/none.csv" "$tmp/none.json" 2>"$tmp/none.err"
tap_ok "no header (ncu profiled nothing): exit 2, saying so" \
  bash -c '[ "$1" -eq 2 ] && grep -q "no header line" "$2"' _ $? "$tmp/none.err"
tap_fail "--unavailable with a metric outside the set is refused" \
  "$report" ncu-json "$fx/ncu-mission.csv" "$tmp/u.json" --unavailable no__such.sum
"$report" ncu-json "$fx/ncu-mission.csv" "$tmp/r.json" --rejected no__such.sum 2>"$tmp/r.err"
tap_ok "--rejected with a metric outside the set is refused likewise (exit 2, the option named, nothing written)" \
  bash -c '[ "$1" -eq 2 ] && grep -q "^sdpa-report ncu-json: --rejected no__such.sum: not a metric of the set" "$2" && [ ! -e "$3" ]' \
  _ $? "$tmp/r.err" "$tmp/r.json"

"$report" ncu-json --skipped "ncu not installed" "$tmp/s.json" --variant stage0 --variant stage1
tap_ok "--skipped: every variant skipped with the reason, no values" \
  test "$(jq -r '"\(.status) \([.variants[] | select(.status == "skipped" and .reason == "ncu not installed")] | length) \([.metrics[] | select(.available)] | length)"' "$tmp/s.json")" = "skipped 2 0"
tap_done
