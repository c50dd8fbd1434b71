#!/usr/bin/env bash
# The instructions each stage exists for, in the nvcc build's SASS (every architecture), and the
# original's Stage-4 control-arm bug planted in the PTX:
#   REG_MMA (3b): 32 HMMA.16816.F32 (16 Q.K^T + 16 P.V), ldmatrix (LDSM) with and without .trans
#                 (LDSM.16.MT88 / .M88), no WMMA-era shared-memory score traffic is checked in PTX
#                 by static-gates.sh;
#   CP_ASYNC: LDGSTS and one DEPBAR.LE SB0 per wait depth 0 .. ring-1 (KV_RING3: 0x2, 0x1, 0x0);
#   WARP_SPEC (5): BAR.ARV and BAR.SYNC with immediate ids 1-4 (FULL, EMPTY per buffer) and the
#   block's threads (0x80; 0xc0 with 64 rows), none with an id register; WG_PINGPONG (7j): FULL 1-2
#   and 5-6 and TURN 7-8 with 256 threads, EMPTY 3-4 with the block's, selected by predicate;
#   FP8_MMA (6):  on sm_89 16 QMMA.16832.F32.E4M3.E4M3 (8 Q.K^T + 8 P.V) and no HMMA; on sm_90 the
#                 same PTX becomes F2FP.F16.E4M3.UNPACK conversions and 32 HMMA.16816.F32, two
#                 per m16n8k32 (nvcc 13.0; Hopper's FP8 rate needs wgmma); before sm_89 an empty
#                 body (no LDGSTS, no MMA).
#   TMA_KV (7a):  on sm_90 the K/V copies are UTMALDG.3D (TMA) completing on SYNCS barriers
#                 (SYNCS.ARRIVE.TRANS64 with the bytes, SYNCS.PHASECHK.TRANS64 waits), no LDGSTS and
#                 no DEPBAR of cp.async groups; before sm_90 a trapping body (BPT.TRAP, no UTMALDG,
#                 no MMA).
#   WGMMA_QK (7b): built for sm_90a alone (its own object, OBJECT's name + _sm90a): Q.K^T is 2
#                 QGMMA.64x32x32.F32.E4M3.E4M3 (FP8 at the tensor core's rate), fenced and waited
#                 for (WARPGROUP.ARRIVE, WARPGROUP.DEPBAR.LE); P.V still 16 HMMA.16816 on unpacked
#                 codes (stage 7c's step), no LDSM of Q or K (4 LDSM: V^T's).
#   WGMMA_PV (7c): P.V is 1 QGMMA.64x64x32 (A from registers); no HMMA, QMMA or LDSM; the only FP8
#                 unpacks left are the row sums' (at most 8).
#   WG_SPEC (7d): the register split: USETMAXREG.DEALLOC (the producers) and USETMAXREG.TRY_ALLOC
#                 (the consumers) on the block's pool (.CTAPOOL); the products as 7c's.
#   KEYS128 (7e): Q.K^T is 2 QGMMA.64x128x32, P.V 4 QGMMA.64x64x32 chained per tile; no HMMA, QMMA or
#                 LDSM; the row sums' unpacks, at most 32 (8 per 32 keys).
#   WG_OVERLAP (7f): 7e's, with 4 QGMMA.64x64x32 more (the last tile's P.V after the loop), and a
#                 WARPGROUP.DEPBAR.LE gsb0, 0x1: S(t) waited for while P(t-1).V(t-1) runs.
#   WGMMA_QK and after: one BPT.TRAP within the first 16 instructions (the dynamic shared memory's
#                 alignment test, prims::smem_check_aligned).
#   KEYS128 without VT_LDSM: V^T by single-byte stores (STS.U8). VT_LDSM (7k): no STS.U8; V^T by 4
#                 LDSM.16.MT88.4 and 4 STSM.16.M88.4 (D = 64: 4 blocks of 16 keys x 32 columns per
#                 producer warp), no other LDSM or STSM; the trip of a producer warp that does not
#                 issue the TMA copies (tools/issue-slots.awk, producer=1) at most half its parent's.
#   TMA_KV: the empty barriers' arrivals (SYNCS.ARRIVE.TRANS64.A1T0: one arrival, no bytes) from every
#                 lane, none predicated; WARP_RELEASE (7l): from lane 0 alone, every one predicated,
#                 and the non-issuing producer warp's trip at most 4 instructions over its parent's.
# Plant: every ring wait made wait_prior(0) (the original's 2-stage arm, 0e7e52b, waited with
# NUM_STAGES-2 = 0): correct, so the correctness matrix cannot see it, but serialising; the PTX of
# stage4 must then lack cp.async.wait_group 2 and 1, which the static gates require.
# SASS needs cuobjdump + nvdisasm (tools/sass-mix.sh finds them): SKIP without. The plant needs nvcc.
# Usage: sass-gates.sh NVCC OBJECT ARCH...
. "$(dirname "$0")/../tap.sh"
. "$(dirname "$0")/registry.sh"
. tools/sass-mix.sh
nvcc=$1 obj=$2; shift 2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export SASS_CACHE=$tmp/sass # each object disassembled once per architecture (tools/sass-mix.sh)
rows=$(registry_rows)
row_sw() { awk -F'|' -v id="$1" '$2 == id {print $4}' <<<"$rows"; } # row_sw ID: that row's switches

