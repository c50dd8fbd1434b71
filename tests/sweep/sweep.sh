#!/usr/bin/env bash
# make sweep on a real single-node Slurm cluster started here (tests/sweep/slurm-cluster.sh), the
# campaign on the emulator: a sweep of 2 device kinds x 5 parts through sbatch (peers and
# profiles among them: complete parts whose steps are recorded as skipped, no GPU), its collector's
# ingest, summary (also as data/gpu/sweeps/<name>.json for make paper) and paper; a part made to fail (an impossible S injected through the sweep file),
# reported by sweep-status and listed as missing while the others stay ingested; resubmission
# running only what is not complete; tarballs the collector refuses (a relabelled campaign, another
# part's campaign), missing in every view and run again; a task killed by SIGKILL, whose own record
# said RUNNING. The sweep file's refusals (a part listed twice among them), --dry-run and a task's
# stale record against stand-in Slurm commands need no Slurm; the rest SKIPs, with the reason,
# where Slurm is not installed.
# Usage: tests/sweep/sweep.sh BUNDLE.tar.gz
# shellcheck disable=SC2016 # the checks' bash -c scripts expand their own arguments
set -u
. tests/tap.sh
. tests/sweep/slurm-cluster.sh
bundle=$(realpath "$1")
[ -f "$bundle" ] || { tap_ok "the bundle $1 exists (make bundle)" false; tap_done; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sweep-test.XXXXXX")
trap 'slurm_stop; [ -n "${SWEEP_TEST_KEEP:-}" ] && echo "# kept: $tmp" || rm -rf "$tmp"' EXIT # SWEEP_TEST_KEEP=1: keep it
trap 'exit 143' TERM INT # run-tests.sh's timeout: the EXIT trap still stops the daemons
sweep() { tools/sweep/sweep.sh "$@"; }
good=experiments/sweeps/emulated.sweep
export SWEEP_SHARED=$tmp/shared

# ---- the sweep file's refusals: exit 2, naming the file, line or key ------------------------------
refuse() { # NAME PATTERN SWEEP-FILE-TEXT
  printf '%s\n' "$3" >"$tmp/bad.sweep"
  sweep submit "$tmp/bad.sweep" "$bundle" --dry-run >"$tmp/bad.out" 2>&1
  local rc=$?
  tap_ok "a sweep file with $1 is refused: exit 2, naming it ($2)" bash -c '[ "$1" -eq 2 ] && grep -qF -- "$2" "$3"' _ $rc "$2" "$tmp/bad.out"
}
kind='[kind k]
gres = none
emulated = yes'
refuse "no shared directory" "[sweep] shared is missing" "[sweep]
name = x
parts = history
$kind"
refuse "an unknown key" "bad.sweep:3: [sweep] has no key 'partitoin'" "[sweep]
name = x
partitoin = gpu"
refuse "an unset environment variable" "\${NO_SUCH_VAR_FOR_SWEEP}, which is not set" "[sweep]
name = x
shared = \${NO_SUCH_VAR_FOR_SWEEP}/s"
refuse "a part that is not a part's name" "part 'peers:all': a part is a name (campaign.sh --part: history, scaling, ...), experiment:<name> or scaling:S1,S2,... (S >= 1)" "[sweep]
name = x
shared = $tmp/s
backend = emu
parts = history peers:all
$kind"
refuse "a part the bundle's campaign.sh does not know (its list, probes and matrix among them)" "--part 'bogus': accepted: experiment:<name>, history, scaling, scaling:S1,S2,..., ceilings, peers, sanitizers, profiles, probes, matrix" "[sweep]
name = x
shared = $tmp/s
backend = emu
parts = history bogus
$kind"
refuse "an experiment the bundle lacks" "no such experiment" "[sweep]
name = x
shared = $tmp/s
backend = emu
parts = experiment:stage9-nothing
$kind"
refuse "an emulated backend on a kind not marked emulated" "say emulated = yes" "[sweep]
name = x
shared = $tmp/s
backend = emu
parts = history
[kind k]
gres = none"
refuse "a part listed twice in [sweep]" "bad.sweep:4: [sweep] part 'history' is listed twice" "[sweep]
name = x
shared = $tmp/s
parts = history scaling:128 history
backend = emu
$kind"
refuse "a part listed twice in a kind" "bad.sweep:7: [kind k] part 'scaling:128' is listed twice" "[sweep]
name = x
shared = $tmp/s
backend = emu
[kind k]
gres = none
parts = scaling:128 peers scaling:128
emulated = yes"
tap_ok "  ... and none of them created a shared directory" test ! -e "$tmp/s"

# ---- a task's own record against Slurm's word (stand-ins for squeue, sacct, scontrol) ------------
# A task killed by SIGKILL never records its end: its record says RUNNING while Slurm has no such
# task running. The state then is LOST (not in flight), and the part missing.
printf '%s\n' "[sweep]" "name = stale" "shared = $tmp/st" "backend = emu" "parts = history" "[kind k]" "gres = none" \
  "emulated = yes" >"$tmp/stale.sweep"
mkdir -p "$tmp/st/stale/state/k" "$tmp/fakeslurm"
printf '20260101T000000Z-1\tk\thistory\thistory\t0\t77_0\n' >"$tmp/st/stale/submissions.tsv"
echo "RUNNING 77_0 2026-01-01T00:00:00Z" >"$tmp/st/stale/state/k/history"
for c in squeue sacct scontrol; do printf '#!/bin/sh\n[ -f "%s/%s.out" ] && cat "%s/%s.out"\nexit 0\n' "$tmp/fakeslurm" $c "$tmp/fakeslurm" $c >"$tmp/fakeslurm/$c"; done
chmod +x "$tmp/fakeslurm"/*
PATH=$tmp/fakeslurm:$PATH sweep status "$tmp/stale.sweep" >"$tmp/stale.out" 2>&1
tap_ok "a task recorded RUNNING that squeue lists no more: LOST, missing, not in flight (exit 1)" \
  bash -c '[ "$1" -eq 1 ] && grep -qE "^k +history +LOST +77_0 +missing$" "$2" && grep -q "0 complete, 1 failed or missing, 0 pending or running" "$2"' \
  _ $? "$tmp/stale.out"
echo "77_0 RUNNING" >"$tmp/fakeslurm/squeue.out"
PATH=$tmp/fakeslurm:$PATH sweep status "$tmp/stale.sweep" >"$tmp/stale2.out" 2>&1
tap_ok "  ... while squeue lists it running, it is in flight (control)" \
  grep -q "0 complete, 0 failed or missing, 1 pending or running" "$tmp/stale2.out"
rm "$tmp/fakeslurm/squeue.out" && echo "RUNNING 76_0 2026-01-01T00:00:00Z" >"$tmp/st/stale/state/k/history"
PATH=$tmp/fakeslurm:$PATH sweep status "$tmp/stale.sweep" >"$tmp/stale3.out" 2>&1
tap_ok "  ... a record of an earlier task says nothing of this one (UNKNOWN)" grep -qE "^k +history +UNKNOWN +77_0 +missing$" "$tmp/stale3.out"
PATH=$tmp/fakeslurm:$PATH make --no-print-directory -s sweep-status SWEEP="$tmp/stale.sweep" >/dev/null 2>&1
tap_ok "make sweep-status with a part missing: fails (make's status 2, the script's 1), as documented" test $? -eq 2
make --no-print-directory -s sweep-status >"$tmp/nosweep.out" 2>&1
tap_ok "make sweep-status without SWEEP= says how to call it (exit 2)" \
  bash -c '[ "$1" -eq 2 ] && grep -q "give the sweep file" "$2"' _ $? "$tmp/nosweep.out"

# ---- --dry-run: the scripts and the commands, nothing written or submitted ------------------------
sweep submit "$good" "$bundle" --dry-run >"$tmp/dry.out" 2>&1
tap_ok "--dry-run exits 0" test $? -eq 0
tap_ok "  ... prints one job array per kind, every part in it" \
  bash -c '[ "$(grep -c "^#SBATCH --array=0,1,2,3,4$" "$1")" -eq 2 ]' _ "$tmp/dry.out"
tap_ok "  ... with the kinds' site settings (partition, constraint, time; no --gres for gres = none)" \
  bash -c 'grep -q "^#SBATCH --partition=kind-a$" "$1" && grep -q "^#SBATCH --constraint=emu$" "$1" &&
           grep -q "^#SBATCH --time=00:10:00$" "$1" && ! grep -q -- "--gres" "$1"' _ "$tmp/dry.out"
tap_ok "  ... a collector that waits for both arrays (afterany) and the sbatch commands" \
  bash -c 'grep -q "^#SBATCH --dependency=afterany:<emu-a>:<emu-b>$" "$1" && [ "$(grep -c "^\$ sbatch " "$1")" -eq 3 ]' _ "$tmp/dry.out"
tap_ok "  ... and writes nothing under the shared directory" test ! -e "$tmp/shared"

# ---- a real Slurm ---------------------------------------------------------------------------------
missing=$(slurm_missing)
if [ -z "$missing" ] && ! slurm_start "$tmp/slurm" 2>"$tmp/slurm.err"; then
  if [ "$(id -u)" -eq 0 ]; then
    sed 's/^/# /' "$tmp/slurm.err"
    tap_ok "the test's Slurm cluster starts (slurm.conf, munge key and logs under a temporary directory)" false
    tap_done
  fi
  missing="the test's Slurm cluster did not start as $(id -un) (slurmd runs jobs as root): $(head -n 1 "$tmp/slurm.err")"
fi
if [ -n "$missing" ]; then
  for t in "a 2-kind x 3-part sweep runs through sbatch" "a failed part is reported and listed as missing" \
           "resubmission runs only the parts without a complete tarball"; do tap_skip "$t" "Slurm: $missing"; done
  tap_done
fi
tap_ok "the test's Slurm cluster is up (ports $(sed -nE 's/^Slurm(ctld|d)Port=//p' "$SLURM_CONF" | tr '\n' ' '))" \
  bash -c 'sinfo -h -o %P | grep -q kind-b'
# wait_idle: until the queue is empty (the collector included), for 600 s at most (the sweep
# file's time = 00:10:00): a deadline, not a count of polls (the first sweep's 10 campaigns took
# 90-93 s on CI's loaded 2 cores, against the ~150 s that 300 polls gave).
wait_idle() {
  local end=$((SECONDS + 600))
  until [ -z "$(squeue -h 2>/dev/null)" ]; do
    [ $SECONDS -lt $end ] || { squeue >&2; return 1; }
    sleep 0.5
  done
}
S=$tmp/shared/emulated

t0=$(date +%s)
make --no-print-directory -s sweep SWEEP="$good" >"$tmp/submit1.out" 2>&1
rc=$?
[ $rc -eq 0 ] || tail -n 20 "$tmp/submit1.out" | sed 's/^/# /'
tap_ok "make sweep submits 2 arrays of 5 tasks and a collector (exit 0)" \
  bash -c '[ "$1" -eq 0 ] && grep -q "10 task(s) in 2 array job(s), collector job" "$2"' _ $rc "$tmp/submit1.out"
wait_idle
tap_ok "  ... and every job leaves the queue ($(($(date +%s) - t0)) s)" test $? -eq 0
make --no-print-directory -s sweep-status SWEEP="$good" >"$tmp/status1.out" 2>&1
rc=$?
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/status1.out"
tap_ok "make sweep-status: every part complete, its task COMPLETED (exit 0)" \
  bash -c '[ "$1" -eq 0 ] && [ "$(grep -cE "^emu-[ab] .* COMPLETED .* complete$" "$2")" -eq 10 ]' _ $rc "$tmp/status1.out"
tap_ok "  ... and the collector COMPLETED" grep -q "^collector: job [0-9]*, COMPLETED" "$tmp/status1.out"
tap_ok "each task wrote its tarball and checksum atomically into the shared results directory" \
  bash -c 'cd "$1/results" && [ "$(ls */*.tar.gz | wc -l)" -eq 10 ] && for f in */*.tar.gz.sha256; do (cd "$(dirname "$f")" && sha256sum -c --quiet "$(basename "$f")") || exit 1; done' _ "$S"
