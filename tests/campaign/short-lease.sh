#!/usr/bin/env bash
# tools/campaign/short-lease.sh, the one command of a short GPU lease, on a stand-in bundle (no GPU
# here): a bin/sdpa-bench that answers the probe, lists two variants and writes a file per check,
# and a campaign.sh that records its arguments and writes its tarball. The steps in their order,
# each with its exit status and limit in steps.tsv; a failing variant does not stop the others, and
# one whose smoke hung or faulted is left out of the matrices;
# the campaign gets what is left less 90 s as its --time-limit; the loose files packed into
# node-files.tar.gz after every step, OUT left with packed files only (a campaign killed before it
# packed: its work directory packed; the whole command killed: every finished step in
# node-files.tar.gz, the loose files out of a lease's reach); an unusable CUDA skips every later
# step; a short deadline skips what does not fit; the bundle given as its tarball; bad arguments
# are refused.
# Usage: tests/campaign/short-lease.sh
# shellcheck disable=SC2016 # the checks' bash -c scripts expand their own arguments
set -u
. tests/tap.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/short-lease-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
S=$PWD/tools/campaign/short-lease.sh
B=$tmp/bundle
mkdir -p "$B/bin"
cat >"$B/bin/sdpa-bench" <<'EOF'
#!/usr/bin/env bash
# stand-in: FAKE_PROBE_RC (the probe's exit), FAKE_FAIL and FAKE_FAIL2 (variants whose checks alone
# exit 3), FAKE_WRONG (one whose check alone exits 1, its output under --dump-failed; FAKE_DUMP_KB
# its size), FAKE_WRONG2 (another), FAKE_HANG and FAKE_HANG2 (ones whose checks
# alone never end; their pids in $FAKE_LOG.hung). With the driver's core-dump variables set
# (gpu-capture.sh): a failing variant writes its dump and aborts (134); a hanging one makes the
# driver's pipe (not with FAKE_NOPIPE) and writes its dump once the pipe is written, then hangs on;
# with FAKE_DEFAULT_NAMES, pipe and dump under the driver's default names in the working directory.
echo "$*" >>"$FAKE_LOG"
case " $* " in
  *" --probe "*) exit "${FAKE_PROBE_RC:-0}" ;;
  *" --list-variants "*) printf 'stage6  mma.sync\nstage7f  wgmma, overlap\n'; exit 0 ;;
esac
out= v= nv=0 df=
while [ $# -gt 0 ]; do
  case $1 in --out) out=$2; shift ;; --variant) v=$2 nv=$((nv + 1)); shift ;; --dump-failed) df=$2; shift ;; esac
  shift
done
# one --variant only: a check of that variant alone (the smoke), not a matrix that lists it
[ $nv -eq 1 ] || v=
c=${CUDA_COREDUMP_FILE:-}; c=${c/\%p/$$} p=${CUDA_COREDUMP_PIPE:-}; p=${p/\%p/$$}
[ -z "${FAKE_DEFAULT_NAMES:-}" ] || c=$PWD/core_1_host_$$.nvcudmp p=$PWD/corepipe.cuda.host.$$
dump() { echo "fake core of $v" >"$c"; echo "coredump: All done" >&2; }
case $v in
  '') ;;
  "${FAKE_HANG:-}"|"${FAKE_HANG2:-}")
    echo $$ >>"$FAKE_LOG.hung"
    if [ -n "${CUDA_ENABLE_USER_TRIGGERED_COREDUMP:-}" ] && [ -z "${FAKE_NOPIPE:-}" ]; then
      mkfifo "$p" && head -c 1 "$p" >/dev/null && dump
    fi
    exec sleep 300 ;;
  "${FAKE_FAIL:-}"|"${FAKE_FAIL2:-}")
    echo "cudaErrorIllegalAddress" >&2
    [ -n "${CUDA_ENABLE_COREDUMP_ON_EXCEPTION:-}" ] && { dump; exit 134; }
    exit 3 ;;
esac
if [ -n "$v" ] && { [ "$v" = "${FAKE_WRONG:-}" ] || [ "$v" = "${FAKE_WRONG2:-}" ]; }; then
  # its first failing check's output, FAKE_DUMP_KB kilobytes (default 1), under --dump-failed
  [ -z "$df" ] || { mkdir -p "$df/$v-ragged-s0" && head -c "$((${FAKE_DUMP_KB:-1} * 1024))" /dev/zero >"$df/$v-ragged-s0/o.npy"; }
  echo '{"kind": "sdpa-bench-run"}' >"$out"; exit 1
