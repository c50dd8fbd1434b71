#!/usr/bin/env bash
# make ingest against hostile campaign tarballs and faults (issue 20), each built from a real
# emulated campaign of the bundle (two parts, a second or so) and changed by a few lines:
#   executed   payloads ($(shell ...), $(...), backticks) in every file and file name the renderers
#              read: ingest refuses those that are not data, accepts the rest, and make report,
#              make paper and make resume run none of them (a marker file would appear)
#   backend    an emulated campaign relabelled as an H100's, layer by layer: refused at each layer,
#              naming the file and field; a consistent GPU campaign (the synthetic fixture) accepted
#   names      device '..', '', '/', a number, 'sweeps'; an id with a dot first; a renamed campaign
#   sums       an unlisted file hidden by a longer name, /dev/zero, a path outside, a directory,
#              a duplicate line; links, devices, fifos; a setuid member loses its bit
#   sizes      a member of 8 GiB by its header, GNU and pax sparse members, the member and byte limits
#   atomic     SIGTERM and SIGINT during extraction, SIGKILL, a full disk: nothing is left that the
#              paper would show; unfinished directories are skipped by the paper
#   parts      an interrupted campaign ingested and marked, then a later one adding its missing part
# Usage: tests/campaign/ingest.sh BUNDLE.tar.gz SDPA_REPORT
# shellcheck disable=SC2016 # the checks' bash -c scripts and the payloads expand later, or never
set -u
. tests/tap.sh
bundle=$(realpath "$1") report=$(realpath "$2")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ingest-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# ---- the base campaign and the tools to change it ----------------------------------------------
mkdir -p "$tmp/node" && tar -C "$tmp/node" -xzf "$bundle"
(cd "$tmp" && env -i HOME="$tmp" PATH=/usr/bin:/bin TMPDIR="$tmp" "$tmp/node/bundle/campaign.sh" --quick --backend emu \
  --part experiment:stage2-wmma-pv --part history --out "$tmp/base.tar.gz") >"$tmp/base.log" 2>&1 ||
  { sed 's/^/# /' "$tmp/base.log" | tail -n 20; tap_ok "the base campaign (campaign.sh --quick --backend emu, 2 parts)" false; tap_done; }
