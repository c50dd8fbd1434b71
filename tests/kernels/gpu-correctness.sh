#!/usr/bin/env bash
# The real stage kernels on a GPU, when one is usable (the emulator's matrix is correctness.sh):
#   every variant x shapes {small, mission, ragged, partial, single, label-a (B = 2)} x seeds
#   {0,1,2} x both codecs, with the cross-variant bit-identity rules (sdpa-bench checks them), and
#   the outliers input distribution at small and ragged;
#   then, when compute-sanitizer is installed, memcheck, racecheck, synccheck and initcheck on
#   every variant at the ragged shape. Without a usable GPU every check SKIPs with the reason.
# Usage: gpu-correctness.sh SDPA_BENCH CHECK_MATRIX CHECK_RUN_JSON
. "$(dirname "$0")/../tap.sh"
. "$(dirname "$0")/matrix-lib.sh"
. "$(dirname "$0")/registry.sh"
bench=$1 matrix=$2 schema=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if ! "$bench" --backend cuda --probe >"$tmp/probe" 2>&1; then
  why=$(sed -n 's/^sdpa-bench: --backend cuda: //p' "$tmp/probe" | head -n 1)
  tap_skip "GPU correctness matrix (every variant x 6 shapes x 3 seeds x 2 codecs)" "no usable GPU: ${why:-see sdpa-bench --backend cuda --probe}"
  tap_skip "compute-sanitizer memcheck, racecheck, synccheck, initcheck on every variant" "no usable GPU"
  tap_done
fi
# The variants this device supports (MIN_SM and ARCH of their switches; the others are "not supported",
# never run: stage6 needs sm_89): the device's compute capability from a one-launch run.
"$bench" --backend cuda --check-only --quiet --variant stage0 --shape single --seeds 0 --out "$tmp/dev.json" >/dev/null 2>&1
cc=$("$schema" "$tmp/dev.json" meta.device.cc 2>/dev/null | tr -d .)
case $cc in ''|*[!0-9]*) cc=0 ;; esac
supported=$(registry_rows | while IFS='|' read -r _ id _ sw; do
  x=$(registry_exact_sm "$sw")
  [ "$(registry_min_sm "$sw")" -le "$cc" ] && { [ "$x" = 0 ] || [ "$x" = "$cc" ]; } && echo "$id"
done)
nvar=$(wc -w <<<"$supported")
tap_diag "device sm_$cc: $nvar supported variants ($(echo $supported))"
shapes=(--shape small --shape mission --shape ragged --shape partial --shape single --shape label-a)
run gpu-e4m3 $((nvar * 6 * 3)) "" cuda "$bench" "${shapes[@]}" --seeds 0,1,2 --codec e4m3
# FP8_MMA variants compute on e4m3 codes: with seed-linear they are not supported (never run).
nfp8=$(registry_rows | while IFS='|' read -r _ id _ sw; do
  registry_has "$sw" FP8_MMA && grep -qx "$id" <<<"$supported" && echo; done | wc -l)
run gpu-seed-linear $(((nvar - nfp8) * 6 * 3)) "" cuda "$bench" "${shapes[@]}" --seeds 0,1,2 --codec seed-linear
run gpu-outliers $((nvar * 2)) "" cuda "$bench" --shape small --shape ragged --seeds 0 --dist outliers

sanitizer=$(command -v compute-sanitizer || ls "${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer" 2>/dev/null)
if [ -z "$sanitizer" ]; then
  tap_skip "compute-sanitizer memcheck, racecheck, synccheck, initcheck on every variant" "compute-sanitizer not installed"
  tap_done
fi
for tool in memcheck racecheck synccheck initcheck; do
  for v in $supported; do
    "$sanitizer" --tool "$tool" --error-exitcode 99 "$bench" --backend cuda --check-only --quiet \
      --variant "$v" --shape ragged --seeds 0 >"$tmp/san-$tool-$v.log" 2>&1
    rc=$?
    tap_ok "compute-sanitizer --tool $tool: $v at ragged reports nothing (exit $rc)" test $rc -eq 0
    [ $rc -eq 0 ] || grep -E 'ERROR|Error|error' "$tmp/san-$tool-$v.log" | head -n 5 | sed 's/^/# /'
  done
done
tap_done
