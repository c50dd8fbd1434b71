#!/usr/bin/env bash
# Static gates on the nvcc build, no GPU needed: ptxas resources (registers within the launch
# bounds' cap: 128 at D = 64, 255 at D = 128, 168 for stage 7d's 384 threads; no spills, no local
# memory, static shared memory <= 48 KiB, a feasible launch) for every kernel and architecture, and
# PTX properties each stage claims.
# Usage: static-gates.sh PTXAS_JSON_TOOL PTXAS_LOG PTX_DIR ARCH...
. "$(dirname "$0")/../tap.sh"
. "$(dirname "$0")/registry.sh"
tool=$1 log=$2 ptx_dir=$3; shift 3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

published=$(dirname "$0")/../../data/published/seed-l4.json
"$tool" --log "$log" --out "$tmp/p.json" --print --published "$published" >"$tmp/table" 2>&1; rc=$?
cat "$tmp/table" | sed 's/^/# /'
tap_ok "ptxas-json parses the log" test $rc -le 1
tap_ok "every kernel passes the ptxas gates (regs <= its bounds' cap, 0 spills, 0 local, smem <= 48 KiB)" test $rc -eq 0
# make ptxas's table (--print) tells a stub from a build and a causal instance from a plain one: a
# stub (an empty body: a variant on an architecture or codec it does not support) says so and
# shows no occupancy; no kernel with a body is called one; stage 7a is a stub below sm_90.
stubs=$(awk '$1 ~ /^stage/ && / stub, not supported/' "$tmp/table")
tap_ok "the table marks stubs: stage7a on sm_80 and sm_89 (needs sm_90)" \
  bash -c '[ "$(awk "\$1 == \"stage7a\" && (\$3 == \"sm_80\" || \$3 == \"sm_89\")" <<<"$1" | wc -l)" = \
    "$(jq "[.kernels[] | select(.variant == \"stage7a\" and (.arch == \"sm_80\" or .arch == \"sm_89\"))] | length" "$2")" ]' \
  _ "$stubs" "$tmp/p.json"
tap_ok "  ... no kernel with a body (more than 8 registers) is called a stub, and no stub shows an occupancy" \
  bash -c '! awk "\$8 > 8 || \$13 != \"0.0%\"" <<<"$1" | grep -q .' _ "$stubs"
tap_ok "  ... and its causal instances are marked, as many as ptxas.json has" \
  test "$(awk '$1 ~ /^stage/ && $5 == "causal"' "$tmp/table" | wc -l)" = "$(jq '[.kernels[] | select(.causal)] | length' "$tmp/p.json")"

# The kernel table's geometry (which the launchers, sdpa-bench and the reports use) agrees with the
# nvcc build: every kernel with a body and static shared memory declares exactly the table's
# shared memory (both come from sizeof(Smem<Cfg>): the emulator's build and nvcc's).
bad=$(jq -r '.kernels[] | select(.registers > 4 and .geometry.dynamic_smem_bytes == 0
  and .static_smem_bytes != .geometry.smem_bytes) | "\(.kernel) \(.arch): ptxas \(.static_smem_bytes), table \(.geometry.smem_bytes)"' "$tmp/p.json")
tap_ok "static shared memory of every kernel = its geometry's in the kernel table${bad:+: $bad}" test -z "$bad"