top=$(tar -tzf "$tmp/base.tar.gz" | head -n 1 | cut -d/ -f1) id=${top#campaign-}
run_rel=$(tar -tzf "$tmp/base.tar.gz" | sed -nE "s#^$top/(runs/stage2-wmma-pv/[^/]+)/run.json\$#\1#p")

M=$tmp/marker # a payload that runs creates $M.<where>
# A payload for names that become words and file names: no space, '/' or '$' (a command on PATH).
mkdir -p "$tmp/bin" && printf '#!/bin/sh\ntouch "%s.gpshape"\n' "$M" >"$tmp/bin/markgp" && chmod +x "$tmp/bin/markgp"
export PATH=$tmp/bin:$PATH
pl_make() { printf '$(shell touch %s.%s)' "$M" "$1"; }
pl_sub() { printf '$(touch %s.%s)' "$M" "$1"; }
pl_bt() { printf '`touch %s.%s`' "$M" "$1"; }
nothing_ran() { ! compgen -G "$M.*" >/dev/null; }

resum() { (cd "$1" && find . -type f ! -name SHA256SUMS -print0 | sort -z | xargs -0 sha256sum >SHA256SUMS); }
# mutate NAME SCRIPT [keep]: the base campaign changed by SCRIPT (bash, run inside the campaign
# directory), SHA256SUMS regenerated after it (kept as SCRIPT left it with "keep"), packed as
# $tmp/NAME.tar.gz with its top directory.
mutate() {
  local d=$tmp/m/$1
  rm -rf "$d" && mkdir -p "$d" && tar -C "$d" -xzf "$tmp/base.tar.gz"
  (cd "$d/$top" && bash -c "$2") || tap_diag "mutate $1: the change failed"
  [ "${3:-}" = keep ] || resum "$d/$top"
  tar -C "$d" -czf "$tmp/$1.tar.gz" "$(ls "$d")"
}
# jqi FILE FILTER: edit a JSON file in place with jq.
jqi() { jq "$2" "$1" >"$1.new" && mv "$1.new" "$1"; }
export -f jqi resum
ingest() { tools/campaign/ingest.sh "$1" "$2" "$report" "${@:3}"; }
# refuse WHAT TARBALL PATTERN [OPTIONS]: exit 2, the problem named, nothing written, nothing ran.
refuse() {
  local d=$tmp/refused
  rm -rf "$d"
  timeout 60 tools/campaign/ingest.sh "$2" "$d" "$report" --allow-emulated "${@:4}" >"$tmp/r.log" 2>&1
  local rc=$?
  [ $rc -eq 2 ] && grep -qF -- "$3" "$tmp/r.log" && [ ! -e "$d" ] && nothing_ran
  local ok=$?
  [ $ok -eq 0 ] || { tap_diag "exit $rc, data: $(find "$d" 2>/dev/null | head -n 3 | tr '\n' ' ')"; sed 's/^/# /' "$tmp/r.log"; }
  tap_ok "refused: $1 (exit 2, '$3', nothing written)" test $ok -eq 0
}

ingest "$tmp/base.tar.gz" "$tmp/d0" --allow-emulated >"$tmp/d0.log" 2>&1
tap_ok "the base campaign ingests (control)" test $? -eq 0

# ---- 1. nothing that arrives is executed --------------------------------------------------------
# Data the renderers read, with payloads inside: accepted as data, rendered as text.
mutate payload-data "
  printf '\n%s %s %s\n' '$(pl_make hyp)' '$(pl_sub hyp)' '$(pl_bt hyp)' >>$run_rel/hypothesis.md
  jqi $run_rel/run.json '.meta.cc = \"$(pl_make cc) $(pl_bt cc)\"'
  jqi history.json '.meta.host.hostname = \"$(pl_sub host)\" | .timing[0].variant = \"stage0$(pl_bt gpvar)\"'
  jqi $run_rel/run-timing.json '(.config.shapes[0].name, .timing[].shape, .comparisons[].shape) |= \"small\`markgp\`\"'
  jqi campaign.json '.steps[0].note = \"$(pl_make step)\" | .meta.host = \"$(pl_bt chost)\"'
  printf '%s\n' '$(pl_make log)' >>logs/history.log"
ingest "$tmp/payload-data.tar.gz" "$tmp/d1" --allow-emulated >"$tmp/d1.log" 2>&1
tap_ok "payloads inside data (hypothesis.md, JSON strings the figures' gnuplot variables take, logs) are ingested as data" test $? -eq 0
R1=$(ls -d "$tmp"/d1/gpu/*/*/"$run_rel")
make --no-print-directory -s report RUN="$R1" FIG_DIR="$tmp/fig1" REPORT_DIR="$tmp/rep1" >"$tmp/rep1.log" 2>&1
tap_ok "  ... make report RUN=<that run> renders it (exit 0)" test $? -eq 0
tap_ok "  ... with the payload shown as text (environment table, report.md)" \
  bash -c 'grep -qF "$(printf "\$(shell touch %s.cc)" "$3")" "$1/tables/environment.md" && grep -qF "touch $3.hyp" "$2"/rep1/stage2-wmma-pv/*/report.md' \
  _ "$R1" "$tmp" "$M"
make --no-print-directory -s paper DATA_DIR="$tmp/d1" FIG_DIR="$tmp/fig1" REPORT_DIR="$tmp/rep1" >"$tmp/paper1.log" 2>&1
tap_ok "  ... make paper with it in GPU_DATA_DIR (exit 0)" test $? -eq 0
tap_ok "  ... and no payload ran" nothing_ran

# Files that are not data: refused by ingest, naming the file and line.
refuse "experiment.mk with \$(shell ...) in a value" "$(mutate exp-shell "sed -i 's|^TITLE .*|TITLE := x $(pl_make title)|' $run_rel/experiment.mk"; echo "$tmp/exp-shell.tar.gz")" \
  "experiment.mk:" 
refuse "experiment.mk with a line of make code" "$(mutate exp-line "printf '%s\n' '$(pl_make line)' 'X != touch $M.bang' >>$run_rel/experiment.mk"; echo "$tmp/exp-line.tar.gz")" \
  "expected a comment or KEY := VALUE"
refuse "run.args with \$(...) in a value" "$(mutate args-sub "sed -i 's|^shapes=.*|shapes=small $(pl_sub args)|' $run_rel/run.args"; echo "$tmp/args-sub.tar.gz")" \
  "run.args:4: shapes"
refuse "run.args with backticks" "$(mutate args-bt "sed -i 's|^seeds=.*|seeds=0$(pl_bt seeds)|' $run_rel/run.args"; echo "$tmp/args-bt.tar.gz")" "seeds ="
# Names hold no '/': their payloads name the marker through the environment (make imports it too).
export MARKER_NAME=$M.name MARKER_DIR=$M.dir
for f in '$(shell touch $(MARKER_NAME)).json' '$(touch $MARKER_NAME).log' '`touch $MARKER_NAME`.log' 'a;b.log' 'a b.log'; do
  refuse "a file named '$f'" "$(mutate fname "echo x >'logs/$f'"; echo "$tmp/fname.tar.gz")" "is not a plain name"
done
refuse "a run directory named \$(shell ...)" \
  "$(mutate dname "mv $run_rel 'runs/stage2-wmma-pv/\$(shell touch \$(MARKER_DIR))'"; echo "$tmp/dname.tar.gz")" "is not a plain name"

# The renderers themselves, on runs such as an older ingest let through (placed by hand).
H=$tmp/hand
mkdir -p "$H" && cp -a "$tmp/d0/gpu" "$H/" && RH=$(ls -d "$H"/gpu/*/*/"$run_rel")
sed -i "s|^TITLE .*|TITLE := x $(pl_make title)|" "$RH/experiment.mk"
echo "$(pl_make line)" >>"$RH/experiment.mk"
tap_ok "a run whose experiment.mk changed after its manifest is not complete: make paper's pick passes over it, naming why" \
  bash -c '[ -z "$("$1" latest-run "${2%/*}" 2>"$3")" ] && grep -q "experiment.mk does not match its SHA-256" "$3"' \
  _ "$report" "$RH" "$tmp/lr.err"
# Sealed again (as a forged run would be), so that the renderers' own refusal is what is tested.
rm "$RH/manifest.json" && "$report" manifest --run "$RH" >/dev/null
make --no-print-directory -s report RUN="$RH" FIG_DIR="$tmp/figh" REPORT_DIR="$tmp/reph" >"$tmp/reph.log" 2>&1
tap_ok "make report on a run whose experiment.mk holds make code: refused, naming the file" \
  bash -c '[ "$1" -ne 0 ] && grep -q "experiment.mk:" "$2"' _ $? "$tmp/reph.log"
make --no-print-directory -s paper DATA_DIR="$H" FIG_DIR="$tmp/figh" REPORT_DIR="$tmp/reph" >"$tmp/paperh.log" 2>&1
tap_ok "make paper with it in GPU_DATA_DIR: stops, naming the file" \
  bash -c '[ "$1" -ne 0 ] && grep -q "experiment.mk:" "$2"' _ $? "$tmp/paperh.log"
cp "$tmp/d0/gpu/"*/*/"$run_rel/experiment.mk" "$RH/experiment.mk"
rm -f "$RH/manifest.json" && sed -i "s|^shapes=.*|shapes=small $(pl_sub resume)|" "$RH/run.args"
make --no-print-directory -s resume RUN="$RH" >"$tmp/resume.log" 2>&1
tap_ok "make resume on a run whose run.args holds \$(...): refused, naming the file and key" \
  bash -c '[ "$1" -ne 0 ] && grep -q "run.args:4: shapes" "$2"' _ $? "$tmp/resume.log"
cp "$tmp/d0/gpu/"*/*/"$run_rel/run.args" "$tmp/d0/gpu/"*/*/"$run_rel/manifest.json" "$RH/"
mv "$RH" "$(dirname "$RH")/"'$(shell touch $(MARKER_DIR))'
make --no-print-directory -s paper DATA_DIR="$H" FIG_DIR="$tmp/figh" REPORT_DIR="$tmp/reph" >"$tmp/paperh2.log" 2>&1
tap_ok "make paper with a run directory named \$(shell ...) in GPU_DATA_DIR runs to its end" test $? -eq 0
tap_ok "  ... and no payload ran anywhere (report, paper, resume, file names)" nothing_ran

# ---- 2. the backend from evidence, not one field ------------------------------------------------
H100="NVIDIA H100 80GB HBM3"
relabel='jqi campaign.json ".backend = \"cuda\" | .device = \"'$H100'\""'
all_json='find . -name "*.json" ! -name campaign.json -print0 | while IFS= read -r -d "" f; do jqi "$f" "'
refuse "an emulated campaign relabelled cuda / H100 in campaign.json" \
  "$(mutate relabel1 "$relabel"; echo "$tmp/relabel1.tar.gz")" "meta.backend 'emu' disagrees with campaign.json's backend 'cuda'"
refuse "  ... and meta.backend in every file" \
  "$(mutate relabel2 "$relabel; $all_json"'if .meta.backend then .meta.backend = \"cuda\" else . end"; done'; echo "$tmp/relabel2.tar.gz")" \
  "meta.emulator 'an emulator block' disagrees"
dev='if .meta.backend then .meta.backend = \"cuda\" | .meta.emulator = null | .meta.device = {\"name\": \"'$H100'\"} else . end'
refuse "  ... and meta.device / meta.emulator" \
  "$(mutate relabel3 "$relabel; $all_json$dev\"; done"; echo "$tmp/relabel3.tar.gz")" "timing 'emulated' disagrees"
timing='(.. | objects | select(has(\"timing\") and (.timing | type) == \"string\" and .timing == \"emulated\") | .timing) |= \"gpu\"'
refuse "  ... and every timing label" \
  "$(mutate relabel4 "$relabel; $all_json$dev | $timing\"; done"; echo "$tmp/relabel4.tar.gz")" "logs/probe.log:1: the probe chose 'emu'"
refuse "  ... and the probe log (nvidia-smi saw no GPU)" \
  "$(mutate relabel5 "$relabel; $all_json$dev | $timing\"; done; echo 'cuda: usable (device 0)' >logs/probe.log
     echo 'NVIDIA-SMI has failed because it could not communicate with the NVIDIA driver.' >nvidia-smi.txt"; echo "$tmp/relabel5.tar.gz")" \
  "nvidia-smi.txt: no 'Product Name' names the device"
refuse "  ... and nvidia-smi (run.args still says emu)" \
  "$(mutate relabel6 "$relabel; $all_json$dev | $timing\"; done; echo 'cuda: usable (device 0)' >logs/probe.log
     printf '    Product Name                          : %s\n' '$H100' >nvidia-smi.txt"; echo "$tmp/relabel6.tar.gz")" \
  "run.args: backend 'emu' disagrees"
refuse "a GPU campaign whose files carry no backend at all" \
  "$(mutate noevidence "$relabel; find . -name '*.json' ! -name campaign.json -delete; rm -rf runs logs/probe.log"; echo "$tmp/noevidence.tar.gz")" \
  "nothing shows that a GPU ran it"
# A consistent GPU campaign: the synthetic fixture of the paper's tests (run.args completed).
F=tests/report/fixtures/gpu-campaign/data/gpu/fixture-gpu-synthetic-not-a-measurement/20260102T030405Z-fixture-1
mkdir -p "$tmp/fx" && cp -r "$F" "$tmp/fx/campaign-20260102T030405Z-fixture-1" && FX=$tmp/fx/campaign-20260102T030405Z-fixture-1
printf '%s\n' exp=stage2-wmma-pv baseline=stage1 candidate=stage2 shapes=small seeds=0 timing_shape=small \
  'gpu=2 10 0 5' 'emu=0 4 0 10' l2=cold backend=cuda >"$FX/runs/stage2-wmma-pv/20260102T030405Z-fixture-1/run.args"
resum "$FX" && tar -C "$tmp/fx" -czf "$tmp/fixture.tar.gz" campaign-20260102T030405Z-fixture-1
ingest "$tmp/fixture.tar.gz" "$tmp/dfx" >"$tmp/dfx.log" 2>&1
tap_ok "a consistent GPU campaign (the synthetic fixture) is accepted without --allow-emulated" \
  bash -c '[ "$1" -eq 0 ] && [ -f "$2"/gpu/fixture-gpu-synthetic-not-a-measurement/20260102T030405Z-fixture-1/campaign.json ]' _ $? "$tmp/dfx"

# ---- 3. names that map to paths ------------------------------------------------------------------
for d in '".."' '""' '"/"' '42' '"\u00e9t\u00e9"'; do
  refuse "device $d" "$(mutate dev "jqi campaign.json '.device = $d'"; echo "$tmp/dev.tar.gz")" "campaign.json: device"
done
# A GPU campaign's device whose directory would be a reserved one, or pass for an emulated one.
for d in Sweeps 'Emulated GPU'; do
  rm -rf "$tmp/fxd" && cp -r "$tmp/fx" "$tmp/fxd" && jqi "$tmp/fxd/${FX##*/}/campaign.json" ".device = \"$d\"" &&
    resum "$tmp/fxd/${FX##*/}" && tar -C "$tmp/fxd" -czf "$tmp/fxd.tar.gz" "${FX##*/}"
  refuse "the GPU device '$d'" "$tmp/fxd.tar.gz" "$([ "$d" = Sweeps ] && echo "the reserved directory name 'sweeps'" || echo "would pass for an emulated one")"
