#!/usr/bin/env bash
# Stage 7g's go/no-go as the paper reads it (host/report/gpu_stage7g.c, the rule in
# paper/methods.md#prereg-stage7g) on copies of the SYNTHETIC campaign fixture, each edited with jq
# into one case: the fixture itself decides nothing; a measured copy decides by its XU figure
# against 85 % (inclusive), printed as recorded; every missing piece leaves the decision open with
# its reason; a quick campaign never decides; of several campaigns the earliest id decides and a
# disagreement is said. The threshold in the code is the one the methods state.
# Usage: tests/report/stage7g.sh build/bin/sdpa-report [build/tests/report/sdpa-report-asan]
# shellcheck disable=SC2016 # the checks' bash -c scripts expand their own arguments
set -u
. tests/tap.sh
R=$(realpath "$1")
command -v jq >/dev/null || { tap_skip "stage 7g's go/no-go" "jq not installed (make deps)"; tap_done; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/stage7g-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
. tests/report/gpu-fixture.sh
XU=sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active

# case NAME PROFILE_GATE_FILTER [CAMPAIGN_FILTER]: a copy of the fixture made a measurement
# (campaign.json's meta.tool is what marks the fixture), profile-gate.json edited, rendered.
case_() {
  mkdir -p "$tmp/$1" && cp -r "$FX" "$tmp/$1/gpu"
  local c=$tmp/$1/gpu/$SLUG/$ID
  edit "$c/campaign.json" ".meta.tool = \"sdpa-report\" | ${3:-.}"
  if [ "$2" = absent ]; then rm "$c/profile-gate.json"; else edit "$c/profile-gate.json" "$2"; fi
  render "$1"
}
dec() { cat "$tmp/$1/out/gpu-stage7g.md"; }
sec() { awk '/^### Profile metrics at stage 7f.s gate shape/ {p = 1} p && /^### Hardware probes/ {exit} p' "$tmp/$1/out/gpu.md"; }
xu() { echo ".variants |= map(if .variant == \"stage7f\" then .values[\"$XU\"] = $1 else . end)"; }

# The fixture as committed: its section applies the rule, the paper's sentence says it decides nothing.
mkdir -p "$tmp/fx" && cp -r "$FX" "$tmp/fx/gpu" && render fx
tap_ok "the fixture: sdpa-report paper exits 0" test $rc -eq 0
tap_ok "  ... its gate-shape section reads NO-GO at 72.75 %, marked synthetic, deciding nothing" \
  bash -c 'grep -q "SYNTHETIC FIXTURE, NOT A MEASUREMENT, decides nothing.*busy 72.75 % at 2,32,8192,64.*85 %: \*\*NO-GO\*\*" <<<"$1"' _ "$(sec fx)"
tap_ok "  ... the XU metric is the table's first column" \
  bash -c 'grep -q "^| variant | XU (MUFU) pipe busy (%) | tensor pipe active (%) | status |" <<<"$1"' _ "$(sec fx)"
tap_ok "  ... the paper's sentence: open, no measured campaign, the fixture decides nothing" \
  bash -c 'grep -q "^\*\*Open.\*\* No measured GPU campaign is committed" <<<"$1" && grep -q "SYNTHETIC test fixture.*decides nothing" <<<"$1"' _ "$(dec fx)"

case_ m .
tap_ok "a measured campaign at 72.75 %: decided by it, NO-GO, the predicted negative result" \
  bash -c '[ $1 -eq 0 ] && grep -q "^Decided by campaign $3 on FIXTURE GPU.*(Section @sec:gpu-c1-profile-gate).*busy 72.75 %.*\*\*NO-GO\*\*.*predicted negative result" <<<"$2"' _ $rc "$(dec m)" "$ID"
tap_ok "  ... and its section says the same without the fixture's mark" \
  bash -c 'grep -q "busy 72.75 %.*NO-GO" <<<"$1" && ! grep -q "decides nothing" <<<"$1"' _ "$(sec m)"
case_ go "$(xu 85)"
tap_ok "exactly 85 %: GO (the bar is inclusive), stage 7g to be built" \
  bash -c 'grep -q "busy 85 % .*\*\*GO\*\*.*to be built" <<<"$1"' _ "$(dec go)"
case_ below "$(xu 84.99)"
tap_ok "84.99 %: NO-GO, the figure printed as recorded (not rounded up to the bar)" \
  bash -c 'grep -q "busy 84.99 % .*\*\*NO-GO\*\*" <<<"$1"' _ "$(dec below)"

# Open, each with its reason.
open_case() { # NAME EXPECTED_REASON_REGEX PROFILE_GATE_FILTER [CAMPAIGN_FILTER]
  local name=$1 want=$2; shift 2
  case_ "$name" "$@"
  tap_ok "open ($name): the campaign's section and the paper's sentence name why" \
    bash -c '[ $1 -eq 0 ] && grep -qE "\*\*OPEN\*\*: $2" "$3/out/gpu.md" && grep -q "^\*\*Open.\*\* The committed campaign has not profiled" "$3/out/gpu-stage7g.md"' \
    _ $rc "$want" "$tmp/$name"
}
open_case unavailable "the XU metric is not available: FIXTURE not offered" \
  ".metrics |= map(if .name == \"$XU\" then .available = false | .reason = \"FIXTURE not offered\" else . end)"
open_case failed "stage7f was not profiled: failed: FIXTURE no launch" \
  '.variants |= map(if .variant == "stage7f" then .status = "failed" | .reason = "FIXTURE no launch" else . end)'
open_case missing "stage7f was not profiled at the gate shape \(not supported on this device" \
  '.variants |= map(select(.variant != "stage7f"))'
open_case skipped "profile-gate.json is skipped: FIXTURE no ncu" '.status = "skipped" | .reason = "FIXTURE no ncu"'
open_case null "ncu recorded no value of the XU metric for stage7f \(n/a\)" "$(xu null)"
open_case quick "a quick campaign: its profile is at the 2,32,8192,64 shape, smoke" . '.quick = true'
case_ absent absent
tap_ok "no profile-gate.json (a campaign before the step): no gate section, the decision open" \
  bash -c '[ $1 -eq 0 ] && [ -z "$2" ] && grep -q "^\*\*Open.\*\* The committed campaign" <<<"$3"' _ $rc "$(sec absent)" "$(dec absent)"

# Two campaigns: the earliest id decides wherever its directory sorts; a disagreement is said.
case_ two "$(xu 72.75)"
L=20260105T000000Z-later-1
mkdir -p "$tmp/two/gpu/a-later-device" && cp -r "$tmp/two/gpu/$SLUG/$ID" "$tmp/two/gpu/a-later-device/$L"
edit "$tmp/two/gpu/a-later-device/$L/campaign.json" ".campaign_id = \"$L\" | .device = \"A LATER DEVICE\""
edit "$tmp/two/gpu/a-later-device/$L/profile-gate.json" "$(xu 91.5)"
render two
tap_ok "two campaigns: the earliest id decides (NO-GO) though its directory sorts second" \
  bash -c '[ $1 -eq 0 ] && grep -q "^Decided by campaign $3 on FIXTURE GPU.*NO-GO" <<<"$2"' _ $rc "$(dec two)" "$ID"
tap_ok "  ... the later one listed with its device and figure, and the disagreement said, not averaged" \
  bash -c 'grep -q "Later campaigns: $2 on A LATER DEVICE, 91.5 %, GO. They disagree with the deciding campaign: reported, not averaged." <<<"$1"' _ "$(dec two)" "$L"
if [ -n "${2:-}" ]; then
  render two "$(realpath "$2")"
  tap_ok "  ... the same under ASan+UBSan: exit 0, no report" \
    bash -c '[ $1 -eq 0 ] && ! grep -qE "ERROR: (Address|Leak)Sanitizer|runtime error" "$2"' _ $rc "$tmp/two.log"
fi

# The rule's threshold: the code's is the one the methods state.
code=$(sed -nE 's/^#define STAGE7G_GO_PCT ([0-9.]+).*/\1/p' host/report/gpu_stage7g.h)
tap_ok "STAGE7G_GO_PCT ($code) is the methods' bar (\"At least 85 %: go\", row 7g's \"85 % busy\")" \
  bash -c '[ "$1" = 85.0 ] && grep -q "\*\*The rule.\*\* At least 85 %: go" paper/methods.md && grep -q "MUFU pipe \$\\\\ge 85\\\\,\\\\%\$ busy" paper/methods.md' _ "$code"
tap_done
