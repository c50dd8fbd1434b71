#!/usr/bin/env bash
# The geometry is a parameter of each variant (kernels/geometry.h, issue 23 section 2): every row of
# kernels/variants.def has 32 query rows per CTA, or 64 with ROWS64 or WGMMA_QK; 4 warps, or the
# computing warps plus 2 producers with WARP_SPEC (1 with WGMMA_QK); 32 keys per tile, 128 with
# KEYS128 (stage 7e); and sdpa-bench prints it (--list-variants) and records it in the
# run JSON (config.geometry) as the kernel table states it, which is what the launchers use.
# Usage: geometry.sh SDPA_BENCH
. "$(dirname "$0")/../tap.sh"
. "$(dirname "$0")/registry.sh"
bench=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/geometry.XXXXXX"); trap 'rm -rf "$tmp"' EXIT
"$bench" --list-variants >"$tmp/list"
"$bench" --backend emu --check-only --quiet --shape single --seeds 0 --out "$tmp/run.json" >"$tmp/run.log" 2>&1
tap_ok "a run on the emulator records config.geometry" jq -e '.config.geometry | length > 0' "$tmp/run.json"
while IFS='|' read -r ident id parent sw; do
  rows=$(registry_tile_m "$sw") keys=$(registry_tile_n "$sw")
  mma=0; registry_has "$sw" REG_MMA && mma=$((rows / 16))
  warps=$(($(registry_threads "$sw") / 32))
  line=$(awk -v id="$id" '$1 == id' "$tmp/list")
  compute=""; [ "$mma" -gt 0 ] && compute=" ($mma compute)"
  tap_ok "$id: --list-variants: D=64: $rows rows x $keys keys, $warps warps$compute" \
    grep -qF "D=64: $rows rows x $keys keys, $warps warps$compute," <<<"$line"
  got=$(jq -r --arg v "$id" '.config.geometry[] | select(.variant == $v and .head_dim == 64)
    | "\(.tile_m) \(.tile_n) \(.warps) \(.mma_warps)"' "$tmp/run.json")
  tap_ok "$id: run JSON geometry $rows $keys $warps $mma ($got)" test "$got" = "$rows $keys $warps $mma"
done < <(registry_rows)
# A grid that ignored the geometry would leave rows 32-63 of every 64-row CTA unwritten: the
# correctness matrix runs the 64-row variants at S = 1 .. 2048 and compares them with their
# 32-row parents bit for bit (correctness.sh); here, one shape where it shows.
"$bench" --backend emu --check-only --quiet --variant stage4 --variant stage4-r64 --shape 1,1,100,64 --seeds 3 \
  --out "$tmp/r64.json" >"$tmp/r64.log" 2>&1
tap_ok "stage4-r64 at S = 100 (two CTAs of 64 rows, the second partial): every check passes" test $? -eq 0
tap_ok "  ... bit-identical to stage4" jq -e '[.cross_variant[] | select(.expected == "identical") | .pass] | all and length > 0' "$tmp/r64.json"
tap_done