tap_ok "the collector's summary.json: 10 complete, 0 missing" \
  bash -c 'jq -e ".complete == 10 and .missing == 0 and ([.parts[] | select(.status == \"complete\")] | length) == 10" "$1" >/dev/null' _ "$S/summary.json"
V=$(cat "$S"/bundle-*/bundle/peers/schema-version | head -n 1) # the build's (sdpa-report schema-version)
tap_ok "  ... also as data/gpu/sweeps/emulated.json (kind sweep-summary, schema $V) for make paper" \
  bash -c 'cmp -s "$1/summary.json" "$1/data/gpu/sweeps/emulated.json" && jq -e --arg v "$2" ".kind == \"sweep-summary\" and .schema_version == \$v and .sweep == \"emulated\"" "$1/summary.json" >/dev/null' _ "$S" "$V"
# The paper with GPU_DATA_DIR: until the paper reads it (another branch), "ok" renders the paper as
# the checkout has it, and "failed" is accepted too; "skipped" must say why.
tap_ok "  ... the collector ran make paper with the sweep's data, or said why not (summary: paper)" \
  bash -c 'p=$(jq -r .paper "$1/summary.json"); case $p in "ok: "*) test -s "$1/paper/paper.html" ;; "failed: "*|"skipped: "*) echo "# paper: $p" ;; *) exit 1 ;; esac' _ "$S"
