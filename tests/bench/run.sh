#!/usr/bin/env bash
# sdpa-bench end to end on the emulator backend with the test kernel table: exit statuses (0 all
# checks pass, 1 a check failed), the JSON file against the schema (check_run_json), --vs
# comparisons, --check-only, --force, --dump files (check_dump), --dump-failed, progress and --quiet.
# Usage: run.sh SDPA_BENCH_BINARY DIR   (DIR holds check_run_json and check_dump)
. "$(dirname "$0")/../tap.sh"
bin=$(realpath "$1")
dir=$(realpath "$2")
check=$dir/check_run_json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh" # fast, bench

# value PATH: the value at PATH in the last run's JSON
value() { "$check" "$out" "$1"; }
is() { [ "$(value "$1")" = "$2" ] || { tap_diag "$1 = $(value "$1"), expected $2"; return 1; }; }

bench "three correct variants, two seeds" 0 "${fast[@]}" --shape small --seeds 0,1 \
  --variant stage1 --variant stage2 --variant stage3a
tap_ok "meta.backend is emu" is meta.backend emu
tap_ok "meta.timing is emulated" is meta.timing emulated
tap_ok "meta.device is null" is meta.device null
tap_ok "meta.emulator.schedule is recorded" is meta.emulator.schedule fwd
tap_ok "config.variants in the order given" is config.variants.2 stage3a
tap_ok "config.blocking_kernel is true by default" is config.blocking_kernel true
tap_ok "config.throttle_threshold is 0.75 by default" is config.throttle_threshold 0.75
tap_ok "  ... its source says why (no device: NVBench's default)" \
  bash -c '[[ "$1" == "default: NVBench"*"no device"* ]]' _ "$(value config.throttle_threshold_source)"
tap_ok "config.device_index is 0 by default" is config.device_index 0
tap_ok "no fallback recorded with --backend emu" is meta.backend_fallback missing
tap_ok "not_supported is empty" is not_supported "array 0"
tap_ok "config.seeds are strings" is config.seeds.1 1
tap_ok "one correctness entry per variant x seed" is correctness "array 6"
tap_ok "every check passed" bash -c '! grep -q "^check .* FAIL" "$1"' _ "$tmp/$n.stdout"
tap_ok "kernel-only atol is per slice" is correctness.0.kernel_only.rtol 0.0009765625
tap_ok "cross-variant pairs on every seed" is cross_variant "array 6"
tap_ok "stage2 vs stage3a expected identical" is cross_variant.2.expected identical
tap_ok "stage1 vs stage2 expected bounded" is cross_variant.0.expected bounded
tap_ok "one timing entry per variant" is timing "array 3"
tap_ok "timing is labelled emulated" is timing.0.timing emulated
tap_ok "the emulator's samples are recorded as warm L2" is timing.0.l2 warm
tap_ok "no SM clock on the emulator" is timing.0.sm_clock_mhz null
tap_ok "no roofline for emulated timings" is timing.0.roofline_floor_us null
tap_ok "no roofline bound, terms or formats for emulated timings" \
  bash -c '[ "$("$1" "$2" timing.0.roofline_bound timing.0.roofline_terms_us timing.0.tensor_formats | tr "\n" " ")" = "null null null " ]' \
  _ "$check" "$out"
