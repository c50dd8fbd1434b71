#!/usr/bin/env bash
# The campaign as Slurm job arrays (tools/sweep/README.md, "Many GPUs: Slurm sweeps"; the sweep file:
# experiments/sweeps/README.md). Slurm schedules; this script only writes and submits.
#   sweep.sh submit SWEEP BUNDLE.tar.gz [--dry-run]   make sweep SWEEP=... [DRY_RUN=1]
#   sweep.sh status SWEEP                             make sweep-status SWEEP=...
# submit: unpacks the bundle once into the shared directory, writes one sbatch script per device
# kind (a job array, one task per campaign part that has no complete, checksummed tarball and is
# not pending or running), submits them, then a collector job (--dependency=afterany on all of
# them) that ingests what is complete and writes the sweep summary. --dry-run prints the scripts
# and the sbatch commands, and writes and submits nothing.
# status: per kind and part, complete or not, the Slurm state of its latest task and, for a task
# that failed, its log's last lines (and why the collector refused its tarball, if it did); exit 0
# when every part is complete, 1 otherwise (make sweep-status: make's own 2), 2 on a bad sweep file.
# Layout of the shared directory, SHARED/NAME/:
#   bundle-<sha>/bundle/ the unpacked bundle; bundle-<sha>/sweep/ task.sh, collect.sh, ingest.sh
#   jobs/<stamp>/*.sbatch the scripts of each submission; submissions.tsv, what was submitted
#   results/<kind>/<part>.tar.gz(.sha256)  complete parts; <part>.failed-<job>.tar.gz kept
#   logs/<kind>/<index>.<job>.log, state/<kind>/<part>  each task's output and last known state
#   data/gpu/..., reports/, figures/, summary.{md,json}, sweep-NAME-<stamp>.tar.gz  the collector's
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tools/sweep/lib.sh
. "$here/lib.sh"

usage() { echo "usage: sweep.sh submit SWEEP BUNDLE.tar.gz [--dry-run] | sweep.sh status SWEEP" >&2; exit 2; }
[ $# -ge 2 ] || usage
cmd=$1 sweep=$2
case $cmd in submit|status) ;; *) usage ;; esac
sweep_parse "$sweep"

# submissions.tsv: "stamp kind part slug index taskid" per task, "collector stamp - - - jobid".
# latest: the latest submission of each kind and part, as "kind part slug index taskid".
latest() {
  [ -f "$SWEEP_DIR/submissions.tsv" ] || return 0
  awk -F'\t' '$1 != "collector" {last[$2 "\t" $3] = $0} END {for (k in last) print last[k]}' "$SWEEP_DIR/submissions.tsv" | cut -f2-6
}
collector_id() { [ -f "$SWEEP_DIR/submissions.tsv" ] && awk -F'\t' '$1 == "collector" {print $6}' "$SWEEP_DIR/submissions.tsv" | tail -n 1; }
# load_states: STATES for the latest tasks and the collector (lib.sh: states_load);
# state_of TASKID KIND SLUG: Slurm's state, else the task's own record unless stale (task_state).
load_states() {
  # shellcheck disable=SC2046
  states_load $(latest | cut -f5) $(collector_id)
}
state_of() { task_state "$1" "$SWEEP_DIR/state/$2/$3"; }

