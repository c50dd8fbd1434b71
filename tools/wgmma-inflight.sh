#!/usr/bin/env bash
# wgmma registers touched while the wgmma may run, in one listing (tools/wgmma-flow.awk: the
# analysis and its output; one dialect each): nvcc's PTX, or the SASS of an object or cubin
# (cuobjdump, found as tools/sass-mix.sh finds it; exit 3 without it).
# Usage: tools/wgmma-inflight.sh ptx LISTING.ptx
#        tools/wgmma-inflight.sh sass OBJECT
here=$(dirname "$0")
[ $# -eq 2 ] && [ -f "$2" ] || { echo "usage: $0 ptx LISTING.ptx | sass OBJECT (an existing file)" >&2; exit 2; }
case $1 in
  ptx) exec awk -f "$here/wgmma-flow.awk" -f "$here/wgmma-ptx.awk" "$2" ;;
  sass)
    . "$here/sass-mix.sh"
    sass_find_tool || { echo "wgmma-inflight.sh: no cuobjdump/nvdisasm (make deps)" >&2; exit 3; }
    set -o pipefail
    PATH="$(dirname "$SASS_TOOL"):$PATH" "$SASS_TOOL" -sass "$2" |
      awk -f "$here/wgmma-flow.awk" -f "$here/wgmma-sass.awk" ;;
  *) echo "$0: dialect '$1': ptx or sass" >&2; exit 2 ;;
esac
