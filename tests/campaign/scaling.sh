#!/usr/bin/env bash
# The campaign's scaling sweep (campaign.sh scaling(), issue 19 item 8), on the emulator from an
# unpacked bundle: one sdpa-bench process per S with every variant and the cuBLAS peer
# (scaling/S<S>.json), the references computed once per S over a sample of 256 query rows per
# slice once S > 256 (recorded in the file, said in the paper's GPU part), and a sweep that goes
# on past a correctness failure (exit 1: the file kept) and past a process that failed (exit 3:
# listed in scaling/failed.txt), with the step marked failed at the end. The failures come from a
# stand-in sdpa-bench that wraps the bundle's own. S = 128 and 300 (B = H = 1 on the emulator):
# about a minute.
# Usage: tests/campaign/scaling.sh BUNDLE.tar.gz SDPA_REPORT
set -u
. tests/tap.sh
bundle=$(realpath "$1") report=$(realpath "$2")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/scaling-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/node" && tar -C "$tmp/node" -xzf "$bundle"
B=$tmp/node/bundle
# campaign NAME ARGS...: the bundle's campaign.sh outside the checkout, a bare environment. The
# scaling budget at 300 s (SDPA_SCALING_BUDGET), not the quick plan's 20: the sweep skips an S when
# 4 x the last S's process exceeds what is left, and S = 128 took over 4 s with four other
# processes busy on this 2-core machine, which skipped S = 300.
campaign() {
  local name=$1; shift
  (cd "$tmp" && env -i HOME="$tmp" PATH=/usr/bin:/bin TMPDIR="$tmp" SDPA_SCALING_BUDGET=300 "$B/campaign.sh" --quick --backend emu \
    --out "$tmp/$name.tar.gz" "$@") >"$tmp/$name.log" 2>&1
}
unpack() { rm -rf "$tmp/x" && mkdir -p "$tmp/x" && tar -C "$tmp/x" -xzf "$tmp/$1.tar.gz" && C=$(ls -d "$tmp"/x/campaign-*); }
n_series=$(( $(env -i PATH=/usr/bin:/bin "$B/bin/sdpa-bench" --list-variants | grep -vc '^custom') + \
             $(env -i PATH=/usr/bin:/bin "$B/bin/sdpa-bench" --list-peers 2>/dev/null | grep -c '^cublas-unfused') ))

campaign ok --part scaling:128,300
rc=$?
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/ok.log" | tail -n 20
tap_ok "campaign.sh --part scaling:128,300 on the emulator: exit 0" test $rc -eq 0
unpack ok
tap_ok "  ... one result file per S, scaling/S128.json and S300.json, and no per-series file" \
  bash -c '[ -s "$1/scaling/S128.json" ] && [ -s "$1/scaling/S300.json" ] && [ -z "$(ls "$1"/scaling/*-S*.json 2>/dev/null)" ]' _ "$C"
tap_ok "  ... each with every variant and the cuBLAS peer ($n_series series) timed in one process" \
  bash -c 'for s in 128 300; do [ "$(jq "[.timing[].variant] | unique | length" "$1/scaling/S$s.json")" = "$2" ] || exit 1; done' _ "$C" "$n_series"
tap_ok "  ... S = 128: the full reference (reference_rows = S for every check)" \
  test "$(jq '[.correctness[].reference_rows] | unique' -c "$C/scaling/S128.json")" = "[128]"
tap_ok "  ... S = 300: a sampled one, 256 rows per slice, recorded with its rule" \
  bash -c '[ "$(jq -c "[.correctness[].reference_rows] | unique" "$1")" = "[256]" ] &&
           [ "$(jq -r .config.reference.rows_per_slice "$1")" = 256 ] &&
           jq -r .config.reference.rows "$1" | grep -qF "reference_sample_rows"' _ "$C/scaling/S300.json"
