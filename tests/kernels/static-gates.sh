#!/usr/bin/env bash
# Static gates on the nvcc build, no GPU needed: ptxas resources (registers <= 128, no spills, no
# local memory, static shared memory <= 48 KiB, a feasible launch) for every kernel and
# architecture, and PTX properties each stage claims.
# Usage: static-gates.sh PTXAS_JSON_TOOL PTXAS_LOG PTX_DIR ARCH...
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/registry.sh"
tool=$1 log=$2 ptx_dir=$3; shift 3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$tool" --log "$log" --out "$tmp/p.json" --print >"$tmp/table" 2>&1; rc=$?
cat "$tmp/table" | sed 's/^/# /'
tap_ok "ptxas-json parses the log" test $rc -le 1
tap_ok "every kernel passes the ptxas gates (regs <= 128, 0 spills, 0 local, smem <= 48 KiB)" test $rc -eq 0

body() { awk -v k="$2" '$0 ~ "\\.entry "k"\\(" {on=1} on {print} on && /^}/ {exit}' "$1"; }
while read -r ident cp pv; do
  nk=$(grep -cE "Compiling entry function 'sdpa_${ident}_(e4m3|seedlin)'" "$log")
  tap_ok "$ident: ptxas reports 2 codecs x $# architectures" test "$nk" -eq $((2 * $#))
  for arch in "$@"; do
    ptx="$ptx_dir/stages_sm$arch.ptx"
    body "$ptx" "sdpa_${ident}_e4m3" >"$tmp/k.ptx"
    if [ "$cp" = 1 ]; then
      tap_ok "sm_$arch $ident: 16-byte cp.async copies" grep -qE 'cp\.async\.(ca|cg)\.shared\.global.*, 16' "$tmp/k.ptx"
    else
      tap_fail "sm_$arch $ident: no cp.async" grep -q 'cp\.async' "$tmp/k.ptx"
    fi
    mma=$(grep -c 'wmma\.mma\.sync' "$tmp/k.ptx")
    tap_ok "sm_$arch $ident: $mma WMMA mma (4 for Q.K^T$([ "$pv" = 1 ] && echo ' + 4 for P.V'))" test "$mma" -eq $((4 + 4 * pv))
    if [ "$arch" -ge 89 ]; then
      tap_ok "sm_$arch $ident: hardware E4M3 decode (cvt.rn.f16x2.e4m3x2)" grep -q 'cvt\.rn\.f16x2\.e4m3x2' "$tmp/k.ptx"
    else
      tap_fail "sm_$arch $ident: no E4M3 cvt instruction before sm_89" grep -q 'e4m3x2' "$tmp/k.ptx"
    fi
    tap_fail "sm_$arch $ident: no local memory in PTX" grep -qE '(ld|st)\.local' "$tmp/k.ptx"
    tap_fail "sm_$arch $ident: no double precision" grep -qE '\.f64' "$tmp/k.ptx"
  done
done < <(registry_rows | while IFS='|' read -r ident _ _ sw; do
  echo "$ident $(registry_has "$sw" CP_ASYNC && echo 1 || echo 0) $(registry_has "$sw" WMMA_PV && echo 1 || echo 0)"
done)
tap_done