# The wgmma rows' swizzled tiles lie in dynamic shared memory, whose start the kernels take as
# 1024-byte aligned (SMEM_DYNAMIC_ALIGNED, kernels/prims.cuh). With no static shared memory in
# front of it, it begins where the layout probes' dynamic shared memory began when they showed
# the hardware's 128-byte swizzle on an H100 (data/gpu/*/probes/probes.json: no mismatch); a
# static variable would move it, leaving the alignment to the extern declaration alone.
bad=$(jq -r '.kernels[] | select(.target == "sm_90a" and .registers > 4 and .static_smem_bytes != 0)
  | "\(.kernel) \(.codec): \(.static_smem_bytes) B static"' "$tmp/p.json")
n=$(jq '[.kernels[] | select(.target == "sm_90a" and .registers > 4)] | length' "$tmp/p.json")
tap_ok "the $n sm_90a kernels with a body have no static shared memory (their tiles start the dynamic window)${bad:+: $bad}" \
  test "$n" -gt 0 -a -z "$bad"

# The original's stages (0, 1, 2, 3a: seed-system) keep the original's occupancy class: the CTAs per
# SM that the occupancy model gives each reproduced kernel (e4m3) equal what it gives the original's
# published registers and shared memory (data/published/seed-l4.json) on the same architecture (an
# L4's sm_89). A measurement of a faithful stage on an L4 then runs as many CTAs per SM as the
# original did. Stage 0 has no published ptxas figures.
for v in stage0 stage1 stage2 stage3a; do
  for a in $(jq -r --arg v "$v" '.published[] | select(.variant == $v) | .arch' "$tmp/p.json"); do
    want=$(jq -r --arg v "$v" --arg a "$a" '.published[] | select(.variant == $v and .arch == $a) | .occupancy.blocks_per_sm' "$tmp/p.json")
    got=$(jq -r --arg v "$v" --arg a "$a" '.kernels[] | select(.variant == $v and .arch == $a and .codec == "e4m3") | .occupancy.blocks_per_sm' "$tmp/p.json")
    tap_ok "$v on $a: $got CTAs per SM modelled, as the original's published figures give ($want)" \
      test -n "$want" -a "$got" = "$want"
  done
  jq -e --arg v "$v" '.published[] | select(.variant == $v)' "$tmp/p.json" >/dev/null ||
    tap_skip "$v: the original's occupancy class" "no published ptxas figures for $v"
done

# body PTX KERNEL: the kernel's listing, to its closing brace (tools/ptx-body.awk).
body() { awk -v k="$2" -f tools/ptx-body.awk "$1"; }
# barriers_of KERNEL ARCH: "used N barriers" of the kernel's ptxas record for sm_ARCH.
barriers_of() {
  awk -v k="'$1' for 'sm_$2'" 'index($0, "Compiling entry function " k) {on=1} on && /used [0-9]+ barriers/ {
    sub(/.*used /, ""); sub(/ barriers.*/, ""); print; exit}' "$log"
}
# row_flags: per row of the registry, "IDENT", 0/1 for each switch below, its exact architecture, FTZ_EXP
# (0/1), its parent, the number of bodies of the consumers' tile loop (2 with MASK_EDGE, stage 7i:
# the tiles every row sees whole take a copy of the compute without the key test), WG_PINGPONG (0/1),
# VT_LDSM (0/1) and WARP_RELEASE (0/1).
row_flags() {
  registry_rows | while IFS='|' read -r ident _ parent sw; do
    f() { registry_has "$sw" "$1" && echo 1 || echo 0; }
    echo "$ident $(f CP_ASYNC) $(f WMMA_PV) $(f REG_MMA) $(f KV_RING3) $(f WARP_SPEC) $(f FP8_MMA) $(f TMA_KV) $(f WGMMA_QK) $(f WGMMA_PV) $(f WG_SPEC) $(f KEYS128) $(f WG_OVERLAP) $(registry_exact_sm "$sw") $(f FTZ_EXP) $parent $(($(f MASK_EDGE) + 1)) $(f WG_PINGPONG) $(f VT_LDSM) $(f WARP_RELEASE)"
  done
}
# awk program: exit 0 when the kernel has empty-barrier arrivals (mbarrier.arrive without expect_tx)
# and each comes right after a bar.warp.sync (the lane test's branch and the address between: at most
# 4 instructions), which orders the warp's reads before lane 0's arrival (stage 7l, WARP_RELEASE).
warp_synced='/^[ \t]*(\.loc|\/\/|[{}]|\.reg|\$L|$)/ { next } /bar\.warp\.sync/ { w = n } { n++ }
  /^mbarrier\.arrive\.shared::cta\.b64/ { a++; if (w == "" || n - w > 5) bad++ } END { exit !(a > 0 && !bad) }'
