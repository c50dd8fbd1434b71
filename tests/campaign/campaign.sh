#!/usr/bin/env bash
# The measurement bundle as a GPU node meets it, on this machine's emulator: unpacked outside the
# checkout, run with no build tree or toolkit on the paths, its tarball ingested into a temporary
# data directory, a report rendered from an ingested run; and every refusal of the ingest. Also:
# make -n sweep writes nothing.
# Usage: tests/campaign/campaign.sh BUNDLE.tar.gz SDPA_REPORT
set -u
. tests/tap.sh
bundle=$(realpath "$1") report=$(realpath "$2")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/campaign-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
ingest() { tools/campaign/ingest.sh "$1" "$tmp/data" "$report" --allow-emulated >"$tmp/ingest.log" 2>&1; }

mkdir -p "$tmp/node" && tar -C "$tmp/node" -xzf "$bundle"
B=$tmp/node/bundle
tap_ok "the bundle unpacks: campaign.sh, bin/, lib/libcjson.so.1, experiments/" \
  test -x "$B/campaign.sh" -a -x "$B/bin/sdpa-bench" -a -x "$B/bin/sdpa-report" -a -e "$B/lib/libcjson.so.1"
tap_ok "sdpa-bench finds libcjson in the bundle (rpath relative to the binary)" \
  bash -c 'env -i PATH=/usr/bin:/bin ldd "$1" | grep libcjson | grep -qF "$2/bin/../lib/libcjson.so.1"' _ "$B/bin/sdpa-bench" "$B"
tap_ok "the bundle ships peers/schema-version: the version sdpa-report writes (the peers read it)" \
  test "$(cat "$B/peers/schema-version")" = "$("$report" schema-version)"
tap_fail "sdpa-bench needs no libcudart of the toolkit (linked statically)" \
  bash -c 'ldd "$1" | grep -q libcudart' _ "$B/bin/sdpa-bench"
# make -n runs nothing: the bundle's recursive make (each experiment's params.sh) included.
make -n sweep SWEEP=experiments/sweeps/emulated.sweep BUILD="$tmp/dry-build" >"$tmp/dry.log" 2>&1
tap_ok "make -n sweep into a fresh BUILD: exit 0, nothing written (the params' sub-make only printed)" \
  bash -c '[ "$1" -eq 0 ] && [ ! -e "$2" ] && grep -q "experiment-params EXPERIMENT=stage6-fp8-mma" "$3"' _ $? "$tmp/dry-build" "$tmp/dry.log"
# The node: no build tree, no toolkit, no compiler on PATH; the bundle run from elsewhere.
(cd "$tmp" && env -i HOME="$tmp" PATH=/usr/bin:/bin TMPDIR="$tmp" \
  "$B/campaign.sh" --quick --backend emu --out "$tmp/c.tar.gz") >"$tmp/campaign.log" 2>&1
rc=$?
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/campaign.log" | tail -n 30
tap_ok "campaign.sh --quick --backend emu runs to the end outside the checkout (exit 0)" test $rc -eq 0
tap_ok "  ... announced its plan and a progress line per step" \
  bash -c 'grep -q "plan: probe, checks, device" "$1" && [ "$(grep -c "^\[campaign .*left\]" "$1")" -ge 6 ]' _ "$tmp/campaign.log"
tap_ok "  ... the plan gives each step's budget, the new ones included, and the totals for an H100 and an L4" \
  bash -c 'for s in checks ceilings history-warm aa-control scaling peers-cublas peers-torch sanitizers profiles profiles-gate profiles-gate-d128 profiles-gate-causal; do grep -qE "^    $s +[0-9]+ s " "$1" || exit 1; done
           grep -qE "expected: [0-9.]+ min on an H100 \([0-9]+ s\), [0-9.]+ min on an L4" "$1"' _ "$tmp/campaign.log"
tap_ok "  ... and wrote one tarball, its work directory beside it gone" test -s "$tmp/c.tar.gz" -a ! -e "$tmp/c.partial"
tap_fail "a second campaign with the same --out is refused (never overwrites)" \
  env -i PATH=/usr/bin:/bin "$B/campaign.sh" --quick --backend emu --out "$tmp/c.tar.gz"
env -i PATH=/usr/bin:/bin TMPDIR="$tmp" "$B/campaign.sh" --quick --backend emu --part experiment:stage2-wmma-pv \
  --part scaling:128 --out "$tmp/part.tar.gz" >"$tmp/part.log" 2>&1