done
mkdir -p "$tmp/ren" && tar -C "$tmp/ren" -xzf "$tmp/base.tar.gz" && mv "$tmp/ren/$top" "$tmp/ren/campaign-renamed-1"
tar -C "$tmp/ren" -czf "$tmp/renamed.tar.gz" campaign-renamed-1
refuse "a renamed campaign (top directory not its campaign_id)" "$tmp/renamed.tar.gz" "is not the id of its directory campaign-renamed-1/"
mkdir -p "$tmp/dot" && tar -C "$tmp/dot" -xzf "$tmp/base.tar.gz" && mv "$tmp/dot/$top" "$tmp/dot/campaign-.hidden" &&
  jqi "$tmp/dot/campaign-.hidden/campaign.json" '.campaign_id = ".hidden"' && resum "$tmp/dot/campaign-.hidden"
tar -C "$tmp/dot" -czf "$tmp/dotid.tar.gz" campaign-.hidden
refuse "a campaign id starting with a dot" "$tmp/dotid.tar.gz" "not one campaign-<id>/ directory"

# ---- 4. the checksum list is exact ----------------------------------------------------------------
refuse "an unlisted file whose name a longer listed one contains" \
  "$(mutate substr "echo x >hist" keep; echo "$tmp/substr.tar.gz")" "files not in SHA256SUMS: hist"
