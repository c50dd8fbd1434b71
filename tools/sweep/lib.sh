# Shared by the sweep tools (sourced): the sweep file's parser, part names, result completeness
# and Slurm states. The format is documented in experiments/sweeps/README.md.
# shellcheck shell=bash

# Keys each section accepts; a key given where it is not listed is an error naming it. (Read
# through an indirect name, as are SWEEP_DIR and the like by the scripts that source this.)
# shellcheck disable=SC2034
SWEEP_KEYS_sweep=" name shared backend quick parts reports account time sbatch setup "
SWEEP_KEYS_kind=" partition constraint gres time account emulated backend parts sbatch setup cpus "
SWEEP_KEYS_collect=" partition constraint time account sbatch setup "

sweep_die() { echo "sweep: $*" >&2; exit 2; }

# sweep_parse FILE: fills CFG["section.key"] (section: sweep, collect or kind:NAME) and KINDS
# (in file order); ${NAME} in a value is taken from the environment (site settings).
declare -gA CFG=() CFG_LINE=()
KINDS=()
sweep_parse() {
  local file=$1 n=0 section='' line key val var sec_keys
  [ -f "$file" ] || sweep_die "SWEEP=$file: no such file"
  SWEEP_FILE=$file
  while IFS= read -r line || [ -n "$line" ]; do
    n=$((n + 1))
    line=${line%%#*}
    line=$(echo "$line" | sed -E 's/^[[:space:]]+|[[:space:]]+$//g')
    [ -n "$line" ] || continue
    case $line in
      '[sweep]') section=sweep ;;
      '[collect]') section=collect ;;
      '[kind '*']')
        key=$(echo "${line#\[kind }" | tr -d ']' | sed -E 's/^[[:space:]]+|[[:space:]]+$//g')
        [[ $key =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] ||
          sweep_die "$file:$n: kind name '$key': use letters, digits, '.', '_' and '-'"
        case " ${KINDS[*]} " in *" $key "*) sweep_die "$file:$n: kind '$key' is defined twice" ;; esac
        KINDS+=("$key") section=kind:$key ;;
      '['*) sweep_die "$file:$n: unknown section '$line' (accepted: [sweep], [kind NAME], [collect])" ;;
      *=*)
        [ -n "$section" ] || sweep_die "$file:$n: '$line' comes before any [section]"
        key=$(echo "${line%%=*}" | sed -E 's/[[:space:]]+$//') val=$(echo "${line#*=}" | sed -E 's/^[[:space:]]+//')
        sec_keys=SWEEP_KEYS_${section%%:*}
        case ${!sec_keys} in *" $key "*) ;; *)
          sweep_die "$file:$n: [${section/:/ }] has no key '$key' (accepted:${!sec_keys% })" ;; esac
        while [[ $val =~ \$\{([A-Za-z_][A-Za-z0-9_]*)\} ]]; do
          var=${BASH_REMATCH[1]}
          [ -n "${!var+set}" ] || sweep_die "$file:$n: $key uses \${$var}, which is not set in the environment"
          val=${val//"\${$var}"/${!var}}
        done
        CFG[$section.$key]=$val CFG_LINE[$section.$key]=$n ;;
      *) sweep_die "$file:$n: expected 'key = value' or a [section], got '$line'" ;;
    esac
  done <"$file"
  sweep_check
}

# kv KIND KEY [DEFAULT]: the kind's value, else the [sweep] value, else DEFAULT.
kv() {
  if [ -n "${CFG[kind:$1.$2]+set}" ]; then echo "${CFG[kind:$1.$2]}"
  elif [ -n "${CFG[sweep.$2]+set}" ] && case $SWEEP_KEYS_sweep in *" $2 "*) true ;; *) false ;; esac; then echo "${CFG[sweep.$2]}"
  else echo "${3:-}"; fi
}