tap_ok "--part runs only the parts named (one experiment, one S of the sweep)" \
  bash -c '[ $(tar tzf "$1" | grep -c "/runs/[^/]*/$") -eq 1 ] && tar tzf "$1" | grep -q "runs/stage2-wmma-pv/" &&
           ! tar tzf "$1" | grep -q "history.json" && ! tar tzf "$1" | grep -q "S256"' _ "$tmp/part.tar.gz"
tap_fail "--part with an unknown part is refused" env -i PATH=/usr/bin:/bin "$B/campaign.sh" --part bogus
tap_ok "--part ceilings, peers, sanitizers and profiles are parts (their plan alone, in the campaign's order)" \
  bash -c 'env -i PATH=/usr/bin:/bin "$1" --plan --part ceilings --part peers --part sanitizers --part profiles 2>&1 |
           grep -q "plan: probe, checks, device, ceilings, sanitizers, profiles, peers, pack"' _ "$B/campaign.sh"
# --first: those parts before the others, in the order given, the rest in the campaign's; planned
# once each; a part the campaign does not plan is refused, naming what it plans.
tap_ok "--first profiles --first experiment:stage2-wmma-pv: those two first, the rest in the campaign's order" \
  bash -c 'env -i PATH=/usr/bin:/bin "$1" --plan --first profiles --first experiment:stage2-wmma-pv --first profiles \
             --part ceilings --part experiment:stage2-wmma-pv --part profiles --part peers 2>&1 |
           grep -q "plan: probe, checks, device, profiles, 1 experiment, ceilings, peers, pack"' _ "$B/campaign.sh"
env -i PATH=/usr/bin:/bin "$B/campaign.sh" --plan --part ceilings --first profiles >/dev/null 2>"$tmp/first.err"
tap_ok "--first with a part the campaign does not plan: refused (exit 2), naming the planned parts" \
  bash -c '[ $1 -eq 2 ] && grep -q -- "--first profiles: not a part this campaign plans (planned: ceilings)" "$2"' _ $? "$tmp/first.err"
# Options without their value, and --out where nothing can be written, stop before anything runs.
for o in --out --backend --part --first --time-limit --resume --left-out --pack; do
  env -i PATH=/usr/bin:/bin "$B/campaign.sh" --quick $o >/dev/null 2>"$tmp/noval.err"
  rc=$?
  grep -qF -- "$o needs a value" "$tmp/noval.err" || break
done
tap_ok "an option without its value is an error naming it (--out, --backend, --part, --time-limit, --resume, --left-out, --pack: exit 2)" \
  bash -c '[ "$1" -eq 2 ] && grep -qF -- "--pack needs a value" "$2"' _ $rc "$tmp/noval.err"
for g in -1 x 4x ''; do
  env -i PATH=/usr/bin:/bin "$B/campaign.sh" --quick --plan --step-guard "$g" >/dev/null 2>"$tmp/guard.err"
  rc=$?
  [ $rc -eq 2 ] && grep -q -- "--step-guard" "$tmp/guard.err" || break
done
tap_ok "--step-guard takes a factor >= 0 ('-1', 'x', '4x' and '' refused, naming the option; exit 2)" \
  bash -c '[ "$1" -eq 2 ] && grep -q -- "--step-guard" "$2"' _ $rc "$tmp/guard.err"
tap_ok "  ... 0, 4 and 2.5 accepted" bash -c 'for g in 0 4 2.5; do env -i PATH=/usr/bin:/bin "$1" --quick --plan --step-guard $g >/dev/null 2>&1 || exit 1; done' _ "$B/campaign.sh"
tap_fail "  ... also when the next word is another option (--out --quick)" env -i PATH=/usr/bin:/bin "$B/campaign.sh" --out --quick --plan
echo x >"$tmp/plainfile"
s0=$(date +%s)
env -i PATH=/usr/bin:/bin "$B/campaign.sh" --quick --backend emu --out "$tmp/plainfile/c.tar.gz" >"$tmp/badout.log" 2>&1
rc=$?
tap_ok "--out in a directory that cannot be written: exit 2 before measuring anything (no probe ran)" \
  bash -c '[ "$1" -eq 2 ] && grep -q -- "--out .*plainfile/c.tar.gz: the directory .* does not exist or is not writable" "$2" &&
           ! grep -q "^\[campaign" "$2" && [ $(( $(date +%s) - $3 )) -lt 10 ]' _ $rc "$tmp/badout.log" "$s0"