z=$(head -c 0 /dev/null | sha256sum | cut -d' ' -f1)
refuse "SHA256SUMS naming /dev/zero" "$(mutate devzero "echo '$z  /dev/zero' >>SHA256SUMS" keep; echo "$tmp/devzero.tar.gz")" "SHA256SUMS:"
h=$(sha256sum /etc/hostname | cut -d' ' -f1)
refuse "SHA256SUMS naming a file outside the campaign" \
  "$(mutate outside "echo '$h  ../../../../../../etc/hostname' >>SHA256SUMS" keep; echo "$tmp/outside.tar.gz")" "is not a plain name"
refuse "SHA256SUMS naming a directory" "$(mutate sumdir "echo '$z  logs' >>SHA256SUMS" keep; echo "$tmp/sumdir.tar.gz")" \
  "'logs' is not a regular file of the campaign"
refuse "SHA256SUMS listing a file twice" "$(mutate sumdup "tail -n 1 SHA256SUMS >>SHA256SUMS" keep; echo "$tmp/sumdup.tar.gz")" "twice"
# Members tar would create as something other than a file: written with Python's tarfile.
cat >"$tmp/craft.py" <<'PY'
import io, sys, tarfile
out, top, kind, name = sys.argv[1:5]
with tarfile.open(out, "w:gz", format=tarfile.GNU_FORMAT) as t:
    d = tarfile.TarInfo(top); d.type = tarfile.DIRTYPE; d.mode = 0o755; t.addfile(d)
    i = tarfile.TarInfo(top + "/" + name)
    if kind == "symlink": i.type, i.linkname = tarfile.SYMTYPE, "/etc/passwd"
    elif kind == "hardlink": i.type, i.linkname = tarfile.LNKTYPE, top
    elif kind == "fifo": i.type = tarfile.FIFOTYPE
    elif kind == "chardev": i.type, i.devmajor, i.devminor = tarfile.CHRTYPE, 1, 5
    elif kind == "huge": i.size = 8 << 30
    t.addfile(i) if kind != "huge" else None
    if kind == "huge":  # a header claiming 8 GiB, then 1 MiB of its data: the stream ends there
        t.fileobj.write(i.tobuf(tarfile.GNU_FORMAT)); t.fileobj.write(b"\0" * (1 << 20))
