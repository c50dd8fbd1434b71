#!/usr/bin/env bash
# travel-size.sh: what a device lease copies of this checkout, against its cap, before the lease
# starts. A lease that runs commands on a GPU machine over a copy of the working tree copies the
# tracked files and the untracked ones git does not ignore (as they are on disk), plus the ignored
# paths the call carries (the bundle tarball), and refuses the call when they pass the cap (64 MiB
# where this artifact was first measured). The committed campaigns under data/gpu/ are most of it
# and grow with every ingest (a full campaign ~14 MB of JSON); a command on the node needs none
# of them, only the carried bundle and tools/campaign/short-lease.sh.
#   travel-size.sh [CARRY ...]
# Prints the total, the largest folders, and the cap; exit 0 within it, 1 over it (then the lean
# way round, which takes data/gpu/ out of what travels for one call and back, is printed), 2 on bad
# usage. TRAVEL_CAP_MIB sets the cap (default 64).
set -u
cap_mib=${TRAVEL_CAP_MIB:-64}
case $cap_mib in '' | *[!0-9]*) echo "travel-size.sh: TRAVEL_CAP_MIB '$cap_mib': whole MiB" >&2; exit 2 ;; esac
top=$(git rev-parse --show-toplevel 2>/dev/null) || { echo "travel-size.sh: not in a git checkout" >&2; exit 2; }
for p in "$@"; do [ -e "$p" ] || { echo "travel-size.sh: CARRY '$p' does not exist" >&2; exit 2; }; done
list=$(mktemp "${TMPDIR:-/tmp}/travel-size.XXXXXX") || exit 2
trap 'rm -f "$list"' EXIT
# "<bytes>\t<path>" per file that travels: tracked and untracked-not-ignored files present on disk
# (a tracked file deleted from the work tree has nothing to copy), then every file under each CARRY.
(cd "$top" && git ls-files -z --cached --others --exclude-standard | xargs -0 -r stat --printf '%s\t%n\n' 2>/dev/null) >"$list"
for p in "$@"; do find "$p" -type f -exec stat --printf '%s\tcarried: %n\n' {} + >>"$list"; done
awk -F'\t' -v cap="$cap_mib" '
  { total += $1; n = split($2, part, "/"); key = part[1]; if (n > 2) key = key "/" part[2]; by[key] += $1 }
  END {
    printf "travels: %.1f MiB in %d files (cap %d MiB)\n", total / 1048576, NR, cap
    for (k in by) printf "%12.1f MiB  %s\n", by[k] / 1048576, k | "sort -rn | head -n 8"
    close("sort -rn | head -n 8")
    exit total > cap * 1048576
  }' "$list"
rc=$?
if [ $rc -ne 0 ]; then
  cat <<'EOF'
Over the cap. The committed campaigns need not travel: for one call, untrack data/gpu/ (its files
stay on disk) and ignore it locally, make the call, then track it again:
  git rm -r -q --cached data/gpu && echo /data/gpu/ >>.git/info/exclude
  ... the device call ...
  sed -i '\|^/data/gpu/$|d' .git/info/exclude && git add data/gpu && git status --short data/gpu
(the last command prints nothing when the index is as it was).
EOF
fi
exit $rc
