#!/usr/bin/env bash
# The wgmma operands the compiler leaves alone while the tensor core may use them: no sm_90a kernel
# writes an accumulator or an RS A register of a wgmma, or reads an accumulator, between its issue
# and the wait that retires it (PTX ISA, wgmma.wait_group), in its PTX or in its SASS
# (tools/wgmma-inflight.sh: tools/wgmma-flow.awk and a parser per dialect). The emulator cannot see
# this: it runs the C++ source, whose variables never share registers.
#   1. the analysis on small listings of either dialect whose answer is known;
#   2. the build's sm_90a kernels: every wgmma kernel scanned, nothing found, PTX and SASS;
#   3. the plant p-codes-in-flight: stage 7f's first build, which formed tile t's P codes while
#      P(t-1).V was in flight and copied them into st.pa after the wait. nvcc then wrote them into
#      the A registers of the P.V still running (at D = 128, where P.V runs in two parts; with no A
#      fence in the wait, at D = 64 too): both scans must find that in stage 7f's D = 128 kernels
#      (compiled alone; with every row, nvcc 13.0 also wrote them in 7h's, not in 7i's, whose
#      registers were allocated otherwise).
# SASS needs cuobjdump (tools/sass-mix.sh finds it): those checks SKIP without.
# Usage: wgmma-inflight.sh [NVCC SM90A_PTX GEN_DIR SM90A_OBJECT] (without them, as without the
# toolkit: part 1 only)
. "$(dirname "$0")/../tap.sh"
nvcc=${1:-} ptx=${2:-} gen=${3:-} obj=${4:-}
. tools/sass-mix.sh
sass=0
sass_find_tool && sass=1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
scan() { awk -f tools/wgmma-flow.awk -f tools/wgmma-ptx.awk "$@"; }
scan_sass() { awk -f tools/wgmma-flow.awk -f tools/wgmma-sass.awk "$@"; }
# found LISTING: the findings (not the per-kernel "scanned" lines), as "WHAT REGISTER".
found() { scan "$1" | awk -F'\t' '$4 != "scanned" { print $4, $5 }'; }

# ---- 1. the scan on known listings ----
# case NAME BODY: a kernel k of these instructions (after a wgmma.fence), one per argument line.
listing() { printf '.visible .entry k(\n)\n{\n'; printf '%s\n' "$@"; printf '}\n'; }
rs='wgmma.mma_async.sync.aligned.m64n16k32.f32.e4m3.e4m3 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, {%r1, %r2, %r3, %r4}, %rd1, p, 1, 1;'
ss='wgmma.mma_async.sync.aligned.m64n16k32.f32.e4m3.e4m3 {%f11, %f12, %f13, %f14, %f15, %f16, %f17, %f18}, %rd2, %rd3, p, 1, 1;'
commit='wgmma.commit_group.sync.aligned;'
expect() { # expect NAME WANT LINES...: the findings of a listing of LINES are exactly WANT
  local name=$1 want=$2; shift 2
  listing "$@" >"$tmp/case.ptx"
  local got; got=$(found "$tmp/case.ptx" | tr '\n' ';')
  tap_ok "scan: $name${got:+ (found: $got)}" test "$got" = "$want"
}
expect "an A register written before the wait" "A-written %r2;" \
  "$rs" "$commit" "mov.u32 %r2, %r9;" "wgmma.wait_group.sync.aligned 0;"
expect "... and after it: nothing" "" \
  "$rs" "$commit" "wgmma.wait_group.sync.aligned 0;" "mov.u32 %r2, %r9;" "add.f32 %f20, %f1, %f2;"
expect "an A register read in flight: allowed (its value is what the wgmma reads)" "" \
  "$rs" "$commit" "add.u32 %r9, %r1, %r2;" "wgmma.wait_group.sync.aligned 0;"
expect "an accumulator read, and one written (a vector destination), in flight" "acc-read %f3;acc-written %f8;" \
  "$rs" "$commit" "add.f32 %f20, %f3, %f30;" "ld.shared.v2.f32 {%f8, %f9}, [%r5];" "wgmma.wait_group.sync.aligned 0;"
expect "before the commit (the open group)" "A-written %r4;" \
  "$rs" "prmt.b32 %r4, %r5, %r6, %r7;" "$commit" "wgmma.wait_group.sync.aligned 0;"
expect "wait_group 1 retires the older group only" "acc-read %f11;" \
  "$rs" "$commit" "$ss" "$commit" "wgmma.wait_group.sync.aligned 1;" \
  "add.f32 %f20, %f1, %f11;" "wgmma.wait_group.sync.aligned 0;"
expect "an empty commit is a group: wait_group 1 after it retires the wgmma" "" \
  "$rs" "$commit" "$commit" "wgmma.wait_group.sync.aligned 1;" "mov.u32 %r1, 0;"
expect "a store's address register is read, not written" "" \
  "$rs" "$commit" "st.shared.u32 [%r1], %r9;" "wgmma.wait_group.sync.aligned 0;"