mkdir -p "$tmp/notmp"
(cd "$tmp/notmp" && env -i HOME="$tmp" PATH=/usr/bin:/bin TMPDIR="$tmp/no-such-dir" "$B/campaign.sh" --quick --backend emu \
  --part ceilings --out "$tmp/notmp/t.tar.gz") >"$tmp/notmp.log" 2>&1
tap_ok "TMPDIR naming a missing directory: the campaign runs (exit 0), writing only beside --out" \
  bash -c '[ "$1" -eq 0 ] && [ "$(ls -A "$2")" = t.tar.gz ] && [ ! -e "$3" ]' _ $? "$tmp/notmp" "$tmp/no-such-dir"
# Every mktemp of the tools and experiments stops its script when it fails (an empty name would
# put the temporary files, and their removal, at /).
unchecked=$(grep -rn 'mktemp' tools experiments --include='*.sh' | grep -v '^[^:]*:[0-9]*: *#' | grep -v '||' || true)
tap_ok "every mktemp in tools/ and experiments/ is checked (|| exit or die)${unchecked:+: $(echo "$unchecked" | cut -d: -f1,2 | tr '\n' ' ')}" test -z "$unchecked"
# A GPU node (SDPA_DEV_DIR stands in for /dev): auto never falls back to the emulator there.
mkdir -p "$tmp/dev-gpu" && touch "$tmp/dev-gpu/nvidia0" "$tmp/dev-gpu/nvidiactl"
(cd "$tmp" && env -i HOME="$tmp" PATH=/usr/bin:/bin SDPA_DEV_DIR="$tmp/dev-gpu" "$B/campaign.sh" --quick --part ceilings \
  --out "$tmp/gpunode.tar.gz") >"$tmp/gpunode.log" 2>&1
rc=$?
tap_ok "--backend auto on a node with /dev/nvidia0 and no usable CUDA: exit 2 with the probe's reason" \
  bash -c '[ "$1" -eq 2 ] && grep -q "sdpa-bench: --backend cuda: " "$2" && grep -q "never falls back to the emulator there" "$2"' _ $rc "$tmp/gpunode.log"
tap_ok "  ... nothing measured, nothing left (no tarball, no work directory)" test ! -e "$tmp/gpunode.tar.gz" -a ! -e "$tmp/gpunode.partial"
(cd "$tmp" && env -i HOME="$tmp" PATH=/usr/bin:/bin SDPA_DEV_DIR="$tmp/dev-gpu" "$B/campaign.sh" --quick --backend emu --part ceilings \
  --out "$tmp/gpunode-emu.tar.gz") >"$tmp/gpunode-emu.log" 2>&1
tap_ok "  ... --backend emu there measures the emulator on purpose (exit 0, backend emu from the probe)" \
  bash -c '[ "$1" -eq 0 ] && tar -xzOf "$2" --wildcards "*/campaign.json" | jq -e ".backend == \"emu\"" >/dev/null' _ $? "$tmp/gpunode-emu.tar.gz"
tap_fail "--part scaling:0 is refused (an empty problem; it once passed as a scaling step with no result)" \
  env -i PATH=/usr/bin:/bin "$B/campaign.sh" --plan --part scaling:128,0
tap_fail "--backend cuda without a GPU stops at the probe" \
  env -i PATH=/usr/bin:/bin TMPDIR="$tmp" "$B/campaign.sh" --quick --backend cuda --out "$tmp/cuda.tar.gz"
tap_ok "  ... writing nothing" test ! -e "$tmp/cuda.tar.gz"
# --left-out: a variant the caller saw hang (short-lease.sh's smoke) is recorded as such in the
# checks, its log says why, no process runs it again, and it is left out of the timed steps; a line
# naming no variant of this bundle is ignored; the file is data (a line that is shell code runs nothing).
printf 'stage1\tsmoke exit 137\nnosuch\tsmoke exit 3\n$(touch %s)\tsmoke exit 1\n' "$tmp/marker.leftout" >"$tmp/left-out.txt"
env -i PATH=/usr/bin:/bin TMPDIR="$tmp" "$B/campaign.sh" --quick --backend emu --part scaling:128 \
  --left-out "$tmp/left-out.txt" --out "$tmp/lo.tar.gz" >"$tmp/lo.log" 2>&1