# part_slug PART: a file name for a campaign part (experiment:stage1 -> experiment-stage1).
part_slug() { echo "$1" | tr ':,' '--'; }

# part_check PART: the grammar of campaign.sh's --part values (a part becomes a file name). Which
# parts exist is campaign.sh's list alone: sweep.sh asks the bundle's campaign.sh --plan --part.
part_check() {
  case $1 in
    experiment:*) [[ ${1#experiment:} =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] ;;
    scaling:*)
      local s
      [ -n "${1#scaling:}" ] || return 1
      for s in $(echo "${1#scaling:}" | tr , ' '); do
        [[ $s =~ ^[0-9]+$ ]] && [ "$s" -ge 1 ] || return 1
      done ;;
    *) [[ $1 =~ ^[a-z]+$ ]] ;;
  esac
}

sweep_check() {
  local f=$SWEEP_FILE k v p
  NAME=${CFG[sweep.name]:-}
  [ -n "$NAME" ] || sweep_die "$f: [sweep] name is missing"
  [[ $NAME =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] || sweep_die "$f: [sweep] name '$NAME': use letters, digits, '.', '_' and '-'"
  SHARED=${CFG[sweep.shared]:-}
  [ -n "$SHARED" ] || sweep_die "$f: [sweep] shared is missing (a directory every node sees)"
  case $SHARED in /*) ;; *) SHARED=$PWD/$SHARED ;; esac
  # shellcheck disable=SC2034
  SWEEP_DIR=$SHARED/$NAME
  QUICK=$(kv - quick no)
  case $QUICK in yes|no) ;; *) sweep_die "$f: [sweep] quick = '$QUICK': accepted values are yes and no" ;; esac
  REPORTS=$(kv - reports all)
  [[ $REPORTS =~ ^(all|[0-9]+)$ ]] || sweep_die "$f: [sweep] reports = '$REPORTS': 'all' or a number"
  [ ${#KINDS[@]} -gt 0 ] || sweep_die "$f: no [kind NAME] section (one per device kind)"
  for k in "${KINDS[@]}"; do
    v=$(kv "$k" backend auto)
    case $(kv "$k" emulated no) in yes|no) ;; *) sweep_die "$f: [kind $k] emulated: accepted values are yes and no" ;; esac
    [ "$v" != emu ] || [ "$(kv "$k" emulated no)" = yes ] ||
      sweep_die "$f: [kind $k] backend = emu measures no GPU: say emulated = yes (ingested with --allow-emulated)"
    v=$(kv "$k" parts)
    [ -n "$v" ] || sweep_die "$f: [kind $k] has no parts (parts = ... here or in [sweep])"
    local where=kind:$k seen=' ' slug
    [ -n "${CFG[kind:$k.parts]+set}" ] || where=sweep
    for p in $v; do
      part_check "$p" ||
        sweep_die "$f: [kind $k] part '$p': a part is a name (campaign.sh --part: history, scaling, ...), experiment:<name> or scaling:S1,S2,... (S >= 1)"
      # A part is a task and a result file (results/<kind>/<slug>.tar.gz): listed twice, two tasks
      # would race for one file and one would be ingested as the other.
      slug=$(part_slug "$p")
      case $seen in *" $slug "*)
        sweep_die "$f:${CFG_LINE[$where.parts]}: [${where/:/ }] part '$p' is listed twice (or as another spelling of the same part)" ;; esac
      seen="$seen$slug "
    done
    v=$(kv "$k" cpus)
    [ -z "$v" ] || [[ $v =~ ^[1-9][0-9]*$ ]] || sweep_die "$f: [kind $k] cpus = '$v': a positive number"
  done
}

# complete RESULTS_DIR SLUG: the part's tarball is there and matches its checksum file.
complete() {
  [ -f "$1/$2.tar.gz" ] && [ -f "$1/$2.tar.gz.sha256" ] && (cd "$1" && sha256sum --quiet --strict -c "$2.tar.gz.sha256" >/dev/null 2>&1)
}

# slurm_states JOBID...: "TASKID STATE" lines (TASKID as JOBID_INDEX) for the array jobs given,
# from squeue (live), else sacct (accounting, when the site has it), else scontrol (jobs the
# controller still remembers). Tasks none of them knows are left out. "- SQUEUE_OK" first when
# squeue answered: then a task it does not list is neither pending nor running.
slurm_states() {
  local j ids=("$@")
  [ ${#ids[@]} -gt 0 ] || return 0
  command -v squeue >/dev/null 2>&1 || return 0
  local live
  live=$(squeue -h -r -j "$(IFS=,; echo "${ids[*]}")" -o '%i %T' 2>/dev/null) && echo "- SQUEUE_OK"
  [ -n "$live" ] && echo "$live"
  for j in "${ids[@]}"; do
    local got
    # sacct's State may read "CANCELLED by 0": the first word is the state.
    got=$(sacct -n -X -P -j "$j" -o JobID,State 2>/dev/null | awk -F'|' '$1 ~ /^[0-9]+(_[0-9]+)?$/ {split($2, w, " "); print $1, w[1]}')
    [ -n "$got" ] || got=$(scontrol -o show job "$j" 2>/dev/null |
      sed -nE 's/.*ArrayJobId=([0-9]+) ArrayTaskId=([0-9]+) .*JobState=([A-Z_]+).*/\1_\2 \3/p; t; s/^JobId=([0-9]+) .*JobState=([A-Z_]+).*/\1 \2/p')
    [ -n "$got" ] && echo "$got"
  done
}

# states_load TASKID...: STATES[task] from Slurm (slurm_states) for the tasks' array jobs.
declare -gA STATES=()
states_load() {
  local t st
  # shellcheck disable=SC2046
  while read -r t st; do [ -n "$t" ] && [ -z "${STATES[$t]+set}" ] && STATES[$t]=$st; done < \
    <(slurm_states $(printf '%s\n' "$@" | grep -v '^-$' | cut -d_ -f1 | sort -u))
}
is_live() { case $1 in PENDING*|RUNNING*|CONFIGURING*|COMPLETING*|REQUEUED*|SUSPENDED*) true ;; *) false ;; esac; }

