#!/usr/bin/env bash
# Same seed, same bits, across builds: for fixed (variant, shape, seed, codec, distribution) cases,
# the inputs and the emulator's output that `sdpa-bench --dump` writes (.npy) must be byte-identical
# between the plain (-O2), ASan, TSan and -O0 host builds, and equal to the SHA-256 committed in
# tests/kernels/same-bits.sha256, so anyone can check a result file with sha256sum.
# Regenerate the golden file only after a deliberate change to inputs or kernels:
#   SAME_BITS_UPDATE=1 tests/kernels/same-bits.sh build/bin/sdpa-bench ...
# Usage: tests/kernels/same-bits.sh PLAIN ASAN TSAN O0
set -u
. tests/tap.sh
GOLDEN=tests/kernels/same-bits.sha256
TMP=$(mktemp -d "${TMPDIR:-/tmp}/same-bits.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
# name  variant  shape  seed  codec  dist
CASES="stage2-ragged-s7 stage2 ragged 7 e4m3 normal
stage0-small-s3-seedlin stage0 small 3 seed-linear outliers
stage3a-swz-partial-s1 stage3a-swz partial 1 e4m3 uniform
stage6-ragged-s2 stage6 ragged 2 e4m3 outliers"

# hashes BENCH OUT: every case's .npy files, as "sha256  case/file" lines sorted by path
hashes() {
  local bench=$1 out=$2
  while read -r name variant shape seed codec dist; do
    "$bench" --backend emu --variant "$variant" --shape "$shape" --seeds "$seed" --codec "$codec" --dist "$dist" \
      --check-only --quiet --dump "$out/$name" >/dev/null 2>"$out.err" || { sed 's/^/# /' "$out.err"; return 1; }
  done <<<"$CASES"
  (cd "$out" && sha256sum */*.npy | sort -k2)
}

i=0
for bench in "$@"; do
  i=$((i + 1))
  label=$(basename "$bench")
  if ! hashes "$bench" "$TMP/b$i" >"$TMP/b$i.sha256"; then
    tap_fail "$label: dumps written" true
    continue
  fi
  if [ "${SAME_BITS_UPDATE:-0}" = 1 ] && [ $i -eq 1 ]; then cp "$TMP/b$i.sha256" "$GOLDEN"; fi
  n=$(wc -l <"$TMP/b$i.sha256")
  tap_ok "$label: $n .npy files (inputs, scales, output of 4 cases) byte-identical to $GOLDEN" \
    bash -c "diff '$GOLDEN' '$TMP/b$i.sha256' | sed 's/^/# /'; cmp -s '$GOLDEN' '$TMP/b$i.sha256'"
done
tap_done