mkdir -p "$tmp/lo" && tar -xzf "$tmp/lo.tar.gz" -C "$tmp/lo" 2>/dev/null
LO=$(ls -d "$tmp"/lo/campaign-*/ 2>/dev/null | head -n 1)
tap_ok "--left-out: the variant the caller saw hang is a hang in the checks (exit 137, 0 s), the others checked" \
  jq -e '([.variant_checks[] | select(.variant == "stage1")][0] | .status == "hang" and .exit_status == 137) and
         ([.variant_checks[] | select(.variant != "stage1" and .status == "ok")] | length) > 3' "$LO/campaign.json"
tap_ok "  ... its log says it was not run again and why; no check file was written for it" \
  bash -c 'grep -q "not run again: the caller left it out (--left-out .*): smoke exit 137" "$1/logs/checks/stage1.log" &&
           [ ! -e "$1/checks/stage1.json" ]' _ "$LO"
tap_ok "  ... it is left out of the timed steps (the scaling run times stage2, not stage1), the file's shell code never ran" \
  bash -c 'jq -e "(.config.variants | index(\"stage1\")) == null and (.config.variants | index(\"stage2\")) != null" "$1/scaling/S128.json" >/dev/null &&
           [ ! -e "$2" ]' _ "$LO" "$tmp/marker.leftout"
tap_fail "--left-out with a file that does not exist is refused" \
  env -i PATH=/usr/bin:/bin "$B/campaign.sh" --quick --backend emu --left-out "$tmp/none.txt" --out "$tmp/lo2.tar.gz"

ingest "$tmp/c.tar.gz"
tap_ok "make ingest's script accepts the campaign (emulated: --allow-emulated)" test $? -eq 0
C=$(ls -d "$tmp"/data/gpu/*/* 2>/dev/null | head -n 1)
tap_ok "  ... under data/gpu/emulated-<device>/<campaign-id>/" bash -c '[[ "$1" == */gpu/emulated-*/20*Z-* ]]' _ "$C"
n=$(ls -d "$C"/runs/*/* 2>/dev/null | wc -l)
tap_ok "  ... with one run directory per experiment ($n)" test "$n" -eq "$(ls -d "$B"/experiments/*/ | wc -l)"
tap_ok "  ... the history, its warm-L2 twin, the A/A control and campaign.json" \
  test -s "$C/history.json" -a -s "$C/history-warm.json" -a -s "$C/aa-control.json" -a -s "$C/campaign.json"
tap_ok "  ... history-warm.json: the history's variants with --l2 warm at the (quick) mission shape" \
  bash -c '[ "$(jq -r ".config.l2, (.config.shapes | map(.name) | join(\",\"))" "$1/history-warm.json" | tr "\n" " ")" = "warm small " ] &&
           [ "$(jq -c ".config.variants" "$1/history-warm.json")" = "$(jq -c ".config.variants" "$1/history.json")" ]' _ "$C"
tap_ok "  ... aa-control.json: stage0 against itself in one interleaved process, recorded as an A/A control" \
  jq -e '.config.aa_control == true and .comparisons[0].baseline == "stage0" and .comparisons[0].candidate == "stage0" and .comparisons[0].aa_control' "$C/aa-control.json"
tap_ok "  ... campaign.json (sdpa-report campaign-json): complete, every planned part completed, every variant checked ok" \
  jq -e '.interrupted == false and .parts_planned == .parts_completed and (.parts_planned | length) >= 7 and
         ([.variant_checks[] | select(.status == "ok")] | length) == (.variant_checks | length) and (.variant_checks | length) > 0' "$C/campaign.json"
tap_ok "  ... its schema version is the build's (one place: sdpa-report schema-version)" \
  test "$(jq -r .schema_version "$C/campaign.json")" = "$("$report" schema-version)"
# What this sdpa-bench offers decides what the campaign could do: the ceilings and the cuBLAS
# peer come from sdpa-bench itself (--ceilings, --list-peers), the rest from tools it looks for.
bench_b=$B/bin/sdpa-bench
has_ceilings=$(env -i PATH=/usr/bin:/bin "$bench_b" --help 2>&1 | grep -c -- "--ceilings")
cublas=$(env -i PATH=/usr/bin:/bin "$bench_b" --list-peers 2>/dev/null | awk '$1 == "cublas-unfused"' | wc -l)
n_var=$(env -i PATH=/usr/bin:/bin "$bench_b" --list-variants | grep -vc '^custom')
tap_ok "  ... the scaling sweep: a result per variant (and the cuBLAS peer) and S, or a line saying it was skipped" \
  test "$(( $(jq -s '[.[].timing[]] | length' "$C"/scaling/S*.json 2>/dev/null || echo 0) + $(wc -l <"$C/scaling/skipped.txt") ))" -eq \
       "$(( 2 * (n_var + cublas) ))" # 2 S values (--quick)