if [ "$cmd" = status ]; then
  [ -d "$SWEEP_DIR" ] || { echo "sweep-status: $SWEEP_DIR does not exist: sweep '$NAME' was never submitted (make sweep SWEEP=$sweep)" >&2; exit 1; }
  load_states
  declare -A LAST=()
  while IFS=$'\t' read -r k p _ idx tid; do LAST[$k/$p]="$idx $tid"; done < <(latest)
  n_ok=0 n_bad=0 n_fly=0
  printf '%-14s %-34s %-12s %-10s %s\n' kind part state task result
  for k in "${KINDS[@]}"; do
    for p in $(kv "$k" parts); do
      slug=$(part_slug "$p")
      read -r idx tid <<<"${LAST[$k/$p]:-- -}"
      st=$([ "$tid" = - ] && echo "never submitted" || state_of "$tid" "$k" "$slug")
      if complete "$SWEEP_DIR/results/$k" "$slug"; then
        res=complete n_ok=$((n_ok + 1))
      else
        res=missing
        if is_live "$st"; then n_fly=$((n_fly + 1)); else n_bad=$((n_bad + 1)); fi
      fi
      printf '%-14s %-34s %-12s %-10s %s\n' "$k" "$p" "${st%% *}" "$tid" "$res"
      refused=$(ls -t "$SWEEP_DIR/results/$k/$slug".refused-*.txt 2>/dev/null | head -n 1)
      [ $res = missing ] && [ -n "$refused" ] && echo "    the collector refused its tarball: $(cat "$refused")"
      if [ $res = missing ] && [ "$tid" != - ]; then
        log=$(ls -t "$SWEEP_DIR/logs/$k/$idx.${tid%_*}.log" 2>/dev/null | head -n 1)
        case $st in PENDING*|RUNNING*) ;; *)
          if [ -n "$log" ]; then echo "    $log, last lines:"; tail -n 8 "$log" | sed 's/^/    | /'
          else echo "    (no log: the task never started, or its log is not on this file system)"; fi ;;
        esac
      fi
    done
  done
  c=$(collector_id)
  [ -n "$c" ] && echo "collector: job $c, $(state_of "$c" - collector)$([ -f "$SWEEP_DIR/summary.md" ] && echo "; summary: $SWEEP_DIR/summary.md")"
  echo "sweep $NAME: $n_ok complete, $n_bad failed or missing, $n_fly pending or running"
  [ $n_bad -eq 0 ] && [ $n_fly -eq 0 ]
  exit
fi

