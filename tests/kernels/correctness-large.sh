#!/usr/bin/env bash
# The correctness matrix's larger problems on the CPU emulator (make test-long; correctness.sh has
# the rest, and the same bars: paper/methods.md):
#   the mission shape (16 CTAs of 16 key tiles) with seeds 0 and 1 under fwd and rev (correctness.sh
#   runs seed 2 under rand): every seed and every schedule, each seed under one of them;
#   one head of the long sequence (S = 2048, 64 key tiles per row): the bars hold per head slice,
#   and the ring wraps 21 times per CTA as with all eight heads (~165 s);
#   the wide rows' mission-sized problems, causal at D = 64 and D = 128, under rand. (No non-causal
#   mission at D = 128: the causal one runs the same unmasked tile code below the diagonal and wraps
#   the ring as often in its last row blocks, at less than half the time; correctness.sh's S = 77
#   and S = 1 check the non-causal instances.)
# Usage: correctness-large.sh SDPA_BENCH CHECK_MATRIX CHECK_RUN_JSON
. "$(dirname "$0")/../tap.sh"
. "$(dirname "$0")/matrix-lib.sh"
. "$(dirname "$0")/registry.sh"
bench=$1 matrix=$2 schema=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
emu_matrix_setup

run mission-fwd "$nvar" "" emu "$bench" --shape mission --seeds 0 --schedule fwd
run mission-rev "$nvar" "" emu "$bench" --shape mission --seeds 1 --schedule rev
run long "$nvar" "" emu "$bench" --shape 1,1,2048,64 --seeds 0 --schedule fwd
run wide-mission $((nwide * 2)) "" emu "$bench" --shape mission-causal --shape mission-d128-causal \
  --seeds 1 --schedule rand --schedule-seed 13
tap_done
