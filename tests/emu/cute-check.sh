#!/usr/bin/env bash
# The wgmma layouts of kernels/wgmma_layout.h against NVIDIA CuTe (tests/emu/cute/cute_layouts.cpp),
# compiled with the host C++ compiler against the CuTe headers that PyPI's nvidia-cutlass wheel ships
# (`make deps` installs it for the test role) and the CUDA toolkit's headers (cccl); no GPU. SKIP
# with the reason when the wheel or a compiler is missing; CUTLASS_INCLUDE overrides where the
# headers are. Usage: tests/emu/cute-check.sh CXX CUDA_INCLUDE
cd "$(dirname "$0")/../.." || exit 1
. tests/tap.sh
cxx=${1:-g++} cuda_inc=${2:-/usr/local/cuda/include}
name="CuTe cross-check of the wgmma fragments, swizzle atoms and descriptors"
inc=${CUTLASS_INCLUDE:-$(python3 -c 'import cutlass_library, os; print(os.path.join(os.path.dirname(cutlass_library.__file__), "source", "include"))' 2>/dev/null)}
if [ -z "$inc" ] || [ ! -f "$inc/cute/tensor.hpp" ]; then
  tap_skip "$name" "nvidia-cutlass (CuTe headers) not installed: make deps, or python3 -m pip install --user nvidia-cutlass"
  tap_done
fi
command -v "$cxx" >/dev/null 2>&1 || { tap_skip "$name" "no host C++ compiler ($cxx)"; tap_done; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
tap_diag "CuTe headers: $inc"
cccl=; [ -d "$cuda_inc/cccl" ] && cccl="-I$cuda_inc/cccl"
if ! "$cxx" -std=c++17 -O1 -I"$inc" $cccl -I"$cuda_inc" -Ikernels tests/emu/cute/cute_layouts.cpp -o "$tmp/cute" \
  >"$tmp/log" 2>&1; then
  tap_ok "$name: compiles" false
  sed 's/^/# /' "$tmp/log" | head -40
  tap_done
fi
"$tmp/cute" >"$tmp/out" 2>&1 || true
n=0
while IFS= read -r line; do
  case $line in
    "ok "*) tap_ok "${line#ok * - }" true; n=$((n + 1)) ;;
    "not ok "*) tap_ok "${line#not ok * - }" false; n=$((n + 1)) ;;
  esac
done <"$tmp/out"
[ "$n" -eq 19 ] || { tap_ok "$name: 19 checks ran ($n)" false; sed 's/^/# /' "$tmp/out"; }
tap_done
