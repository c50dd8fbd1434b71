#!/usr/bin/env bash
# tools/campaign/travel-size.sh in a scratch git repository of files of known sizes: it counts the
# tracked files and the untracked ones git does not ignore, as they are on disk (not an ignored one,
# not a tracked file deleted from the work tree), plus every file under each carried path; it
# groups them by folder; within the cap exit 0, over it exit 1 with the lean way round printed;
# and that way round's two commands take data/gpu/ out of what travels and put the index back as
# it was.
# Usage: tests/campaign/travel-size.sh
# shellcheck disable=SC2016 # the checks' bash -c scripts expand their own arguments
set -u
. tests/tap.sh
T=$PWD/tools/campaign/travel-size.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/travel-size-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
R=$tmp/repo
MiB=1048576
mk() { mkdir -p "$(dirname "$R/$1")" && head -c "$2" /dev/zero >"$R/$1"; } # PATH BYTES
git init -q "$R" && git -C "$R" config user.email t@t && git -C "$R" config user.name t
mk data/gpu/dev/c1/history.json $((3 * MiB)) && mk data/gpu/dev/c2/run.json $((2 * MiB))
mk src/a.c $((MiB / 2)) && mk gone.txt $((4 * MiB)) && printf '/build/\n' >"$R/.gitignore"
git -C "$R" add -A && git -C "$R" commit -q -m fixture
rm "$R/gone.txt"                                  # tracked, deleted from the work tree: nothing to copy
mk notes.txt $((MiB / 4))                         # untracked, not ignored: travels
mk build/big.o $((8 * MiB))                       # ignored: stays
mk build/bundle.tar.gz $((MiB / 4))               # ignored, but carried below
total=$((3 * MiB + 2 * MiB + MiB / 2 + MiB / 4 + $(stat -c %s "$R/.gitignore") + MiB / 4))
want=$(awk -v t=$total 'BEGIN { printf "%.1f", t / 1048576 }')

out=$(cd "$R" && TRAVEL_CAP_MIB=64 bash "$T" build/bundle.tar.gz 2>&1); rc=$?
tap_ok "within the cap: exit 0, the total $want MiB in 6 files (tracked, untracked, carried; not ignored, not deleted)" \
  bash -c '[ $1 -eq 0 ] && grep -qx "travels: $2 MiB in 6 files (cap 64 MiB)" <<<"$3"' _ $rc "$want" "$out"
tap_ok "  ... by folder: data/gpu 5.0 MiB first, the carried bundle on its own line" \
  bash -c 'sed -n 2p <<<"$1" | grep -qE "^ +5\.0 MiB  data/gpu$" && grep -qE "^ +0\.2 MiB  carried: build$" <<<"$1"' _ "$out"
out=$(cd "$R" && TRAVEL_CAP_MIB=5 bash "$T" build/bundle.tar.gz 2>&1); rc=$?
tap_ok "over the cap (5 MiB): exit 1, the lean way round printed" \
  bash -c '[ $1 -eq 1 ] && grep -q "^Over the cap" <<<"$2" && grep -q "git rm -r -q --cached data/gpu" <<<"$2"' _ $rc "$out"

# The way round: printed as these two commands, which do what it says when run as they stand.
lean='git rm -r -q --cached data/gpu && echo /data/gpu/ >>.git/info/exclude'
back="sed -i '\\|^/data/gpu/\$|d' .git/info/exclude && git add data/gpu"
tap_ok "  ... as two commands, to run before the call and after it" \
  bash -c 'grep -qxF "  $2" <<<"$1" && grep -qxF "  $3 && git status --short data/gpu" <<<"$1"' _ "$out" "$lean" "$back"
before=$(git -C "$R" ls-files -s | sha256sum)
(cd "$R" && bash -c "$lean")
out=$(cd "$R" && TRAVEL_CAP_MIB=5 bash "$T" build/bundle.tar.gz 2>&1); rc=$?
tap_ok "  ... the first: data/gpu no longer travels (exit 0, no data/gpu line), its files still on disk" \
  bash -c '[ $1 -eq 0 ] && ! grep -q "data/gpu" <<<"$2" && [ -s "$3/data/gpu/dev/c1/history.json" ]' _ $rc "$out" "$R"
st=$(cd "$R" && bash -c "$back" && git status --short data/gpu)
tap_ok "  ... the second: the index as it was, the exclude line gone, git status silent on data/gpu" \
  bash -c '[ "$(git -C "$1" ls-files -s | sha256sum)" = "$2" ] && ! grep -q data/gpu "$1/.git/info/exclude" && [ -z "$3" ]' \
  _ "$R" "$before" "$st"

out=$(cd "$R" && bash "$T" no/such/path 2>&1); rc=$?
tap_ok "a carried path that does not exist: exit 2, named" \
  bash -c '[ $1 -eq 2 ] && grep -q "CARRY .no/such/path. does not exist" <<<"$2"' _ $rc "$out"
out=$(cd "$R" && TRAVEL_CAP_MIB=lots bash "$T" 2>&1); rc=$?
tap_ok "TRAVEL_CAP_MIB not a whole number: exit 2, named" \
  bash -c '[ $1 -eq 2 ] && grep -q "TRAVEL_CAP_MIB .lots." <<<"$2"' _ $rc "$out"
out=$(cd "$tmp" && bash "$T" 2>&1); rc=$?
tap_ok "outside a git checkout: exit 2" bash -c '[ $1 -eq 2 ] && grep -q "not in a git checkout" <<<"$2"' _ $rc "$out"
tap_done