# Every part's content, for each kind, in the campaign the summary says it was ingested as.
content_ok() {
  local k ing
  for k in emu-a emu-b; do
    ing=$S/$(jq -r ".parts[] | select(.kind == \"$k\" and .part == \"experiment:stage2-wmma-pv\") | .ingested" "$S/summary.json")
    [ -s "$(ls "$ing"/runs/stage2-wmma-pv/*/run.json)" ] || return 1
    ing=$S/$(jq -r ".parts[] | select(.kind == \"$k\" and .part == \"history\") | .ingested" "$S/summary.json")
    [ -s "$ing/history.json" ] || return 1
    ing=$S/$(jq -r ".parts[] | select(.kind == \"$k\" and .part == \"scaling:128\") | .ingested" "$S/summary.json")
    [ -s "$ing/scaling/S128.json" ] || return 1
    ing=$S/$(jq -r ".parts[] | select(.kind == \"$k\" and .part == \"peers\") | .ingested" "$S/summary.json")
    jq -e '[.steps[] | select(.name == "peers-torch" and .skipped)] | length == 1' "$ing/campaign.json" >/dev/null || return 1
    ing=$S/$(jq -r ".parts[] | select(.kind == \"$k\" and .part == \"profiles\") | .ingested" "$S/summary.json")
    jq -e '.status == "skipped"' "$ing/profile.json" >/dev/null || return 1
  done
}
tap_ok "  ... each part ingested under data/gpu/emulated-*/: the experiment run, history.json, scaling S=128, peers and profiles (skipped inside)" content_ok
tap_ok "  ... 10 campaigns in all" test "$(ls -d "$S"/data/gpu/emulated-*/* | wc -l)" -eq 10
tap_ok "  ... a report rendered from an ingested run (reports = 1)" \
  bash -c 'ls "$1"/reports/stage2-wmma-pv/*/report.html "$1"/reports/stage2-wmma-pv/*/report.pdf >/dev/null' _ "$S"
