#!/usr/bin/env bash
# Editing a kernel header rebuilds the kernels: every compile of kernels/stages.cu (nvcc's objects
# (CUDA_ARCHS, and the sm_90a rows') and PTX listings, the emulator's plain, TSan and ASan objects) has, in make's database, every
# header that stages.cu includes, directly or through another header of kernels/, as a
# prerequisite (the dependency files, -MMD, of mk/kernels.mk). Before they existed, editing
# kernels/switches.h left the nvcc build as it was.
# Usage: make-deps.sh BUILD_DIR HAVE_NVCC(0|1) [ARCH...]
. "$(dirname "$0")/../tap.sh"
build=$1 have_nvcc=$2; shift 2

# The headers of kernels/ that stages.cu includes, transitively (quoted includes only).
closure() {
  local todo=(kernels/stages.cu) seen=" " f inc
  while [ ${#todo[@]} -gt 0 ]; do
    f=${todo[0]}; todo=("${todo[@]:1}")
    for inc in $(sed -nE 's/^ *# *include +"([^"]+)".*/\1/p' "$f"); do
      [ -f "kernels/$inc" ] || continue
      [[ $seen == *" kernels/$inc "* ]] && continue
      seen+="kernels/$inc "
      todo+=("kernels/$inc")
    done
  done
  tr ' ' '\n' <<<"$seen" | sed '/^$/d' | sort
}
headers=$(closure)
tap_ok "stages.cu includes kernels/switches.h (directly or not)" grep -qx kernels/switches.h <<<"$headers"

targets=("$build/kernels/emu/stages.o" "$build/kernels/emu/stages-sm90a-d64.o" "$build/kernels/emu/stages-sm90a-d128.o"
  "$build/kernels/emu/stages-tsan.o" "$build/kernels/emu/stages-asan.o")
if [ "$have_nvcc" = 1 ]; then
  targets+=("$build/kernels/cuda/stages.o" "$build/kernels/cuda/stages_sm90a.o" "$build/kernels/cuda/stages_sm90a.ptx")
  for a in "$@"; do targets+=("$build/kernels/cuda/stages_sm$a.ptx"); done
fi
for t in "${targets[@]}"; do
  if [ ! -e "$t" ]; then
    tap_skip "$t depends on every header it includes" "not built"
    continue
  fi
  # make -p prints the database (every rule with its merged prerequisites) without building.
  prereqs=$(make -pq "$t" 2>/dev/null | awk -v t="$t:" '$1 == t {for (i = 2; i <= NF; i++) if ($i == "|") exit; else print $i}')
  missing=$(comm -23 <(echo "$headers") <(tr ' ' '\n' <<<"$prereqs" | sort -u) | tr '\n' ' ')
  tap_ok "$t depends on every header it includes ($(wc -l <<<"$headers") headers)${missing:+; missing: $missing}" \
    test -z "$missing"
done
if [ "$have_nvcc" != 1 ]; then tap_skip "the nvcc outputs depend on every header they include" "nvcc not found"; fi
tap_done