# ---- submit -----------------------------------------------------------------------------------
bundle=${3:-}
dry=0
[ "${4:-}" = --dry-run ] && dry=1
[ -n "${4:-}" ] && [ $dry = 0 ] && usage
[ -f "$bundle" ] || sweep_die "bundle '$bundle': no such file (make bundle)"
sha=$(basename "$bundle" .tar.gz); sha=${sha#sdpa-bundle-}
if [ $dry = 0 ]; then
  command -v sbatch >/dev/null 2>&1 || sweep_die "sbatch not found: make sweep submits to Slurm (DRY_RUN=1 prints what it would submit)"
fi

# The bundle, unpacked once per commit in the shared directory (atomically: a second submission
# never sees half of it); the dry run checks the parts against a private copy.
bdir=$SWEEP_DIR/bundle-$sha
if [ $dry = 1 ] || [ ! -d "$bdir" ]; then
  tmpb=$(mktemp -d "${TMPDIR:-/tmp}/sweep-bundle.XXXXXX") || sweep_die "cannot create a temporary directory (TMPDIR=${TMPDIR:-unset})"
  trap 'rm -rf "$tmpb"' EXIT
  tar -C "$tmpb" -xzf "$bundle" || sweep_die "bundle '$bundle': cannot unpack"
  mkdir -p "$tmpb/sweep" && cp "$here/task.sh" "$here/collect.sh" "$here/lib.sh" "$here/../campaign/ingest.sh" "$tmpb/sweep/"
  vb=$tmpb
else
  vb=$bdir
fi
# Every part and backend, as the bundle's campaign.sh understands them (an unknown experiment or
# backend is named here).
for k in "${KINDS[@]}"; do
  for p in $(kv "$k" parts); do
    "$vb/bundle/campaign.sh" --plan --backend "$(kv "$k" backend auto)" --part "$p" >/dev/null 2>"${TMPDIR:-/tmp}/sweep-plan.$$" ||
      { msg=$(cat "${TMPDIR:-/tmp}/sweep-plan.$$"); rm -f "${TMPDIR:-/tmp}/sweep-plan.$$"; sweep_die "$sweep: [kind $k] $msg"; }
  done
done
rm -f "${TMPDIR:-/tmp}/sweep-plan.$$"
if [ $dry = 0 ]; then
  mkdir -p "$SWEEP_DIR" || sweep_die "shared = $SHARED: cannot create $SWEEP_DIR"
  if [ ! -d "$bdir" ]; then mv -T "$tmpb" "$bdir.tmp.$$" && mv -T -n "$bdir.tmp.$$" "$bdir"; rm -rf "$bdir.tmp.$$"; fi
fi

# In flight: the latest task of a part that Slurm still has pending or running is not resubmitted.
load_states
declare -A FLY=()
while IFS=$'\t' read -r k p _ _ tid; do
  is_live "${STATES[$tid]:-}" && FLY[$k/$p]=$tid
done < <(latest)

stamp=$("$here/../../experiments/new-run.sh" --id $$) || sweep_die "cannot make a submission id (experiments/new-run.sh)"
jobs=$SWEEP_DIR/jobs/$stamp
q() { printf '%q' "$1"; }
# sbatch_lines KIND-OR-collect: the #SBATCH lines of the site settings.
sbatch_lines() {
  local k=$1 v o
  if [ "$k" = collect ]; then
    for o in partition constraint time account; do
      v=${CFG[collect.$o]:-}; case $o in account|time) v=${v:-${CFG[sweep.$o]:-}} ;; esac
      [ -n "$v" ] && echo "#SBATCH --$o=$v"
    done
    for o in ${CFG[collect.sbatch]:-${CFG[sweep.sbatch]:-}}; do echo "#SBATCH $o"; done
    return
  fi
  for o in partition constraint time account; do v=$(kv "$k" $o); [ -n "$v" ] && echo "#SBATCH --$o=$v"; done
  v=$(kv "$k" gres gpu:1); [ "$v" = none ] || echo "#SBATCH --gres=$v"
  v=$(kv "$k" cpus); [ -n "$v" ] && echo "#SBATCH --cpus-per-task=$v"
  for o in $(kv "$k" sbatch); do echo "#SBATCH $o"; done
}

array_ids=() submitted=0 n_arrays=0
if [ $dry = 0 ]; then
  mkdir -p "$jobs" "$SWEEP_DIR/logs"
  { for k in "${KINDS[@]}"; do for p in $(kv "$k" parts); do
      printf '%s\t%s\t%s\t%s\n' "$k" "$p" "$(part_slug "$p")" "$(kv "$k" emulated no)"; done; done; } >"$SWEEP_DIR/.parts.tsv.$$" &&
    mv -f "$SWEEP_DIR/.parts.tsv.$$" "$SWEEP_DIR/parts.tsv"
