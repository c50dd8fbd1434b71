#!/usr/bin/env bash
# make refuses kernel switches it does not know, and values other than 0 and 1 (mk/switches.mk),
# naming the switch; known switches are accepted and reach the generated header.
. "$(dirname "$0")/../tap.sh"
out=$(make -n build USE_XOR_SWIZZLE=1 2>&1); rc=$?
tap_ok "unknown switch USE_XOR_SWIZZLE=1 stops make" test $rc -ne 0
tap_ok "  ... with a message naming it" grep -q "unknown kernel switch(es): USE_XOR_SWIZZLE" <<<"$out"
out=$(make -n build USE_CP_ASYNC=2 2>&1); rc=$?
tap_ok "USE_CP_ASYNC=2 stops make, naming the switch" test $rc -ne 0 -a -n "$(grep 'USE_CP_ASYNC=2: must be 0 or 1' <<<"$out")"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
make -s BUILD="$tmp/b" "$tmp/b/gen/sdpa_custom.h" USE_WMMA_PV=1 >/dev/null 2>&1
tap_ok "known switches reach the generated header (unset ones are 0)" \
  grep -qx '#define USE_WMMA_PV 1' "$tmp/b/gen/sdpa_custom.h"
tap_ok "  ... and define the custom variant" grep -qx '#define SDPA_CUSTOM_VARIANT 1' "$tmp/b/gen/sdpa_custom.h"
tap_ok "  ... unset USE_CP_ASYNC is 0" grep -qx '#define USE_CP_ASYNC 0' "$tmp/b/gen/sdpa_custom.h"
make -s BUILD="$tmp/b" "$tmp/b/gen/sdpa_custom.h" >/dev/null 2>&1
tap_fail "without switches there is no custom variant" grep -q SDPA_CUSTOM_VARIANT "$tmp/b/gen/sdpa_custom.h"
tap_done
