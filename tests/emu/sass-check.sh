#!/usr/bin/env bash
# What the GPU code of the new primitives becomes (nvcc objects of tests/emu/kernels, built by
# mk/emu.mk): FP8 mma.sync must be QMMA.16832.F32.E4M3.E4M3 on sm_89; on sm_90 nvcc 13.0 lowers it to
# conversions plus HMMA.16816.F32 (no FP8 tensor-core rate without wgmma): recorded, not required.
# f16 mma.sync -> HMMA.16816.F32, ldmatrix -> LDSM, movmatrix -> MOVM, bar.sync/arrive -> BAR.
# Hopper (sm_90a): wgmma m64nNk32 e4m3 -> QGMMA.64xNx32.F32.E4M3.E4M3 for every N the prims have PTX
# for; TMA -> UTMALDG; mbarrier -> SYNCS; setmaxnreg -> USETMAXREG; stmatrix -> STSM. And ptxas must not
# say it serialised the wgmmas of the pipeline kernel (C75xx "Potential Performance Loss"; checked on the
# compile log, so without cuobjdump too), with a control: the correctness kernel wgmma.cu, whose k-loop
# has a runtime trip count, does get that message, so the check can see one.
# Needs cuobjdump and nvdisasm (CUDA toolkit, or PyPI nvidia-cuda-cuobjdump / -nvdisasm, `make deps`);
# SKIP with the reason when they are missing.  Usage: tests/emu/sass-check.sh DIR|none
cd "$(dirname "$0")/../.." || exit 1
. tests/tap.sh
dir=${1:-none}
skip_all() {
  for n in "sm_89 FP8 mma.sync is QMMA" "sm_90 FP8 mma.sync lowering recorded" "f16 mma.sync, ldmatrix, movmatrix" \
    "named barriers" "sm_90a wgmma is QGMMA for every N" "sm_90a TMA pipeline" "setmaxnreg" "stmatrix"; do
    tap_skip "SASS: $n" "$1"
  done
  tap_done
}
serialised() { grep -qE 'C75[0-9][0-9].*(wgmma|serializ)' "$1"; }
if [ "$dir" = none ]; then
  tap_skip "ptxas: no wgmma serialisation in wgmma_pipeline.cu (control: wgmma.cu has one)" "nvcc not found"
  skip_all "nvcc not found"
fi
pipeline_clean() { [ "$(cat "$dir/wgmma_pipeline.rc")" = 0 ] && ! serialised "$dir/wgmma_pipeline.log" && serialised "$dir/wgmma.log"; }
tap_ok "ptxas: no wgmma serialisation in wgmma_pipeline.cu (control: wgmma.cu has one)" pipeline_clean
# cuobjdump: the toolkit's, PATH, or a PyPI wheel (nvidia/cu*/bin in a site-packages folder).
tool=""
for c in "${CUDA_HOME:-/usr/local/cuda}/bin/cuobjdump" "$(command -v cuobjdump 2>/dev/null)" \
  $(python3 -c 'import site; print(" ".join(site.getsitepackages() + [site.getusersitepackages()]))' 2>/dev/null |
    xargs -n1 2>/dev/null | sed 's|$|/nvidia/cu13/bin/cuobjdump|'); do
  [ -n "$c" ] && [ -x "$c" ] && { tool=$c; break; }
done
[ -z "$tool" ] && skip_all "no cuobjdump (install the CUDA toolkit's, or pip install nvidia-cuda-cuobjdump)"
export PATH="$(dirname "$tool"):$PATH" # cuobjdump -sass runs nvdisasm
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sass() { "$tool" -sass "$@" >"$tmp/out" 2>&1; } # listings are large: grep files, not arguments
has() { for p in "$@"; do grep -q -- "$p" "$tmp/$f" || return 1; done; }
sass -arch sm_89 "$dir/mma_fp8.fatbin" && mv "$tmp/out" "$tmp/fp8-89"
grep -q nvdisasm "$tmp/fp8-89" && skip_all "cuobjdump cannot find nvdisasm (pip install nvidia-cuda-nvdisasm)"
tap_diag "disassembler: $tool"
f=fp8-89
tap_ok "SASS: sm_89 FP8 mma.sync is QMMA.16832.F32.E4M3.E4M3 (and .E5M2)" has QMMA.16832.F32.E4M3.E4M3 \
  QMMA.16832.F32.E5M2.E5M2