PY
for k in symlink hardlink fifo chardev; do
  python3 "$tmp/craft.py" "$tmp/$k.tar.gz" "$top" "$k" member
  refuse "a $k member" "$tmp/$k.tar.gz" "only regular files and directories are accepted"
done
mutate setuid "chmod 4755 logs/probe.log"
ingest "$tmp/setuid.tar.gz" "$tmp/dsu" --allow-emulated >/dev/null 2>&1
tap_ok "a setuid member is extracted without its mode bits (0644)" \
  bash -c '[ "$(stat -c %a "$1"/gpu/*/*/logs/probe.log)" = 644 ]' _ "$tmp/dsu"

# ---- 5. sizes are bounded -----------------------------------------------------------------------
python3 "$tmp/craft.py" "$tmp/huge.tar.gz" "$top" huge big.bin
refuse "a member of 8 GiB by its header (refused from the listing, before any data)" "$tmp/huge.tar.gz" \
  "is 8589934592 bytes, over the limit of 268435456 per file"
mkdir -p "$tmp/sp/$top" && truncate -s 8G "$tmp/sp/$top/big.bin"
tar -C "$tmp/sp" --sparse -czf "$tmp/sparse.tar.gz" "$top"
refuse "a GNU sparse member of 8 GiB" "$tmp/sparse.tar.gz" "is a sparse file"
tar -C "$tmp/sp" --sparse --format=pax -czf "$tmp/sparse-pax.tar.gz" "$top"
refuse "a pax sparse member of 8 GiB" "$tmp/sparse-pax.tar.gz" "(a sparse member)"
refuse "more members than --max-members" "$tmp/base.tar.gz" "more than 10 members" --max-members 10
refuse "more bytes than --max-campaign-bytes" "$tmp/base.tar.gz" "add up to more than 100000 bytes" --max-campaign-bytes 100000