tap_ok "  ... summary.md's table lists every kind and part" \
  bash -c '[ "$(grep -cE "^\| emu-[ab] \| .* \| complete \| COMPLETED \|" "$1")" -eq 10 ]' _ "$S/summary.md"
tap_ok "  ... one tarball to carry home, holding the 10 parts" \
  bash -c '[ "$(tar tzf "$1"/sweep-emulated-*.tar.gz | grep -c "results/emu-[ab]/.*\.tar\.gz$")" -eq 10 ]' _ "$S"

# ---- a part made to fail: S = 2^30 is beyond what sdpa-bench accepts ------------------------------
bad=$tmp/failing.sweep
{ cat "$good"; echo "parts = experiment:stage2-wmma-pv history scaling:128 peers profiles scaling:1073741824"; } >"$bad" # [kind emu-b] is last
sums_before=$(cat "$S"/results/*/*.sha256 | sort)
# As if a collector had stopped between an ingest and its marker: the next one must count the
# part as ingested (ingest refuses a campaign id twice), not as missing.
rm "$S/results/emu-a/history.ingested"
n_sub=$(wc -l <"$S/submissions.tsv")
sweep submit "$bad" "$bundle" >"$tmp/submit2.out" 2>&1
tap_ok "resubmitting with one part more submits that part only (1 task, --array=5 of emu-b)" \
  bash -c '[ "$1" -eq 0 ] && grep -q "1 task(s) in 1 array job(s)" "$2" && [ "$(grep -c "complete, not resubmitted" "$2")" -eq 10 ] &&
           grep -q "^#SBATCH --array=5$" "$2"' _ $? "$tmp/submit2.out"
wait_idle
sweep status "$bad" >"$tmp/status2.out" 2>&1
rc=$?
sed 's/^/# /' "$tmp/status2.out"
tap_ok "sweep-status reports the failed part by name with its Slurm state (exit 1)" \
  bash -c '[ "$1" -eq 1 ] && grep -qE "^emu-b +scaling:1073741824 +FAILED +[0-9]+_5 +missing$" "$2"' _ $rc "$tmp/status2.out"
tap_ok "  ... and its log's last lines (the harness's refusal)" grep -q "| .*problem too large" "$tmp/status2.out"
tap_ok "  ... the 10 others still complete" test "$(grep -cE " COMPLETED .* complete$" "$tmp/status2.out")" -eq 10
tap_ok "the collector lists it as missing (summary.json: 10 complete, 1 missing, FAILED)" \
  bash -c 'jq -e ".complete == 10 and .missing == 1 and ([.parts[] | select(.status == \"missing\" and .part == \"scaling:1073741824\" and .slurm_state == \"FAILED\")] | length) == 1" "$1" >/dev/null' _ "$S/summary.json"
tap_ok "  ... in summary.md's Missing section" grep -qE '^- emu-b `scaling:1073741824` \(task [0-9]+_5, FAILED\)' "$S/summary.md"
tap_ok "  ... and in data/gpu/sweeps/emulated.json, replaced, where make paper lists it as missing" \
  bash -c 'jq -e ".missing == 1" "$1" >/dev/null && [ "$(ls "$(dirname "$1")" | wc -l)" -eq 1 ]' _ "$S/data/gpu/sweeps/emulated.json"
tap_ok "  ... the others stay ingested, once each (10 campaigns)" test "$(ls -d "$S"/data/gpu/emulated-*/* | wc -l)" -eq 10
tap_ok "  ... the failed campaign's own tarball is kept for its logs, outside the complete ones" \
  bash -c 'ls "$1"/results/emu-b/scaling-1073741824.failed-*.tar.gz >/dev/null && [ ! -e "$1"/results/emu-b/scaling-1073741824.tar.gz ]' _ "$S"