# ---- the control-arm plant (PTX) ----
ptx_stage4() { # ptx_stage4 KERNEL_DIR OUT: the custom kernel with stage4's switches, sm_89
  local d="$tmp/inc.$RANDOM" n sw
  sw=$(row_sw stage4)
  mkdir -p "$d"
  { echo '#define SDPA_CUSTOM_VARIANT 1'
    for n in $(registry_switches); do echo "#define USE_$n $(registry_has "$sw" "$n" && echo 1 || echo 0)"; done; } >"$d/sdpa_custom.h"
  "$nvcc" -std=c++17 -O3 -I"$1" -I"$d" -DSDPA_ONLY_CUSTOM -arch=compute_89 -ptx "$1/stages.cu" -o "$2"
}
mkdir -p "$tmp/plant" && cp kernels/*.cu kernels/*.cuh kernels/*.h kernels/*.def "$tmp/plant/"
sed -i 's/prims::cp_async_wait<MAX>();/prims::cp_async_wait<0>();/' "$tmp"/plant/*.cuh
nchg=$(for f in "$tmp"/plant/*.cuh; do diff "kernels/$(basename "$f")" "$f"; done | grep -c '^>')
tap_ok "plant wait-prior-0: the edit hits exactly one line ($nchg)" test "$nchg" -eq 1
if ptx_stage4 kernels "$tmp/good.ptx" && ptx_stage4 "$tmp/plant" "$tmp/bad.ptx"; then
  tap_ok "control: stage4's PTX waits with depths 2, 1, 0" grep -q 'cp.async.wait_group 2;' "$tmp/good.ptx"
  tap_fail "plant wait-prior-0: the wait-depth gate fails (no cp.async.wait_group 2 or 1)" \
    grep -qE 'cp.async.wait_group (1|2);' "$tmp/bad.ptx"
else
  tap_ok "stage4 and its wait-prior-0 plant compile" false
fi

# ---- SASS ----
if ! sass_find_tool; then
  tap_skip "SASS of the stages' instructions" "no cuobjdump/nvdisasm (make deps, or pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm)"
  tap_done
fi
tap_diag "disassembler: $SASS_TOOL"
cnt() { grep -cE "^$1" "$tmp/k.sass"; }
# trip IDENT: the trip of IDENT's non-issuing producer warp (tools/issue-slots.awk, producer=1), in the
# object and architecture of the loop below.
trip() { sass_listing_addr "$o" "sdpa_$1_e4m3" "sm_$arch" | awk -v producer=1 -f tools/issue-slots.awk | awk '{print $4}'; }
# wgmma_products N NQK NPV UNPACKS: both products on wgmma (7c on): Q.K^T by NQK QGMMA.64xNx32, P.V by
# NPV QGMMA.64x64x32 (A from registers), nothing else on a tensor pipe, no LDSM; the FP8 unpacks left
# are the row sums' (l sums P's decoded codes: stage 6's numerics), two per A register, none feeding
# a product: at most UNPACKS.
wgmma_products() {
  local qk="QGMMA\\.64x$1x32\\.F32\\.E4M3\\.E4M3" pv='QGMMA\.64x64x32\.F32\.E4M3\.E4M3'
  tap_ok "sm_$arch $id: Q.K^T by $2 QGMMA.64x$1x32, P.V by $3 QGMMA.64x64x32 ($(cnt "$qk"), $(cnt "$pv"))" \
    test "$(cnt "$qk")" -eq "$2" -a "$(cnt "$pv")" -eq "$3" -a "$(cnt QGMMA)" -eq $(($2 + $3))
  local no='HMMA|QMMA|LDSM'
  registry_has "$sw" VT_LDSM && no='HMMA|QMMA' # [stage 7k] its LDSM are V's, checked below
  tap_ok "sm_$arch $id: no ${no//|/, } ($(cnt "$no"))" test "$(cnt "$no")" -eq 0
  tap_ok "sm_$arch $id: FP8 unpacks only for the row sums (F2FP.F16.E4M3.UNPACK_B: $(cnt 'F2FP\.F16\.E4M3\.UNPACK'), at most $4)" \
    test "$(cnt 'F2FP\.F16\.E4M3\.UNPACK')" -le "$4"
}
while IFS='|' read -r ident id parent sw; do
  registry_has "$sw" CP_ASYNC || registry_has "$sw" REG_MMA || continue
  archs=("$@") o=$obj
  [ "$(registry_exact_sm "$sw")" = 90 ] && archs=(90a) o=${obj%.o}_sm90a.o
  for arch in "${archs[@]}"; do
    an=${arch%a} # the architecture's number (90a: 90)
    sass_listing "$o" "sdpa_${ident}_e4m3" "sm_$arch" >"$tmp/k.sass"
    tap_ok "sm_$arch $id: SASS listed" test -s "$tmp/k.sass"
    if registry_has "$sw" TMA_KV && [ "$an" -lt 90 ]; then
      tap_ok "sm_$arch $id: a trapping body (BPT.TRAP; no UTMALDG, LDGSTS or MMA)" \
        test "$(cnt 'BPT\.TRAP')" -gt 0 -a "$(cnt 'UTMALDG|LDGSTS|[HQ]MMA')" -eq 0
      continue
    fi
    if registry_has "$sw" FP8_MMA && [ "$an" -lt 89 ]; then
      tap_ok "sm_$arch $id: empty body (no LDGSTS, no MMA)" test "$(cnt 'LDGSTS|[HQ]MMA')" -eq 0
      continue
    fi
    if registry_has "$sw" WGMMA_QK; then
      # The test of where dynamic shared memory starts (prims::smem_check_aligned) survives ptxas: its
      # trap, once, within the kernel's first 16 instructions (static-gates.sh checks every instance's PTX).
      tap_ok "sm_$arch $id: one BPT.TRAP, at the start (the shared-memory alignment test: $(cnt 'BPT\.TRAP'))" \
        bash -c 'test "$(grep -cE "^BPT\.TRAP" "$1")" -eq 1 && head -n 16 "$1" | grep -qE "^BPT\.TRAP"' _ "$tmp/k.sass"
    fi
    if registry_has "$sw" WG_OVERLAP; then
      # 7f: 7e's, with the last tile's P.V after the loop (4 more); with MASK_EDGE (7i) the loop has two
      # bodies (the whole tiles' without the key test), each with the tile's products and unpacks.
      nb=1; registry_has "$sw" MASK_EDGE && nb=2
      wgmma_products 128 $((2 * nb)) $((4 * nb + 4)) $((32 * nb))
      tap_ok "sm_$arch $id: WARPGROUP.DEPBAR.LE gsb0, 0x1 (S(t) waited for with P.V in flight: $(cnt 'WARPGROUP\.DEPBAR\.LE gsb0, 0x1'))" \
        test "$(cnt 'WARPGROUP\.DEPBAR\.LE gsb0, 0x1')" -ge 1
    elif registry_has "$sw" KEYS128; then
      wgmma_products 128 2 4 32 # 7e: 128-key tiles, P.V's four k steps chained; the row sums' 8 unpacks per 32 keys
    elif registry_has "$sw" WGMMA_PV; then
      wgmma_products 32 2 1 8 # 7c, 7d: 32-key tiles
    elif registry_has "$sw" WGMMA_QK; then
      tap_ok "sm_$arch $id: Q.K^T by 2 QGMMA.64x32x32.F32.E4M3.E4M3 ($(cnt 'QGMMA\.64x32x32\.F32\.E4M3\.E4M3'))" \
        test "$(cnt 'QGMMA\.64x32x32\.F32\.E4M3\.E4M3')" -eq 2 -a "$(cnt QGMMA)" -eq 2
      tap_ok "sm_$arch $id: the wgmma fence and wait (WARPGROUP.ARRIVE, WARPGROUP.DEPBAR.LE)" \
        test "$(cnt 'WARPGROUP\.ARRIVE')" -gt 0 -a "$(cnt 'WARPGROUP\.DEPBAR\.LE')" -gt 0
      tap_ok "sm_$arch $id: P.V still 16 HMMA.16816.F32 on unpacked codes ($(cnt 'HMMA\.16816\.F32')), 4 LDSM (V^T: $(cnt LDSM))" \
        test "$(cnt 'HMMA\.16816\.F32')" -eq 16 -a "$(cnt LDSM)" -eq 4
    elif registry_has "$sw" FP8_MMA; then
      if [ "$an" -eq 89 ]; then
        tap_ok "sm_$arch $id: 16 QMMA.16832.F32.E4M3.E4M3 ($(cnt 'QMMA\.16832\.F32\.E4M3\.E4M3'))" \
          test "$(cnt 'QMMA\.16832\.F32\.E4M3\.E4M3')" -eq 16
        tap_ok "sm_$arch $id: no HMMA ($(cnt HMMA))" test "$(cnt HMMA)" -eq 0
      else # sm_90: each m16n8k32 e4m3 becomes F2FP.F16.E4M3.UNPACK conversions and 2 HMMA.16816
        tap_ok "sm_$arch $id: 32 HMMA.16816.F32 ($(cnt 'HMMA\.16816\.F32')) on unpacked codes, no QMMA" \
          test "$(cnt 'HMMA\.16816\.F32')" -eq 32 -a "$(cnt QMMA)" -eq 0 -a "$(cnt 'F2FP\.F16\.E4M3\.UNPACK')" -gt 0
      fi
      tap_ok "sm_$arch $id: LDSM (Q, K, V^T), no LDSM .trans" test "$(cnt 'LDSM\.16\.M88\.4')" -gt 0 -a "$(cnt 'LDSM\.16\.MT88')" -eq 0
    elif registry_has "$sw" REG_MMA; then
      tap_ok "sm_$arch $id: 32 HMMA.16816.F32 ($(cnt 'HMMA\.16816\.F32'))" test "$(cnt 'HMMA\.16816\.F32')" -eq 32
      tap_ok "sm_$arch $id: LDSM (Q, K) and LDSM .trans (V)" test "$(cnt 'LDSM\.16\.M88\.4')" -gt 0 -a "$(cnt 'LDSM\.16\.MT88\.4')" -gt 0
    fi
    if registry_has "$sw" VT_LDSM; then
      tap_ok "sm_$arch $id: V^T by 4 LDSM.16.MT88.4 and 4 STSM.16.M88.4, no other LDSM or STSM, no STS.U8 ($(cnt 'LDSM\.16\.MT88\.4'), $(cnt 'STSM\.16\.M88\.4'), $(cnt 'STS\.U8'))" \
        test "$(cnt 'LDSM\.16\.MT88\.4')" -eq 4 -a "$(cnt LDSM)" -eq 4 -a "$(cnt 'STSM\.16\.M88\.4')" -eq 4 -a \
        "$(cnt STSM)" -eq 4 -a "$(cnt 'STS\.U8')" -eq 0
      # The row that brings the switch in (its parent transposes by byte stores); its children keep it.
      if ! registry_has "$(row_sw "$parent")" VT_LDSM; then
        own=$(trip "$ident") par=$(trip "$parent")
        tap_ok "sm_$arch $id: the non-issuing producer warp's trip at most half of $parent's ($own vs $par)" \
          test -n "$own" -a -n "$par" -a "$((2 * ${own:-0}))" -le "${par:-0}"
      fi
    elif registry_has "$sw" KEYS128; then
      tap_ok "sm_$arch $id: V^T by single-byte stores ($(cnt 'STS\.U8') STS.U8), no STSM" \
        test "$(cnt 'STS\.U8')" -gt 0 -a "$(cnt STSM)" -eq 0
    fi
    if registry_has "$sw" WG_SPEC; then
      tap_ok "sm_$arch $id: USETMAXREG.DEALLOC and .TRY_ALLOC on the CTA pool ($(cnt 'USETMAXREG\.DEALLOC\.CTAPOOL'), $(cnt 'USETMAXREG\.TRY_ALLOC\.CTAPOOL'))" \
        test "$(cnt 'USETMAXREG\.DEALLOC\.CTAPOOL')" -ge 1 -a "$(cnt 'USETMAXREG\.TRY_ALLOC\.CTAPOOL')" -ge 1
    else
      tap_ok "sm_$arch $id: no USETMAXREG ($(cnt USETMAXREG))" test "$(cnt USETMAXREG)" -eq 0
    fi
    if registry_has "$sw" TMA_KV; then
      tap_ok "sm_$arch $id: UTMALDG.3D (TMA loads of K and V: $(cnt 'UTMALDG\.3D'))" test "$(cnt 'UTMALDG\.3D')" -gt 0
      tap_ok "sm_$arch $id: SYNCS mbarriers (expect_tx arrive, phase-check wait)" \
        test "$(cnt 'SYNCS\.ARRIVE\.TRANS64')" -gt 0 -a "$(cnt 'SYNCS\.PHASECHK\.TRANS64')" -gt 0
      tap_ok "sm_$arch $id: no LDGSTS, no cp.async group wait ($(cnt 'LDGSTS|DEPBAR\.LE SB0'))" \
        test "$(cnt 'LDGSTS|DEPBAR\.LE SB0')" -eq 0
      # The listing with predicates (k.sass drops them): the empty barriers' arrivals.
      arr=$(sass_listing_addr "$o" "sdpa_${ident}_e4m3" "sm_$arch" | grep -E ' SYNCS\.ARRIVE\.TRANS64\.A1T0 ')
      nall=$(grep -c . <<<"$arr") npred=$(grep -cE '^[0-9a-f]+ +@' <<<"$arr")
      if registry_has "$sw" WARP_RELEASE; then
        tap_ok "sm_$arch $id: every empty-barrier arrival from one lane (SYNCS.ARRIVE.TRANS64.A1T0 predicated: $npred of $nall)" \
          test "$nall" -gt 0 -a "$npred" -eq "$nall"
        own=$(trip "$ident") par=$(trip "$parent")
        tap_ok "sm_$arch $id: the non-issuing producer warp's trip at most 4 over $parent's ($own vs $par)" \
          test -n "$own" -a -n "$par" -a "${own:-0}" -le "$((${par:-0} + 4))"
      else
        tap_ok "sm_$arch $id: the empty-barrier arrivals from every lane (SYNCS.ARRIVE.TRANS64.A1T0 unpredicated: $((nall - npred)) of $nall)" \
          test "$nall" -gt 0 -a "$npred" -eq 0
      fi
    elif registry_has "$sw" CP_ASYNC; then
      depth=2; registry_has "$sw" KV_RING3 && depth=3
      tap_ok "sm_$arch $id: LDGSTS (cp.async)" test "$(cnt LDGSTS)" -gt 0
      for n in $(seq 0 $((depth - 1))); do
        tap_ok "sm_$arch $id: DEPBAR.LE SB0, 0x$n (ring of $depth)" grep -q "^DEPBAR\.LE SB0, 0x$n\b" "$tmp/k.sass"
      done
    fi
    if registry_has "$sw" WARP_SPEC; then
      nthr=$(registry_threads "$sw")
      # FULL (1, 2) and EMPTY (3, 4) count the whole block; [stage 7j] WG_PINGPONG: each consumer
      # warpgroup's FULL (1, 2 and 5, 6) the producers and that warpgroup, the TURN barriers (7, 8) the
      # two consumer warpgroups: 256 threads each (a warpgroup selects its barrier by predicate).
      bars="1:$nthr 2:$nthr 3:$nthr 4:$nthr" pred=
      if registry_has "$sw" WG_PINGPONG; then
        bars="1:256 2:256 3:$nthr 4:$nthr 5:256 6:256 7:256 8:256" pred='(@!?U?P[0-9T] )?'
      fi
      for bn in $bars; do
        b=${bn%:*} n=${bn#*:}
        tap_ok "sm_$arch $id: named barrier $b used with an immediate id, $n threads" \
          grep -qE "^${pred}BAR\.(ARV|SYNC(\.DEFER_BLOCKING)?) 0x$b, $(printf '0x%x' "$n")" "$tmp/k.sass"
      done
      tap_fail "sm_$arch $id: no BAR.ARV/BAR.SYNC with an id register" \
        grep -qE '^(@!?U?P[0-9T] )?BAR\.(ARV|SYNC(\.DEFER_BLOCKING)?) R[0-9]+' "$tmp/k.sass"
    fi
  done
done <<<"$rows"
tap_done
