#!/usr/bin/env bash
# The unfused cuBLAS peer and --ceilings through the real sdpa-bench (emulator kernels, the CPU GEMM
# table): the peer passes its bar on the emulator and is timed beside a variant, alone and
# interleaved (as candidate and as --vs baseline); its JSON entries carry the peer fields; an
# unknown peer and --ceilings without --out are usage errors; a shape over the memory cap is "not
# supported", not a failure; --ceilings on the emulator writes a file in which every ceiling is
# skipped, never a number. The cuBLAS paths need a GPU: tests/bench/test_peers checks that their
# libraries load and resolve where installed.
# With the emulator's sanitizer builds of sdpa-bench (ASan+UBSan, TSan) the peer's softmax kernel
# runs under them too.
# Usage: peers.sh SDPA_BENCH_BINARY DIR [SDPA_BENCH_ASAN SDPA_BENCH_TSAN]   (DIR holds check_run_json)
. "$(dirname "$0")/../tap.sh"
bin=$(realpath "$1")
check=$(realpath "$2")/check_run_json
san=("${@:3}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh" # fast, bench
is() { local v; v=$("$check" "$out" "$1"); [ "$v" = "$2" ] || { tap_diag "$1 = $v, expected $2"; return 1; }; }

"$bin" --list-peers >"$tmp/peers"
tap_ok "--list-peers lists cublas-unfused" grep -q "^cublas-unfused " "$tmp/peers"
"$bin" --list-variants >"$tmp/variants"
tap_fail "--list-variants does not list the peer" grep -q "cublas-unfused" "$tmp/variants"

bench "stage2 and the peer, two seeds" 0 "${fast[@]}" --peer cublas-unfused --variant stage2 --shape small --seeds 0,1
tap_ok "config.peers names the peer" is config.peers.0 cublas-unfused
tap_ok "config.variants holds only the variant" is config.variants "array 1"
tap_ok "one correctness entry per (variant or peer) x seed" is correctness "array 4"
tap_ok "the peer's entry carries its id" is correctness.1.variant peer-cublas-unfused
tap_ok "  ... passes its bar on the emulator" is correctness.1.pass true
tap_ok "  ... \"peer\": true" is correctness.1.peer true
tap_ok "  ... named as judged by its own bars (tol_family unfused-peer; the variant: fp16)" \
  bash -c '[ "$("$1" "$2" correctness.1.tol_family)" = unfused-peer ] && [ "$("$1" "$2" correctness.0.tol_family)" = fp16 ]' _ "$check" "$out"
tap_ok "  ... and the library that ran it (the CPU twin, labelled emulated)" \
  bash -c '"$1" "$2" correctness.1.library | grep -q "CPU reference of cublasGemmStridedBatchedEx (emulated)"' _ "$check" "$out"
tap_ok "  ... wrote every output element and left its inputs alone" \
  bash -c '[ "$("$1" "$2" correctness.3.all_written correctness.3.inputs_unmodified | sort -u)" = true ]' _ "$check" "$out"
tap_ok "  ... with its own, wider atol than the variant's (peer_tolerance.h)" \
  bash -c 'a=$("$1" "$2" correctness.0.kernel_only.atol_max); b=$("$1" "$2" correctness.1.kernel_only.atol_max); awk -v a="$a" -v b="$b" "BEGIN{exit !(b > a)}"' _ "$check" "$out"
tap_ok "variants are not marked as peers" is correctness.0.peer missing
tap_ok "no cross-variant comparison involves the peer" is cross_variant "array 0"
tap_ok "the peer is timed like a variant" is timing.1.variant peer-cublas-unfused
tap_ok "  ... labelled emulated" is timing.1.timing emulated
tap_ok "  ... \"peer\": true in its timing entry" is timing.1.peer true
tap_ok "stdout shows the peer's check" grep -q "^check   peer-cublas-unfused small .* PASS" "$tmp/$n.stdout"

bench "the peer as a candidate against --vs stage2" 0 "${fast[@]}" --peer cublas-unfused --vs stage2 --variant stage3b \
  --shape ragged --seeds 0
tap_ok "one comparison per candidate" is comparisons "array 2"
tap_ok "the second candidate is the peer (variants first, then peers)" is comparisons.1.candidate peer-cublas-unfused
tap_ok "  ... against stage2, in the same interleaved rounds" is comparisons.1.baseline stage2

bench "the peer as the --vs baseline" 0 "${fast[@]}" --vs cublas-unfused --variant stage3b --shape small --seeds 0
tap_ok "config.baseline records the peer's id" is config.baseline peer-cublas-unfused
tap_ok "the comparison's baseline is the peer" is comparisons.0.baseline peer-cublas-unfused
tap_ok "  ... interleaved with stage3b" is comparisons.0.candidate stage3b

n=$((n + 1))
"$bin" "${fast[@]}" --peer cublas-fused --variant stage2 --shape small >"$tmp/$n.out" 2>"$tmp/$n.err"
tap_ok "an unknown --peer: exit 2" test $? -eq 2
tap_ok "  ... the message names it and lists the peers" \
  grep -q "^sdpa-bench: --peer: unknown peer 'cublas-fused'; accepted: cublas-unfused" "$tmp/$n.err"
"$bin" "${fast[@]}" --peer cublas-unfused --vs peer-cublas-unfused --variant stage2 >"$tmp/$n.out" 2>"$tmp/$n.err"
tap_ok "a peer both --peer and --vs: exit 2" test $? -eq 2

# The cap: SDPA_PEER_MEM_BYTES stands in for the device's memory. 256 KiB: small's workspace (24 KiB)
# fits under half of it, partial's (2 x 200 x 200 x 2 B of scores alone: 156 KiB) does not.
out=$tmp/cap.json
SDPA_PEER_MEM_BYTES=262144 "$bin" "${fast[@]}" --peer cublas-unfused --variant stage2 --shape small --shape partial \
  --seeds 0 --out "$out" >"$tmp/cap.out" 2>"$tmp/cap.err"
tap_ok "a shape over the memory cap: the run still passes (exit 0)" test $? -eq 0
tap_ok "  ... the file validates" "$check" "$out"
tap_ok "  ... the peer is not supported at that shape, with what it needs" \
  bash -c '"$1" "$2" not_supported.0.reason | grep -q "^partial: not supported at this shape (needs .* GiB; the cap is 50 % of the device"' _ "$check" "$out"
tap_ok "  ... and named by its id" is not_supported.0.variant peer-cublas-unfused
tap_ok "  ... it still ran at the shape that fits (small), stage2 at both" is correctness "array 3"
tap_ok "  ... and was timed only there" bash -c '[ "$("$1" "$2" timing | tr -d "\n")" = "array 3" ]' _ "$check" "$out"

bench "--ceilings on the emulator" 0 --ceilings --backend emu
V=$(sed -n 's/^#define RESULTS_SCHEMA_VERSION "\(.*\)"$/\1/p' host/lib/json_file.h) # the one place
tap_ok "kind ceilings, schema $V (the build's)" bash -c '[ "$("$1" "$2" kind schema_version | tr "\n" " ")" = "ceilings $3 " ]' _ "$check" "$out" "$V"
tap_ok "three ceilings" is ceilings "array 3"
for i in 0 1 2; do
  tap_ok "ceiling $i is skipped as emulated, without a value or samples" \
    bash -c '[ "$("$1" "$2" ceilings.'$i'.status ceilings.'$i'.reason ceilings.'$i'.value ceilings.'$i'.samples_us | tr "\n" "|")" = "skipped|emulated: no GPU|null|array 0|" ]' _ "$check" "$out"
done
tap_ok "the names and units of the schema" \
  bash -c '[ "$("$1" "$2" ceilings.0.name ceilings.0.unit ceilings.1.name ceilings.1.unit ceilings.2.name | tr "\n" " ")" = "copy_d2d GB/s gemm_fp16 TFLOP/s gemm_fp8_e4m3 " ]' _ "$check" "$out"
tap_ok "meta says emulated" is meta.timing emulated
# The validator itself: an emulated ceiling with a number, or a peer's entry without its fields, is refused.
sed '0,/"value":[[:space:]]*null/s//"value": 123.4/' "$out" >"$tmp/forged.json"
tap_fail "check_run_json refuses an emulated ceiling with a value" "$check" "$tmp/forged.json"
sed 's/"peer":[[:space:]]*true,\{0,1\}//' "$tmp/1.json" >"$tmp/nopeer.json"
tap_fail "check_run_json refuses a peer's entry without \"peer\": true" "$check" "$tmp/nopeer.json"
"$bin" --ceilings --backend emu >"$tmp/c.out" 2>"$tmp/c.err"
tap_ok "--ceilings without --out: exit 2 naming --out" bash -c '[ $1 -eq 2 ] && grep -q "ceilings needs --out" "$2"' _ $? "$tmp/c.err"
"$bin" --ceilings --backend emu --variant stage2 --out "$tmp/c2.json" >"$tmp/c.out" 2>"$tmp/c.err"
tap_ok "--ceilings with --variant: exit 2, nothing written" bash -c '[ $1 -eq 2 ] && [ ! -e "$2" ]' _ $? "$tmp/c2.json"
for b in "${san[@]}"; do
  "$b" --backend emu --check-only --quiet --peer cublas-unfused --variant stage2 --shape ragged --seeds 0 \
    >"$tmp/san.out" 2>"$tmp/san.err"
  rc=$?
  [ $rc -eq 0 ] || tap_diag "$(tail -5 "$tmp/san.err")"
  tap_ok "the peer under $(basename "$b"): passes, no sanitizer report" \
    bash -c '[ $1 -eq 0 ] && grep -q "^check   peer-cublas-unfused ragged .* PASS" "$2" && ! grep -q "Sanitizer" "$3"' _ $rc \
    "$tmp/san.out" "$tmp/san.err"
done
tap_done
