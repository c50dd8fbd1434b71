#!/usr/bin/env bash
# The hardware probes' driver (kernels/probes/probe_main.c) end to end on the emulator: what
# `make probes` runs on an H100, linked here with the emulator build, so that its command line, its
# JSON record and the decoding it prints are tested without a GPU.
# Usage: tests/emu/probes.sh SDPA_PROBES_EMU
cd "$(dirname "$0")/../.." || exit 1
. tests/tap.sh
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$bin" --out "$tmp/p.json" >"$tmp/out" 2>&1; rc=$?
sed 's/^/# /' "$tmp/out"
tap_ok "sdpa-probes (emulator) runs every probe and writes its record (exit $rc)" test "$rc" -eq 0 -a -s "$tmp/p.json"
tap_ok "... and says the device agrees with the PTX ISA's layouts" grep -q 'every probe agrees with the PTX ISA' "$tmp/out"
if command -v jq >/dev/null 2>&1; then
  rec() { jq -e "$1" "$tmp/p.json" >/dev/null 2>&1; }
  tap_ok "record: kind probes, meta.backend emulator, device cc 9.0" rec '.kind == "probes" and .meta.backend == "emulator" and .meta.device.cc == "9.0"'
  tap_ok "record: 9 TMA boxes, 16384 accumulator values, 3 x 2048 A-fragment values, 8 descriptors x 4 x 2048" \
    rec '(.tma | length) == 9 and (.wgmma_acc.values | length) == 16384 and ([.wgmma_a[] | length] == [2048,2048,2048]) and (.wgmma_desc | length) == 8 and ([.wgmma_desc[].nibbles[] | length] | unique) == [2048]'
  tap_ok "record: isa_check.mismatches = 0" rec '.isa_check.mismatches == 0'
  tap_ok "record: stage 7g's exponential at 8192 points, every one the host twin's bits" \
    rec '.exp2_poly.points == 8192 and .exp2_poly.host_twin_mismatches == 0 and (.exp2_poly.bits_fnv1a64 | test("^[0-9a-f]{16}$"))'
  tap_ok "record: stage 7h's flushed exponential at 8198 points, the same codes and normal weights as __expf's, the flush reached" \
    rec '.exp_ftz.points == 8198 and .exp_ftz.code_mismatches == 0 and .exp_ftz.weight_mismatches == 0 and .exp_ftz.flushed > 1000'
  tap_ok "record: stage 7's dynamic shared memory at window address 0, 148480 bytes of it" \
    rec '.smem_base.window_address == 0 and .smem_base.dynamic_bytes == 148480'
  # A runtime that puts dynamic shared memory off stage 7's 1024 bytes: recorded and named first (the
  # descriptor probe's swizzled reads, in dynamic shared memory too, disagree after it)
  SIMT_DYN_SMEM_OFFSET=16 "$bin" --out "$tmp/p16.json" >"$tmp/out16" 2>&1
  tap_ok "dynamic shared memory moved to 0x10: recorded there, the disagreement named, printed" \
    bash -c 'jq -e ".smem_base.window_address == 16 and .isa_check.mismatches >= 1 and
                    (.isa_check.first | test(\"^smem_base: .*0x10, not on 1024 bytes\"))" "$1" >/dev/null &&
             grep -q "DISAGREES.*smem_base" "$2"' _ "$tmp/p16.json" "$tmp/out16"
else
  tap_skip "record: fields (kind, backend, device, sizes, isa_check)" "jq not found (make deps)"
fi
"$bin" --out "$tmp/p.json" >"$tmp/again" 2>&1; rc=$?
tap_ok "a second run does not overwrite the record (exit $rc, a message naming the file)" \
  test "$rc" -eq 1 -a -n "$(grep -F "$tmp/p.json" "$tmp/again")"
"$bin" >"$tmp/usage" 2>&1; rc=$?
tap_ok "without --out: exit 2 naming --out" test "$rc" -eq 2 -a -n "$(grep -e '--out' "$tmp/usage")"
"$bin" --frobnicate >"$tmp/usage" 2>&1; rc=$?
tap_ok "an unknown argument: exit 2 naming it" test "$rc" -eq 2 -a -n "$(grep -e '--frobnicate' "$tmp/usage")"
tap_done
