#!/usr/bin/env bash
# tools/peers/torch_sdpa.py without torch (none is installed here): its self-test backends run all
# of its plumbing but the torch calls on a dump of sdpa-bench (the emulator): .npy reading,
# decoding, both fp64 references, the metrics (equal to sdpa-bench's on the same output, to
# rounding), the interleaved timing loop, the statistics (equal to host/lib/stats.c's on the same
# samples), the run-schema JSON; then its refusals, and its exit 3 when torch is absent.
# Usage: tests/campaign/torch-peer.sh SDPA_BENCH SDPA_REPORT
# shellcheck disable=SC2016 # the checks' bash -c and python -c scripts expand their own arguments
set -u
. tests/tap.sh
bench=$(realpath "$1") report=$(realpath "$2")
script=tools/peers/torch_sdpa.py
tmp=$(mktemp -d "${TMPDIR:-/tmp}/torch-peer-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
command -v python3 >/dev/null || { tap_skip "torch_sdpa.py self-test" "python3 not installed"; tap_done; }
# Agreement "to rounding": the same formulas in the same order give the same doubles; 1e-12
# relative leaves room for the last digit of a printed number (cJSON prints 15 or 17 digits).
close='def close(a, b):
    if a is None or b is None: return a is b
    return a == b or abs(a - b) <= 1e-12 * max(abs(a), abs(b))'

# The ragged shape (partial tiles, 2 batches x 3 heads: per-(b,h) atol differs) with stage2's output.
"$bench" --backend emu --check-only --variant stage2 --shape ragged --seeds 0 --quiet --out "$tmp/run.json" \
  --dump "$tmp/dump" >/dev/null 2>&1
tap_ok "sdpa-bench dumps stage2 at the ragged shape (the peer's inputs)" test -s "$tmp/dump/o.npy"
python3 "$script" --selftest --dump "$tmp/dump" --out "$tmp/peer-{backend}.json" --shape-name ragged \
  --iters 8 --min-time 0 --warmup 1 2>"$tmp/st.err"
rc=$?
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/st.err"
tap_ok "torch_sdpa.py --selftest runs both stand-in backends (exit 0)" test $rc -eq 0
tap_ok "  ... one file per backend ({backend} in --out)" test -s "$tmp/peer-selftest-dump.json" -a -s "$tmp/peer-selftest-fp64.json"
D=$tmp/peer-selftest-dump.json F=$tmp/peer-selftest-fp64.json
tap_ok "  ... a run file sdpa-report reads (kind sdpa-bench-run, the build's schema version, the run schema's fields)" \
  bash -c '[ "$("$1" get "$2" kind)" = sdpa-bench-run ] && [ "$("$1" get "$2" schema_version)" = "$("$1" schema-version)" ]' _ "$report" "$D"
# The version comes from its one definition: a copy of the scripts beside a header defining another
# version writes that one; beside a shipped schema-version file (the bundle), that file's.
mkdir -p "$tmp/v/tools/peers" "$tmp/v/host/lib" && cp tools/peers/*.py "$tmp/v/tools/peers/"
echo '#define RESULTS_SCHEMA_VERSION "9.8.7"' >"$tmp/v/host/lib/json_file.h"
tap_ok "  ... the peers' schema version is read from host/lib/json_file.h, never typed in the script" \
  test "$(cd "$tmp/v/tools/peers" && python3 -c 'import peerlib; print(peerlib.SCHEMA_VERSION)')" = 9.8.7
echo 4.5.6 >"$tmp/v/tools/peers/schema-version"
tap_ok "  ... and, in the bundle, from the schema-version file the build ships beside them" \
  test "$(cd "$tmp/v/tools/peers" && python3 -c 'import peerlib; print(peerlib.SCHEMA_VERSION)')" = 4.5.6
tap_ok "  ... labelled: meta.backend selftest, entries peer: true, library versions (null without torch)" \
  test "$(jq -r '[.meta.backend, .correctness[0].peer, .timing[0].peer, (.library | has("torch") and has("cuda") and has("cudnn"))] | map(tostring) | join(" ")' "$D")" = "selftest true true true"
for part in kernel_only end_to_end legacy; do
  tap_ok "  ... the dumped kernel output's $part metrics equal sdpa-bench's (every field, to rounding)" \
    python3 -c "$close"'
import json, sys
a = json.load(open(sys.argv[1]))["correctness"][0][sys.argv[3]]
b = [c for c in json.load(open(sys.argv[2]))["correctness"] if c["variant"] == "stage2"][0][sys.argv[3]]
bad = [k for k in b if not close(a.get(k), b[k])]
print("# differ:", bad, [(a.get(k), b[k]) for k in bad]) if bad or set(a) != set(b) else None
sys.exit(1 if bad or set(a) != set(b) else 0)' "$D" "$tmp/run.json" "$part"
done
tap_ok "  ... and the same gates" \
  test "$(jq -c '.correctness[0].gates' "$D")" = "$(jq -c '.correctness[] | select(.variant == "stage2") | .gates' "$tmp/run.json")"
tap_ok "  ... the ideal stand-in (fp64 rounded to fp16) passes with 0 bad elements" \
  test "$(jq -r '.correctness[0] | "\(.pass) \(.kernel_only.n_bad) \(.kernel_only.max_abs < 0.001)"' "$F")" = "true 0 true"
tap_ok "  ... timed after the check, interleaved: the same number of samples per backend, every one kept" \
  bash -c '[ "$(jq ".timing[0].samples_us | length" "$1")" -ge 8 ] && [ "$(jq ".timing[0].samples_us | length" "$1")" = "$(jq ".timing[0].samples_us | length" "$2")" ]' _ "$D" "$F"
tap_ok "  ... the timing method named (timing_method; no stream to hold in the selftest)" \
  test "$(jq -r '.timing[0] | "\(.timing_method) \(.discarded_unheld)"' "$D")" = "selftest: host perf_counter around the call (no GPU) null"
tap_ok "  ... FLOPs 4 B H S^2 D and the TIMING fields" \
  test "$(jq -r '.timing[0] | "\(.flops) \(.timing) \(.summary.ci_available) \(has("tflops") and has("stop_reason"))"' "$D")" = "$((4 * 2 * 3 * 33 * 33 * 64)) selftest true true"

# The statistics against host/lib/stats.c's: sdpa-bench's own samples (an emulated timing run).
"$bench" --backend emu --variant stage0 --shape small --seeds 0 --iters 13 --min-time 0 --quiet --out "$tmp/t.json" >/dev/null 2>&1
tap_ok "peerlib.summarize equals sdpa-bench's STATS on the same samples (median, quantiles, CI ranks)" \
  python3 -c "$close"'
import json, sys
sys.path.insert(0, "tools/peers")
import peerlib
t = json.load(open(sys.argv[1]))["timing"][0]
mine = peerlib.summarize(t["samples_us"])
bad = [k for k in t["summary"] if not close(mine.get(k), t["summary"][k])]
print("# differ:", [(k, mine.get(k), t["summary"][k]) for k in bad]) if bad else None
sys.exit(1 if bad else 0)' "$tmp/t.json"
tap_ok "  ... the order-statistic ranks of the 95 % CI: n = 10 -> (2, 9), n = 5 -> none, n = 100 -> (40, 61)" \
  python3 -c 'import sys; sys.path.insert(0, "tools/peers"); import peerlib
r = peerlib.median_ci_ranks
sys.exit(0 if r(10)[:2] == (2, 9) and r(5) is None and r(100)[:2] == (40, 61) else 1)'

# Refusals and the torch-less path.
python3 "$script" --dump "$tmp/dump" --out "$tmp/t1.json" >"$tmp/nt.out" 2>&1
rc=$?
if python3 -c 'import torch' 2>/dev/null; then
  tap_skip "without torch: exit 3, saying torch is not installed" "torch is installed here"
else
  tap_ok "without torch: exit 3, saying torch is not installed, nothing written" \
    bash -c '[ "$1" -eq 3 ] && grep -q "torch not installed" "$2" && [ ! -e "$3" ]' _ $rc "$tmp/nt.out" "$tmp/t1.json"
fi
python3 "$script" --selftest --dump "$tmp/dump" --out "$D" --backend selftest-fp64 --iters 1 --min-time 0 >"$tmp/ow.out" 2>&1
tap_ok "an existing --out is never overwritten (exit 2, naming it)" \
  bash -c '[ "$1" -eq 2 ] && grep -q "exists; results are never overwritten" "$2"' _ $? "$tmp/ow.out"
cp -r "$tmp/dump" "$tmp/cut" && head -c 200 "$tmp/dump/k.npy" >"$tmp/cut/k.npy"
python3 "$script" --selftest --dump "$tmp/cut" --out "$tmp/c.json" >"$tmp/cut.out" 2>&1
tap_ok "a truncated .npy: exit 2, naming the file" \
  bash -c '[ "$1" -eq 2 ] && grep -q "cut/k.npy: .* data bytes, the header says" "$2"' _ $? "$tmp/cut.out"
rm "$tmp/cut/meta.json"
python3 "$script" --selftest --dump "$tmp/cut" --out "$tmp/c.json" >"$tmp/cut.out" 2>&1
tap_ok "a dump without meta.json: exit 2, naming it" bash -c '[ "$1" -eq 2 ] && grep -q "cut/meta.json: cannot read" "$2"' _ $? "$tmp/cut.out"
python3 "$script" --dump "$tmp/dump" --out "$tmp/b.json" --backend selftest-dump >"$tmp/b.out" 2>&1
tap_ok "a self-test backend without --selftest is refused (exit 2, naming the flag)" \
  bash -c '[ "$1" -eq 2 ] && grep -q -- "--backend selftest-dump: accepted: flash, efficient, cudnn, math, fp8" "$2"' _ $? "$tmp/b.out"
tap_done