sweep submit "$bad" "$bundle" >"$tmp/submit3.out" 2>&1
tap_ok "resubmitting the same sweep again runs only the failed part" \
  bash -c '[ "$1" -eq 0 ] && grep -q "1 task(s) in 1 array job(s)" "$2" && grep -q "^#SBATCH --array=5$" "$2" &&
           [ "$(tail -n +$(($3 + 1)) "$4" | grep -vc "^collector")" -eq 2 ] &&
           [ "$(tail -n +$(($3 + 1)) "$4" | grep -v "^collector" | cut -f3 | sort -u)" = scaling:1073741824 ]' \
  _ $? "$tmp/submit3.out" "$n_sub" "$S/submissions.tsv"
wait_idle
tap_ok "  ... leaving the complete parts' tarballs as they were" test "$(cat "$S"/results/*/*.sha256 | sort)" = "$sums_before"
tap_ok "  ... and the failed part has two task logs now" test "$(ls "$S"/logs/emu-b/5.*.log | wc -l)" -eq 2

# ---- tarballs the collector refuses -----------------------------------------------------------------
# emu-a history: a relabelled campaign (ingest refuses it); emu-b profiles: history's own tarball,
# i.e. another part's campaign. Both were ingested before: their records and campaigns removed.
collect() {
  local b
  b=$(ls -d "$S"/bundle-*/ | head -n 1) # the bundle the sweep unpacked (one per commit)
  bash "$b/sweep/collect.sh" "$S" "$b/bundle" "$PWD" 0 >"$tmp/collect.out" 2>&1
}
unrecord() { rm -rf "$(cat "$S/results/$1/$2.ingested")" && rm "$S/results/$1/$2.ingested"; }
unrecord emu-a history && unrecord emu-b profiles
mkdir -p "$tmp/rl" && tar -C "$tmp/rl" -xzf "$S/results/emu-a/history.tar.gz" && c=$(ls "$tmp/rl")
jq '.backend = "cuda" | .device = "NVIDIA H100 80GB HBM3"' "$tmp/rl/$c/campaign.json" >"$tmp/rl.json" && mv "$tmp/rl.json" "$tmp/rl/$c/campaign.json"
(cd "$tmp/rl/$c" && find . -type f ! -name SHA256SUMS | sort | xargs sha256sum >SHA256SUMS)
tar -C "$tmp/rl" -czf "$S/results/emu-a/history.tar.gz" "$c"
cp "$S/results/emu-b/history.tar.gz" "$S/results/emu-b/profiles.tar.gz"
for kp in emu-a/history emu-b/profiles; do (cd "$S/results/${kp%/*}" && sha256sum "${kp#*/}.tar.gz" >"${kp#*/}.tar.gz.sha256"); done
collect
refused_two() {
  jq -e '[.parts[] | select(.status == "missing" and (.reason | startswith("refused by ingest")))] | map(.kind + " " + .part) |
         sort == ["emu-a history", "emu-b profiles"]' "$S/summary.json" >/dev/null
}
tap_ok "the collector refuses a relabelled part and another part's campaign: both missing in summary.json" refused_two
refused_two || { ls -d "$S"/bundle-* | sed 's/^/# /'; sed 's/^/# /' "$tmp/collect.out" | tail -n 30; }
tap_ok "  ... profiles never marked ingested as history's campaign (its parts named)" \
  bash -c '! [ -e "$1/results/emu-b/profiles.ingested" ] && jq -r ".parts[] | select(.part == \"profiles\" and .kind == \"emu-b\") | .reason" "$1/summary.json" |
           grep -q "its parts are \[\"history\"\], not the one part .profiles."' _ "$S"