while read -r ident cp pv regmma ring ws fp8 tma wg wgpv wgs k128 ovl exact ftz parent nb pp ldsm rel; do
  # A row with an sm_90a-only switch (registry_exact_sm) is built for sm_90a alone, by its own
  # compile (mk/kernels.mk): its PTX is stages_sm90a.ptx, its ptxas records are for 'sm_90a'.
  archs=("$@")
  [ "$exact" = 90 ] && archs=(90a)
  nk=$(grep -cE "Compiling entry function 'sdpa_${ident}_(e4m3|seedlin)'" "$log")
  tap_ok "$ident: ptxas reports 2 codecs x ${#archs[@]} architectures (${archs[*]})" test "$nk" -eq $((2 * ${#archs[@]}))
  for arch in "${archs[@]}"; do
    ptx="$ptx_dir/stages_sm$arch.ptx"
    body "$ptx" "sdpa_${ident}_e4m3" >"$tmp/k.ptx"
    an=${arch%a} # the architecture's number (90a: 90)
    if [ "$tma" = 1 ] && [ "$an" -lt 90 ]; then
      # Stage 7a before sm_90: no TMA or mbarrier transactions, so the body traps (mainloops.cuh,
      # kTrapsHere); the variant is "not supported" there (MIN_SM 90) and never launched.
      tap_ok "sm_$arch $ident: the body traps (no TMA before sm_90)" grep -qE '^\s*trap;' "$tmp/k.ptx"
      tap_fail "sm_$arch $ident: ... and does nothing else (no mma, copy, load, store or mbarrier)" \
        grep -qE 'mma|cp\.async|ld\.global|st\.global|ldmatrix|mbarrier' "$tmp/k.ptx"
      continue
    fi
    if [ "$fp8" = 1 ] && [ "$an" -lt 89 ]; then
      # Stage 6 before sm_89: no FP8 mma.sync, so an empty body (mainloops.cuh, kRunnable); the
      # variant is "not supported" there and never launched.
      tap_fail "sm_$arch $ident: empty body (no FP8 mma.sync before sm_89)" \
        grep -qE 'mma|cp\.async|ld\.global|st\.global|ldmatrix' "$tmp/k.ptx"
      tap_ok "sm_$arch $ident: ... and the kernel exists (ret)" grep -qE '^\s*ret;' "$tmp/k.ptx"
      continue
    fi
    if [ "$tma" = 1 ]; then
      # Stage 7a: the ring's copies are two TMA boxes per tile (K and V, issued by one thread, in the
      # prologue and in the loop: at least 2 in the code, how many is the compiler's unrolling),
      # completing on mbarriers; no cp.async left.
      nbulk=$(grep -c 'cp\.async\.bulk\.tensor\.3d\.shared::cluster\.global\.tile\.mbarrier::complete_tx::bytes' "$tmp/k.ptx")
      tap_ok "sm_$arch $ident: K and V by cp.async.bulk.tensor.3d ($nbulk in the code)" test "$nbulk" -ge 2 -a $((nbulk % 2)) -eq 0
      tap_ok "sm_$arch $ident: mbarriers: init, expect_tx, arrive, try_wait.parity" \
        test "$(grep -cE 'mbarrier\.(init|arrive\.expect_tx|arrive|try_wait\.parity)\.shared' "$tmp/k.ptx")" -ge 4 -a \
        "$(grep -c 'mbarrier\.arrive\.expect_tx' "$tmp/k.ptx")" -ge 1 -a "$(grep -c 'mbarrier\.try_wait\.parity' "$tmp/k.ptx")" -ge 1
      tap_ok "sm_$arch $ident: the mbarrier init is fenced (fence.mbarrier_init)" grep -q 'fence\.mbarrier_init' "$tmp/k.ptx"
      tap_fail "sm_$arch $ident: no cp.async copies or group waits" grep -qE 'cp\.async\.(ca|cg)|cp\.async\.wait_group' "$tmp/k.ptx"
      # The empty barriers' arrivals: [stage 7l] WARP_RELEASE's each right after a bar.warp.sync.
      if [ "$rel" = 1 ]; then
        tap_ok "sm_$arch $ident: every empty-barrier arrival right after a bar.warp.sync ($(grep -c '^mbarrier\.arrive\.shared::cta\.b64' "$tmp/k.ptx"))" \
          awk "$warp_synced" "$tmp/k.ptx"
      else
        tap_fail "sm_$arch $ident: no empty-barrier arrival after a bar.warp.sync (every thread arrives)" awk "$warp_synced" "$tmp/k.ptx"
      fi
      # Where its shared memory is dynamic, each instance tests first that it starts on its tiles'
      # alignment (prims::smem_check_aligned: 128 for 7a's TMA destinations at D = 128; 512 for 7b-7d's
      # 64-byte swizzled Q at D = 64; 1024 at D = 128 and with 7e's V^T), through an opaque move, and
      # traps otherwise: nvcc deleted the plain test, taking the declaration's __align__ for a fact.
      # Stage 7a at D = 64 has static shared memory: no test, no trap.
      for inst in "" _causal _d128 _d128_causal; do
        body "$ptx" "sdpa_${ident}_e4m3$inst" >"$tmp/i.ptx"
        case "$wg$inst" in
          0_d128*) align=128 ;; 0*) align=0 ;; 1_d128*) align=1024 ;; *) align=$((k128 == 1 ? 1024 : 512)) ;;
        esac
        if [ "$align" = 0 ]; then
          tap_fail "sm_$arch ${ident}_e4m3$inst: static shared memory, no alignment test (no trap)" grep -qE '^\s*trap;' "$tmp/i.ptx"
        else
          tap_ok "sm_$arch ${ident}_e4m3$inst: dynamic shared memory tested for its $align-byte alignment, a trap if not" \
            bash -c 'grep -A3 "mov.b32 \(%r[0-9]*\), \1;" "$1" | grep -qE "and\.b32\s+%r[0-9]+, %r[0-9]+, $2;" &&
                     test "$(grep -cE "^\s*trap;" "$1")" -eq 1' _ "$tmp/i.ptx" $((align - 1))
        fi
      done
    elif [ "$cp" = 1 ]; then
      tap_ok "sm_$arch $ident: 16-byte cp.async copies" grep -qE 'cp\.async\.(ca|cg)\.shared\.global.*, 16' "$tmp/k.ptx"
    else
      tap_fail "sm_$arch $ident: no cp.async" grep -q 'cp\.async' "$tmp/k.ptx"
    fi
    mma=$(grep -c 'wmma\.mma\.sync' "$tmp/k.ptx")
    if [ "$fp8" = 1 ]; then
      # Stage 6: 8 m16n8k32 e4m3 for Q.K^T (4 key tiles x 2 k steps of 32) + 8 for P.V (8 column
      # tiles x 1 key step), no f16 mma, no WMMA; P packed to e4m3 in registers (cvt.satfinite);
      # V^T made by the producers' byte stores (16 per chunk, 128 chunks over the 64 producer
      # threads: 32; over stage 7b's one producer warp: 64), no .trans load; apart from those, only
      # 16-byte stores (Q and K codes).
      n32=$(grep -c 'mma\.sync\.aligned\.m16n8k32\.row\.col\.f32\.e4m3\.e4m3\.f32' "$tmp/k.ptx")
      n16=$(grep -c 'mma\.sync\.aligned\.m16n8k16' "$tmp/k.ptx")
      nwg=$(grep -c 'wgmma\.mma_async\.sync\.aligned\.m64n32k32\.f32\.e4m3\.e4m3' "$tmp/k.ptx")
      if [ "$k128" = 1 ]; then
        # Stage 7e: 128 keys per tile: Q.K^T is 2 wgmma m64n128k32, P.V 4 wgmma m64n64k32 (RS, one A
        # fragment per 32 keys) chained in one accumulator, committed and waited for once per product.
        # Stage 7f (WG_OVERLAP): P.V in the loop and once more for the last tile after it (8 in the
        # code); one fence before both products, one more before the loop's P.V (its A operands are
        # the P codes the loop carried) and one before the last P.V, three commits (S, P.V, the last
        # P.V), wait_group 1 once (S(t) landed with P.V in flight) and 0 three times (tile 0's S, P.V
        # in the loop, the last P.V). With MASK_EDGE (stage 7i) the loop's are there once per body
        # ($nb), the last tile's once.
        nqk=$((2 * nb)) npv=4 nsync=6; [ "$ovl" = 1 ] && npv=$((4 * nb + 4)) nsync=$((6 * nb + 3))
        nwg128=$(grep -c 'wgmma\.mma_async\.sync\.aligned\.m64n128k32\.f32\.e4m3\.e4m3' "$tmp/k.ptx")
        nwg64=$(grep -c 'wgmma\.mma_async\.sync\.aligned\.m64n64k32\.f32\.e4m3\.e4m3' "$tmp/k.ptx")
        tap_ok "sm_$arch $ident: Q.K^T by $nqk wgmma m64n128k32 ($nwg128), P.V by $npv wgmma m64n64k32 ($nwg64), no m64n32 ($nwg), no mma.sync ($n32, $n16), no WMMA ($mma)" \
          test "$nwg128" -eq "$nqk" -a "$nwg64" -eq "$npv" -a "$nwg" -eq 0 -a "$n32" -eq 0 -a "$n16" -eq 0 -a "$mma" -eq 0
        tap_ok "sm_$arch $ident: P.V's A operands from registers ($npv wgmma RS: {4 registers}, descriptor)" \
          test "$(grep -cE 'wgmma\.mma_async\.sync\.aligned\.m64n64k32\.f32\.e4m3\.e4m3 \{[^}]*\}, \{%r[0-9]+, %r[0-9]+, %r[0-9]+, %r[0-9]+\}' "$tmp/k.ptx")" -eq "$npv"
        tap_ok "sm_$arch $ident: wgmma.fence, commit_group and wait_group 0: $nsync" \
          test "$(grep -cE 'wgmma\.(fence|commit_group)\.sync\.aligned|wgmma\.wait_group\.sync\.aligned 0;' "$tmp/k.ptx")" -eq "$nsync"
        nw1=$(grep -c 'wgmma\.wait_group\.sync\.aligned 1;' "$tmp/k.ptx")
        if [ "$ovl" = 1 ]; then
          tap_ok "sm_$arch $ident: wgmma.wait_group 1 once per body of the loop (S(t) landed, P(t-1).V(t-1) in flight: $nw1 of $nb)" test "$nw1" -eq "$nb"
        else
          tap_ok "sm_$arch $ident: no wgmma.wait_group 1 ($nw1)" test "$nw1" -eq 0
        fi
        tap_ok "sm_$arch $ident: Q's and V^T's stores published to the async proxy (2 fence.proxy.async)" \
          test "$(grep -c 'fence\.proxy\.async' "$tmp/k.ptx")" -ge 2
        # (stage 7k's ldmatrix are the producers' V transpose, counted with its stores below)
        [ "$ldsm" = 1 ] || tap_ok "sm_$arch $ident: no ldmatrix ($(grep -c ldmatrix "$tmp/k.ptx"))" test "$(grep -c ldmatrix "$tmp/k.ptx")" -eq 0
      elif [ "$wg" = 1 ] && [ "$wgpv" = 1 ]; then
        # Stage 7c: P.V is 1 wgmma m64n64k32 (RS: P from registers); no mma.sync and no ldmatrix
        # left; two fences to the async proxy (Q by every thread, V^T by the producers).
        nwg64=$(grep -c 'wgmma\.mma_async\.sync\.aligned\.m64n64k32\.f32\.e4m3\.e4m3' "$tmp/k.ptx")
        tap_ok "sm_$arch $ident: Q.K^T by 2 wgmma m64n32k32 ($nwg), P.V by 1 wgmma m64n64k32 from registers ($nwg64), no mma.sync ($n32, $n16), no WMMA ($mma)" \
          test "$nwg" -eq 2 -a "$nwg64" -eq 1 -a "$n32" -eq 0 -a "$n16" -eq 0 -a "$mma" -eq 0
        tap_ok "sm_$arch $ident: P.V's A operand from registers (wgmma RS: {4 registers}, descriptor)" \
          grep -qE 'wgmma\.mma_async\.sync\.aligned\.m64n64k32\.f32\.e4m3\.e4m3 \{[^}]*\}, \{%r[0-9]+, %r[0-9]+, %r[0-9]+, %r[0-9]+\}' "$tmp/k.ptx"
        tap_ok "sm_$arch $ident: wgmma.fence, commit_group and wait_group 0, once per product" \
          test "$(grep -cE 'wgmma\.(fence|commit_group)\.sync\.aligned|wgmma\.wait_group\.sync\.aligned 0;' "$tmp/k.ptx")" -eq 6
        tap_ok "sm_$arch $ident: Q's and V^T's stores published to the async proxy (2 fence.proxy.async)" \
          test "$(grep -c 'fence\.proxy\.async' "$tmp/k.ptx")" -ge 2
        tap_ok "sm_$arch $ident: no ldmatrix ($(grep -c ldmatrix "$tmp/k.ptx"))" test "$(grep -c ldmatrix "$tmp/k.ptx")" -eq 0
      elif [ "$wg" = 1 ]; then
        # Stage 7b: Q.K^T is 2 wgmma m64n32k32 (2 k steps of 32), committed and waited for once per
        # tile; P.V stays 8 mma.sync; Q reaches the async proxy through fence.proxy.async.
        tap_ok "sm_$arch $ident: Q.K^T by 2 wgmma m64n32k32 e4m3 ($nwg), P.V by 8 mma.sync m16n8k32 ($n32), no m16n8k16 ($n16), no WMMA ($mma)" \
          test "$nwg" -eq 2 -a "$n32" -eq 8 -a "$n16" -eq 0 -a "$mma" -eq 0
        tap_ok "sm_$arch $ident: wgmma.fence, commit_group and wait_group 0 around them" \
          test "$(grep -cE 'wgmma\.(fence|commit_group)\.sync\.aligned|wgmma\.wait_group\.sync\.aligned 0;' "$tmp/k.ptx")" -eq 3
        tap_ok "sm_$arch $ident: Q's stores published to the async proxy (fence.proxy.async)" grep -q 'fence\.proxy\.async' "$tmp/k.ptx"
        tap_fail "sm_$arch $ident: no ldmatrix of Q or K (4 ldmatrix: V^T's)" test "$(grep -c ldmatrix "$tmp/k.ptx")" -ne 4
      else
        tap_ok "sm_$arch $ident: 16 mma.sync m16n8k32 e4m3 ($n32), no m16n8k16 ($n16), no WMMA ($mma), no wgmma ($nwg)" \
          test "$n32" -eq 16 -a "$n16" -eq 0 -a "$mma" -eq 0 -a "$nwg" -eq 0
      fi
      # ptxas serialises wgmma (and says so) when it cannot keep the accumulators in registers
      # across the asynchronous region: the instructions then run one after another.
      [ "$wg" = 1 ] && tap_fail "sm_$arch $ident: no wgmma serialisation warning from ptxas" grep -qiE 'wgmma.*serializ' "$log"
      # ptxas injects a warpgroup.arrive (C7519) when a wgmma reads registers written after the
      # kernel's last wgmma.fence (hazard W2): correct, but the source then does not say where its
      # fences are. Every instance of the row (D = 128, causal) is checked.
      [ "$wg" = 1 ] && tap_fail "sm_$arch $ident: no warpgroup.arrive injected by ptxas (C7519): the kernel fences every wgmma's registers" \
        grep -qE "C7519.*'sdpa_${ident}_e4m3(_d128)?(_causal)?'" "$log"
      tap_ok "sm_$arch $ident: P quantised in registers (cvt.rn.satfinite.e4m3x2.f32)" \
        grep -q 'cvt\.rn\.satfinite\.e4m3x2\.f32' "$tmp/k.ptx"
      # [stage 7h] FTZ_EXP: P's weights by ex2.approx.ftz of the product by __expf's own constant
      # (log2(e) rounded to fp32), so that MUFU.EX2 gets the parent's argument (the bit-identity on a
      # GPU rests on it: paper/methods.md#prereg-stage7h); alpha keeps the plain ex2 of __expf, and
      # the kernel has as many exponentials as its parent. Without the switch, none is flushed.
      nftz=$(grep -c 'ex2\.approx\.ftz\.f32' "$tmp/k.ptx")
      if [ "$ftz" = 1 ]; then
        body "$ptx" "sdpa_${parent}_e4m3" >"$tmp/parent.ptx"
        nall=$(grep -cE 'ex2\.approx(\.ftz)?\.f32' "$tmp/k.ptx")
        npar=$(grep -cE 'ex2\.approx(\.ftz)?\.f32' "$tmp/parent.ptx")
        pnb=$(row_flags | awk -v p="$parent" '$1 == p { print $17 }') # the parent's loop bodies
        tap_ok "sm_$arch $ident: P's weights by ex2.approx.ftz ($nftz), alpha's by ex2.approx ($((nall - nftz))), as many per body of the loop as $parent's ($npar in $pnb; $nall in $nb)" \
          test "$nftz" -gt 0 -a "$nall" -gt "$nftz" -a $((nall * pnb)) -eq $((npar * nb))
        tap_ok "sm_$arch $ident: each ex2.approx.ftz takes a mul.f32 by 0f3FB8AA3B (__expf's log2(e))" \
          awk '/^[ \t]*mul\.f32[ \t].*, 0f3FB8AA3B;/ { r = $2; sub(/,$/, "", r); l2e[r] = 1 }
               /^[ \t]*ex2\.approx\.ftz\.f32/ { a = $3; sub(/;$/, "", a); n++; if (!(a in l2e)) bad++ }
               END { exit !(n > 0 && bad == 0) }' "$tmp/k.ptx"
      else
        tap_ok "sm_$arch $ident: no flushed exponential (ex2.approx.ftz: $nftz)" test "$nftz" -eq 0
      fi
      nu8=$(grep -cE '^\s*st\.shared\.u8' "$tmp/k.ptx")
      nst=$(grep -E '^\s*st\.shared' "$tmp/k.ptx" | grep -vcE 'st\.shared\.(v4\.(u32|b32)|u8)')
      if [ "$ldsm" = 1 ]; then
        # Stage 7k: V^T by ldmatrix .trans, byte permutes and stmatrix, 4 blocks of 16 keys x 32 columns
        # per producer warp at D = 64 (loads.cuh, repack_vt_ldsm), and no byte store left.
        nld=$(grep -c 'ldmatrix\.sync\.aligned\.m8n8\.x4\.trans\.shared\.b16' "$tmp/k.ptx")
        nstm=$(grep -c 'stmatrix\.sync\.aligned\.m8n8\.x4\.shared\.b16' "$tmp/k.ptx")
        nprmt=$(grep -c '^\s*prmt\.b32' "$tmp/k.ptx")
        tap_ok "sm_$arch $ident: V^T by 4 ldmatrix.x4.trans ($nld), 4 stmatrix.x4 ($nstm) and byte permutes ($nprmt); no byte store ($nu8), no other scalar shared store ($nst)" \
          test "$nld" -eq 4 -a "$nstm" -eq 4 -a "$nprmt" -ge 16 -a "$nu8" -eq 0 -a "$nst" -eq 0
      else
        tap_fail "sm_$arch $ident: no ldmatrix .trans (V^T is made by the producers)" grep -q 'ldmatrix.*\.trans' "$tmp/k.ptx"
        # 16 per 16-byte V chunk; 4 chunks per key (D = 64) of 32 keys per tile, 128 with KEYS128 (7e)
        wu8=$((16 * 4 * (k128 == 1 ? 128 : 32) / (32 * (wgs == 1 ? 4 : wg == 1 ? 1 : 2)))) # producer warps: 2, 7b's 1, 7d's 4
        tap_ok "sm_$arch $ident: $wu8 byte stores of the V transpose ($nu8), no other scalar shared store ($nst)" \
          test "$nu8" -eq "$wu8" -a "$nst" -eq 0
      fi
      if [ "$wgs" = 1 ]; then
        # Stage 7d: the register split (config.cuh: 168 at entry under (384, 1), producers 40,
        # consumers 232), once each; ptxas honours it (no C7508 "setmaxnreg ignored") and the kernel
        # uses the entry count it was bounded to.
        tap_ok "sm_$arch $ident: setmaxnreg.dec 40 and setmaxnreg.inc 232, once each" \
          test "$(grep -c 'setmaxnreg\.dec\.sync\.aligned\.u32 40;' "$tmp/k.ptx")" -eq 1 -a \
          "$(grep -c 'setmaxnreg\.inc\.sync\.aligned\.u32 232;' "$tmp/k.ptx")" -eq 1
        regs=$(awk -v k="'sdpa_${ident}_e4m3' for 'sm_$arch'" 'index($0, "Compiling entry function " k) {on=1}
          on && /Used [0-9]+ registers/ {sub(/.*Used /, ""); sub(/ registers.*/, ""); print; exit}' "$log")
        tap_ok "sm_$arch $ident: 168 registers at entry, the (384, 1) bounds' allocation ($regs)" test "$regs" = 168
        tap_fail "sm_$arch $ident: no ptxas C7508 (setmaxnreg ignored)" grep -q 'C7508' "$log"
      else
        tap_fail "sm_$arch $ident: no setmaxnreg" grep -q 'setmaxnreg' "$tmp/k.ptx"
      fi
    elif [ "$regmma" = 1 ]; then
      # Stage 3b: 16 m16n8k16 for Q.K^T (4 key tiles x 4 k steps) + 16 for P.V (8 column tiles x
      # 2 key steps), no WMMA, V through ldmatrix .trans; the only shared-memory stores are the
      # 16-byte decode/zero stores of Q, K, V (no score, P or output buffer).
      n16=$(grep -c 'mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32' "$tmp/k.ptx")
      tap_ok "sm_$arch $ident: 32 mma.sync m16n8k16 ($n16) and no WMMA ($mma)" test "$n16" -eq 32 -a "$mma" -eq 0
      tap_ok "sm_$arch $ident: V read with ldmatrix .trans" grep -q 'ldmatrix\.sync\.aligned\.m8n8\.x4\.trans\.shared\.b16' "$tmp/k.ptx"
      nst=$(grep -E '^\s*st\.shared' "$tmp/k.ptx" | grep -vcE 'st\.shared\.v4\.(u32|b32)')
      tap_ok "sm_$arch $ident: no scalar shared stores (scores/P stay in registers: $nst found)" test "$nst" -eq 0
    else
      tap_ok "sm_$arch $ident: $mma WMMA mma (4 for Q.K^T$([ "$pv" = 1 ] && echo ' + 4 for P.V'))" test "$mma" -eq $((4 + 4 * pv))
    fi
    if [ "$cp" = 1 ] && [ "$tma" = 0 ]; then
      # Every wait depth the ring needs (0 .. depth-1) is in the code: a deeper-than-needed wait
      # (the original's Stage-4 control arm: wait_prior(0) on every tile) would drop the others.
      depth=$((2 + ring))
      for n in $(seq 0 $((depth - 1))); do
        tap_ok "sm_$arch $ident: cp.async.wait_group $n (ring of $depth)" grep -qE "cp\.async\.wait_group $n;" "$tmp/k.ptx"
      done
      tap_fail "sm_$arch $ident: no wait deeper than the ring" grep -qE "cp\.async\.wait_group $depth;" "$tmp/k.ptx"
    fi
    nbar=$(barriers_of "sdpa_${ident}_e4m3" "$arch")
    if [ "$ws" = 1 ]; then
      tap_ok "sm_$arch $ident: named barriers: bar.arrive" grep -qE '^\s*(bar|barrier)\.arrive' "$tmp/k.ptx"
      tap_ok "sm_$arch $ident: named barriers: bar.sync with an immediate id and a count" grep -qE '^\s*(bar|barrier)\.sync(\.aligned)?\s+[0-9]+, %r[0-9]+' "$tmp/k.ptx"
      tap_fail "sm_$arch $ident: no named barrier with a register id (ptxas would reserve all 16)" \
        grep -qE '^\s*(bar|barrier)\.(sync|arrive)(\.aligned)?\s+%r' "$tmp/k.ptx"
      if [ "$pp" = 1 ]; then
        # Stage 7j: warpgroup 1's FULL barriers (ids 5, 6) and the two TURN barriers (7, 8), each
        # waited at and arrived at (warp_spec.cuh, full_sync / full_arrive and Turns).
        for id in 5 6 7 8; do
          tap_ok "sm_$arch $ident: named barrier $id: bar.sync and bar.arrive" \
            test "$(grep -cE "^\s*(bar|barrier)\.sync(\.aligned)?\s+$id," "$tmp/k.ptx")" -ge 1 -a \
            "$(grep -cE "^\s*(bar|barrier)\.arrive(\.aligned)?\s+$id," "$tmp/k.ptx")" -ge 1
        done
        tap_ok "sm_$arch $ident: ptxas reserves 9 barriers (0, FULL/EMPTY 1-4, warpgroup 1's FULL 5-6, TURN 7-8): $nbar" test "$nbar" = 9
      else
        tap_fail "sm_$arch $ident: no named barrier above id 4" grep -qE '^\s*(bar|barrier)\.(sync|arrive)(\.aligned)?\s+([5-9]|1[0-5]),' "$tmp/k.ptx"
        tap_ok "sm_$arch $ident: ptxas reserves 5 barriers (0 and FULL/EMPTY ids 1-4): $nbar" test "$nbar" = 5
      fi
    else
      tap_ok "sm_$arch $ident: ptxas reserves 1 barrier (__syncthreads): $nbar" test "$nbar" = 1
    fi
    if [ "$an" -ge 89 ]; then
      tap_ok "sm_$arch $ident: hardware E4M3 decode (cvt.rn.f16x2.e4m3x2)" grep -q 'cvt\.rn\.f16x2\.e4m3x2' "$tmp/k.ptx"
    else
      tap_fail "sm_$arch $ident: no E4M3 cvt instruction before sm_89" grep -q 'e4m3x2' "$tmp/k.ptx"
    fi
    tap_fail "sm_$arch $ident: no local memory in PTX" grep -qE '(ld|st)\.local' "$tmp/k.ptx"
    # Every load, store and WMMA/ldmatrix access names its state space: a generic address (a
    # pointer into Smem that nvcc could not trace to shared memory) costs an address-space check
    # per access (prims::assume_shared).
    ngen=$({ grep -E '^\s*(ld|st)\.(u|b|s|f|v)[0-9]' "$tmp/k.ptx"; grep -E 'wmma\.(load|store)|ldmatrix' "$tmp/k.ptx" | grep -v '\.shared'; } | wc -l)
    tap_ok "sm_$arch $ident: no generic-address loads or stores ($ngen)" test "$ngen" -eq 0
    tap_fail "sm_$arch $ident: no double precision" grep -qE '\.f64' "$tmp/k.ptx"
  done
done < <(row_flags)

# [D = 128] The Hopper line's D = 128 instances (stages.cu, SDPA_TMA_WIDE), e4m3 and causal: built
# by ptxas for the row's architecture, and in the PTX the products at D = 128: stage 6's 32 m16n8k32
# (4 key tiles x 4 k steps, 16 column tiles) where mma.sync remains; a score is four wgmma k steps
# (2 at D = 64); P.V one RS wgmma with N = 128 per 32 keys, except stage 7f's loop, which runs it in
# two parts of N = 64 (tile_products.cuh, wgmma_tile_overlapped: 2 x 4 m64n64k32) and its last tile
# whole (4 m64n128k32). The V transpose's byte stores are twice D = 64's (8 chunks per key), the
# register split is D = 64's.
while read -r ident _ _ _ _ _ _ tma wg wgpv wgs k128 ovl exact _ _ nb _ ldsm _; do
  [ "$tma" = 1 ] || continue
  arch=90; [ "$exact" = 90 ] && arch=90a
  for k in "sdpa_${ident}_e4m3_d128" "sdpa_${ident}_e4m3_d128_causal"; do
    tap_ok "sm_$arch $k: compiled by ptxas" grep -q "Compiling entry function '$k' for 'sm_$arch'" "$log"
  done
  k=sdpa_${ident}_e4m3_d128
  body "$ptx_dir/stages_sm$arch.ptx" "$k" >"$tmp/k.ptx"
  wg_count() { grep -cE "wgmma\.mma_async\.sync\.aligned\.m64n$1k32\.f32\.e4m3\.e4m3 \{[^}]*\}, $2" "$tmp/k.ptx"; }
  got="$(grep -c 'mma\.sync\.aligned\.m16n8k32\.row\.col\.f32\.e4m3\.e4m3\.f32' "$tmp/k.ptx") $(wg_count 32 '') \
$(wg_count 64 '') $(wg_count 128 '') $(wg_count 64 '\{%r') $(wg_count 128 '\{%r')"
  got=$(echo $got)
  # m16n8k32, wgmma m64n32, m64n64, m64n128, of which RS: m64n64, m64n128
  if [ "$wg" = 0 ]; then want="32 0 0 0 0 0" what="32 mma.sync m16n8k32, no wgmma"
  elif [ "$wgpv" = 0 ]; then want="16 4 0 0 0 0" what="Q.K^T by 4 wgmma m64n32k32, P.V by 16 mma.sync m16n8k32"
  elif [ "$k128" = 0 ]; then want="0 4 0 1 0 1" what="Q.K^T by 4 wgmma m64n32k32, P.V by 1 wgmma m64n128k32 RS"
  elif [ "$ovl" = 0 ]; then want="0 0 0 8 0 4" what="Q.K^T by 4 wgmma m64n128k32, P.V by 4 m64n128k32 RS"
  else # the loop's once per body (MASK_EDGE: 2), the last tile's P.V once
    want="0 0 $((8 * nb)) $((4 * nb + 4)) $((8 * nb)) 4"
    what="Q.K^T by 4 wgmma m64n128k32, P.V by 2 x 4 m64n64k32 RS in the loop ($nb bodies), 4 m64n128k32 RS after it"
  fi
  tap_ok "sm_$arch $k: $what (counts: m16n8k32, m64n32, m64n64, m64n128, RS m64n64, RS m64n128: $got)" \
    test "$got" = "$want"
  nu8=$(grep -cE '^\s*st\.shared\.u8' "$tmp/k.ptx")
  if [ "$ldsm" = 1 ]; then # stage 7k: 8 blocks per producer warp at D = 128
    nld=$(grep -c 'ldmatrix\.sync\.aligned\.m8n8\.x4\.trans\.shared\.b16' "$tmp/k.ptx")
    nstm=$(grep -c 'stmatrix\.sync\.aligned\.m8n8\.x4\.shared\.b16' "$tmp/k.ptx")
    tap_ok "sm_$arch $k: V^T by 8 ldmatrix.x4.trans ($nld) and 8 stmatrix.x4 ($nstm), no byte store ($nu8)" \
      test "$nld" -eq 8 -a "$nstm" -eq 8 -a "$nu8" -eq 0
  else
    wu8=$((16 * 8 * (k128 == 1 ? 128 : 32) / (32 * (wgs == 1 ? 4 : wg == 1 ? 1 : 2))))
    tap_ok "sm_$arch $k: $wu8 byte stores of the V transpose ($nu8)" test "$nu8" -eq "$wu8"
  fi
  if [ "$wgs" = 1 ]; then
    tap_ok "sm_$arch $k: setmaxnreg.dec 40 and setmaxnreg.inc 232, once each" \
      test "$(grep -c 'setmaxnreg\.dec\.sync\.aligned\.u32 40;' "$tmp/k.ptx")" -eq 1 -a \
      "$(grep -c 'setmaxnreg\.inc\.sync\.aligned\.u32 232;' "$tmp/k.ptx")" -eq 1
  fi
  if [ "$ovl" = 1 ]; then
    tap_ok "sm_$arch $k: wgmma.wait_group 1 once per body of the loop ($nb: S(t) landed, P.V's first part in flight)" \
      test "$(grep -c 'wgmma\.wait_group\.sync\.aligned 1;' "$tmp/k.ptx")" -eq "$nb"
  fi
  tap_fail "sm_$arch $k: no local memory in PTX" grep -qE '(ld|st)\.local' "$tmp/k.ptx"
done < <(row_flags)

# Stage 7m (CAUSAL_LPT, paper/methods.md#prereg-stage7m): the switch reorders the causal D = 64 CTAs
# alone, so every other instance of 7m is 7l's code: its PTX, the kernel's name aside, is 7l's line for
# line (the .loc lines and the per-listing numbering of labels and strings aside), and the causal D = 64
# one differs. Checked on the instances; the grid's other side is stages.cu's launcher.
# ptx_norm KERNEL: the kernel's body in stages_sm90a.ptx, its name written 7l's, without what numbers
# differently in another place of the listing.
ptx_norm() {
  body "$ptx_dir/stages_sm90a.ptx" "$1" | sed -E 's/sdpa_stage7m_/sdpa_stage7l_/g; /^[ \t]*\.loc[ \t]/d;
    s/\$L__BB[0-9]+_/$L__BB_/g; s/\$L__info_string[0-9]+/$L__info_string/g'
}
for sfx in e4m3 seedlin e4m3_d128 e4m3_d128_causal; do
  ptx_norm "sdpa_stage7l_$sfx" >"$tmp/7l.ptx"
  ptx_norm "sdpa_stage7m_$sfx" >"$tmp/7m.ptx"
  tap_ok "sm_90a stage7m_$sfx: stage 7l's PTX, its name aside ($(wc -l <"$tmp/7m.ptx") lines)" \
    bash -c '[ -s "$1" ] && cmp -s "$1" "$2"' _ "$tmp/7l.ptx" "$tmp/7m.ptx"
done
ptx_norm sdpa_stage7l_e4m3_causal >"$tmp/7l.ptx"
ptx_norm sdpa_stage7m_e4m3_causal >"$tmp/7m.ptx"
tap_ok "sm_90a stage7m_e4m3_causal: not 7l's (the CTAs' coordinates from the grid (H, S / 128, B))" \
  bash -c '[ -s "$2" ] && ! cmp -s "$1" "$2"' _ "$tmp/7l.ptx" "$tmp/7m.ptx"

# A named-barrier id is a template parameter of prims.cuh (an immediate in the PTX); an id out of
# range (0 is __syncthreads, 16 does not exist) is a compile error, not a launch-time fault.
for id in 0 16; do
  printf '#include "prims.cuh"\n__global__ void k() { prims::bar_sync<%s>(64); }\n' "$id" >"$tmp/bar$id.cu"
  nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
  "$nvcc" -std=c++17 -Ikernels -arch=compute_89 -ptx "$tmp/bar$id.cu" -o "$tmp/bar$id.ptx" >"$tmp/bar$id.log" 2>&1
  tap_ok "prims::bar_sync<$id> does not compile (named barrier ids are 1-15)" \
    grep -q 'named barrier ids are 1-15' "$tmp/bar$id.log"
done
tap_done
