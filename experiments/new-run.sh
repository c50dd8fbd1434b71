#!/usr/bin/env bash
# Creates a new, empty run directory and prints its path:
#   DATA/EXPERIMENT/<run-id>, run-id = UTC time (YYYYmmddTHHMMSSZ) + "-" + short git SHA
#   (+ "-dirty" when tracked files have uncommitted changes), unless RUN_ID is given.
# A run directory is never reused: if it exists (a run in the same second, or a RUN_ID given
# twice), this refuses with exit status 1 and leaves the existing directory untouched.
# Usage: experiments/new-run.sh DATA EXPERIMENT [RUN_ID]
set -eu
data=$1 exp=$2 id=${3:-}
if [ -z "$id" ]; then
  sha=$(git rev-parse --short HEAD 2>/dev/null || echo nogit)
  dirty=
  if [ "$sha" != nogit ] && [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then dirty=-dirty; fi
  id=$(date -u +%Y%m%dT%H%M%SZ)-$sha$dirty
fi
case $id in */*|.*|'') echo "new-run: invalid run id '$id'" >&2; exit 2 ;; esac
mkdir -p "$data/$exp"
# mkdir without -p fails on an existing directory: the check and the creation are one step.
if ! mkdir "$data/$exp/$id" 2>/dev/null; then
  echo "new-run: $data/$exp/$id exists already; run directories are never reused (earlier runs stay untouched)" >&2
  exit 1
fi
echo "$data/$exp/$id"
