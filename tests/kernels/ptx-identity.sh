#!/usr/bin/env bash
# tools/ptx-identity.sh, the gate of kernel refactors, on one architecture: two copies of the same
# kernels/ are reported identical (exit 0); a copy with one line of one kernel changed (stage 6's
# V transpose in natural key order, the fp8-unpermuted plant) is reported different (exit 1),
# naming that kernel. (Other kernels may be named too: nvcc's register numbering of a kernel can
# change with the rest of the translation unit.)
# Usage: ptx-identity.sh NVCC ARCH
. "$(dirname "$0")/../tap.sh"
nvcc=$1 arch=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptx-identity-test.XXXXXX"); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/a" "$tmp/b" "$tmp/c"
# Each copy keeps stage 6's row alone (tools/variants-only.awk, as the plants' copies) and no D = 128
# or causal instances: the tool compiles stages.cu whole, and four compiles of every kernel were
# ~80 CPU-seconds of make test; what is tested is the tool's verdict, which one kernel shows.
for c in a b c; do
  cp -r kernels "$tmp/$c/"
  awk -v keep=stage6 -f tools/variants-only.awk kernels/variants.def >"$tmp/$c/kernels/variants.def"
  sed -i '1i #define SDPA_NO_WIDE 1' "$tmp/$c/kernels/stages.cu"
done
n=0
for f in "$tmp"/c/kernels/*.cuh; do
  sed -i 's/p = k32_pos(r);/p = r;/' "$f"
  n=$((n + $(diff "kernels/$(basename "$f")" "$f" | grep -c '^>')))
done
tap_ok "the plant changes exactly one line ($n)" test "$n" -eq 1
export PTX_IDENTITY_RETRIES=1
out=$(tools/ptx-identity.sh --nvcc "$nvcc" --arch "$arch" "$tmp/a" "$tmp/b" 2>&1); rc=$?
echo "$out" | sed 's/^/# /'
tap_ok "identical copies: exit 0" test $rc -eq 0
tap_ok "  ... reported identical" grep -q "^sm_$arch: identical: " <<<"$out"
out=$(tools/ptx-identity.sh --nvcc "$nvcc" --arch "$arch" "$tmp/a" "$tmp/c" 2>&1); rc=$?
echo "$out" | sed 's/^/# /'
tap_ok "one changed line: exit 1" test $rc -eq 1
tap_ok "  ... reported different" grep -q "^sm_$arch: DIFFERENT: " <<<"$out"
tap_ok "  ... naming stage 6's kernel" grep -q "^  sdpa_stage6_e4m3: " <<<"$out"
tools/ptx-identity.sh "$tmp/nonexistent" >/dev/null 2>&1
tap_ok "a BASE that is neither a commit nor a directory with kernels/: exit 2" test $? -eq 2
tap_done