fi
for k in "${KINDS[@]}"; do
  parts=() idx=() i=0
  for p in $(kv "$k" parts); do
    parts+=("$p")
    slug=$(part_slug "$p")
    if complete "$SWEEP_DIR/results/$k" "$slug"; then echo "sweep: $k $p: complete, not resubmitted" >&2
    elif [ -n "${FLY[$k/$p]:-}" ]; then echo "sweep: $k $p: task ${FLY[$k/$p]} is ${STATES[${FLY[$k/$p]}]}, not resubmitted" >&2
    else idx+=("$i"); fi
    i=$((i + 1))
  done
  [ ${#idx[@]} -gt 0 ] || continue
  script=$jobs/$k.sbatch
  body=$(cat <<EOF
#!/bin/bash
# Sweep $NAME, device kind $k: one array task per campaign part (generated by tools/sweep/sweep.sh
# from $(realpath "$sweep"); the array lists only the parts without a complete tarball).
#SBATCH --job-name=sdpa-$NAME-$k
#SBATCH --array=$(IFS=,; echo "${idx[*]}")
#SBATCH --ntasks=1
#SBATCH --output=$SWEEP_DIR/logs/$k/%a.%A.log
$(sbatch_lines "$k")
set -u
parts=($(printf "'%s' " "${parts[@]}"))
$(kv "$k" setup)
exec bash $(q "$bdir/sweep/task.sh") $(q "$SWEEP_DIR") $(q "$bdir/bundle") $(q "$k") "\${parts[\$SLURM_ARRAY_TASK_ID]}" \\
  $(q "$(kv "$k" backend auto)") $(q "$QUICK")
EOF
)
  echo "#### $script"; echo "$body"; echo
  cmdline="sbatch --parsable $script"
  if [ $dry = 1 ]; then echo "\$ $cmdline"; echo; array_ids+=("<$k>"); continue; fi
  mkdir -p "$jobs" "$SWEEP_DIR/logs/$k" "$SWEEP_DIR/results/$k" "$SWEEP_DIR/state/$k"
  echo "$body" >"$script"
  jid=$(sbatch --parsable "$script") ||
    sweep_die "sbatch refused $script (its message is above)$([ $n_arrays -gt 0 ] && echo "; the arrays submitted before it (jobs ${array_ids[*]}) run, without a collector: make sweep again submits the rest and one")"
  jid=${jid%%;*}
  echo "\$ $cmdline -> job $jid" >&2
  array_ids+=("$jid") n_arrays=$((n_arrays + 1))
  # Recorded at once: should a later sbatch fail, status and the next submission know these tasks.
  for i in "${idx[@]}"; do
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$stamp" "$k" "${parts[i]}" "$(part_slug "${parts[i]}")" "$i" "${jid}_$i" >>"$SWEEP_DIR/submissions.tsv"
    submitted=$((submitted + 1))
  done
done

# The collector: after every array (whatever became of it), those submitted now and those still
# in flight from an earlier submission; at once when there are none.
for t in "${FLY[@]}"; do case " ${array_ids[*]} " in *" ${t%_*} "*) ;; *) array_ids+=("${t%_*}") ;; esac; done
dep=
[ ${#array_ids[@]} -gt 0 ] && dep="#SBATCH --dependency=afterany:$(IFS=:; echo "${array_ids[*]}")"
cbody=$(cat <<EOF
#!/bin/bash
# Sweep $NAME: the collector. Ingests every complete part, renders reports where the checkout and
# pandoc are reachable, writes summary.{md,json} and one tarball of the results.
#SBATCH --job-name=sdpa-$NAME-collect
#SBATCH --ntasks=1
#SBATCH --output=$SWEEP_DIR/logs/collect.%j.log
$dep
$(sbatch_lines collect)
set -u
${CFG[collect.setup]:-${CFG[sweep.setup]:-}}
exec bash $(q "$bdir/sweep/collect.sh") $(q "$SWEEP_DIR") $(q "$bdir/bundle") $(q "$(pwd)") $(q "$REPORTS")
EOF
)
echo "#### $jobs/collect.sbatch"; echo "$cbody"; echo
if [ $dry = 1 ]; then
  echo "\$ sbatch --parsable $jobs/collect.sbatch"
  echo "sweep $NAME: dry run; nothing was written under $SWEEP_DIR nor submitted" >&2
  exit 0
fi
echo "$cbody" >"$jobs/collect.sbatch"
cid=$(sbatch --parsable "$jobs/collect.sbatch") || sweep_die "sbatch refused $jobs/collect.sbatch"
cid=${cid%%;*}
printf '%s\t%s\t%s\t%s\t%s\t%s\n' collector "$stamp" - - - "$cid" >>"$SWEEP_DIR/submissions.tsv"
echo "sweep $NAME: $submitted task(s) in $n_arrays array job(s), collector job $cid${dep:+ (after ${dep#*afterany:})}; results in $SWEEP_DIR" >&2
echo "  progress: make sweep-status SWEEP=$sweep" >&2
