#!/usr/bin/env bash
# The emulator's test kernels (tests/emu/kernels/*.cu, the planted bugs included) are ordinary
# CUDA: each must also compile with nvcc, warnings as errors, for every architecture of the
# artifact. mk/emu.mk compiles them (cached build products: DIR/<name>.rc holds nvcc's exit
# status, DIR/<name>.log its output); this suite reports them in TAP, one line per file, and
# "# SKIP" for each when nvcc is absent.
# ARCH may name an architecture-specific target (90a).
# Usage: tests/emu/nvcc-kernels.sh DIR|none ARCH...
cd "$(dirname "$0")/../.." || exit 1
. tests/tap.sh
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
# The sm_90a gate (prims::has_sm90a): compute_90's PTX of arch_gate traps and stores nothing, compute_90a's
# stores and has no trap.
if [ "$dir" = none ]; then
  tap_skip "nvcc: an sm_90a-only body traps in compute_90 code and runs in compute_90a code" "nvcc not found"
else
  gated() {
    [ "$(cat "$dir/arch_gate-ptx.rc" 2>/dev/null)" = 0 ] &&
      grep -q 'trap;' "$dir/arch_gate-ptx-sm90.ptx" && ! grep -q 'st\.global' "$dir/arch_gate-ptx-sm90.ptx" &&
      grep -q '^\.target sm_90a' "$dir/arch_gate-ptx-sm90a.ptx" && grep -q 'st\.global' "$dir/arch_gate-ptx-sm90a.ptx" &&
      ! grep -q 'trap;' "$dir/arch_gate-ptx-sm90a.ptx"
  }
  tap_ok "nvcc: an sm_90a-only body traps in compute_90 code and runs in compute_90a code" gated
fi
# FP8 mma.sync for sm_80 must be a compile error with prims.cuh's message.
if [ "$dir" = none ]; then
  tap_skip "nvcc sm_80: FP8 mma.sync is refused at compile time" "nvcc not found"
else
  refused() { [ "$(cat "$dir/mma_fp8-sm80.rc" 2>/dev/null)" != 0 ] && grep -q "needs sm_89 or newer" "$dir/mma_fp8-sm80.log"; }
  tap_ok "nvcc sm_80: FP8 mma.sync is refused at compile time" refused
fi
tap_done
