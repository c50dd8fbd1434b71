#!/usr/bin/env bash
# Creates a new, empty run directory and prints its path:
#   DATA/EXPERIMENT/<run-id>, run-id = UTC time (YYYYmmddTHHMMSSZ) + "-" + short git SHA
#   (+ "-dirty" when tracked files have uncommitted changes) + "-" + host + "." + process id +
#   "." + a counter, unless RUN_ID is given.
# The time first keeps ids sortable by start time; host and process id make ids unique when many
# runs start in one second on one or many machines sharing the file system, and the counter moves
# past any name that is taken. mkdir (without -p) is the atomic check-and-create: a run directory
# is never reused. A given RUN_ID that exists is refused with exit status 1, the directory untouched.
# Usage: experiments/new-run.sh DATA EXPERIMENT [RUN_ID]
set -eu
data=$1 exp=$2 id=${3:-}
mkdir -p "$data/$exp"
if [ -n "$id" ]; then
  case $id in */*|.*) echo "new-run: invalid run id '$id'" >&2; exit 2 ;; esac
  if ! mkdir "$data/$exp/$id" 2>/dev/null; then
    echo "new-run: $data/$exp/$id exists already; run directories are never reused (earlier runs stay untouched)" >&2
    exit 1
  fi
  echo "$data/$exp/$id"
  exit 0
fi
sha=$(git rev-parse --short HEAD 2>/dev/null || echo nogit)
dirty=
if [ "$sha" != nogit ] && [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then dirty=-dirty; fi
# The short host name, reduced to characters that are safe in a path and in make.
host=$(hostname -s 2>/dev/null || uname -n)
host=$(printf '%s' "${host:-host}" | tr -c 'A-Za-z0-9-' '-')
stamp=$(date -u +%Y%m%dT%H%M%SZ)-$sha$dirty-$host.$$
for n in $(seq 0 999); do
  if mkdir "$data/$exp/$stamp.$n" 2>/dev/null; then
    echo "$data/$exp/$stamp.$n"
    exit 0
  fi
  [ -d "$data/$exp" ] && [ -w "$data/$exp" ] || break
done
echo "new-run: cannot create a run directory under $data/$exp/ (not writable, or 1000 names taken)" >&2
exit 1