# ---- 6. atomic: signals, a full disk, unfinished directories --------------------------------------
# A gzip that sends 64 KiB of the second pass (the extraction), then stalls: the signal lands
# while the staging directory exists, half written.
mkdir -p "$tmp/slow" && printf '%s\n' '#!/bin/bash' "n=\$(cat '$tmp/slow/n' 2>/dev/null || echo 0); echo \$((n + 1)) >'$tmp/slow/n'" \
  "if [ \"\$n\" -eq 1 ]; then /bin/gzip \"\$@\" | { head -c 65536; exec sleep 60; }; else exec /bin/gzip \"\$@\"; fi" >"$tmp/slow/gzip"
chmod +x "$tmp/slow/gzip"
mutate big "head -c 3000000 /dev/urandom >big.bin"
interrupt() { # SIG STATUS
  rm -rf "$tmp/dsig" "$tmp/slow/n"
  PATH=$tmp/slow:$PATH "$report" ingest "$tmp/big.tar.gz" "$tmp/dsig" --allow-emulated >"$tmp/sig.log" 2>&1 &
  local pid=$! i
  for i in $(seq 200); do compgen -G "$tmp/dsig/gpu/.ingest-*" >/dev/null && break; sleep 0.05; done
  sleep 0.2
  kill -"$1" $pid
  wait $pid
  local rc=$?
  tap_ok "SIG$1 during the extraction: exit $2, the staging directory removed, nothing under the data directory" \
    bash -c '[ "$1" -eq "$2" ] && [ ! -e "$3" ] && grep -q "interrupted (SIG$4); nothing was ingested" "$5"' _ $rc "$2" "$tmp/dsig" "$1" "$tmp/sig.log"
}
interrupt TERM 143
interrupt INT 130
rm -rf "$tmp/dsig" "$tmp/slow/n"
PATH=$tmp/slow:$PATH "$report" ingest "$tmp/big.tar.gz" "$tmp/dsig" --allow-emulated >/dev/null 2>&1 &
pid=$!
for _ in $(seq 200); do compgen -G "$tmp/dsig/gpu/.ingest-*" >/dev/null && break; sleep 0.05; done
kill -KILL $pid; wait $pid 2>/dev/null
mkdir -p "$tmp/dsig/gpu/emulated-emulator" # beside it: a finished campaign, and one an older ingest left unfinished
cp -a "$tmp/d0/gpu/emulated-emulator/$id" "$tmp/dsig/gpu/emulated-emulator/$id"
cp -a "$tmp/d0/gpu/emulated-emulator/$id" "$tmp/dsig/gpu/emulated-emulator/$id.tmp.4242"
"$report" paper --published data/published/seed-l4.json --out "$tmp/psig" --gpu-data "$tmp/dsig/gpu" >"$tmp/psig.log" 2>&1
tap_ok "after a SIGKILL (a .ingest-* left) and an old .tmp. directory, the paper shows only the finished campaign" \
  bash -c '[ "$1" -eq 0 ] && compgen -G "$2/gpu/.ingest-*" >/dev/null && [ "$(grep -c "^## .*: campaign " "$3/gpu.md")" -eq 1 ] &&
           grep -q "skipping .*$4.tmp.4242: not a campaign id" "$5"' _ $? "$tmp/dsig" "$tmp/psig" "$id" "$tmp/psig.log"
