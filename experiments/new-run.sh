#!/usr/bin/env bash
# The one generator of ids (runs, GPU campaigns, a sweep's submissions and collections), and the
# creator of run directories.
#   new-run.sh --id [TAG]          prints a new id:
#       <UTC time YYYYmmddTHHMMSSZ>[-<short git SHA>[-dirty]]-<host>.<TAG>
#     the SHA when run inside a git checkout ("-dirty" when tracked files have uncommitted
#     changes; a bundle on a GPU node has none); host reduced to [A-Za-z0-9-]; TAG the caller's
#     process id unless given (a Slurm job id), [A-Za-z0-9._-] only.
#   new-run.sh DATA EXPERIMENT [RUN_ID]
#     creates a new, empty run directory DATA/EXPERIMENT/<id>.<n> (this process's id as TAG, n a
#     counter) and prints its path, unless RUN_ID is given.
# The time first keeps ids sortable by start time; host and process id make ids unique when many
# start in one second on one or many machines sharing the file system, and the counter moves
# past any name that is taken. mkdir (without -p) is the atomic check-and-create: a run directory
# is never reused. A given RUN_ID that exists is refused with exit status 1, the directory untouched.
set -eu
new_id() { # TAG
  local sha dirty= host
  if sha=$(git rev-parse --short HEAD 2>/dev/null); then
    [ -z "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] || dirty=-dirty
    sha=-$sha$dirty
  else
    sha=
  fi
  host=$(hostname -s 2>/dev/null || uname -n)
  host=$(printf '%s' "${host:-host}" | tr -c 'A-Za-z0-9-' '-')
  echo "$(date -u +%Y%m%dT%H%M%SZ)$sha-$host.$1"
}
if [ "${1:-}" = --id ]; then
  tag=${2:-$PPID}
  case $tag in ''|*[!A-Za-z0-9._-]*) echo "new-run: --id '$tag': a tag of [A-Za-z0-9._-]" >&2; exit 2 ;; esac
  new_id "$tag"
  exit 0
fi
[ $# -ge 2 ] || { echo "usage: new-run.sh DATA EXPERIMENT [RUN_ID] | new-run.sh --id [TAG]" >&2; exit 2; }
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
stamp=$(new_id $$)
for n in $(seq 0 999); do
  if mkdir "$data/$exp/$stamp.$n" 2>/dev/null; then
    echo "$data/$exp/$stamp.$n"
    exit 0
  fi
  [ -d "$data/$exp" ] && [ -w "$data/$exp" ] || break
done
echo "new-run: cannot create a run directory under $data/$exp/ (not writable, or 1000 names taken)" >&2
exit 1