tap_ok "  ... the scaling step exit 0 in campaign.json" \
  test "$(jq -r '.steps[] | select(.name == "scaling") | .exit_status' "$C/campaign.json")" = 0
tap_ok "  ... under SDPA_SCALING_BUDGET's budget (300 s), recorded in the plan" \
  test "$(jq -r '.plan.budgets.scaling' "$C/campaign.json")" = 300
env -i PATH=/usr/bin:/bin SDPA_SCALING_BUDGET=20s "$B/campaign.sh" --quick --backend emu --plan >/dev/null 2>"$tmp/sb.log"
tap_ok "SDPA_SCALING_BUDGET not whole seconds: refused (exit 2), naming it" \
  bash -c '[ $1 -eq 2 ] && grep -q "SDPA_SCALING_BUDGET .20s.: whole seconds" "$2"' _ $? "$tmp/sb.log"

# A stand-in sdpa-bench: at S = 128 a correctness failure (the real run, its file written, then
# exit 1), at S = 256 a process that fails (exit 3, no file), else the real one.

mv "$B/bin/sdpa-bench" "$B/bin/sdpa-bench.real"
cat >"$B/bin/sdpa-bench" <<'SH'
#!/usr/bin/env bash
real=$(dirname "$0")/sdpa-bench.real
case " $* " in
  *" 1,1,128,64 "*) "$real" "$@"; exit 1 ;;
  *" 1,1,256,64 "*) echo "sdpa-bench: simulated device failure (cudaErrorIllegalAddress)" >&2; exit 3 ;;
esac
exec "$real" "$@"
SH
chmod +x "$B/bin/sdpa-bench"
campaign bad --part scaling:128,256,300
unpack bad
tap_ok "a correctness failure at S = 128 and a failed process at S = 256: the sweep went on to S = 300" \
  test -s "$C/scaling/S300.json"
tap_ok "  ... S = 128's file kept" test -s "$C/scaling/S128.json"
tap_ok "  ... S = 256 listed in scaling/failed.txt, one line per series, with the exit status and the message" \
  bash -c '[ "$(grep -c "^[^ ]* S=256 B=1 H=1 failed: sdpa-bench exit 3: sdpa-bench: simulated device failure" "$1")" = "$2" ]' \
  _ "$C/scaling/failed.txt" "$n_series"
tap_ok "  ... the scaling step is marked failed (exit 1) in campaign.json, the campaign still packed" \
  test "$(jq -r '.steps[] | select(.name == "scaling") | .exit_status' "$C/campaign.json")" = 1

# The paper's GPU part reads the per-S files, the failed ones, and says where the reference was sampled.
tools/campaign/ingest.sh "$tmp/bad.tar.gz" "$tmp/data" "$report" --allow-emulated >"$tmp/ingest.log" 2>&1
tap_ok "the campaign is ingested (--allow-emulated)" test $? -eq 0
"$report" paper --published data/published/seed-l4.json --out "$tmp/paper" --gpu-data "$tmp/data/gpu" \
  >"$tmp/paper.log" 2>&1
rc=$?
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/paper.log" | tail -n 5
G=$tmp/paper/gpu.md
tap_ok "sdpa-report paper renders it" test $rc -eq 0 -a -s "$G"
tap_ok "  ... a scaling row per series and S measured (2 x $n_series), EMULATED" \
  test "$(grep -cE '^\| [a-z0-9-]+ +\| (128|300) .*\| EMULATED +\|$' "$G")" -eq $(( 2 * n_series ))
tap_ok "  ... S = 256 failed, with the reason, for every series" \
  test "$(grep -cE '^\| [a-z0-9-]+ +\| 256 .*failed: sdpa-bench exit 3' "$G")" -eq "$n_series"
tap_ok "  ... the sampled reference stated: S = 300, 256 rows of every slice" \
  grep -q "Correctness at S = 300 was checked against a sampled fp64 reference: 256 query rows of every (b, h) slice" "$G"
tap_done
