#!/usr/bin/env bash
# The PTX listings of one nvcc compile, from its -keep directory: nvcc keeps the PTX of each virtual
# architecture it compiled, as NAME.compute_A.ptx, or NAME.ptx when there was only one; each becomes
# OUT_DIR/stages_smA.ptx (written atomically). The static checks read these listings: the PTX the
# build compiled, not a second compile of the source.
# Usage: tools/kept-ptx.sh KEEP_DIR OUT_DIR [ARCH...]   (no ARCH: nothing to list)
set -eu
keep=$1 out=$2; shift 2
[ -d "$keep" ] || { echo "kept-ptx: $keep: no such directory" >&2; exit 2; }
shopt -s nullglob
for a in "$@"; do
  found=("$keep"/*.compute_"$a".ptx)
  if [ ${#found[@]} -eq 0 ] && [ $# -eq 1 ]; then found=("$keep"/*.ptx); fi
  if [ ${#found[@]} -ne 1 ] || [ ! -s "${found[0]}" ]; then
    echo "kept-ptx: not one PTX file for compute_$a in $keep" >&2
    exit 1
  fi
  cp "${found[0]}" "$out/stages_sm$a.ptx.tmp"
  mv -f "$out/stages_sm$a.ptx.tmp" "$out/stages_sm$a.ptx"
done
