#!/usr/bin/env bash
# Stage 7's check of where its dynamic shared memory starts (prims::smem_check_aligned,
# kernels/README.md "Stage 7a"), on the emulator with SIMT_DYN_SMEM_OFFSET moving that start as a
# runtime may (CUDA promises 16 bytes):
# - below a kernel's alignment (alignof of its Smem: 128 for 7a's TMA destinations at D = 128, 512
#   for 7b-7d's 64-byte swizzled Q at D = 64, 1024 for every other swizzled kernel) each launch stops
#   at the check, which names the address and the boundary; at or above it the kernel runs and passes;
# - a start moved by 1024 bytes gives the same bits as 0 (the swizzles follow absolute addresses);
# - stage 6 at D = 128 (dynamic, unchecked: its Smem's alignas is 128) runs at 128, where 7b+ stop;
# - a value the emulator cannot model is refused (exit 2), naming the variable.
# Usage: smem-base.sh SDPA_BENCH
. "$(dirname "$0")/../tap.sh"
bench=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/smem-base.XXXXXX"); trap 'rm -rf "$tmp"' EXIT

# run NAME OFFSET VARIANT SHAPE [more sdpa-bench flags]: one check-only run; its status in $tmp/NAME.rc
run() {
  local name=$1 off=$2 v=$3 shape=$4; shift 4
  SIMT_DYN_SMEM_OFFSET=$off "$bench" --backend emu --check-only --quiet --variant "$v" --shape "$shape" \
    --seeds 1 --out "$tmp/$name.json" "$@" >"$tmp/$name.log" 2>&1
  echo $? >"$tmp/$name.rc"
}
# stops NAME ALIGN OFFSET: the run failed, and only at the check: its fault names the offset as the
# start and ALIGN as the boundary, at the kernel line that calls the check
stops() {
  local log=$tmp/$1.log want
  want=$(printf 'starts at shared-window address 0x%x, not on the %s-byte boundary' "$3" "$2")
  [ "$(cat "$tmp/$1.rc")" != 0 ] && grep -qF "$want" "$log" && grep -q 'mainloops.cuh:[0-9]' "$log" &&
    ! grep -v 'smem_check_aligned' "$log" | grep -q 'fault\|W7\|(T1'
}
passes() { [ "$(cat "$tmp/$1.rc")" = 0 ] && jq -e '[.correctness[].pass] | all and length > 0' "$tmp/$1.json" >/dev/null; }

# variant  shape  alignment of its dynamic shared memory
CASES="stage7a ragged-d128 128
stage7b ragged 512
stage7b ragged-d128 1024
stage7d ragged 512
stage7e ragged 1024
stage7k ragged-d128-causal 1024"
while read -r v shape align; do
  for off in 16 $((align / 2)); do
    run "$v-$shape-$off" "$off" "$v" "$shape"
    tap_ok "$v at $shape, dynamic shared memory at 0x$(printf %x "$off"): stops at the check (needs $align)" \
      stops "$v-$shape-$off" "$align" "$off"
  done
  run "$v-$shape-ok" "$align" "$v" "$shape"
  tap_ok "$v at $shape, dynamic shared memory at 0x$(printf %x "$align"): runs and passes" passes "$v-$shape-ok"
done <<<"$CASES"
sed -n '1,3s/^/# /p' "$tmp/stage7e-ragged-512.log"

# The same bits wherever an aligned start lies: 0 and 1024, the last and the first swizzled stage.
for v in stage7b stage7k; do
  run "$v-at0" 0 "$v" ragged-d128 --dump "$tmp/$v-at0"
  run "$v-at1024" 1024 "$v" ragged-d128 --dump "$tmp/$v-at1024"
  tap_ok "$v at ragged-d128: its output at window address 0 and 0x400 is the same bytes" \
    cmp -s "$tmp/$v-at0/o.npy" "$tmp/$v-at1024/o.npy"
done

run s6 128 stage6 ragged-d128
tap_ok "stage6 at ragged-d128 (dynamic shared memory, no check: its 128 bytes suffice) runs at 0x80 and passes" passes s6

for bad in 8 4096 12x -16 0x10; do
  SIMT_DYN_SMEM_OFFSET=$bad "$bench" --backend emu --check-only --quiet --variant stage7e --shape ragged \
    --seeds 1 --out "$tmp/bad.json" >"$tmp/bad.log" 2>&1
  rc=$?
  tap_ok "SIMT_DYN_SMEM_OFFSET=$bad is refused, naming the variable (exit $rc)" \
    bash -c '[ "$1" -eq 2 ] && grep -qF -- "SIMT_DYN_SMEM_OFFSET=$2: expected a decimal multiple of 16 below 4096" "$3"' \
    _ "$rc" "$bad" "$tmp/bad.log"
done
tap_done