sass -arch sm_90 "$dir/mma_fp8.fatbin" && mv "$tmp/out" "$tmp/fp8-90"
f=fp8-90
if has QMMA; then
  tap_diag "sm_90: FP8 mma.sync is QMMA (native FP8 tensor-core instruction)"
else
  tap_diag "sm_90: FP8 mma.sync is $(grep -c 'F2FP.F16.E[45]M[23].UNPACK_B' "$tmp/$f") F2FP.*.UNPACK_B conversions" \
    "plus $(grep -c 'HMMA.16816.F32' "$tmp/$f") HMMA.16816.F32, no QMMA (no FP8 tensor-core rate without wgmma)"
fi
lowered() { has QMMA || has HMMA.16816.F32 UNPACK_B; }
tap_ok "SASS: sm_90 FP8 mma.sync lowering recorded (QMMA, or conversions + HMMA.16816.F32)" lowered
sass "$dir/mma_f16.fatbin" && mv "$tmp/out" "$tmp/f16"
f=f16
tap_ok "SASS: f16 mma.sync -> HMMA.16816.F32, ldmatrix -> LDSM (.MT88 for .trans), movmatrix -> MOVM" \
  has HMMA.16816.F32 LDSM.16.M88.4 LDSM.16.MT88.4 LDSM.16.MT88.2 MOVM.16.MT88
sass "$dir/named_barrier.fatbin" && mv "$tmp/out" "$tmp/bar"
f=bar
tap_ok "SASS: named barriers -> BAR.SYNC and BAR.ARV" has BAR.SYNC BAR.ARV
sass -arch sm_90a "$dir/wgmma.fatbin" && mv "$tmp/out" "$tmp/wg"
f=wg
tap_ok "SASS: sm_90a wgmma is QGMMA for every N (16 ... 256)" has QGMMA.64x16x32.F32.E4M3.E4M3 \
  QGMMA.64x32x32.F32.E4M3.E4M3 QGMMA.64x64x32.F32.E4M3.E4M3 QGMMA.64x96x32.F32.E4M3.E4M3 \
  QGMMA.64x128x32.F32.E4M3.E4M3 QGMMA.64x160x32.F32.E4M3.E4M3 QGMMA.64x192x32.F32.E4M3.E4M3 \
  QGMMA.64x256x32.F32.E4M3.E4M3
sass -arch sm_90a "$dir/wgmma_pipeline.fatbin" && mv "$tmp/out" "$tmp/pipe"
f=pipe
tap_ok "SASS: sm_90a TMA pipeline: UTMALDG, SYNCS barriers, QGMMA.64x64x32, WARPGROUP.ARRIVE / DEPBAR" has UTMALDG.2D \
  SYNCS.EXCH.64 SYNCS.ARRIVE.TRANS64 SYNCS.PHASECHK.TRANS64.TRYWAIT QGMMA.64x64x32.F32.E4M3.E4M3 WARPGROUP.ARRIVE \
  WARPGROUP.DEPBAR.LE
sass -arch sm_90a "$dir/bug_wgmma.fatbin" && mv "$tmp/out" "$tmp/regs"
f=regs
tap_ok "SASS: setmaxnreg -> USETMAXREG.DEALLOC / TRY_ALLOC" has USETMAXREG.DEALLOC USETMAXREG.TRY_ALLOC
sass -arch sm_90a "$dir/stmatrix.fatbin" && mv "$tmp/out" "$tmp/stsm"
f=stsm
tap_ok "SASS: stmatrix -> STSM (.trans: MT88), x1/x2/x4" has STSM.16.M88 STSM.16.M88.2 STSM.16.M88.4 STSM.16.MT88.4
tap_done
