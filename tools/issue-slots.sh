#!/usr/bin/env bash
# The issue-slot counts of a kernel's softmax loop, read from its SASS: the inputs of the static
# issue-slot model (paper/methods.md#prereg-stage7g-slots), which bounds how busy the XU pipe
# (MUFU.EX2) can be and how many FLOP per SM cycle the loop can sustain, before any GPU run.
#   issue-slots.sh OBJECT PTXAS_JSON ARCH KERNEL...   (one TSV row per kernel, header first)
# The loop is the one closed by a backward branch that holds the most MUFU.EX2 (on a tie the
# innermost, and of loops not nested the one with fewer instructions): the per-tile loop of the
# consumers. A backward branch whose span holds the kernel's unconditional EXIT closes no loop: it
# is an out-of-line block's return (an mbarrier wait's retry, placed after the exit) into the code.
# A trip may take one of two bodies (stage 7i's, paper/methods.md#prereg-stage7i). Per row:
#   instructions      every instruction between its head and its back edge;
#   instructions_min  the fewest any trip through it issues: a forward branch may skip its span, a
#                     branch out of the loop (the out-of-line retry of an mbarrier wait) or back inside
#                     it (a spin) is counted as not taken, so this is a lower bound on the issue slots
#                     of one iteration of one warp;
#   mufu_ex2          the most MUFU.EX2 any trip issues (predicated ones included: an upper bound on
#                     the XU's load; in a loop of one body, all of its MUFU.EX2);
#   conversions       likewise its F2FP, F2F, F2I, I2F and FRND, the conversions whose pipe may be the XU;
#   tiles             key tiles per iteration: mufu_ex2 over the exponentials one warp's lanes take
#                     per tile (tile_m x tile_n / (32 x mma_warps)), the remainder being the rescales;
# with the kernel's geometry from ptxas.json (head_dim, tile_m, tile_n, mma_warps) and the nvcc that
# built it. `make issue-slots` writes paper/derivation/issue-slots.tsv; tests/kernels/issue-slots.sh
# checks the committed file against the build. Needs cuobjdump + nvdisasm (tools/sass-mix.sh).
set -euo pipefail
[ $# -ge 4 ] || { echo "usage: issue-slots.sh OBJECT PTXAS_JSON ARCH KERNEL..." >&2; exit 2; }
obj=$1 pj=$2 arch=$3; shift 3
. "$(dirname "$0")/sass-mix.sh"
[ -f "$obj" ] || { echo "issue-slots.sh: OBJECT '$obj' missing (make build with nvcc)" >&2; exit 2; }
[ -f "$pj" ] || { echo "issue-slots.sh: PTXAS_JSON '$pj' missing (make ptxas-json)" >&2; exit 2; }
sass_find_tool || { echo "issue-slots.sh: no cuobjdump/nvdisasm (make deps)" >&2; exit 2; }
nvcc=$(jq -r '.meta.nvcc // empty' "$pj")
[ -n "$nvcc" ] || { echo "issue-slots.sh: $pj names no nvcc (.meta.nvcc)" >&2; exit 2; }
lst=$(mktemp) || exit 2
trap 'rm -f "$lst"' EXIT
printf 'kernel\tvariant\tnvcc\tarch\thead_dim\ttile_m\ttile_n\tmma_warps\tloop_start\tloop_end\tinstructions\tinstructions_min\tmufu_ex2\tconversions\ttiles\n'
for k in "$@"; do
  geo=$(jq -r --arg k "$k" --arg t "$arch" '.kernels[] | select(.kernel == $k and .target == $t) |
    "\(.variant)\t\(.geometry.head_dim)\t\(.geometry.tile_m)\t\(.geometry.tile_n)\t\(.geometry.mma_warps)"' "$pj")
  [ -n "$geo" ] || { echo "issue-slots.sh: no $arch record of $k in $pj" >&2; exit 1; }
  IFS=$'\t' read -r variant hd tm tn mw <<<"$geo"
  sass_listing_addr "$obj" "$k" "$arch" >"$lst"
  [ -s "$lst" ] || { echo "issue-slots.sh: no $arch SASS of $k in $obj" >&2; exit 1; }
  awk -v per_tile=$((tm * tn / (32 * mw))) -v pre="$k	$variant	$nvcc	$arch	$hd	$tm	$tn	$mw" \
    -f "$(dirname "$0")/issue-slots.awk" "$lst"
done