fi
echo '{"kind": "sdpa-bench-run"}' >"$out"
EOF
cat >"$B/campaign.sh" <<'EOF'
#!/usr/bin/env bash
# stand-in: records its arguments; a run writes its --out, or (FAKE_CAMPAIGN=killed) leaves its
# work directory as a SIGKILL would, or (slow) sleeps, or (matrix) writes a tarball whose matrix
# part ran (matrix/*.json); --pack DIR packs DIR (FAKE_PACK_FAIL: fails)
echo "campaign.sh $*" >>"$FAKE_LOG"
case " $* " in *" --plan "*) echo "plan" >&2; exit 0 ;; esac
out= pack=
while [ $# -gt 0 ]; do case $1 in --out) out=$2; shift ;; --pack) pack=$2; shift ;; esac; shift; done
if [ -n "$pack" ]; then
  [ -n "${FAKE_PACK_FAIL:-}" ] && exit 3
  echo packed >"$(cat "$pack/state/out")" && rm -rf "$pack"; exit 0
fi
case ${FAKE_CAMPAIGN:-} in
  killed) w=${out%.tar.gz}.partial; mkdir -p "$w/state" "$w/campaign-x/runs"; echo "$out" >"$w/state/out"
          for i in 1 2 3 4 5 6 7 8 9; do echo "$i" >"$w/campaign-x/f$i.json"; done; exit 137 ;;
  slow) echo $$ >"$FAKE_LOG.pid"; exec sleep 30 ;; # timeout(1) makes its own process group: the test kills it
  matrix) w=$(mktemp -d) && mkdir -p "$w/campaign-x/matrix" && for m in e4m3 seed-linear outliers wide; do
            echo "{}" >"$w/campaign-x/matrix/$m.json"; done && tar -czf "$out" -C "$w" campaign-x && rm -rf "$w"; exit 4 ;;
esac
echo tarball >"$out"
exit 4
EOF
chmod +x "$B/bin/sdpa-bench" "$B/campaign.sh"
echo "fp8-sdpa-stages 0123abc stage6-fp8-mma" >"$B/VERSION" # as make bundle writes it: the kernels' commit, the experiments
mkdir -p "$B/experiments/stage6-fp8-mma" "$B/experiments/stage7a-tma-kv" "$B/experiments/stage7i-edge-mask"
FIRST="--first probes --first profiles --first experiment:stage7a-tma-kv --first experiment:stage7i-edge-mask"
export FAKE_LOG=$tmp/log CUDA_GDB=$PWD/tests/campaign/fake/cuda-gdb
# lease NAME DEADLINE [ENV...]: short-lease.sh on BUNDLE (default the stand-in's directory) into
# $tmp/NAME; its exit status in rc, the whole seconds it took ($SECONDS before and after) in took,
# steps.tsv unpacked
lease() {
  local name=$1 d=$2 s=$SECONDS; shift 2
  : >"$FAKE_LOG"
  (cd "${LEASE_CWD:-.}" && env "$@" bash "$S" "${BUNDLE:-$B}" "$tmp/$name" "$d") >"$tmp/$name.log" 2>&1
  rc=$? took=$((SECONDS - s))
  mkdir -p "$tmp/$name.unpacked" && tar -xzf "$tmp/$name/node-files.tar.gz" -C "$tmp/$name.unpacked" 2>/dev/null
}
# NAME:EXIT per step (env's exit is whatever this machine's tools answer: left out)
steps() { awk -F'\t' 'NR > 1 { printf "%s:%s ", $1, ($1 == "env" && $2 != "skipped" ? "ran" : $2) }' "$tmp/$1.unpacked/files/steps.tsv" | sed 's/ $//'; }

lease ok 600
tap_ok "a lease of 600 s: exit 0, node-files.tar.gz and the campaign's tarball in OUT" \
  test $rc -eq 0 -a -s "$tmp/ok/node-files.tar.gz" -a -s "$tmp/ok/c1.tar.gz"
tap_ok "  ... every step in order, each with its exit status (the campaign's 4: parts left)" test "$(steps ok)" = \
  "env:ran probe:0 smoke-stage6:0 smoke-stage7f:0 matrix-e4m3:0 matrix-wide:0 campaign:4 matrix-seed-linear:0 matrix-outliers:0"
