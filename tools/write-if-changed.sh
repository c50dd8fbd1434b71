#!/usr/bin/env bash
# Usage: ... | tools/write-if-changed.sh OUT
# Replaces OUT with stdin only when the content differs, so generated headers trigger rebuilds
# only when they really change.
set -eu
out=$1
mkdir -p "$(dirname "$out")"
tmp=$(mktemp "$out.tmp.XXXXXX") || exit 1
cat >"$tmp"
if cmp -s "$tmp" "$out"; then rm -f "$tmp"; else mv -f "$tmp" "$out"; fi
