#!/usr/bin/env bash
# The SASS instruction mix of one kernel of the nvcc build: opcodes (with modifiers) by count,
# then the instructions the stages exist for. `make sass VARIANT=stage3b ARCH=sm_89` calls it.
# Needs cuobjdump and the nvdisasm it runs (the toolkit's, PATH, or PyPI nvidia-cuda-cuobjdump /
# -nvdisasm, which `make deps` installs); without them it says SKIP and exits 0.
# Usage: tools/sass-mix.sh OBJECT KERNEL sm_NN
# Also sourced by tests/kernels/sass-gates.sh for sass_find_tool and sass_listing.
sass_find_tool() { # sets SASS_TOOL, or returns 1
  local c
  SASS_TOOL=""
  for c in "${CUDA_HOME:-/usr/local/cuda}/bin/cuobjdump" "$(command -v cuobjdump 2>/dev/null)" \
    $(python3 -c 'import site; print(" ".join(site.getsitepackages() + [site.getusersitepackages()]))' 2>/dev/null |
      xargs -n1 2>/dev/null | sed 's|$|/nvidia/cu13/bin/cuobjdump|'); do
    [ -n "$c" ] && [ -x "$c" ] && [ -x "$(dirname "$c")/nvdisasm" -o -n "$(command -v nvdisasm)" ] && { SASS_TOOL=$c; return 0; }
  done
  return 1
}
# sass_listing_addr OBJECT KERNEL ARCH: one instruction per line after its hex address, predicate
# kept ("2210 @P0 BRA 0x28d0"; tools/issue-slots.sh follows the branches).
# With SASS_CACHE set (a directory of the caller's), each object (path, size and time) is
# disassembled once per architecture, whole, into a file per kernel (its "Function :" section: the
# same lines as cuobjdump -fun gives); a whole object takes ~4 times one kernel's time, and the
# gates ask for up to ~50 kernels of one object.
sass_listing_addr() {
  if [ -n "${SASS_CACHE:-}" ]; then
    local all; all=$SASS_CACHE/$(printf '%s %s' "$1" "$(stat -c %s-%Y "$1" 2>/dev/null)" | md5sum | cut -c1-16)-$3
    if [ ! -d "$all" ]; then # one file per kernel, its name the kernel's (an identifier)
      mkdir -p "$all.tmp.$$" &&
        PATH="$(dirname "$SASS_TOOL"):$PATH" "$SASS_TOOL" -sass -arch "$3" "$1" 2>/dev/null |
        awk -v d="$all.tmp.$$" '/^[ \t]*Function : / { if (f) close(f); f = d "/" $NF } f { print > f }' &&
        mv -T "$all.tmp.$$" "$all" 2>/dev/null || rm -rf "$all.tmp.$$"
      [ -d "$all" ] || return 1
    fi
    [ -f "$all/$2" ] && cat "$all/$2"
  else
    PATH="$(dirname "$SASS_TOOL"):$PATH" "$SASS_TOOL" -sass -arch "$3" -fun "$2" "$1" 2>/dev/null
  fi | sed -nE 's|^ +/\*([0-9a-f]{4,})\*/ +(.*);.*|\1 \2|p'
}
# sass_listing OBJECT KERNEL ARCH: one instruction per line, predicate dropped ("HMMA.16816.F32 R32, ...").
sass_listing() {
  sass_listing_addr "$@" | sed -nE 's/^[0-9a-f]+ +(@!?U?P[0-9T] +)?([A-Z].*)$/\2/p'
}
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  [ $# -eq 3 ] || { echo "usage: $0 OBJECT KERNEL sm_NN" >&2; exit 2; }
  obj=$1 kernel=$2 arch=$3
  [ -f "$obj" ] || { echo "sass: $obj missing (make build with nvcc)" >&2; exit 2; }
  sass_find_tool || { echo "SKIP: no cuobjdump/nvdisasm (make deps, or pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm)"; exit 0; }
  lst=$(sass_listing "$obj" "$kernel" "$arch")
  [ -n "$lst" ] || { echo "sass: no SASS of $kernel for $arch in $obj" >&2; exit 2; }
  echo "SASS instruction mix: $kernel, $arch ($(wc -l <<<"$lst") instructions; $SASS_TOOL)"
  awk '{print $1}' <<<"$lst" | sort | uniq -c | sort -rn | awk '{printf "  %6d  %s\n", $1, $2}'
  echo "stage instructions:"
  for p in 'HMMA.16816.F32' 'LDSM.16.M88.4' 'LDSM.16.MT88.4' 'LDGSTS' 'DEPBAR.LE SB0, 0x0' 'DEPBAR.LE SB0, 0x1' \
    'DEPBAR.LE SB0, 0x2' 'BAR.SYNC' 'BAR.ARV' 'STS' 'LDS'; do
    printf '  %-20s %d\n' "$p" "$(grep -cE "^${p//./\\.}([ .]|$)" <<<"$lst")"
  done
fi