# The validator's roofline rules (data/SCHEMA.md 1.5.0), on a GPU entry forged from this file: the
# floor is its bound's term and no term exceeds it; formats are fp16, fp8 or null.
roof() { jq ".timing[0] += {roofline_floor_us: 10, roofline_bound: \"exp2\",
  roofline_terms_us: {dram: 1, tensor: 5, exp2: 10}, tensor_formats: {qk: \"fp8\", pv: null}} | $1" "$out" >"$tmp/roof.json"; }
roof . && tap_ok "check_run_json accepts a floor set by its bound" "$check" "$tmp/roof.json"
roof '.timing[0].roofline_bound = "tensor"' && tap_fail "... refuses a floor that is not its bound's term" "$check" "$tmp/roof.json"
roof '.timing[0].roofline_terms_us.dram = 11' && tap_fail "... refuses a term above the floor" "$check" "$tmp/roof.json"
roof '.timing[0].tensor_formats.pv = "fp4"' && tap_fail "... refuses an unknown format" "$check" "$tmp/roof.json"
roof '.timing[0].roofline_terms_us = null' && tap_fail "... refuses a bound without terms" "$check" "$tmp/roof.json"
tap_ok "FLOPs follow 4*B*H*S*S*D" is timing.0.flops 262144
tap_ok "at least --iters samples" bash -c '[ "$("$1" "$2" timing.0.summary.n)" -ge 6 ]' _ "$check" "$out"
tap_ok "stdout labels the timings EMULATED" grep -q "EMULATED" "$tmp/$n.stdout"
tap_ok "progress on stderr names variant, shape and seed" grep -q "checking stage2 on small (1,1,32,64), seed 1" "$tmp/$n.stderr"
tap_ok "no comparison without --vs" is comparisons "array 0"

bench "a wrong kernel" 1 "${fast[@]}" --shape small --seeds 0 --variant stage2 --variant test-wrong
tap_ok "its check failed" is correctness.1.pass false
tap_ok "its kernel-only gate failed" is correctness.1.gates.kernel_only false
tap_ok "it was not timed" is not_timed.0.variant test-wrong
tap_ok "only the correct variant was timed" is timing "array 1"
tap_ok "stdout says it was not timed" grep -q "test-wrong .*not timed: failed correctness" "$tmp/$n.stdout"

bench "--force times a failed variant" 1 "${fast[@]}" --shape small --seeds 0 --variant test-wrong --force
tap_ok "it was timed" is timing.0.variant test-wrong
tap_ok "config.force recorded" is config.force true

bench "an unwritten output element" 1 "${fast[@]}" --check-only --shape ragged --seeds 0 --variant test-nowrite
tap_ok "all_written is false" is correctness.0.all_written false
bench "a kernel modifying its input" 1 "${fast[@]}" --check-only --shape ragged --seeds 0 --variant test-clobber
tap_ok "inputs_unmodified is false" is correctness.0.inputs_unmodified false
bench "a kernel the emulator finds at fault" 1 "${fast[@]}" --check-only --shape small --seeds 0 --variant test-fault
tap_ok "status carries the fault" is correctness.0.status "the emulator found a fault in the kernel"
tap_ok "... and it is a correctness failure" is correctness.0.pass false
n=$((n + 1)); out=$tmp/$n.json
"$bin" "${fast[@]}" --check-only --shape small --seeds 0 --variant test-status --out "$out" >"$tmp/$n.stdout" 2>"$tmp/$n.stderr"
tap_ok "a launch the device fails (CUDA error) is a run-time error: exit status 3, not a verdict" test $? -eq 3
tap_ok "the message names the variant, shape, seed and the error" \
  grep -q "checking test-status on small, seed 0: kernel launch failed" "$tmp/$n.stderr"
tap_ok "no result file is written (no correctness FAIL is recorded)" test ! -e "$out"
bench "1 ulp off a variant that must be identical" 1 "${fast[@]}" --check-only --shape small --seeds 0 \
  --variant stage2 --variant test-ulp
tap_ok "each passes its own check" is correctness.1.pass true
tap_ok "the identical cross-check fails" is cross_variant.0.pass false
tap_ok "with one element differing by 1 ulp" is cross_variant.0.max_ulp 1

n=$((n + 1)); out=$tmp/$n.json
"$bin" "${fast[@]}" --shape small --seeds 0 --variant test-timefail --out "$out" >"$tmp/$n.stdout" 2>"$tmp/$n.stderr"
tap_ok "a launch failing during timing: exit status 3" test $? -eq 3
tap_ok "the message names the run and the failure" grep -q "timing test-timefail on small, seed 0: kernel launch failed" "$tmp/$n.stderr"
tap_ok "no result file is written" test ! -e "$out"

bench "measurement options recorded" 0 "${fast[@]}" --shape small --seeds 0 --variant stage2 \
  --throttle-threshold 0 --no-blocking-kernel
tap_ok "config.throttle_threshold 0 (detection off) recorded" is config.throttle_threshold 0
tap_ok "  ... with its source, the flag" is config.throttle_threshold_source --throttle-threshold
tap_ok "config.min_clock_interval_us: clocks judged on samples of 20 us and more" is config.min_clock_interval_us 20
tap_ok "config.blocking_kernel false recorded" is config.blocking_kernel false
tap_ok "timing.clock_unmeasured is null on the emulator (no SM clock)" is timing.0.clock_unmeasured null

# A sampled reference (--ref-rows; check.h): recorded, and the same results on 1 or 3 threads.
bench "sampled reference, 3 threads" 0 "${fast[@]}" --check-only --shape 1,2,100,64 --seeds 0 --variant stage2 \
  --variant stage1 --ref-rows 8 --ref-threads 3
tap_ok "  ... config.reference: 8 rows per slice, 3 threads, the rule" \
  bash -c '[ "$1" = 8 ] && [ "$2" = 3 ] && [[ "$3" == *"reference_sample_rows"* ]]' _ \
  "$(value config.reference.rows_per_slice)" "$(value config.reference.threads)" "$(value config.reference.rows)"
tap_ok "  ... correctness[].reference_rows 8, over 2 x 8 x 64 elements" \
  bash -c '[ "$1" = 8 ] && [ "$2" = 1024 ]' _ "$(value correctness.0.reference_rows)" "$(value correctness.0.kernel_only.n)"
sampled=$out
bench "sampled reference, 1 thread" 0 "${fast[@]}" --check-only --shape 1,2,100,64 --seeds 0 --variant stage2 \
  --variant stage1 --ref-rows 8 --ref-threads 1
tap_ok "  ... the same correctness and cross-variant results, bit for bit" \
  bash -c 'for k in correctness cross_variant; do cmp -s <(jq -S ".$k" "$1") <(jq -S ".$k" "$2") || exit 1; done' _ "$sampled" "$out"
bench "sampled reference: a planted fault is still caught" 1 "${fast[@]}" --check-only --shape 1,2,100,64 --seeds 0 \
  --variant test-wrong --ref-rows 8
bench "--ref-rows larger than S: every row" 0 "${fast[@]}" --check-only --shape small --seeds 0 --variant stage2 --ref-rows 4096
tap_ok "  ... correctness[].reference_rows is S" is correctness.0.reference_rows "$(value correctness.0.S)"

# The campaign's --throttle-threshold reaches sdpa-bench through the environment (throttle.h).
SDPA_THROTTLE_THRESHOLD=0.4 bench "SDPA_THROTTLE_THRESHOLD" 0 "${fast[@]}" --shape small --seeds 0 --variant stage2
tap_ok "  ... config.throttle_threshold 0.4 from the environment" is config.throttle_threshold 0.40000000000000002
tap_ok "  ... its source names the variable" \
  bash -c '[[ "$1" == SDPA_THROTTLE_THRESHOLD* ]]' _ "$(value config.throttle_threshold_source)"
SDPA_THROTTLE_THRESHOLD=0.4 bench "the flag over the environment" 0 "${fast[@]}" --shape small --seeds 0 \
  --variant stage2 --throttle-threshold 0.9
tap_ok "  ... config.throttle_threshold 0.9" is config.throttle_threshold 0.90000000000000002
SDPA_THROTTLE_THRESHOLD=fast "$bin" "${fast[@]}" --shape small --seeds 0 --variant stage2 --out "$tmp/env.json" \
  >/dev/null 2>"$tmp/env.err"
tap_ok "a bad SDPA_THROTTLE_THRESHOLD: exit 2 naming the variable, no file" \
  bash -c '[ $1 -eq 2 ] && grep -q "SDPA_THROTTLE_THRESHOLD=fast: accepted: auto" "$2" && [ ! -e "$3" ]' _ $? \
  "$tmp/env.err" "$tmp/env.json"

bench "--check-only" 0 --backend emu --check-only --shape 1,2,40,64 --seeds 5 --variant stage0 --codec seed-linear --dist uniform
tap_ok "meta.timing is none" is meta.timing none
tap_ok "no timing entries" is timing "array 0"
tap_ok "a B,H,S,D shape is named custom" is config.shapes.0.name custom
tap_ok "codec recorded" is config.codec seed-linear
tap_ok "seed recorded as a string" is correctness.0.seed 5

bench "--vs: interleaved comparison" 0 "${fast[@]}" --shape small --seeds 0 --vs stage1 \
  --variant stage2 --variant stage3a
tap_ok "one comparison per candidate" is comparisons "array 2"
tap_ok "baseline named" is comparisons.0.baseline stage1
tap_ok "candidate named" is comparisons.1.candidate stage3a
tap_ok "config.baseline recorded" is config.baseline stage1
tap_ok "config.aa_control is false" is config.aa_control false
tap_ok "config.arm_order is rotated by default (schema 2.1.0)" is config.arm_order rotated
tap_ok "each timing entry names its arm and the round's arms: baseline 0 of 3, then the candidates" \
  bash -c '[ "$("$1" "$2" timing.0.arm)/$("$1" "$2" timing.0.arms)" = 0/3 ] && [ "$("$1" "$2" timing.2.arm)/$("$1" "$2" timing.2.arms)" = 2/3 ]' _ "$check" "$out"
tap_ok "config.variants lists the candidates" is config.variants "array 2"
tap_ok "the baseline is checked too" is correctness "array 3"
tap_ok "every arm has a timing entry" is timing "array 3"
tap_ok "speedup and latency reduction both reported" bash -c \
  '[ "$("$1" "$2" comparisons.0.speedup)" != null ] && [ "$("$1" "$2" comparisons.0.latency_reduction)" != null ]' _ "$check" "$out"
tap_ok "emulated timings: no verdict (null, schema 2.1.0), the statistics kept" \
  bash -c '[ "$("$1" "$2" comparisons.0.verdict)" = null ] && [ "$("$1" "$2" comparisons.0.timing)" = emulated ] &&
           [ "$("$1" "$2" comparisons.0.speedup_ci.0)" != null ]' _ "$check" "$out"
tap_ok "  ... and stdout says so instead of FASTER, SLOWER, SAME or AMBIGUOUS" \
  bash -c 'grep "^compare " "$1" | grep -q "no verdict (EMULATED timings)" && ! grep "^compare " "$1" | grep -qE "FASTER|SLOWER|SAME|AMBIGUOUS"' _ "$tmp/$n.stdout"
tap_ok "paired rounds equal the baseline's samples" bash -c \
  '[ "$("$1" "$2" comparisons.0.rounds)" = "$("$1" "$2" timing.0.summary.n)" ]' _ "$check" "$out"
# Schema 1.4.0: every sample kept to the nanosecond, so none prints more than 3 decimals.
ns_samples() { # the file has 3 sample arrays (one per arm), none with a finer digit
  [ "$(grep -cE '"samples_us":[[:space:]]*\[[0-9]' "$out")" = 3 ] &&
    ! grep -E '"samples_us":' "$out" | grep -qE '[0-9]\.[0-9]{4}'
}
tap_ok "samples kept to the nanosecond (at most 3 decimals)" ns_samples
# Schema 2.0.0: a comparison's pairs are its arms' TIMING samples, not copied into it.
tap_ok "comparisons hold no copy of the samples (schema 2.0.0 on): rounds, then the statistics" \
  bash -c '! grep -qE "\"(base|cand)_samples_us\"" "$1" && [ "$("$2" "$1" schema_version)" = 2.1.0 ]' _ "$out" "$check"

bench "--vs X --variant X: an A/A control" 0 "${fast[@]}" --shape small --seeds 0 --vs stage2 --variant stage2 \
  --arm-order fixed
tap_ok "--arm-order fixed is recorded" is config.arm_order fixed
tap_ok "config.aa_control is true (false in the A/B run above)" is config.aa_control true
tap_ok "one comparison, stage2 against itself, marked aa_control" \
  bash -c '[ "$("$1" "$2" comparisons)" = "array 1" ] && [ "$("$1" "$2" comparisons.0.baseline)" = stage2 ] &&
           [ "$("$1" "$2" comparisons.0.candidate)" = stage2 ] && [ "$("$1" "$2" comparisons.0.aa_control)" = true ]' _ "$check" "$out"
tap_ok "two timing entries of stage2, arms A and B, interleaved (same rounds)" \
  bash -c '[ "$("$1" "$2" timing.0.aa_arm)" = A ] && [ "$("$1" "$2" timing.1.aa_arm)" = B ] &&
           [ "$("$1" "$2" timing.1.variant)" = stage2 ] && [ "$("$1" "$2" timing.0.summary.n)" = "$("$1" "$2" timing.1.summary.n)" ]' _ "$check" "$out"

bench "--vs with a failing baseline" 1 "${fast[@]}" --shape small --seeds 0 --vs test-wrong --variant stage2
tap_ok "no comparison against a failed baseline" is comparisons "array 0"
tap_ok "the reason is recorded" is not_timed.1.reason "its baseline failed correctness"

bench "--quiet" 0 "${fast[@]}" --quiet --shape single --seeds 0 --variant stage2 --l2 cold
tap_ok "--quiet: nothing on stderr" test ! -s "$tmp/$n.stderr"
tap_ok "the emulator reports warm L2 even when cold was asked" is timing.0.l2 warm
tap_ok "config keeps the request" is config.l2 cold

bench "the stopping rule's time limit" 0 --backend emu --l2 warm --shape small --seeds 0 --variant stage2 \
  --iters 1000000 --min-time 0 --max-time 0.2
tap_ok "stop_reason is max_time" is timing.0.stop_reason max_time
tap_ok "progress names the timing run" grep -q "timing stage2 on small, seed 0" "$tmp/$n.stderr"

# ptxas resources: embedded from --ptxas, null with a reason when the default file is absent.
fixture=$(dirname "$0")/fixtures/ptxas-min.json
bench "--ptxas embeds the file" 0 --backend emu --check-only --shape single --seeds 0 --variant stage2 \
  --ptxas "$fixture"
tap_ok "ptxas embedded" is ptxas.kind ptxas-resources
tap_ok "ptxas_source names the file" is ptxas_source "$fixture"
mkdir "$tmp/elsewhere"
n=$((n + 1)); out=$tmp/$n.json
(cd "$tmp/elsewhere" && "$bin" --backend emu --check-only --shape single --seeds 0 --variant stage2 --out "$out" >/dev/null 2>&1)
tap_ok "without a ptxas file: ptxas is null" is ptxas null
tap_ok "and ptxas_source says why" bash -c '"$1" "$2" ptxas_source | grep -q "^not embedded: .* not found"' _ "$check" "$out"

# --dump: the last variant, shape and seed
bench "--dump" 0 --backend emu --check-only --shape small --shape ragged --seeds 0,3 --variant stage1 \
  --variant stage2 --dump "$tmp/dump"
tap_ok "dump files have the documented dtypes and shapes" "$dir/check_dump" "$tmp/dump" 2 3 33 64
tap_ok "meta.json names the last variant" grep -q '"variant":[[:space:]]*"stage2"' "$tmp/dump/meta.json"
tap_ok "meta.json names the last seed" grep -q '"seed":[[:space:]]*"3"' "$tmp/dump/meta.json"
tap_ok "meta.json names the backend" grep -q '"backend":[[:space:]]*"emu"' "$tmp/dump/meta.json"
sum=$(cat "$tmp/dump"/* | md5sum)
"$bin" --backend emu --check-only --shape single --variant stage2 --dump "$tmp/dump" >/dev/null 2>&1
tap_ok "a second --dump into the same directory is refused (exit 2)" test $? -eq 2
tap_ok "and leaves the files as they were" test "$(cat "$tmp/dump"/* | md5sum)" = "$sum"

# --dump-failed: each variant's first failing check, its output and meta.json only.
df=$tmp/failed
bench "--dump-failed" 1 --backend emu --check-only --shape small --shape ragged --seeds 0,1 --variant test-wrong \
  --variant stage2 --dump-failed "$df"
tap_ok "one directory, the failing variant's first failure (small, seed 0); none for the passing one" \
  test "$(cd "$df" && echo *)" = "test-wrong-small-s0"
tap_ok "  ... holding o.npy and meta.json only" test "$(cd "$df/test-wrong-small-s0" && echo *)" = "meta.json o.npy"
tap_ok "  ... meta.json: the variant, the inputs' checksum, and that the inputs were not written" \
  bash -c 'grep -q "\"variant\":[[:space:]]*\"test-wrong\"" "$1" && grep -Eq "\"inputs_checksum\":[[:space:]]*\"[0-9a-f]{16}\"" "$1" &&
    grep -q "\"inputs\":[[:space:]]*\"not written" "$1"' _ "$df/test-wrong-small-s0/meta.json"
tap_ok "  ... stderr says where" grep -q "dumped the output of test-wrong's first failing check (small, seed 0) to $df/test-wrong-small-s0" "$tmp/$n.stderr"
# The inputs regenerate: a full --dump of the same problem has the same checksum and output.
"$bin" --backend emu --check-only --quiet --shape small --seeds 0 --variant test-wrong --dump "$tmp/again" >/dev/null 2>&1
tap_ok "  ... a --dump of the same problem: the same inputs_checksum and the same o.npy, byte for byte" \
  bash -c 'cmp -s "$1/o.npy" "$2/o.npy" && [ "$(grep "\"inputs_checksum\"" "$1/meta.json")" = "$(grep "\"inputs_checksum\"" "$2/meta.json")" ]' _ \
  "$df/test-wrong-small-s0" "$tmp/again"
sum=$(cat "$df"/*/* | md5sum)
"$bin" --backend emu --check-only --shape small --seeds 0 --variant test-wrong --dump-failed "$df" >/dev/null 2>"$tmp/df2.stderr"
tap_ok "the same directory again: the check's exit (1), the dump left as it was, stderr says so" \
  bash -c '[ $1 -eq 1 ] && [ "$(cat "$2"/*/* | md5sum)" = "$3" ] && grep -q "already holds a dump; left as it is" "$4"' _ $? \
  "$df" "$sum" "$tmp/df2.stderr"
"$bin" --backend emu --check-only --quiet --shape 1,1,40,64 --seeds 0 --variant test-wrong --dump-failed "$tmp/df4" >/dev/null 2>&1
tap_ok "a shape given as B,H,S,D: its directory named by the dimensions (not 'custom')" test -s "$tmp/df4/test-wrong-1,1,40,64-s0/o.npy"
"$bin" --backend emu --check-only --shape small --seeds 0 --variant test-wrong --dump-failed "" >/dev/null 2>"$tmp/df3.stderr"
tap_ok "--dump-failed '': exit 2 naming the flag" bash -c '[ $1 -eq 2 ] && grep -q -- "--dump-failed" "$2"' _ $? "$tmp/df3.stderr"

# A signal (the campaign's step guard stopping a hung step) names what was in flight, on stderr:
# the kernel being timed or checked, so that the campaign can leave it out of later steps.
# stopped PHASE ARGS...: runs the bench in the background until its stderr shows PHASE, then
# SIGTERM; $rc, $err (the stderr file), $sout (no file expected) and $took: whole seconds from the
# last look that did not find PHASE to the bench's end. The note, set just before PHASE is printed,
# stood no longer, so its "for N s" is at most $took (0 on an idle machine; a loaded one can take a
# second to look and to stop the bench). PHASE is awaited for 300 s: a deadline, not a count of
# polls (the long shape's setup before its check took 15-29 s with ASan on this 2-core machine).
stopped() {
  local phase=$1 miss look end=$((SECONDS + 300)); shift
  sout=$tmp/stopped-$phase.json err=$tmp/stopped-$phase.stderr
  miss=$EPOCHREALTIME
  "$bin" "$@" --out "$sout" >/dev/null 2>"$err" &
  local p=$!
  while [ $SECONDS -lt $end ] && kill -0 $p 2>/dev/null; do
    look=$EPOCHREALTIME
    grep -q "sdpa-bench: $phase " "$err" && break
    miss=$look
    sleep 0.05
  done
  kill -TERM $p; wait $p; rc=$?
  took=$(((${EPOCHREALTIME/[.,]/} - ${miss/[.,]/}) / 1000000)) # microseconds, either decimal mark
}
# note_ok ERE: the last line of $err is ERE with ", for N s" appended, N at most $took.
note_ok() {
  local last n
  last=$(tail -n 1 "$err")
  grep -Eqx "$1, for [0-9]+ s" <<<"$last" || { tap_diag "last line: $last"; return 1; }
  n=${last##*, for }; n=${n% s}
  [ "$n" -le "$took" ] || { tap_diag "for $n s, more than the $took s from the last look without PHASE to the bench's end"; return 1; }
}
stopped timing --backend emu --vs stage1 --variant stage2 --shape small --seeds 0 --iters 1000000 --min-time 600 --max-time 600
tap_ok "SIGTERM while timing: exit 143, no result file" test $rc -eq 143 -a ! -e "$sout"
tap_ok "  ... its last line names the arm in flight, the shape and seed, and for how long (at most $took s)" \
  note_ok 'sdpa-bench: stopped by a signal while timing stage[12] on small, seed 0 \(interleaved\)'
stopped checking --backend emu --check-only --shape long --seeds 0 --variant stage1
tap_ok "SIGTERM while checking: exit 143; the last line names the variant being checked (for at most $took s)" \
  eval '[ $rc -eq 143 ] && note_ok "sdpa-bench: stopped by a signal while checking stage1 on long, seed 0"'

# The result file is never overwritten.
sum=$(md5sum <"$out")
"$bin" --backend emu --check-only --shape single --variant stage2 --out "$out" >/dev/null 2>&1
tap_ok "an existing result file is refused (exit 2)" test $? -eq 2
tap_ok "and left as it was" test "$(md5sum <"$out")" = "$sum"
tap_done
