#!/usr/bin/env bash
# Fails on any tracked C, C++ or CUDA source that `make format` would change (one TAP line per
# file that differs, so the log names them). Outside a git checkout there is nothing to list:
# the suite skips and says why.
. "$(dirname "$0")/../tap.sh"
cd "$(dirname "$0")/../.." || exit 1
cf=${CLANG_FORMAT:-clang-format}
if ! command -v "$cf" >/dev/null 2>&1; then
  tap_skip "sources formatted per .clang-format" "$cf not found (make deps installs it)"; tap_done
fi
if ! files=$(tools/format-files.sh 2>/dev/null) || [ -z "$files" ]; then
  tap_skip "sources formatted per .clang-format" "not a git checkout: no tracked sources to list"; tap_done
fi
n=0; bad=0
while IFS= read -r f; do
  n=$((n + 1))
  if ! "$cf" --dry-run -Werror "$f" >/dev/null 2>&1; then
    bad=$((bad + 1)); tap_ok "formatted: $f (run make format)" false
  fi
done <<<"$files"
tap_ok "all $n sources formatted per .clang-format ($bad differ)" test "$bad" -eq 0
tap_done