expect "a guarded wait: the path that skips it leaves the group in flight" "A-written %r3;" \
  "$rs" "$commit" "@%p1 bra \$L__BB0_2;" "wgmma.wait_group.sync.aligned 0;" "\$L__BB0_2:" "mov.u32 %r3, 1;"
expect "a branch around the write: a path without the wait still reaches it" "A-written %r1;" \
  "@%p1 bra \$L__BB0_2;" "$rs" "$commit" "bra.uni \$L__BB0_3;" "\$L__BB0_2:" "wgmma.wait_group.sync.aligned 0;" \
  "\$L__BB0_3:" "mov.u32 %r1, 0;" "wgmma.wait_group.sync.aligned 0;"
expect "a loop: the group issued at its end is in flight at its head" "A-written %r4;" \
  "\$L__BB0_1:" "mov.u32 %r4, %r8;" "$rs" "$commit" "@%p1 bra \$L__BB0_1;" "wgmma.wait_group.sync.aligned 0;"
expect "... and with the wait before the back edge: nothing" "" \
  "\$L__BB0_1:" "mov.u32 %r4, %r8;" "$rs" "$commit" "wgmma.wait_group.sync.aligned 0;" "@%p1 bra \$L__BB0_1;"
expect "code after ret is not reached from the wgmma" "" \
  "@%p1 bra \$L__BB0_2;" "$rs" "$commit" "wgmma.wait_group.sync.aligned 0;" "ret;" "\$L__BB0_2:" "mov.u32 %r1, 0;"
listing "$rs" "$commit" ".loc 9 455 5" "mov.u32 %r2, %r9;" "wgmma.wait_group.sync.aligned 0;" >"$tmp/loc.ptx"
printf '.file 9 "/x/kernels/tile_products.cuh"\n' >>"$tmp/loc.ptx"
tap_ok "scan: a finding names the PTX line and the source line of its .loc" \
  test "$(scan "$tmp/loc.ptx" | awk -F'\t' '$4 != "scanned" { print $2, $3 }')" = "7 kernels/tile_products.cuh:455"
tap_ok "scan: each kernel's wgmma count" \
  test "$(scan "$tmp/loc.ptx" | awk -F'\t' '$4 == "scanned" { print $1, $5 }')" = "k 1"

# The same analysis on SASS: QGMMA.64x16x32 writes R24..R31 (8 accumulators) from A in R120..R123;
# gsb0 closes its group, WARPGROUP.DEPBAR.LE gsb0, N waits.
sass_listing() { printf '\t\tFunction : k\n'; local a=0 l; for l in "$@"; do printf '        /*%04x*/  %s ;\n' $a "$l"; a=$((a + 16)); done; }
q='QGMMA.64x16x32.F32.E4M3.E4M3 R24, R120, gdesc[UR16], RZ, !UPT, gsb0'
expect_sass() { # expect_sass NAME WANT INSTRUCTIONS...
  local name=$1 want=$2; shift 2
  sass_listing "$@" >"$tmp/case.sass"
  local got; got=$(scan_sass "$tmp/case.sass" | awk -F'\t' '$4 != "scanned" { print $4, $5 }' | tr '\n' ';')
  tap_ok "scan, SASS: $name${got:+ (found: $got)}" test "$got" = "$want"
}
expect_sass "an A register written before the wait, nothing after it" "A-written R121;" \
  "$q" "IMAD.MOV.U32 R121, RZ, RZ, RZ" "WARPGROUP.DEPBAR.LE gsb0, 0x0" "MOV R120, R8" "EXIT"
expect_sass "an accumulator read; a 64-bit load writes two of them" "acc-read R30;acc-written R30;acc-written R31;" \
  "$q" "FADD R2, R30, R3" "LDS.64 R30, [R2]" "WARPGROUP.DEPBAR.LE gsb0, 0x0" "EXIT"
expect_sass "a compare writes no register; a shuffle writes the one after its predicate" "A-written R122;" \
  "$q" "ISETP.GE.AND P0, PT, R120, R3, PT" "SHFL.BFLY PT, R122, R3, 0x1, 0x1f" "WARPGROUP.DEPBAR.LE gsb0, 0x0" "EXIT"
expect_sass "a loop whose back edge carries the group to the head" "A-written R120;" \
  "MOV R120, R8" "$q" "@P0 BRA 0x0" "WARPGROUP.DEPBAR.LE gsb0, 0x0" "EXIT"
expect_sass "DEPBAR.LE gsb0, 0x1 keeps the newest group: the older one's registers are free" "acc-read R40;" \
  "$q" "QGMMA.64x16x32.F32.E4M3.E4M3 R40, gdesc[UR8], RZ, !UPT, gsb0" "WARPGROUP.DEPBAR.LE gsb0, 0x1" \
  "MOV R120, R8" "FADD R2, R40, R3" "WARPGROUP.DEPBAR.LE gsb0, 0x0" "EXIT"

