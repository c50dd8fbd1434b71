# shellcheck shell=bash
# A throwaway single-node Slurm cluster for the sweep tests (sourced). Everything lives in one
# temporary directory: a generated munge key and socket, slurm.conf with free non-default ports,
# state and spool directories, logs. The daemons run in the foreground of background jobs so that
# their pids are known, and slurm_stop kills exactly those pids.
#   slurm_missing          prints what is missing to run a cluster here (empty: nothing)
#   slurm_start DIR        starts munged, slurmctld, slurmd under DIR; exports SLURM_CONF;
#                          returns non-zero (reason on stderr) when the node does not come up
#   slurm_stop             stops the daemons slurm_start started (safe to call twice)
# Two partitions (kind-a, kind-b) and a node feature (emu) let a sweep name device kinds by
# partition and by --constraint. Jobs run as the user who starts the cluster.
_slurm_pids=()
slurm_missing() {
  local p missing=
  for p in munged slurmctld slurmd sbatch squeue scontrol; do
    command -v "$p" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin command -v "$p" >/dev/null 2>&1 || missing="$missing $p"
  done
  [ -z "$missing" ] || echo "not installed:$missing (make deps installs slurmctld slurmd slurm-client munge)"
}
# A TCP port nobody listens on, from a range away from Slurm's defaults (6817-6819).
_slurm_free_port() {
  local p
  for _ in $(seq 50); do
    p=$(( 20000 + RANDOM % 20000 ))
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return 0; }
  done
  return 1
}
slurm_start() {
  local d=$1 user node p1 p2 end
  PATH=$PATH:/usr/sbin
  user=$(id -un) node=$(hostname -s)
  p1=$(_slurm_free_port) && p2=$(_slurm_free_port) || { echo "no free TCP port" >&2; return 1; }
  [ "$p1" != "$p2" ] || p2=$((p1 + 1))
  mkdir -p "$d/state" "$d/spool" "$d/log" && chmod 700 "$d"
  head -c 1024 /dev/urandom >"$d/munge.key" && chmod 400 "$d/munge.key"
  # --force: munged refuses to run as root, and a key in a temporary directory, without it.
  munged -F --force -S "$d/munge.sock" --key-file "$d/munge.key" --pid-file "$d/munged.pid" \
    --seed-file "$d/munge.seed" --log-file "$d/log/munged.log" >/dev/null 2>&1 &
  _slurm_pids+=($!)
  cat >"$d/slurm.conf" <<CONF
ClusterName=sweeptest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$p1
SlurmdPort=$p2
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge.sock
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool/%n
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SchedulerParameters=sched_interval=1
MinJobAge=3600
InactiveLimit=0
KillWait=5
NodeName=$node NodeAddr=127.0.0.1 CPUs=2 RealMemory=256 Feature=emu State=UNKNOWN
PartitionName=kind-a Nodes=$node Default=YES MaxTime=INFINITE State=UP
PartitionName=kind-b Nodes=$node MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$d/slurm.conf
  # 30 s at most, a deadline as below (the socket came within 5 s so far; a loaded machine may not).
  end=$((SECONDS + 30))
  until [ -S "$d/munge.sock" ] || [ $SECONDS -ge $end ]; do sleep 0.1; done
  [ -S "$d/munge.sock" ] || { echo "munged did not start: $(tail -n 3 "$d/log/munged.log" 2>/dev/null)" >&2; return 1; }
  slurmctld -D -i -f "$d/slurm.conf" >"$d/log/slurmctld.out" 2>&1 &
  _slurm_pids+=($!)
  slurmd -D -f "$d/slurm.conf" -N "$node" >"$d/log/slurmd.out" 2>&1 &
  _slurm_pids+=($!)
  # 120 s at most: a deadline, not a count of polls (on a loaded machine each sinfo, and the
  # daemons' start, take their own time).
  end=$((SECONDS + 120))
  while [ $SECONDS -lt $end ]; do
    sinfo -h -N -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)' && return 0
    sleep 0.2
  done
  echo "the node did not come up in 120 s: $(sinfo -h -N -o '%N %T %E' 2>&1 | head -n 2)" >&2
  tail -n 5 "$d/log/slurmctld.log" "$d/log/slurmd.log" >&2 2>/dev/null
  return 1
}
slurm_stop() {
  local p
  [ ${#_slurm_pids[@]} -gt 0 ] || return 0
  # Jobs still queued or running (a failed test) end with this cluster, not after it.
  scancel -u "$(id -un)" 2>/dev/null && sleep 1
  # Reverse order: slurmd, slurmctld, munged; TERM, then KILL what is left after 5 s.
  for ((p = ${#_slurm_pids[@]} - 1; p >= 0; p--)); do kill "${_slurm_pids[p]}" 2>/dev/null; done
  for _ in $(seq 50); do
    local alive=0
    for p in "${_slurm_pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && break
    sleep 0.1
  done
  for p in "${_slurm_pids[@]}"; do kill -9 "$p" 2>/dev/null; done
  _slurm_pids=()
}
