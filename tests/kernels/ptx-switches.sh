#!/usr/bin/env bash
# Each switch must change the generated code. For every variant with a parent (one switch apart,
# kernels/variants.def), the kernel built from the variant's switches and the one built from its
# parent's must have different PTX, on every architecture. (The original's USE_XOR_SWIZZLE compiled
# to the same code and "3A+XOR" timed identical code twice: c84387b, 3f2a6b2 and ed36e34 of GOATnote-Inc/periodicdent42.)
# Each setting is compiled alone through the make-switch path (a custom variant, SDPA_ONLY_CUSTOM):
# two kernels of one translation unit can differ in register numbering and vectorisation even from
# identical source, so only isolated compiles compare meaningfully. nvcc's PTX also depends on
# the address-space layout (mk/config.mk, NVCC_DET), so every compile runs under setarch -R.
# Control: compiling the same switches twice gives identical text, so a difference is never an
# artefact of the comparison.
# Usage: ptx-switches.sh NVCC ARCH...
. "$(dirname "$0")/../tap.sh"
. "$(dirname "$0")/registry.sh"
nvcc=$1; shift
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if ! setarch -R true 2>/dev/null; then
  tap_skip "each switch changes the PTX" "setarch -R unavailable: nvcc's PTX is not reproducible without it"
  tap_done
fi

# PTX of the custom kernel; the shared-memory object's mangled name encodes the Config: normalised.
# KERNEL (default sdpa_custom_e4m3): the instance compared; another than the D = 64 non-causal one
# needs the custom row's wide instances (-DSDPA_TMA_WIDE_ONLY, kernels/stages.cu).
ptx_of() { # ptx_of ARCH "NAME NAME ..." OUT [EXTRA_DEFINE_LINE]: the custom kernel with these switches on
  local d="$tmp/inc.$RANDOM$RANDOM" n; mkdir -p "$d"
  { echo '#define SDPA_CUSTOM_VARIANT 1'
    for n in $(registry_switches); do
      echo "#define USE_$n $(registry_has "$2" "$n" && echo 1 || echo 0)"
    done
    echo "${4:-}"; } >"$d/sdpa_custom.h"
  # A set with an sm_90a-only switch is compiled as the build compiles it: its own compile for sm_90a
  # (kernels/stages.cu, SDPA_PART_SM90A); elsewhere its kernel is only declared.
  local part=; [ "$(registry_exact_sm "$2")" = 90 ] && part=-DSDPA_PART_SM90A
  local k=${KERNEL:-sdpa_custom_e4m3} wide=; [ "$k" = sdpa_custom_e4m3 ] || wide=-DSDPA_TMA_WIDE_ONLY
  setarch -R "$nvcc" -std=c++17 -O3 -Ikernels -I"$d" -DSDPA_ONLY_CUSTOM $wide $part -arch=compute_$1 -ptx kernels/stages.cu \
      -o "$d/k.ptx" || return 1
  # The whole body (tools/ptx-body.awk counts braces: the first "}" line closes an inline asm block
  # of prims.cuh, and the TMA rows' first one comes early, before the softmax).
  awk -v k="$k" -f tools/ptx-body.awk "$d/k.ptx" |
    sed -E 's/_ZZN4sdpa12sdpa_forward[A-Za-z0-9_]*/SMEM/g' >"$3"
  [ -s "$3" ]
}

# Each switch set compiled once per architecture (a row's PTX is also its children's parent PTX).
ptx_once() { # ptx_once ARCH "NAME ..." OUT
  local key; key=$(echo "$1 $2 ${KERNEL:-}" | md5sum | cut -c1-16)
  [ -s "$tmp/once.$key" ] || ptx_of "$1" "$2" "$tmp/once.$key" || return 1
  cp "$tmp/once.$key" "$3"
}
rows=$(registry_rows | cut -d'|' -f2-)
switches_of() { awk -F'|' -v id="$1" '$1 == id {print $3}' <<<"$rows"; }
for arch in "$@" 90a; do
  while IFS='|' read -r id parent sw; do
    [ -n "$parent" ] || continue
    # A row with an sm_90a-only switch exists for sm_90a alone (and is compared with its parent
    # there); every other row on the architectures given.
    if [ "$(registry_exact_sm "$sw")" = 90 ]; then [ "$arch" = 90a ] || continue; else [ "$arch" != 90a ] || continue; fi
    # [stage 7m] CAUSAL_LPT acts on the causal D = 64 instance alone: that one is compared.
    KERNEL=sdpa_custom_e4m3
    registry_has "$sw" CAUSAL_LPT && ! registry_has "$(switches_of "$parent")" CAUSAL_LPT && KERNEL=sdpa_custom_e4m3_causal
    if ptx_once "$arch" "$sw" "$tmp/a.ptx" && ptx_once "$arch" "$(switches_of "$parent")" "$tmp/b.ptx"; then
      tap_fail "sm_$arch: $id (${sw:-no switch}) differs from its parent $parent in PTX${KERNEL/sdpa_custom_e4m3_causal/ (the causal instance)}" \
        cmp -s "$tmp/a.ptx" "$tmp/b.ptx"
    else
      tap_ok "sm_$arch: $id and $parent compile" false
    fi
  done <<<"$rows"
done
arch=$1 KERNEL=sdpa_custom_e4m3
sw=$(switches_of stage2)
if ptx_once "$arch" "$sw" "$tmp/c1.ptx" && ptx_of "$arch" "$sw" "$tmp/c2.ptx"; then # c2: a fresh compile
  tap_ok "sm_$arch control: the same switches compiled twice give identical PTX" cmp -s "$tmp/c1.ptx" "$tmp/c2.ptx"
else
  tap_ok "sm_$arch control compiles" false
fi
# Negative control, the original's bug: a toggle the kernel never reads leaves the PTX unchanged,
# and this comparison says so (make itself refuses unknown USE_* switches: mk/switches.mk).
if ptx_of "$arch" "$sw" "$tmp/c3.ptx" "#define USE_XOR_SWIZZLE 1"; then
  tap_ok "sm_$arch control: an unread toggle (USE_XOR_SWIZZLE=1) is detected as a no-op" cmp -s "$tmp/c1.ptx" "$tmp/c3.ptx"
else
  tap_ok "sm_$arch negative control compiles" false
fi
tap_done