tap_ok "  ... the environment step names the bundle's commit (its VERSION): which kernels ran" \
  grep -qx "bundle: fp8-sdpa-stages 0123abc stage6-fp8-mma" "$tmp/ok.unpacked/files/env.log"
tap_ok "  ... each variant alone, its file kept; the matrices' files too, over both variants" \
  bash -c 'cd "$1" && test -s smoke-stage6.json -a -s smoke-stage7f.json -a -s matrix-e4m3.json -a -s matrix-wide.json \
           -a -s matrix-seed-linear.json -a -s matrix-outliers.json &&
           [ "$(grep -c -- "--check-only --variant stage6 --variant stage7f .*--out .*/matrix-" "$2")" -eq 4 ]' \
  _ "$tmp/ok.unpacked/files" "$FAKE_LOG"
# A fault at a shape the smoke skipped would cost a whole matrix file: the smoke runs them all.
mshapes=$(grep -- "--out .*/matrix-" "$FAKE_LOG" | grep -o -- "--shape [a-z0-9-]*" | sort -u | sed 's/--shape //')
sshapes=$(grep -- "--variant stage7f .*--out .*/smoke-stage7f.json" "$FAKE_LOG" | grep -o -- "--shape [a-z0-9-]*" | sed 's/--shape //')
missing=$(for s in $mshapes; do grep -qx "$s" <<<"$sshapes" || echo "$s"; done | tr '\n' ' ')
tap_ok "  ... the smoke runs every shape the matrices run ($(wc -w <<<"$mshapes") of them)${missing:+; missing: $missing}" \
  test -n "$mshapes" -a -z "$missing"
tl=$(sed -nE "s/^campaign.sh --backend cuda $FIRST --check-timeout 10 --time-limit ([0-9]+) --out .*/\\1/p" "$FAKE_LOG")
# What was left: 600 less the seconds before the campaign, at least the steps' own (steps.tsv) and
# at most the whole lease's (took: whole seconds of the same clock over a longer interval), a window
# as wide as this machine was slow, not a fixed 10 s.
before=$(awk -F'\t' '$1 == "campaign" { exit } NR > 1 { s += $3 } END { print s + 0 }' "$tmp/ok.unpacked/files/steps.tsv")
tap_ok "  ... the campaign ran once, on CUDA, with what was left less 45 s ($tl of 600: $((555 - took)) to $((555 - before)))" \
  bash -c '[ -n "$1" ] && [ "$1" -le $((555 - $3)) ] && [ "$1" -ge $((555 - $4)) ] && [ "$(grep -c "^campaign.sh --backend cuda .*--time-limit $1 --out " "$2")" -eq 1 ] &&
           grep -q "^campaign.sh --backend cuda .*--plan --time-limit $1$" "$2"' _ "$tl" "$FAKE_LOG" "$before" "$took"
tap_ok "  ... the probes, the profiles and the bundle's Hopper experiments (stage7*, not stage 6's) first, each check under 10 s, plan and run alike" \
  bash -c '[ "$(grep -c -- "^campaign.sh --backend cuda $1 --" "$2")" -eq 2 ] && ! grep -q "first experiment:stage6" "$2"' _ "$FIRST" "$FAKE_LOG"
tap_ok "  ... its plan beside the steps, the loose files and the temporary directory removed" \
  bash -c 'grep -q plan "$1/files/campaign-plan.log" && [ ! -e "$2/files" ] && [ ! -e "$2/tmp" ]' _ "$tmp/ok.unpacked" "$tmp/ok"
tap_ok "  ... OUT holds the two packed files and nothing else" test "$(ls -A "$tmp/ok" | tr '\n' ' ')" = "c1.tar.gz node-files.tar.gz "

# A campaign whose own matrix part ran: the seed-linear and outlier matrices are not run again.
lease inc1 600 FAKE_CAMPAIGN=matrix
tap_ok "a campaign tarball with matrix/seed-linear.json and matrix/outliers.json: those two matrices not run again (in-c1)" \
  bash -c '[[ "$1" == *" matrix-wide:0 campaign:4 matrix-seed-linear:in-c1 matrix-outliers:in-c1" ]] &&
           ! grep -qE -- "--out .*/matrix-(seed-linear|outliers)\.json" "$2"' _ "$(steps inc1)" "$FAKE_LOG"

