#!/usr/bin/env bash
# The paper's "what ran on a GPU" table (host/report/gpu_coverage.c, gpu-coverage.md, the
# limitations section) on copies of the SYNTHETIC campaign fixture, each edited with jq into one
# case. The expected counts are computed here with jq from the fixture's own files, not copied from
# the program: a check is a correctness entry of a CUDA-backend sdpa-bench document, a timing a GPU
# timing entry with a summary.
# Usage: tests/report/coverage.sh build/bin/sdpa-report [build/tests/report/sdpa-report-asan]
# shellcheck disable=SC2016 # the checks' bash -c scripts expand their own arguments
set -u
. tests/tap.sh
R=$(realpath "$1")
command -v jq >/dev/null || { tap_skip "the coverage table" "jq not installed (make deps)"; tap_done; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/coverage-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
. tests/report/gpu-fixture.sh
# The registry's variants, from kernels/variants.def (the custom row is the build's own, not one).
NV=$(grep '^SDPA_VARIANT(' kernels/variants.def | grep -vc '"custom"')

# case NAME [CAMPAIGN_FILTER]: a copy of the fixture made a measurement (meta.tool marks the
# fixture), campaign.json further edited, its experiment run given the summary.json that make paper
# derives (the paper reads a run only with it); not rendered, so that a case can edit more first.
case_() {
  mkdir -p "$tmp/$1" && cp -r "$FX" "$tmp/$1/gpu"
  C=$tmp/$1/gpu/$SLUG/$ID
  edit "$C/campaign.json" ".meta.tool = \"sdpa-report\" | ${2:-.}"
  local r
  r=$(ls -d "$C"/runs/stage2-wmma-pv/*/)
  "$R" experiment --run "${r%/}" --experiment stage2-wmma-pv --static-budget 128,0,0,49152 \
    --definition "${r}experiment.mk" --published data/published/seed-l4.json >"$tmp/$1.summary.log" 2>&1 ||
    sed 's/^/# /' "$tmp/$1.summary.log"
}
cov() { cat "$tmp/$1/out/gpu-coverage.md"; }
row() { grep "^| $2 |" "$tmp/$1/out/gpu-coverage.md"; } # NAME VARIANT
# checks VARIANT DIR: its correctness entries and those that passed in DIR's CUDA documents, "p of n"
# (the scaling sweep's are not counted: the table's caption names its sources)
checks() {
  find "$2" -name '*.json' -not -path '*/scaling/*' -print0 | xargs -0 jq -r --arg v "$1" \
    'select(.kind == "sdpa-bench-run" and .meta.backend == "cuda") | .correctness[]? | select(.variant == $v) | .pass' |
    awk '{ n++; p += $1 == "true" } END { printf "%d of %d", p, n }'
}

# No campaign: the sentence, no table.
mkdir -p "$tmp/none/gpu" && render none
tap_ok "no campaign: exit 0, the sentence names the registry's $NV variants, no table" \
  bash -c '[ $1 -eq 0 ] && grep -q "^No GPU campaign is committed, so none of the $2 variants of this checkout.s registry has run on a GPU" <<<"$3" && ! grep -q "^|" <<<"$3"' \
  _ $rc "$NV" "$(cov none)"

# The fixture as committed: its rows marked SYNTHETIC, the sentence says it is no measurement.
mkdir -p "$tmp/fx" && cp -r "$FX" "$tmp/fx/gpu" && render fx
tap_ok "the fixture: exit 0, every row's device marked SYNTHETIC, the sentence says so" \
  bash -c '[ $1 -eq 0 ] && grep -q "of which the SYNTHETIC test fixture is no measurement" <<<"$2" && [ "$(grep -c "^| stage" <<<"$2")" -gt 0 ] && ! grep "^| stage" <<<"$2" | grep -v "| SYNTHETIC FIXTURE GPU"' \
  _ $rc "$(cov fx)"

case_ m && render m
want2=$(checks stage2 "$tmp/m/gpu")
tap_ok "a measured copy: stage2's checks passed as the fixture's CUDA documents count them ($want2), D 64, timed" \
  bash -c '[ $1 -eq 0 ] && grep -q "^| stage2 | FIXTURE GPU (synthetic, not a measurement) | 1 | $2 | 64 | in 1 campaign |$" <<<"$3"' \
  _ $rc "$want2" "$(row m stage2)"
tap_ok "  ... stage0 is timed (history) though no document checked it: no checks, no head dims" \
  bash -c 'grep -q "^| stage0 | .* | 1 | 0 of 0 | - | in 1 campaign |$" <<<"$1"' _ "$(row m stage0)"
tap_ok "  ... the fixture's device is sm_89: the Hopper rows are never run, and the sentence says why" \
  bash -c 'grep -q "\`stage7a\` (needs sm_90 or newer, which no committed campaign.s device is)" <<<"$1" && grep -q "\`stage7b\` (sm_90a code, and no committed campaign.s device is sm_90)" <<<"$1" && [ -z "$2" ]' \
  _ "$(cov m)" "$(row m stage7b)"
tap_ok "  ... stage6 (no sm_90a code) is never run without a reason: the device could have run it" \
  bash -c 'grep -q "\`stage6\`, " <<<"$1" && ! grep -q "\`stage6\` (" <<<"$1"' _ "$(cov m)"
tap_ok "  ... the counts of the sentence agree with the table's rows" \
  bash -c 'c=$(grep "^| stage" <<<"$1" | grep -vc "| 0 of 0 |"); t=$(grep "^| stage" <<<"$1" | grep -c "| in [0-9]* campaign"); grep -q "^Of the $2 variants of this checkout.s registry, $c have been checked on a GPU and $t timed on one, over 1 committed campaign\." <<<"$1"' \
  _ "$(cov m)" "$NV"

# A failed check, a causal shape and D = 128, a checks step that faulted, an emulated document.
case_ f '.variant_checks = [{"variant": "stage3b", "status": "fault", "exit_status": 3}, {"variant": "stage4", "status": "not_supported"}]'
edit "$C/device-run.json" '(.correctness[] | select(.variant == "stage2")) |= (.pass = false)'
edit "$C/device-run.json" '.config.shapes[0].causal = true | (.correctness[] | select(.variant == "stage1")) |= (.D = 128)'
render f
n2=$(jq '[.correctness[] | select(.variant == "stage2")] | length' "$C/device-run.json")
tap_ok "a failed check: stage2 FAILED, its $n2 failures subtracted" \
  bash -c '[ $1 -eq 0 ] && p=${2%% of *} && n=${2##* of } && grep -q "| FAILED: $((p - $3)) of $n |" <<<"$4"' _ $rc "$want2" "$n2" "$(row f stage2)"
tap_ok "  ... D = 128 and the causal shape: stage1's head dims \"64, 128; causal too\"" \
  bash -c 'grep -q "| 64, 128; causal too |" <<<"$1"' _ "$(row f stage1)"
tap_ok "  ... a checks step that faulted: named with its campaign; not_supported is no trouble" \
  bash -c 'grep -q "^| stage3b | .*; checks step: fault ($2) |" <<<"$1" && ! grep -q "checks step" <<<"$3"' \
  _ "$(row f stage3b)" "$ID" "$(row f stage4)"
case_ e
edit "$C/device-run.json" '.meta.backend = "emu"'
render e
tap_ok "an emulated document does not count: stage2 loses the device step's checks" \
  bash -c '[ $1 -eq 0 ] && [ "$2" != "$3" ] && grep -q "| $2 |" <<<"$4"' _ $rc "$(checks stage2 "$tmp/e/gpu")" "$want2" "$(row e stage2)"
case_ emu '.backend = "emu"'
render emu
tap_ok "an emulated campaign does not count: no campaign, and the sentence says why" \
  bash -c '[ $1 -eq 0 ] && grep -q "^No GPU campaign is committed (the emulated ones do not count)" <<<"$2"' _ $rc "$(cov emu)"

# An emulated campaign sorted first on a device with a measured one: the measured one still counts.
case_ mix
L=20260105T000000Z-later-1
cp -r "$C" "$tmp/mix/gpu/$SLUG/$L" && edit "$tmp/mix/gpu/$SLUG/$L/campaign.json" ".campaign_id = \"$L\""
edit "$C/campaign.json" '.backend = "emu"'
render mix
tap_ok "an emulated campaign first on a device: the measured one after it still has its rows (1 campaign)" \
  bash -c '[ $1 -eq 0 ] && grep -q "^| stage2 | FIXTURE GPU (synthetic, not a measurement) | 1 | $2 | 64 | in 1 campaign |$" <<<"$3" && grep -q "over 1 committed campaign; emulated campaigns do not count" <<<"$4"' \
  _ $rc "$want2" "$(row mix stage2)" "$(cov mix)"

# Two campaigns of one device: one row per variant, the campaigns summed; another device its own row.
case_ two
L=20260105T000000Z-later-1
cp -r "$C" "$tmp/two/gpu/$SLUG/$L" && edit "$tmp/two/gpu/$SLUG/$L/campaign.json" ".campaign_id = \"$L\""
mkdir -p "$tmp/two/gpu/a-later-device" && cp -r "$C" "$tmp/two/gpu/a-later-device/$L"
edit "$tmp/two/gpu/a-later-device/$L/campaign.json" ".campaign_id = \"$L\" | .device = \"A LATER DEVICE\""
render two
p=${want2%% of *} n=${want2##* of }
tap_ok "two campaigns of one device: one stage2 row, 2 campaigns, the checks summed; the other device its own" \
  bash -c '[ $1 -eq 0 ] && grep -q "^| stage2 | FIXTURE GPU (synthetic, not a measurement) | 2 | $2 of $3 | 64 | in 2 campaigns |$" <<<"$4" && grep -q "^| stage2 | A LATER DEVICE | 1 | $5 |" <<<"$4" && [ "$(grep -c "^| stage2 |" <<<"$4")" = 2 ]' \
  _ $rc $((2 * p)) $((2 * n)) "$(row two stage2)" "$want2"
if [ -n "${2:-}" ]; then
  render two "$(realpath "$2")"
  tap_ok "  ... the same under ASan+UBSan: exit 0, no report" \
    bash -c '[ $1 -eq 0 ] && ! grep -qE "ERROR: (Address|Leak)Sanitizer|runtime error" "$2"' _ $rc "$tmp/two.log"
fi

# The paper includes it in its limitations section.
tap_ok "paper.md's limitations section includes gpu-coverage.md" \
  bash -c 'awk "/^# Limitations/ {p = 1} p && /^# / && !/Limitations/ {exit} p" paper/paper.md | grep -q "{gen}/gpu-coverage.md"'
tap_done
