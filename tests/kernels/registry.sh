# The registry as the shell suites see it (sourced): kernels/switches.h and kernels/variants.def
# read as text, so a suite needs no build to know the rows.
#   registry_switches         every switch NAME of the list, one per line (CP_ASYNC ...)
#   registry_rows             "ident|id|parent|NAME NAME ..." per row of variants.def (custom
#                             excluded), the names being the SDPA_SW(...) bits of the row
#   registry_has ROWSW NAME   whether a row's switch names include NAME
#   registry_wide ROWSW       whether a row has D = 128 and causal instances (geometry.h, SDPA_WIDE_OF)
#   registry_min_sm ROWSW     the oldest architecture (major*10+minor) a row's switches need (MIN_SM)
#   registry_exact_sm ROWSW   the one architecture a row runs on when a switch is architecture-specific
#                             (ARCH SM90A: 90), else 0
registry_switches() { sed -nE 's/^ *X\(([A-Z0-9_]+),.*/\1/p' kernels/switches.h; }
registry_rows() {
  sed -nE 's/^SDPA_VARIANT\(([a-z0-9_]+), "([^"]*)", "([^"]*)", (.*)$/\1|\2|\3|\4/p' kernels/variants.def |
    grep -v '^custom|' |
    while IFS='|' read -r ident id parent rest; do
      echo "$ident|$id|$parent|$(grep -oE 'SDPA_SW\([A-Z0-9_]+\)' <<<"$rest" | sed -E 's/SDPA_SW\((.*)\)/\1/' | tr '\n' ' ' | sed 's/ $//')"
    done
}
registry_has() { [[ " $1 " == *" $2 "* ]]; }
# registry_wide ROWSW: whether a row is also built for D = 128 and with a causal mask, as
# kernels/geometry.h's SDPA_WIDE_OF says: the register-resident line (REG_MMA), the Hopper line's
# rows (TMA_KV, stage 7) included.
registry_wide() { registry_has "$1" REG_MMA; }
# registry_threads ROWSW: the block of a row, as kernels/geometry.h defines it (the tests' own
# statement of it): 4 warps, or with WARP_SPEC the computing warps (rows per CTA / 16) + 2 (+ 1
# with WGMMA_QK: one warpgroup of 64 rows, one producer warp; with WG_SPEC two warpgroups of 64 rows
# and a producer warpgroup).
# registry_tile_m ROWSW: query rows per CTA: 32, or 64 with ROWS64 or WGMMA_QK (one warpgroup), 128
# with WG_SPEC (two).
registry_tile_m() {
  if registry_has "$1" WG_SPEC; then echo 128
  elif registry_has "$1" ROWS64 || registry_has "$1" WGMMA_QK; then echo 64
  else echo 32; fi
}
# registry_tile_n ROWSW: keys per KV tile: 32, or 128 with KEYS128 (stage 7e).
registry_tile_n() { if registry_has "$1" KEYS128; then echo 128; else echo 32; fi; }
registry_threads() {
  local rows mma=0 warps=4 producers=2
  rows=$(registry_tile_m "$1")
  registry_has "$1" WGMMA_QK && producers=1
  registry_has "$1" WG_SPEC && producers=4
  registry_has "$1" REG_MMA && mma=$((rows / 16))
  registry_has "$1" WARP_SPEC && warps=$((mma + producers))
  echo $((32 * warps))
}
registry_min_sm() {
  local need=0 sw m
  for sw in $1; do
    m=$(sed -nE "s/^ *X\($sw, *[a-z0-9_]+, *[A-Z]+, *([0-9]+),.*/\1/p" kernels/switches.h)
    [ "${m:-0}" -gt "$need" ] && need=$m
  done
  echo "$need"
}
registry_exact_sm() {
  local sw
  for sw in $1; do
    grep -qE "^ *X\($sw, *[a-z0-9_]+, *[A-Z]+, *[0-9]+, *SM90A," kernels/switches.h && { echo 90; return; }
  done
  echo 0
}
