#!/usr/bin/env bash
# Stage 7g's exponential (kernels/exp2_poly.h) compiled for sm_90a keeps off the XU pipe that it is
# meant to spare (paper/methods.md#prereg-stage7g-poly): no MUFU, no conversion (F2I, I2F) and no FRND,
# the cubic as 3 FFMA and the rint as FADDs; nvcc compiles it without a warning. Mutation: rintf or
# an integer cast in place of the shifter brings FRND or F2I back and fails it.
# SASS needs cuobjdump + nvdisasm (tools/sass-mix.sh finds them): SKIP without.
# Usage: exp2-poly-sass.sh NVCC
. "$(dirname "$0")/../tap.sh"
. tools/sass-mix.sh
nvcc=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$nvcc" -std=c++17 -arch=sm_90a -Ikernels -Werror all-warnings -cubin -o "$tmp/e.cubin" tests/kernels/exp2_poly_sass.cu >"$tmp/nvcc.log" 2>&1
rc=$?
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/nvcc.log"
tap_ok "kernels/exp2_poly.h compiles for sm_90a without a warning" test $rc -eq 0
if ! sass_find_tool; then
  tap_skip "its SASS: no MUFU, FRND, F2I or I2F; 3 FFMA" "no cuobjdump/nvdisasm"
  tap_done; exit 0
fi
lst=$(sass_listing "$tmp/e.cubin" exp2_poly_kernel sm_90a)
count() { grep -cE "^$1([ .]|$)" <<<"$lst"; }
tap_diag "$(awk '{print $1}' <<<"$lst" | sort | uniq -c | sort -rn | awk '{printf "%s %s; ", $1, $2}')"
tap_ok "its SASS listing has the kernel ($(grep -c . <<<"$lst") instructions)" test -n "$lst"
tap_ok "its SASS has no MUFU, no conversion (F2I, I2F) and no FRND" \
  test "$(count MUFU)$(count FRND)$(count F2I)$(count I2F)" = 0000
tap_ok "  ... the cubic as 3 FFMA and the rint, the split and the range check as FADDs (3) and an FSETP" \
  test "$(count FFMA) $(count FADD)" = "3 3" -a "$(count FSETP)" -ge 1
tap_done
