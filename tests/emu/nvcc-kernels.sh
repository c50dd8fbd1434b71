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
archs="sm_${*:-80 89 90}"
archs=${archs// /,sm_}
for f in tests/emu/kernels/*.cu; do
  name="nvcc $archs: $f"
  b=$(basename "$f" .cu)
  if [ "$dir" = none ]; then
    tap_skip "$name" "nvcc not found"
    continue
  fi
  compiled() { [ "$(cat "$dir/$b.rc" 2>/dev/null)" = 0 ]; }
  tap_ok "$name" compiled
  compiled || sed 's/^/# /' "$dir/$b.log" 2>/dev/null
done
tap_done