# task_state TASKID STATEFILE: the task's state. Slurm's when it knows the task; else what the
# task recorded in STATEFILE ("STATE JOB TIME [WHY]"), unless that record is stale: written by
# another task, or a live state (RUNNING) while squeue lists the task no more. A task killed by
# SIGKILL, the OOM killer or a node failure records nothing at its end: then LOST.
task_state() {
  local t=$1 f=$2 st job when
  if [ -n "${STATES[$t]+set}" ]; then echo "${STATES[$t]}"; return; fi
  [ -f "$f" ] && read -r st job when _ <"$f"
  if [ -z "${st:-}" ] || [ "$job" != "$t" ]; then echo UNKNOWN; return; fi
  if is_live "$st" && [ -n "${STATES[-]+set}" ]; then echo "LOST (recorded $st at $when; Slurm lists it no more: killed?)"; return; fi
  echo "$st (recorded by the task)"
}

# state_fix TASKID STATEFILE: after the fact (the collector), a record still saying RUNNING for a
# task that has ended takes the state that ended it, so that no view shows it running.
state_fix() {
  local t=$1 f=$2 st job
  [ -f "$f" ] && read -r st job _ <"$f" || return 0
  [ "$job" = "$t" ] && is_live "$st" || return 0
  local now
  now=$(task_state "$t" "$f")
  is_live "$now" && return 0
  echo "${now%% *} $t $(date -u +%Y-%m-%dT%H:%M:%SZ) from Slurm (the task recorded $st and was ended without a word: SIGKILL, OOM or its node)" \
    >"$f.tmp.$$" && mv -f "$f.tmp.$$" "$f"
}