# A campaign killed before it could pack: its work directory packed by campaign.sh --pack, else as it is.
lease killed 600 FAKE_CAMPAIGN=killed
tap_ok "a campaign killed (137) before packing: campaign.sh --pack makes c1.tar.gz, the work directory gone" \
  bash -c '[[ "$1" == *" campaign:137 "* ]] && [ "$(ls -A "$2" | tr "\n" " ")" = "c1.tar.gz node-files.tar.gz " ] &&
           grep -q "^campaign.sh --pack $2/c1.partial$" "$3"' _ "$(steps killed)" "$tmp/killed" "$FAKE_LOG"
lease nopack 600 FAKE_CAMPAIGN=killed FAKE_PACK_FAIL=1
tap_ok "  ... and where --pack fails, the work directory as one tarball, c1-partial.tar.gz" \
  bash -c '[ "$(ls -A "$1" | tr "\n" " ")" = "c1-partial.tar.gz node-files.tar.gz " ] &&
           [ "$(tar -tzf "$1/c1-partial.tar.gz" | grep -c "\.json$")" -eq 9 ]' _ "$tmp/nopack"

# The whole command killed in the campaign (the lease's own limit): node-files.tar.gz holds every
# step before it, and nothing else of OUT lies within two folders of it.
: >"$FAKE_LOG"
FAKE_CAMPAIGN=slow setsid bash "$S" "$B" "$tmp/cut" 600 >"$tmp/cut.log" 2>&1 &
pid=$!
# Until the stand-in campaign runs (its pid written after its line), for 60 s at most: a deadline,
# not a count of polls (a loaded machine may take seconds over the steps before it).
end=$((SECONDS + 60))
until grep -q "^campaign.sh --backend cuda .*--time-limit [0-9]* --out" "$FAKE_LOG" && [ -s "$FAKE_LOG.pid" ]; do
  [ $SECONDS -lt $end ] || break
  sleep 0.1
done
kill -KILL -- -"$pid" 2>/dev/null; wait "$pid" 2>/dev/null
[ -s "$FAKE_LOG.pid" ] && kill -KILL "$(cat "$FAKE_LOG.pid")" 2>/dev/null
mkdir -p "$tmp/cut.unpacked" && tar -xzf "$tmp/cut/node-files.tar.gz" -C "$tmp/cut.unpacked" 2>/dev/null
tap_ok "killed during the campaign: node-files.tar.gz holds the steps before it, packed as they ended" \
  test "$(steps cut)" = "env:ran probe:0 smoke-stage6:0 smoke-stage7f:0 matrix-e4m3:0 matrix-wide:0"
tap_ok "  ... and it is the only file of OUT within two folders (the loose ones lie deeper)" \
  test "$(cd "$tmp/cut" && find . -mindepth 1 -maxdepth 3 -type f | tr '\n' ' ')" = "./node-files.tar.gz "

lease fail 600 FAKE_FAIL=stage6
tap_ok "a variant that faults (exit 3) is recorded and the others still run" \
  bash -c '[[ "$1" == "env:ran probe:0 smoke-stage6:3 smoke-stage7f:0 matrix-e4m3:0 "* ]]' _ "$(steps fail)"
tap_ok "  ... the four matrices run the other variant alone (a fault would poison the context for the rest); left-out.txt says why" \
  bash -c '[ "$(grep -c -- "--check-only --variant stage7f --shape [a-z0-9-]* .*--out .*/matrix-" "$1")" -eq 4 ] &&
           ! grep -- "--out .*/matrix-" "$1" | grep -q -- "--variant stage6" &&
           [ "$(cat "$2/left-out.txt")" = "$(printf "stage6\tsmoke exit 3")" ]' _ "$FAKE_LOG" "$tmp/fail.unpacked/files"
tap_ok "  ... and each smoke reaches the ring's wrap, causal, D = 128, 7i's masked edge tile and the ring's fifth wrap (long)" \
  bash -c 'grep -q -- "--variant stage7f --shape single --shape ragged --shape mission --shape mission-causal --shape mission-d128 --shape mission-d128-causal --shape small --shape partial" "$1" &&
           grep -- "--variant stage7f .*--out .*/smoke-stage7f.json" "$1" | grep -q -- "--shape long "' _ "$FAKE_LOG"
tap_ok "  ... the campaign (and its plan) get left-out.txt, so that it records stage6 and does not run it again" \
  bash -c '[ "$(grep -c "^campaign.sh .*--left-out $2/left-out.txt" "$1")" -eq 2 ]' _ "$FAKE_LOG" "$tmp/fail/tmp/lease/files"