step_of() { jq -r --arg n "$1" '.steps[] | select(.name == $n) | if .skipped then "skipped: " + .skipped else "exit \(.exit_status)" end' "$C/campaign.json"; }
tap_ok "  ... the probes: skipped on the emulator, with the reason (sm_90a code runs on a GPU only)" \
  bash -c '[[ "$1" == "skipped: backend emu: the probes run on a GPU"* ]] && [ ! -e "$2/probes/probes.json" ]' _ "$(step_of probes)" "$C"
tap_ok "  ... the correctness matrix: e4m3, seed-linear, outlier and wide files of every variant, each check passed" \
  bash -c 'for f in e4m3 seed-linear outliers wide; do
             jq -e --argjson n "$2" "([.correctness[], .not_supported[] | .variant] | unique | length) == \$n and
               ([.correctness[] | select(.pass != true)] | length) == 0 and (.correctness | length) > 0" "$1/matrix/$f.json" >/dev/null ||
               { echo "# matrix/$f.json"; exit 1; }; done
           [ "$(jq -r .config.dist "$1/matrix/outliers.json")" = outliers ] &&
           [ "$(jq -r .config.codec "$1/matrix/seed-linear.json")" = seed-linear ]' _ "$C" "$n_var"
tap_ok "  ... the wide file: D = 128 and causal shapes checked (some variants), the others not supported with the reason" \
  jq -e '([.config.shapes[] | select(.D == 128)] | length) > 0 and ([.config.shapes[] | select(.causal)] | length) > 0 and
         ([.correctness[] | select(.D == 128 or .shape == "ragged-d128")] | length) > 0 and
         ([.not_supported[] | select((.reason // "") | test("D = 128|causal"))] | length) > 0' "$C/matrix/wide.json"
tap_ok "  ... campaign.json records every step (probe ... profiles), skipped ones with the reason" \
  bash -c 'for s in probe checks device probes matrix ceilings history history-warm aa-control scaling peers-cublas peers-torch sanitizers profiles profiles-gate profiles-gate-d128 profiles-gate-causal; do
             [ -n "$(jq -r --arg n "$s" ".steps[] | select(.name == \$n) | .name" "$1")" ] || { echo "# no step $s"; exit 1; }; done' _ "$C/campaign.json"
if [ "$has_ceilings" -gt 0 ]; then
  tap_ok "  ... ceilings.json: copy and GEMM ceilings, every entry skipped on the emulator" \
    bash -c 'jq -e ".kind == \"ceilings\" and (.ceilings | length) > 0 and ([.ceilings[] | select(.status != \"skipped\")] | length) == 0" "$1" >/dev/null' _ "$C/ceilings.json"
else
  tap_ok "  ... ceilings: skipped, with sdpa-bench's message (this sdpa-bench has no --ceilings)" \
    bash -c '[[ "$1" == "skipped: this sdpa-bench has no --ceilings: sdpa-bench: unknown option"* ]]' _ "$(step_of ceilings)"
fi
if [ "$cublas" -gt 0 ]; then
  tap_ok "  ... the cuBLAS peer beside every variant at the small shape, labelled emulated" \
    bash -c 'jq -e "[.timing[] | select(.variant == \"peer-cublas-unfused\" and .timing == \"emulated\")] | length == 1" "$1"/peers/cublas-unfused-small.json >/dev/null' _ "$C"
else
  tap_ok "  ... peers-cublas: skipped, with sdpa-bench's message (no --list-peers here)" \
    bash -c '[[ "$1" == "skipped: this sdpa-bench has no cuBLAS peer"* ]]' _ "$(step_of peers-cublas)"
fi
tap_ok "  ... peers-torch: skipped, torch not installed" bash -c '[[ "$1" == "skipped: torch not installed"* ]]' _ "$(step_of peers-torch)"
tap_ok "  ... sanitizers.json: 4 tools x every variant, each skipped (no GPU), the step skipped" \
  bash -c 'jq -e --argjson n "$2" ".kind == \"sanitizers\" and .shape == \"ragged\" and (.results | length) == 4 * \$n and
             ([.results[] | select(.status == \"skipped\" and (.reason | test(\"no GPU\")))] | length) == 4 * \$n" "$1/sanitizers.json" >/dev/null &&
           [[ "$3" == "skipped: backend emu: no GPU to check" ]]' _ "$C" "$n_var" "$(step_of sanitizers)"
tap_ok "  ... profile.json: skipped as a whole, every variant listed with the reason, the metric set with hypotheses" \
  bash -c 'jq -e --argjson n "$2" ".kind == \"profile\" and .status == \"skipped\" and (.variants | length) == \$n and
             ([.metrics[] | select(.hypothesis != \"\")] | length) > 5" "$1/profile.json" >/dev/null' _ "$C" "$n_var"
tap_ok "  ... profile-gate.json: skipped likewise, at the quick plan's gate shape, the Hopper line's rows 7a-7f, 7h and 7i listed" \
  bash -c 'jq -e ".kind == \"profile\" and .status == \"skipped\" and .shape == \"small\" and
             ([.variants[].variant] == [\"stage7a\", \"stage7b\", \"stage7c\", \"stage7d\", \"stage7e\", \"stage7f\", \"stage7h\", \"stage7i\"])" "$1/profile-gate.json" >/dev/null &&
           [[ "$2" == "skipped: backend emu: no GPU to profile" ]]' _ "$C" "$(step_of profiles-gate)"
tap_ok "  ... profile-gate-d128.json: skipped likewise, at the quick plan's D = 128 gate shape, the rows 7e, 7f, 7i, 7j, 7k and 7l listed" \
  bash -c 'jq -e ".kind == \"profile\" and .status == \"skipped\" and .shape == \"ragged-d128\" and
             ([.variants[].variant] == [\"stage7e\", \"stage7f\", \"stage7i\", \"stage7j\", \"stage7k\", \"stage7l\"])" "$1/profile-gate-d128.json" >/dev/null &&
           [[ "$2" == "skipped: backend emu: no GPU to profile" ]]' _ "$C" "$(step_of profiles-gate-d128)"
tap_ok "  ... profile-gate-causal.json: skipped likewise, at the quick plan's causal gate shape, the rows 7l and 7m listed" \
  bash -c 'jq -e ".kind == \"profile\" and .status == \"skipped\" and .shape == \"ragged-causal\" and
             ([.variants[].variant] == [\"stage7l\", \"stage7m\"])" "$1/profile-gate-causal.json" >/dev/null &&
           [[ "$2" == "skipped: backend emu: no GPU to profile" ]]' _ "$C" "$(step_of profiles-gate-causal)"
tap_ok "  ... the parts in order: the checks and profiles before the scaling sweep and the peers" \
  bash -c '[ "$(jq -r "[.parts_planned[] | select(test(\"^(history|sanitizers|profiles|scaling|peers)$\"))] | join(\" \")" "$1")" = \
           "history sanitizers profiles scaling peers" ]' _ "$C/campaign.json"
tap_fail "the same campaign again is refused (its id exists)" ingest "$tmp/c.tar.gz"
tap_ok "  ... saying so" grep -q "exists already" "$tmp/ingest.log"
tap_fail "an emulated campaign without --allow-emulated is refused" \
  tools/campaign/ingest.sh "$tmp/c.tar.gz" "$tmp/data2" "$report"
tap_ok "  ... and nothing was written" test ! -e "$tmp/data2"

# Broken tarballs, each refused with exit 2, its problem named, nothing written.
refuse() { # NAME TARBALL PATTERN
  rm -rf "$tmp/data3"
  tools/campaign/ingest.sh "$2" "$tmp/data3" "$report" --allow-emulated >"$tmp/r.log" 2>&1
  local rc=$?
  tap_ok "ingest refuses $1: exit 2" test $rc -eq 2
  tap_ok "  ... naming the problem ($3)" grep -q "$3" "$tmp/r.log"
  tap_ok "  ... writing nothing" test ! -e "$tmp/data3"
}
head -c 3000 "$tmp/c.tar.gz" >"$tmp/trunc.tar.gz"
refuse "a truncated tarball" "$tmp/trunc.tar.gz" "truncated"
mkdir -p "$tmp/x" && tar -C "$tmp/x" -xzf "$tmp/c.tar.gz" && top=$(ls "$tmp/x")
sed -i -E 's/"schema_version":[[:space:]]*"[0-9]+\.[0-9.]*"/"schema_version": "3.0.0"/' "$tmp/x/$top/history.json"
grep -q '"3.0.0"' "$tmp/x/$top/history.json" || tap_diag "fixture: the schema version was not replaced"
(cd "$tmp/x/$top" && find . -type f ! -name SHA256SUMS | sort | xargs sha256sum >SHA256SUMS)
tar -C "$tmp/x" -czf "$tmp/schema.tar.gz" "$top"
refuse "a JSON file of schema 3.0.0" "$tmp/schema.tar.gz" "schema_version 3.0.0"
echo tampered >>"$tmp/x/$top/campaign.json"
tar -C "$tmp/x" -czf "$tmp/sum.tar.gz" "$top"
refuse "a file that does not match SHA256SUMS" "$tmp/sum.tar.gz" "SHA256SUMS"
# A self-test file of the torch peer script slipped into a campaign.
mkdir -p "$tmp/y" && tar -C "$tmp/y" -xzf "$tmp/c.tar.gz"
"$B/bin/sdpa-bench" --backend emu --check-only --variant stage0 --shape small --seeds 0 --quiet --dump "$tmp/pd" --out "$tmp/pd.json" >/dev/null 2>&1
python3 "$B/peers/torch_sdpa.py" --selftest --backend selftest-fp64 --dump "$tmp/pd" --out "$tmp/y/$top/peers/peer-selftest.json" \
  --iters 1 --min-time 0 2>/dev/null
(cd "$tmp/y/$top" && find . -type f ! -name SHA256SUMS | sort | xargs sha256sum >SHA256SUMS)
tar -C "$tmp/y" -czf "$tmp/selftest.tar.gz" "$top"
refuse "a self-test peer file (meta.backend selftest)" "$tmp/selftest.tar.gz" "a self-test file of tools/peers/torch_sdpa.py"
# Hostile member names, written with Python's tarfile (GNU tar strips them when creating).
evil() { python3 -c 'import io, sys, tarfile
with tarfile.open(sys.argv[1], "w:gz") as t:
    i = tarfile.TarInfo(sys.argv[2]); i.size = 2; t.addfile(i, io.BytesIO(b"x\n"))' "$@"; }
evil "$tmp/dotdot.tar.gz" "campaign-x/../../evil"
refuse "a member with a '..' component" "$tmp/dotdot.tar.gz" "'..' component"
evil "$tmp/abs.tar.gz" "/tmp/evil"
refuse "a member with an absolute path" "$tmp/abs.tar.gz" "absolute path"

# make campaign: the same bundle, in place; without pandoc and gnuplot it says what it leaves out.
make --no-print-directory -s campaign CAMPAIGN_ARGS="--quick --backend emu --part history" CAMPAIGN_OUT="$tmp/mc" \
  PANDOC=no-such-pandoc GNUPLOT=no-such-gnuplot >"$tmp/mc.log" 2>&1
rc=$?
[ $rc -eq 0 ] || tail -n 20 "$tmp/mc.log" | sed 's/^/# /'
tap_ok "make campaign runs the bundle's campaign in place (exit 0, one tarball in CAMPAIGN_OUT)" \
  bash -c '[ "$1" -eq 0 ] && [ "$(ls "$2"/mc/campaign-*.tar.gz | wc -l)" -eq 1 ]' _ $rc "$tmp"
tap_ok "  ... and, without pandoc and gnuplot, names the report steps it skips" \
  bash -c 'grep -q "no-such-pandoc not found: the report steps" "$1" && grep -q "no-such-gnuplot not found" "$1"' _ "$tmp/mc.log"

# A report from an ingested run, on this machine, with nothing measured again.
R=$(ls -d "$C"/runs/stage2-wmma-pv/* | head -n 1)
make --no-print-directory -s report RUN="$R" FIG_DIR="$tmp/fig" REPORT_DIR="$tmp/rep" >"$tmp/report.log" 2>&1
rc=$?
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/report.log" | tail -n 20
tap_ok "make report RUN=<ingested run> renders it (exit 0)" test $rc -eq 0
tap_ok "  ... report.pdf, report.html, report.md" \
  bash -c 'ls "$1"/rep/stage2-wmma-pv/*/report.pdf "$1"/rep/stage2-wmma-pv/*/report.html "$1"/rep/stage2-wmma-pv/*/report.md' _ "$tmp"
tap_done