rm -rf "$tmp/dfull"
(ulimit -f 1024 && "$report" ingest "$tmp/big.tar.gz" "$tmp/dfull" --allow-emulated) >"$tmp/full.log" 2>&1
tap_ok "a full disk (ulimit -f) during the extraction: exit 1 naming the file, nothing left" \
  bash -c '[ "$1" -eq 1 ] && grep -q "cannot write .*big.bin: File too large" "$2" && [ ! -e "$3" ]' _ $? "$tmp/full.log" "$tmp/dfull"

# ---- 7. an interrupted campaign, then the one that adds its missing part ---------------------------
mutate interrupted "jqi campaign.json '.interrupted = true | .interruption = \"SIGTERM\" |
  .parts_planned = [\"experiment:stage2-wmma-pv\", \"history\"] | .parts_completed = [\"experiment:stage2-wmma-pv\"]'
  rm history.json"
ingest "$tmp/interrupted.tar.gz" "$tmp/dp" --allow-emulated >"$tmp/dp.log" 2>&1
tap_ok "an interrupted campaign is ingested, and said so" \
  bash -c '[ "$1" -eq 0 ] && grep -q "INTERRUPTED: 1 of 2 planned parts completed" "$2"' _ $? "$tmp/dp.log"
"$report" paper --published data/published/seed-l4.json --out "$tmp/pp1" --gpu-data "$tmp/dp/gpu" >/dev/null 2>&1
tap_ok "  ... the paper marks it INTERRUPTED and lists history as missing" \
  bash -c 'grep -q "INTERRUPTED CAMPAIGN" "$1" && grep -qE "^\| history \| MISSING \| planned by $2, which was interrupted \|" "$1" &&
           grep -qE "^\| experiment:stage2-wmma-pv \| complete \| $2 \|" "$1"' _ "$tmp/pp1/gpu.md" "$id"
mkdir -p "$tmp/rs" && tar -C "$tmp/rs" -xzf "$tmp/base.tar.gz" && mv "$tmp/rs/$top" "$tmp/rs/$top-r" &&
  (cd "$tmp/rs/$top-r" && rm -rf runs logs/experiment-* &&
   jqi campaign.json ".campaign_id = \"$id-r\" | .parts = [\"history\"] | .parts_planned = [\"history\"] | .parts_completed = [\"history\"] | .resumes = \"$id\"") &&
  resum "$tmp/rs/$top-r" && tar -C "$tmp/rs" -czf "$tmp/resumed.tar.gz" "$top-r"
ingest "$tmp/resumed.tar.gz" "$tmp/dp" --allow-emulated >"$tmp/dp2.log" 2>&1
tap_ok "the later campaign of the same device is ingested beside it" test $? -eq 0
"$report" paper --published data/published/seed-l4.json --out "$tmp/pp2" --gpu-data "$tmp/dp/gpu" >/dev/null 2>&1
tap_ok "  ... and the device's parts table takes history from it: nothing missing" \
  bash -c 'grep -qE "^\| history \| complete \| $2-r \|" "$1" && ! grep -q "| MISSING |" "$1" && grep -q "2 campaigns of this device" "$1"' \
  _ "$tmp/pp2/gpu.md" "$id"
tap_done