# capture_ok LEASE VARIANT HOW EXIT: capture-VARIANT/ as gpu-capture.sh leaves it after a hang or a
# fault with a dump: capture.tsv, the dump gzipped, cuda-gdb's reading of it, no pipe left, and the
# capture run the smoke's own command but for its --out (no smoke file overwritten).
capture_ok() {
  local d=$tmp/$1.unpacked/files/capture-$2
  [ "$(cut -f 1,2,4 "$d/capture.tsv")" = "$(printf '%s\t%s\t0' "$3" "$4")" ] && [ "$(cut -f 3 "$d/capture.tsv")" -gt 0 ] &&
    [ "$(gzip -dc "$d/core.gz")" = "fake core of $2" ] && grep -q "^fake core of $2$" "$d/gdb.txt" &&
    grep -q "coredump: All done" "$d/run.log" && [ -z "$(find "$d" -type p)" ] &&
    grep -q "^cuda-gdb -batch .*target cudacore .*/capture-$2/core\.[0-9]* .*info cuda threads" "$FAKE_LOG" &&
    [ "$(grep -- "--variant $2 .*--out .*/smoke-$2.json" "$FAKE_LOG" | sed 's/ --out .*//')" = \
      "$(grep -- "--variant $2 .*--out .*/capture-$2/smoke.json" "$FAKE_LOG" | sed 's/ --out .*//')" ]
}
tap_ok "  ... the faulting variant run again under gpu-capture.sh: its GPU core dump (the driver aborts it: 134) and cuda-gdb's reading, beside the smoke's files" \
  bash -c '[[ "$1" == *" matrix-wide:0 capture-stage6:134 campaign:4 "* ]]' _ "$(steps fail)"
tap_ok "  ... capture-stage6/: capture.tsv, core.gz, gdb.txt, the smoke's command again with its own --out" capture_ok fail stage6 exit 134
lease hang 600 FAKE_HANG=stage7f SHORT_LEASE_SMOKE_S=2
tap_ok "a variant that hangs: its smoke killed at its limit (137), left out of the matrices, run again under gpu-capture.sh" \
  bash -c '[ "$1" = "env:ran probe:0 smoke-stage6:0 smoke-stage7f:137 matrix-e4m3:0 matrix-wide:0 capture-stage7f:137 campaign:4 matrix-seed-linear:0 matrix-outliers:0" ] &&
           [ "$(cat "$2/left-out.txt")" = "$(printf "stage7f\tsmoke exit 137")" ]' _ "$(steps hang)" "$tmp/hang.unpacked/files"
tap_ok "  ... the dump asked for through the driver's pipe once the wait was over, then the process killed: capture.tsv 'hung', core.gz, gdb.txt" \
  capture_ok hang stage7f hung 137
# A killed process may linger as a zombie (state Z) for a moment: timeout -s KILL signals its own
# process group, itself included, so the smoke's process is left to init to reap. Dead all the same.
tap_ok "  ... and no hung process left running, of the smoke or of the capture" \
  bash -c '[ "$(wc -l <"$1")" -eq 2 ] && while read -r p; do case $(sed "s/.*) //" "/proc/$p/stat" 2>/dev/null) in ""|Z*) ;; *) exit 1 ;; esac; done <"$1"' _ "$FAKE_LOG.hung"
rm -f "$FAKE_LOG.hung"
lease mixed 600 FAKE_HANG=stage6 FAKE_FAIL=stage7f SHORT_LEASE_SMOKE_S=2
tap_ok "a hang and a fault: both captured, the hang first" \
  bash -c '[[ "$1" == *" matrix-wide:skipped capture-stage6:137 capture-stage7f:134 campaign:4 "* ]]' _ "$(steps mixed)"
both() { capture_ok mixed stage6 hung 137 && capture_ok mixed stage7f exit 134; }
tap_ok "  ... each in its own directory" both
lease twohangs 600 FAKE_HANG=stage6 FAKE_HANG2=stage7f SHORT_LEASE_SMOKE_S=2
tap_ok "two hangs: the first captured only (a second most likely the same defect)" \
  bash -c '[[ "$1" == *" smoke-stage6:137 smoke-stage7f:137 matrix-e4m3:skipped matrix-wide:skipped capture-stage6:137 campaign:4 "* ]] &&
           [ ! -e "$2/capture-stage7f" ]' _ "$(steps twohangs)" "$tmp/twohangs.unpacked/files"