sweep status "$good" >"$tmp/status5.out" 2>&1
tap_ok "  ... sweep-status agrees: both missing, with the collector's reason (exit 1)" \
  bash -c '[ "$1" -eq 1 ] && grep -qE "^emu-a +history +COMPLETED .* missing$" "$2" && grep -qE "^emu-b +profiles +COMPLETED .* missing$" "$2" &&
           [ "$(grep -c "the collector refused its tarball: refused by ingest" "$2")" -eq 2 ]' _ $? "$tmp/status5.out"
sweep submit "$good" "$bundle" --dry-run >"$tmp/dry2.out" 2>&1
tap_ok "  ... and a resubmission runs them again (emu-a index 1, emu-b index 4), the refused tarballs kept aside" \
  bash -c 'grep -q "^#SBATCH --array=1$" "$1" && grep -q "^#SBATCH --array=4$" "$1" && ls "$2"/results/emu-a/history.refused-*.tar.gz >/dev/null' \
  _ "$tmp/dry2.out" "$S"

# ---- a task killed by SIGKILL mid-campaign (no trap runs; its record says RUNNING) -------------------
mkdir -p "$tmp/slowbin" && printf '#!/bin/sh\nsleep 30\n' >"$tmp/slowbin/nvidia-smi" && chmod +x "$tmp/slowbin/nvidia-smi"
printf '%s\n' "[sweep]" "name = killed" "shared = $tmp/shared" "backend = emu" "quick = yes" "parts = history" \
  "[kind k9]" "gres = none" "emulated = yes" "setup = export PATH=$tmp/slowbin:\$PATH" >"$tmp/killed.sweep"
sweep submit "$tmp/killed.sweep" "$bundle" >"$tmp/submit7.out" 2>&1
jid=$(sed -nE 's/.*k9.sbatch -> job ([0-9]+).*/\1/p' "$tmp/submit7.out")
K=$tmp/shared/killed
end=$((SECONDS + 60)) # deadlines, not counts of polls (each poll takes its own time when loaded)
until grep -qs "^RUNNING " "$K/state/k9/history" || [ $SECONDS -ge $end ]; do sleep 0.5; done
sleep 1
# SIGKILL to the task itself, as the OOM killer or a dying node ends one (scancel --signal=KILL
# would cancel the job, which sends TERM first): its pid from the process list, by its own sweep
# directory, which only this test's task has on its command line.
tpid=$(ps -eo pid=,args= | awk -v d="$K" 'index($0, "task.sh") && index($0, d) && !index($0, "awk") {print $1}' | head -n 1)
descendants() { local c; for c in $(ps -eo pid=,ppid= | awk -v p="$1" '$2 == p {print $1}'); do echo "$c"; descendants "$c"; done; }
if [ -n "$tpid" ]; then kids=$(descendants "$tpid"); kill -KILL "$tpid" $kids 2>/dev/null # the whole task, as a dying node
else tap_diag "no task.sh process of $K found to kill"; fi
wait_idle
sweep status "$tmp/killed.sweep" >"$tmp/status7.out" 2>&1
rc=$?
sed 's/^/# /' "$tmp/status7.out"
tap_ok "a task killed by SIGKILL: its record no longer says RUNNING once the collector ran (Slurm's state)" \
  bash -c 'read -r st _ <"$1" && [ "$st" != RUNNING ] && grep -q "from Slurm (the task recorded RUNNING" "$1"' _ "$K/state/k9/history" ||
  sed 's/^/# record: /' "$K/state/k9/history"
