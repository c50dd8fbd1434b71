#!/usr/bin/env bash
# gpu-capture.sh: one command that hung or faulted on the GPU, run again with the CUDA driver's GPU
# core dumps on, so that a lease brings home where each resident thread stood (a hang) or which
# instruction faulted, not only an exit status: a lease comes to one session in twenty, and a kernel
# that never ran on hardware is then debugged on the CPU from what the lease left.
#   gpu-capture.sh DIR WAIT_S CMD [ARG ...]
# DIR     a new or empty directory for what is captured:
#           run.log    CMD's output, the driver's "coredump:" progress lines included
#           core.gz    the GPU core dump, gzipped, when one was written and is at most CORE_CAP bytes
#                      (default 4 MiB: a lease brings back files of 16 MiB at most, and the lease's
#                      other loose files share that one); registers, shared memory (the mbarriers'
#                      phases) and the constant banks (the kernel's parameters, its tensor maps among
#                      them); global memory and the unrelocated ELF images left out
#           gdb.txt    cuda-gdb's reading of the dump (CUDA_GDB, default cuda-gdb): the kernels, every
#                      resident thread's PC with its source line (the kernels carry -lineinfo), the
#                      focused thread's backtrace and instructions, and after a fault the faulting
#                      instruction ($errorpc, as vLLM's blog reads it)
#           capture.tsv  one line: how CMD ended (exit or hung), its exit status, the core's bytes
#                      (0: none), gdb's exit status (- when not run)
# WAIT_S  seconds CMD may run before it counts as hung: the dump is then asked for through the
#         driver's pipe (CUDA_ENABLE_USER_TRIGGERED_COREDUMP) and CMD killed once it is written (at
#         most 30 s later). A fault dumps by itself (CUDA_ENABLE_COREDUMP_ON_EXCEPTION); the driver
#         then aborts CMD (exit 134).
# Exit: CMD's exit status (137 when it was killed as hung). Only for a command already seen to hang
# or fault: the core-dump settings make the driver prepare a debugger's view of the context, nothing
# a timed run should carry. Tested with stand-ins by tests/campaign/short-lease.sh.
set -u
[ $# -ge 3 ] || { echo "usage: gpu-capture.sh DIR WAIT_S CMD [ARG ...]" >&2; exit 2; }
dir=$1 wait_s=$2
shift 2
case $wait_s in '' | *[!0-9]*) echo "gpu-capture.sh: WAIT_S '$wait_s': whole seconds" >&2; exit 2 ;; esac
mkdir -p "$dir" && dir=$(cd "$dir" && pwd) || exit 2
cap=${CORE_CAP:-4194304} gdb=${CUDA_GDB:-cuda-gdb}
ulimit -c 0 # the host process's own core: nothing of the GPU's, and as large as the process
export CUDA_ENABLE_COREDUMP_ON_EXCEPTION=1 CUDA_ENABLE_CPU_COREDUMP_ON_EXCEPTION=0 \
  CUDA_ENABLE_USER_TRIGGERED_COREDUMP=1 CUDA_COREDUMP_SHOW_PROGRESS=1 \
  CUDA_COREDUMP_GENERATION_FLAGS=skip_nonrelocated_elf_images,skip_global_memory \
  CUDA_COREDUMP_FILE="$dir/core.%p" CUDA_COREDUMP_PIPE="$dir/pipe.%p"
"$@" >"$dir/run.log" 2>&1 &
pid=$!
alive() { kill -0 "$pid" 2>/dev/null; }
# The driver's pipe and dump where the templates put them, else under the driver's default names
# (corepipe.cuda.<host>.<pid>, core_<time>_<host>_<pid>.nvcudmp) in the working directory.
pipes() { { find "$dir" -maxdepth 1 -type p -name 'pipe.*'; find "$PWD" -maxdepth 1 -type p -name "corepipe.cuda.*.$pid"; } 2>/dev/null; }
dumps() { { find "$dir" -maxdepth 1 -type f -name 'core.*' ! -name core.gz; find "$PWD" -maxdepth 1 -type f -name "core_*_$pid.nvcudmp"; } 2>/dev/null; }
end=$((SECONDS + wait_s))
while alive && [ $SECONDS -lt $end ]; do sleep 0.2; done
how='exit'
if alive; then
  how=hung
  # The driver reads its pipe (one per process, created with the context) and dumps on any write; 1
  # MiB, since a short write may sit in the pipe's buffer. dd blocks until the driver reads it.
  pipe=$dir/pipe.$pid
  [ -p "$pipe" ] || pipe=$(pipes | head -n 1)
  if [ -n "$pipe" ]; then
    timeout -s KILL 10 dd if=/dev/zero of="$pipe" bs=1M count=1 2>/dev/null
    end=$((SECONDS + 30))
    while alive && [ $SECONDS -lt $end ] && ! grep -q "coredump: All done" "$dir/run.log"; do sleep 0.2; done
  else
    echo "gpu-capture.sh: no pipe from the driver (pipe.* here, corepipe.cuda.*.$pid in $PWD): no dump of the hang" >>"$dir/run.log"
  fi
  kill -KILL "$pid" 2>/dev/null
fi
wait "$pid"
rc=$?
pipes | while IFS= read -r p; do rm -f "$p"; done
core=$dir/core.$pid bytes=0 grc=-
if [ ! -s "$core" ]; then
  other=$(dumps | head -n 1)
  [ -n "$other" ] && mv -f "$other" "$core"
fi
if [ -s "$core" ]; then
  bytes=$(wc -c <"$core")
  if command -v "$gdb" >/dev/null 2>&1; then
    # One command per -ex: gdb goes on after one that fails (a command a dump cannot answer). $pc is
    # gdb's, not the shell's.
    # shellcheck disable=SC2016
    timeout -s KILL 40 "$gdb" -batch -nx -ex 'set pagination off' -ex 'set width 0' \
      -ex "target cudacore $core" -ex 'info cuda kernels' -ex 'info cuda threads' -ex 'bt' \
      -ex 'info symbol $pc' -ex 'x/16i $pc' -ex 'info symbol $errorpc' -ex 'x/8i $errorpc' \
      -ex 'info cuda warps' -ex 'info cuda lanes' </dev/null >"$dir/gdb.txt" 2>&1
    grc=$?
  else
    echo "gpu-capture.sh: $gdb not found: the dump is not read here" >"$dir/gdb.txt"
  fi
  gzip -9 -f "$core"
  if [ "$(wc -c <"$core.gz")" -le "$cap" ]; then
    mv -f "$core.gz" "$dir/core.gz"
  else
    echo "gpu-capture.sh: the dump, $(wc -c <"$core.gz") bytes gzipped, is over $cap: not kept" >>"$dir/run.log"
    rm -f "$core.gz"
  fi
fi
printf '%s\t%s\t%s\t%s\n' "$how" "$rc" "$bytes" "$grc" >"$dir/capture.tsv"
exit "$rc"