mkdir -p "$tmp/wd"
LEASE_CWD=$tmp/wd lease defaults 600 FAKE_HANG=stage7f FAKE_DEFAULT_NAMES=1 SHORT_LEASE_SMOKE_S=2
tap_ok "a driver that keeps its default names (corepipe.cuda.<host>.<pid>, core_<time>_<host>_<pid>.nvcudmp, in the working directory): found there, the dump moved into the capture, nothing left behind" \
  bash -c '[ "$(gzip -dc "$1/capture-stage7f/core.gz")" = "fake core of stage7f" ] && [ -z "$(ls -A "$2")" ]' _ "$tmp/defaults.unpacked/files" "$tmp/wd"
lease nopipe 600 FAKE_HANG=stage7f FAKE_NOPIPE=1 SHORT_LEASE_SMOKE_S=2 CUDA_GDB="$tmp/no-such-gdb"
tap_ok "a driver that makes no pipe: the hang is killed all the same, said in run.log, no dump and no cuda-gdb" \
  bash -c 'd=$1/capture-stage7f; [ "$(cat "$d/capture.tsv")" = "$(printf "hung\t137\t0\t-")" ] && grep -q "no pipe" "$d/run.log" &&
           [ ! -e "$d/core.gz" ] && [ ! -e "$d/gdb.txt" ]' _ "$tmp/nopipe.unpacked/files"
lease nogdb 600 FAKE_FAIL=stage6 CUDA_GDB="$tmp/no-such-gdb" CORE_CAP=5
tap_ok "no cuda-gdb on the node: gdb.txt says so; a dump over CORE_CAP (gzipped) is not kept, and run.log says so" \
  bash -c 'd=$1/capture-stage6; [ "$(cut -f 1,2,4 "$d/capture.tsv")" = "$(printf "exit\t134\t-")" ] && grep -q "not found" "$d/gdb.txt" &&
           [ ! -e "$d/core.gz" ] && grep -q "over 5: not kept" "$d/run.log"' _ "$tmp/nogdb.unpacked/files"
lease tight 350 FAKE_FAIL=stage6
tap_ok "a capture that would leave the campaign under 300 s is skipped (350 s: 110 for it, the campaign 260)" \
  bash -c '[[ "$1" == *" matrix-wide:0 capture-stage6:skipped campaign:4 "* ]]' _ "$(steps tight)"
lease allfail 600 FAKE_FAIL=stage6 FAKE_FAIL2=stage7f
tap_ok "no variant with a verdict: the matrices are skipped (no sdpa-bench run of every variant), the campaign still runs" \
  bash -c '[ "$1" = "env:ran probe:0 smoke-stage6:3 smoke-stage7f:3 matrix-e4m3:skipped matrix-wide:skipped capture-stage6:134 campaign:4 matrix-seed-linear:skipped matrix-outliers:skipped" ] &&
           ! grep -q -- "--out .*/matrix-" "$2"' _ "$(steps allfail)" "$FAKE_LOG"
lease wrong 600 FAKE_WRONG=stage6
tap_ok "a wrong result (exit 1) is a verdict: that variant stays in the matrices, which record it" \
  bash -c '[[ "$1" == "env:ran probe:0 smoke-stage6:1 "* ]] && [ "$(grep -c -- "--check-only --variant stage6 --variant stage7f .*--out .*/matrix-" "$2")" -eq 4 ] &&
           [ ! -s "$3/left-out.txt" ] && ! grep -q -- "--left-out" "$2"' _ "$(steps wrong)" "$FAKE_LOG" "$tmp/wrong.unpacked/files"

tap_ok "  ... each smoke with --dump-failed into OUT's files/failed; the wrong variant's output came home there" \
  bash -c '[ "$(grep -c -- "--variant stage[67f]* .*--out .*--dump-failed $3/failed" "$1")" -eq 2 ] &&
    [ -s "$2/failed/stage6-ragged-s0/o.npy" ] && ! grep -q -- "matrix-.*--dump-failed\|--dump-failed.*matrix-" "$1"' _ \
  "$FAKE_LOG" "$tmp/wrong.unpacked/files" "$tmp/wrong/tmp/lease/files"