tap_ok "  ... sweep-status: Slurm's state, missing, exit 1" \
  bash -c '[ "$1" -eq 1 ] && grep -qE "^k9 +history +[A-Z_]+ +[0-9]+_0 +missing$" "$2" && ! grep -qE "^k9 +history +RUNNING" "$2"' _ $rc "$tmp/status7.out"

# ---- a task ended by Slurm (scancel here; a time limit ends one the same way) ----------------------
printf '%s\n' "[sweep]" "name = cancelled" "shared = $tmp/shared" "backend = emu" "quick = yes" "parts = history" \
  "[kind slow]" "gres = none" "emulated = yes" "setup = sleep 120" >"$tmp/cancel.sweep"
sweep submit "$tmp/cancel.sweep" "$bundle" >"$tmp/submit4.out" 2>&1
jid=$(sed -nE 's/.*slow.sbatch -> job ([0-9]+).*/\1/p' "$tmp/submit4.out")
end=$((SECONDS + 30))
until squeue -h -j "$jid" -o %T 2>/dev/null | grep -q RUNNING || [ $SECONDS -ge $end ]; do sleep 0.5; done
sweep submit "$tmp/cancel.sweep" "$bundle" >"$tmp/submit5.out" 2>&1
tap_ok "a part whose task is running is not submitted again" \
  bash -c 'grep -q "slow history: task [0-9_]* is RUNNING, not resubmitted" "$1" && grep -q "0 task(s) in 0 array job(s), collector job [0-9]* (after $2)" "$1"' \
  _ "$tmp/submit5.out" "$jid"
scancel "$jid"
wait_idle
sweep status "$tmp/cancel.sweep" >"$tmp/status4.out" 2>&1
rc=$?
sed 's/^/# /' "$tmp/status4.out"
tap_ok "sweep-status reports a cancelled task by name with its Slurm state (exit 1)" \
  bash -c '[ "$1" -eq 1 ] && grep -qE "^slow +history +CANCELLED +[0-9]+_0 +missing$" "$2"' _ $rc "$tmp/status4.out"
tap_ok "  ... and the collector lists it as missing, in summary.json and summary.md" \
  bash -c 'jq -e ".missing == 1 and .parts[0].slurm_state == \"CANCELLED\"" "$1/summary.json" >/dev/null &&
           grep -qE "^- slow \`history\` \(task [0-9]+_0, CANCELLED\)" "$1/summary.md"' _ "$tmp/shared/cancelled"
# ---- sbatch refusing a kind (a partition this cluster lacks) after another kind went in ------------
printf '%s\n' "[sweep]" "name = partial" "shared = $tmp/shared" "backend = emu" "quick = yes" "parts = scaling:128" \
  "[kind here]" "gres = none" "emulated = yes" "[kind nowhere]" "partition = no-such-partition" "gres = none" "emulated = yes" \
  >"$tmp/partial.sweep"
sweep submit "$tmp/partial.sweep" "$bundle" >"$tmp/submit6.out" 2>&1
rc=$?
tap_ok "sbatch refusing a kind stops the submission (exit 2), naming its script and the arrays already in" \
  bash -c '[ "$1" -eq 2 ] && grep -q "sbatch refused .*/nowhere.sbatch" "$2" && grep -q "the arrays submitted before it (jobs [0-9]*) run, without a collector" "$2"' \
  _ $rc "$tmp/submit6.out"
wait_idle
sweep status "$tmp/partial.sweep" >"$tmp/status6.out" 2>&1
tap_ok "  ... sweep-status still knows the task that went in, and the kind that did not" \
  bash -c 'grep -qE "^here +scaling:128 +COMPLETED +[0-9]+_0 +complete$" "$1" && grep -qE "^nowhere +scaling:128 +never +- +missing$" "$1"' _ "$tmp/status6.out"
tap_done