# ---- 2. the build ----
if [ -z "$nvcc" ] || [ ! -s "$ptx" ]; then
  tap_skip "the sm_90a kernels' PTX" "no sm_90a listing (nvcc not found)"
  tap_done
fi
scan "$ptx" >"$tmp/build.tsv"
n=$(awk -F'\t' '$4 == "scanned" && $5 > 0' "$tmp/build.tsv" | wc -l)
want=$(grep -c '^\.visible \.entry sdpa_stage7[b-z]_e4m3' "$ptx")
tap_ok "every wgmma kernel of the sm_90a listing is scanned: $n (the e4m3 kernels of stages 7b on: $want)" \
  test "$n" -gt 0 -a "$n" = "$want"
bad=$(awk -F'\t' '$4 != "scanned"' "$tmp/build.tsv")
tap_ok "no sm_90a kernel's PTX touches a wgmma's accumulators or A registers in flight${bad:+: $(head -3 <<<"$bad" | tr '\t\n' ' ;')}" \
  test -z "$bad"
if [ $sass = 1 ] && [ -s "$obj" ]; then
  tools/wgmma-inflight.sh sass "$obj" >"$tmp/build-sass.tsv"
  ns=$(awk -F'\t' '$4 == "scanned" && $5 > 0' "$tmp/build-sass.tsv" | wc -l)
  bad=$(awk -F'\t' '$4 != "scanned"' "$tmp/build-sass.tsv")
  tap_ok "... nor its SASS ($ns wgmma kernels in $obj)${bad:+: $(head -3 <<<"$bad" | tr '\t\n' ' ;')}" \
    test "$ns" = "$want" -a -z "$bad"
else
  tap_skip "... nor its SASS" "no cuobjdump, or no sm_90a object"
fi

# ---- 3. the plant: stage 7f's first order of the codes and the wait ----
# Of the sm_90a rows, the copy's registry keeps stage 7f's alone (tools/variants-only.awk, as the
# emulator's plants; the other rows stay, declared only in this compile): each kernel's registers
# are allocated on their own, and the other sm_90a rows' kernels were ~85 % of this compile.
. tests/kernels/registry.sh
keep=$(registry_rows | while IFS='|' read -r _ id _ sw; do
  [ "$id" = stage7f ] || [ "$(registry_exact_sm "$sw")" != 90 ] && echo "$id"; done | tr '\n' ' ')
mkdir -p "$tmp/plant" && cp kernels/*.cu kernels/*.cuh kernels/*.h "$tmp/plant/" &&
  awk -v keep="$keep" -f tools/variants-only.awk kernels/variants.def >"$tmp/plant/variants.def"
sed -i -e 's|^    prims::wgmma_wait<0>(pv, st.pa);$|    uint32_t pa[TN / 32][4]; fp8_codes<Cfg>(st, s, pa); prims::wgmma_wait<0>(pv, st.pa);|' \
  -e 's|^    fp8_codes<Cfg>(st, s, st.pa);$|    for (int kk = 0; kk < TN / 32; ++kk) for (int r = 0; r < 4; ++r) st.pa[kk][r] = pa[kk][r];|' \
  "$tmp"/plant/*.cuh
nchg=$(for f in "$tmp"/plant/*.cuh; do diff "kernels/$(basename "$f")" "$f"; done | grep -c '^>')
tap_ok "plant p-codes-in-flight: the edit hits exactly two lines ($nchg)" test "$nchg" -eq 2
# One compile gives both: the cubin's SASS and the PTX it was made from (-keep).
mkdir -p "$tmp/keep"
if "$nvcc" -std=c++17 -O3 -lineinfo -I"$tmp/plant" -I"$gen" -DSDPA_PART_SM90A -arch=sm_90a -cubin -keep \
  -keep-dir "$tmp/keep" "$tmp/plant/stages.cu" -o "$tmp/plant.cubin" 2>"$tmp/plant.log"; then
  hits() { awk -F'\t' '$4 == "A-written" { print $1 }' "$1" | sort -u | tr '\n' ' '; }
  has7f() { for k in sdpa_stage7f_e4m3_d128 sdpa_stage7f_e4m3_d128_causal; do grep -qw "$k" <<<"$1" || return 1; done; }
  scan "$tmp"/keep/*.ptx >"$tmp/plant.tsv"
  hit=$(hits "$tmp/plant.tsv")
  tap_ok "plant p-codes-in-flight, PTX: A registers written in flight in stage 7f's D = 128 kernels (found in: $hit)" has7f "$hit"
  if [ $sass = 1 ]; then
    tools/wgmma-inflight.sh sass "$tmp/plant.cubin" >"$tmp/plant-sass.tsv"
    hit=$(hits "$tmp/plant-sass.tsv")
    tap_ok "plant p-codes-in-flight, SASS: the same (found in: $hit)" has7f "$hit"
  else
    tap_skip "plant p-codes-in-flight, SASS" "no cuobjdump"
  fi
else
  sed 's/^/# /' "$tmp/plant.log"
  tap_ok "plant p-codes-in-flight compiles" false
fi
tap_done
