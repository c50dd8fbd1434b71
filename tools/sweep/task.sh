#!/usr/bin/env bash
# One array task of a sweep (tools/sweep/sweep.sh writes the sbatch script that runs it): the
# bundle's campaign for one part, on this node, into the shared results directory.
#   complete: results/<kind>/<part>.tar.gz, then its checksum file <part>.tar.gz.sha256, each
#             renamed into place (a reader sees a part whole or not at all); exit 0
#   failed:   the campaign's tarball, if it wrote one, kept as <part>.failed-<job>.tar.gz for the
#             logs it holds; the campaign's exit status (Slurm: FAILED)
#   signalled (time limit, scancel): the campaign is stopped, its state recorded; exit 143
# state/<kind>/<part> records the last state this task knew, for clusters whose Slurm forgets
# finished jobs (no accounting).
# Usage: task.sh SWEEP_DIR BUNDLE_DIR KIND PART BACKEND QUICK(yes|no)
set -u
[ $# -eq 6 ] || { echo "task.sh: expected SWEEP_DIR BUNDLE_DIR KIND PART BACKEND QUICK, got $# arguments" >&2; exit 2; }
dir=$1 bundle=$2 kind=$3 part=$4 backend=$5 quick=$6
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tools/sweep/lib.sh
. "$here/lib.sh"
[ -n "$part" ] || { echo "task.sh: no part for array index ${SLURM_ARRAY_TASK_ID:-?}" >&2; exit 2; }
slug=$(part_slug "$part") job=${SLURM_ARRAY_JOB_ID:-${SLURM_JOB_ID:-local}}_${SLURM_ARRAY_TASK_ID:-0}
res=$dir/results/$kind st=$dir/state/$kind/$slug
mkdir -p "$res" "$dir/state/$kind"
record() { echo "$1 $job $(date -u +%Y-%m-%dT%H:%M:%SZ) ${2:-}" >"$st.tmp.$$" && mv -f "$st.tmp.$$" "$st"; }
echo "sweep task $job: kind $kind, part $part, on $(hostname 2>/dev/null), backend $backend, quick $quick"
if complete "$res" "$slug"; then
  echo "already complete: $res/$slug.tar.gz (submitted twice?); nothing to do"
  exit 0
fi
record RUNNING
out=$res/.$slug.$job.tar.gz
args=(--backend "$backend" --part "$part" --out "$out")
[ "$quick" = yes ] && args=(--quick "${args[@]}")
# In the background, so that Slurm's TERM (time limit, scancel) reaches this trap at once.
"$bundle/campaign.sh" "${args[@]}" &
pid=$!
trap 'kill -TERM $pid 2>/dev/null; wait $pid; record TERMINATED "signal TERM (time limit or scancel)"; rm -f "$out"; exit 143' TERM
wait $pid
rc=$?
if [ $rc -eq 0 ] && [ -s "$out" ]; then
  mv -n "$out" "$res/$slug.tar.gz" && [ ! -e "$out" ] || { echo "task.sh: $res/$slug.tar.gz appeared meanwhile; keeping ours as $out" >&2; record FAILED "duplicate"; exit 3; }
  (cd "$res" && sha256sum "$slug.tar.gz") >"$res/.$slug.sha256.$job" && mv -f "$res/.$slug.sha256.$job" "$res/$slug.tar.gz.sha256"
  record COMPLETED
  echo "sweep task $job: complete: $res/$slug.tar.gz"
  exit 0
fi
[ $rc -eq 0 ] && rc=3
[ -e "$out" ] && mv -f "$out" "$res/$slug.failed-$job.tar.gz" && echo "the failed campaign's tarball (its logs): $res/$slug.failed-$job.tar.gz"
record FAILED "exit $rc"
echo "sweep task $job: FAILED (campaign.sh exit $rc)" >&2
exit $rc