lease bigdump 600 FAKE_WRONG=stage6 FAKE_WRONG2=stage7f FAKE_DUMP_KB=16400
tap_ok "failed/ past 16 MB: the later smokes dump nothing (stage7f's smoke without --dump-failed)" \
  bash -c 'grep -q -- "--variant stage6 .*--dump-failed" "$1" && grep -- "--variant stage7f " "$1" | grep -v -- "--variant stage6" | grep -qv -- "--dump-failed" &&
    [ -s "$2/failed/stage6-ragged-s0/o.npy" ] && [ ! -e "$2/failed/stage7f-ragged-s0" ]' _ "$FAKE_LOG" "$tmp/bigdump.unpacked/files"

lease noprobe 600 FAKE_PROBE_RC=2
tap_ok "CUDA unusable (the probe's exit 2): said, and every later step skipped, the campaign too" \
  bash -c 'grep -q "CUDA unusable here" "$2" && [ "$1" = "env:ran probe:2 smoke-stage6:skipped smoke-stage7f:skipped matrix-e4m3:skipped matrix-wide:skipped campaign:skipped matrix-seed-linear:skipped matrix-outliers:skipped" ]' \
  _ "$(steps noprobe)" "$tmp/noprobe.log"
tap_ok "  ... and nothing was launched after it" bash -c '! grep -qE -- "--check-only|^campaign.sh" "$1"' _ "$FAKE_LOG"

# 59 s and 29 s: the most that give these steps (limits 20, 30, 40, 60) with the most room for the
# seconds the steps before them take on a loaded machine (29 and 9 s).
lease short 59
tap_ok "a deadline of 59 s: the checks (20 s each) and the later matrices (30 s) run; the first two (60 s) and the campaign do not fit" \
  test "$(steps short)" = "env:ran probe:0 smoke-stage6:0 smoke-stage7f:0 matrix-e4m3:skipped matrix-wide:skipped campaign:skipped matrix-seed-linear:0 matrix-outliers:0"
lease tiny 29
tap_ok "a deadline of 29 s: the probe and the checks only" \
  test "$(steps tiny)" = "env:skipped probe:0 smoke-stage6:0 smoke-stage7f:0 matrix-e4m3:skipped matrix-wide:skipped campaign:skipped matrix-seed-linear:skipped matrix-outliers:skipped"
lease none 5
tap_ok "a deadline of 5 s, too short to probe: nothing touches the GPU" \
  bash -c '[[ "$1" == "env:skipped probe:skipped smoke-stage6:skipped "*"matrix-outliers:skipped" ]] && ! grep -q -- --check-only "$2"' _ "$(steps none)" "$FAKE_LOG"
lease mid 160
tap_ok "a deadline of 160 s: the matrices run; the campaign (under 120 s once 45 are kept back) does not" \
  test "$(steps mid)" = "env:ran probe:0 smoke-stage6:0 smoke-stage7f:0 matrix-e4m3:0 matrix-wide:0 campaign:skipped matrix-seed-linear:0 matrix-outliers:0"

# The bundle as its tarball (what a lease that copies the checkout can carry): unpacked into
# TMPDIR, the same steps, nothing of it left behind.
tar -czf "$tmp/sdpa-bundle-test.tar.gz" -C "$tmp" bundle
mkdir -p "$tmp/tmpdir"
BUNDLE=$tmp/sdpa-bundle-test.tar.gz lease tgz 600 TMPDIR="$tmp/tmpdir"
tap_ok "BUNDLE as a .tar.gz: unpacked, the same steps run, the unpacked copy removed" \
  bash -c '[ "$1" -eq 0 ] && [ "$2" = "$3" ] && [ -z "$(ls -A "$4")" ] && grep -q "^campaign.sh --backend cuda $6 --check-timeout 10 --time-limit" "$5"' \
  _ $rc "$(steps tgz)" "$(steps ok)" "$tmp/tmpdir" "$FAKE_LOG" "$FIRST"
echo "not a tarball" >"$tmp/bad.tar.gz"
tap_fail "a BUNDLE file that does not unpack is refused" bash "$S" "$tmp/bad.tar.gz" "$tmp/y" 600
tap_fail "a BUNDLE file that is no .tar.gz is refused" bash "$S" "$tmp/log" "$tmp/y" 600
tap_fail "two arguments are refused" bash "$S" "$B" "$tmp/x"
tap_fail "a deadline that is not whole seconds is refused" bash "$S" "$B" "$tmp/x" 10m
tap_fail "a directory that is not a bundle is refused" bash "$S" "$tmp" "$tmp/x" 600
tap_done
