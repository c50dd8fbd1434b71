#!/usr/bin/env bash
# The emulator's test kernels (tests/emu/kernels/*.cu, the planted bugs included) are ordinary
# CUDA: each must also compile with nvcc, warnings as errors, for every architecture of the
# artifact. mk/emu.mk compiles them (cached build products: DIR/<name>.rc holds nvcc's exit
# status, DIR/<name>.log its output); this suite reports them in TAP, one line per file, and
# "# SKIP" for each when nvcc is absent.
# Usage: tests/emu/nvcc-kernels.sh DIR|none ARCH...
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh
dir=${1:-none}
shift
all_archs=${*:-80 89 90}
for f in tests/emu/kernels/*.cu; do
  # "// NVCC-ARCHS: 89 90" restricts a file (mk/emu.mk)
  want=$(sed -n 's|^// NVCC-ARCHS: *||p' "$f")
  archs=""
  for a in $all_archs; do [ -z "$want" ] || [[ " $want " == *" $a "* ]] && archs="$archs,sm_$a"; done
  name="nvcc ${archs#,}: $f"
  b=$(basename "$f" .cu)
  if [ "$dir" = none ]; then
    tap_skip "$name" "nvcc not found"
    continue
  fi
  compiled() { [ "$(cat "$dir/$b.rc" 2>/dev/null)" = 0 ]; }
  tap_ok "$name" compiled
  compiled || sed 's/^/# /' "$dir/$b.log" 2>/dev/null
done
# FP8 mma.sync for sm_80 must be a compile error with prims.cuh's message.
if [ "$dir" = none ]; then
  tap_skip "nvcc sm_80: FP8 mma.sync is refused at compile time" "nvcc not found"
else
  refused() { [ "$(cat "$dir/mma_fp8-sm80.rc" 2>/dev/null)" != 0 ] && grep -q "needs sm_89 or newer" "$dir/mma_fp8-sm80.log"; }
  tap_ok "nvcc sm_80: FP8 mma.sync is refused at compile time" refused
fi
tap_done
