#!/usr/bin/env bash
# What sdpa-report dump-diff reads on real kernel bugs (tools/campaign/README.md, step 3, quotes it):
# a plant's failed output (sdpa-bench --dump-failed, the plant's build) against the real build's
# --dump of the same variant and problem. Stage 7k's fp8-vt-ldsm-rows (two rows of each pair of its
# V transpose stored in each other's place) is wrong in columns 8-15 of every 16 and right in 0-7;
# stage 7c's fp8-unpermuted-wgmma (V's keys in the wrong order: every output mixes wrong values)
# shows no pattern along rows or columns.
# Usage: plant-patterns.sh PLANT_DIR SDPA_BENCH SDPA_REPORT
# shellcheck disable=SC2016 # the checks' bash -c scripts expand their own arguments
. "$(dirname "$0")/../tap.sh"
plants=$1 bench=$2 report=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/plant-patterns.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# diff PLANT VARIANT SHAPE: the plant's failed output against the real build's, into $tmp/PLANT.out
diff_plant() {
  "$plants/$1/sdpa-bench" --backend emu --check-only --quiet --variant "$2" --shape "$3" --seeds 0 \
    --dump-failed "$tmp/$1-failed" >/dev/null 2>&1
  "$bench" --backend emu --check-only --quiet --variant "$2" --shape "$3" --seeds 0 --dump "$tmp/$1-emu" >/dev/null 2>&1
  "$report" dump-diff "$tmp/$1-failed/$2-$3-s0" "$tmp/$1-emu" >"$tmp/$1.out" 2>&1
}
line() { grep -E "^  $1 +" "$tmp/$2.out" | sed -E "s/^  $1 +//"; }

diff_plant fp8-vt-ldsm-rows stage7k mission
tap_ok "fp8-vt-ldsm-rows: its failed output came home and compares (stage7k, mission)" \
  grep -q "^large: " "$tmp/fp8-vt-ldsm-rows.out"
l=$(line 'column mod 16:' fp8-vt-ldsm-rows)
tap_diag "column mod 16: $l"
# classes 0-7 clean, then runs over 8-15 each at 50 % or more
tap_ok "  ... column mod 16: 0-7 clean, every class of 8-15 at 50 % or more" \
  bash -c '[[ "$1" =~ ^0-7\ 0\ %,\ 8(-[0-9]+)?\ ([5-9][0-9]|100)\ %(,\ [0-9]+(-[0-9]+)?\ ([5-9][0-9]|100)\ %)*$ ]] &&
    ! [[ "$1" =~ (^|,\ )([0-9]+-)?1[6-9] ]]' _ "$l"
tap_ok "  ... query rows: no pattern (every row reads the same transposed V)" \
  bash -c '[[ "$1" == "every class "*" (no pattern)" ]]' _ "$(line 'query row mod 16:' fp8-vt-ldsm-rows)"

diff_plant fp8-unpermuted-wgmma stage7c ragged
tap_ok "fp8-unpermuted-wgmma: its failed output came home and compares (stage7c, ragged)" \
  grep -q "^large: " "$tmp/fp8-unpermuted-wgmma.out"
tap_ok "  ... no pattern along query rows or columns" \
  bash -c '[[ "$1" == "every class "*" (no pattern)" && "$2" == "every class "*" (no pattern)" ]]' _ \
  "$(line 'query row mod 16:' fp8-unpermuted-wgmma)" "$(line 'column:' fp8-unpermuted-wgmma)"
tap_done
