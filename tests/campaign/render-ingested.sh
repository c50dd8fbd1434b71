#!/usr/bin/env bash
# From a GPU node's campaign to the paper, on this machine's emulator: the bundle unpacked outside
# the checkout, `campaign.sh --quick --backend emu` run there with no build tree or toolkit on the
# paths, its tarball ingested (--allow-emulated) into a temporary data directory, and `make paper
# GPU_DATA_DIR=...` rendering it: the paper's GPU part shows the campaign, labelled EMULATED
# everywhere (heading, banner, every timing, no ratio set beside the published ones), with its
# figures marked emulated; nothing is written under the checkout's data/ or figures/.
# Usage: tests/campaign/render-ingested.sh BUNDLE.tar.gz SDPA_REPORT
set -u
. tests/tap.sh
bundle=$(realpath "$1") report=$(realpath "$2")
for tool in pandoc gnuplot pdflatex pdftotext; do
  command -v $tool >/dev/null || { tap_skip "render an ingested campaign" "$tool not installed (make deps)"; tap_done; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/render-ingested.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
snap() { find data figures -printf '%p %s %T@\n' 2>/dev/null | sort; }
snap >"$tmp/before"

mkdir -p "$tmp/node" && tar -C "$tmp/node" -xzf "$bundle"
(cd "$tmp" && env -i HOME="$tmp" PATH=/usr/bin:/bin TMPDIR="$tmp" \
  "$tmp/node/bundle/campaign.sh" --quick --backend emu --out "$tmp/c.tar.gz") >"$tmp/campaign.log" 2>&1
rc=$?
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/campaign.log" | tail -n 20
tap_ok "campaign.sh --quick --backend emu, outside the checkout, with a bare PATH: exit 0" test $rc -eq 0
tools/campaign/ingest.sh "$tmp/c.tar.gz" "$tmp/data" "$report" --allow-emulated >"$tmp/ingest.log" 2>&1
tap_ok "ingested with --allow-emulated into a temporary data directory" test $? -eq 0
# The PDF only: the checks below read it and the generated Markdown (gen/), which sdpa-report writes.
make --no-print-directory -s paper DATA_DIR="$tmp/data" GPU_DATA_DIR="$tmp/data/gpu" FIG_DIR="$tmp/fig" \
  REPORT_DIR="$tmp/rep" PANDOC_FORMATS=pdf >"$tmp/paper.log" 2>&1
rc=$?
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/paper.log" | tail -n 20
tap_ok "make paper GPU_DATA_DIR=<that data>/gpu: exit 0" test $rc -eq 0
G=$tmp/rep/gen/gpu.md
id=$(tar -tzf "$tmp/c.tar.gz" | head -n 1 | cut -d/ -f1) id=${id#campaign-}
tap_ok "the GPU part shows the campaign ($id), its heading marked EMULATED" grep -q "^## .*(EMULATED): campaign $id" "$G"
tap_ok "  ... under the EMULATED CAMPAIGN banner" grep -qF "EMULATED CAMPAIGN (CPU), NOT A GPU" "$G"
n_hist=$(grep -c "^| stage[0-9a-z-]* | small |" "$G")
tap_ok "  ... every history row ($n_hist) labelled EMULATED, none as a GPU timing" \
  bash -c '[ "$2" -gt 0 ] && [ "$(grep "^| stage[0-9a-z-]* | small |" "$1" | grep -c "EMULATED (CPU), not a GPU timing")" -eq "$2" ] &&
           ! grep -q "| gpu |" "$1"' _ "$G" "$n_hist"
tap_ok "  ... no emulated ratio set beside the published ones" \
  bash -c 'grep "^| stage2-wmma-pv |" "$1" | grep -q "not evaluated"' _ "$G"
tap_ok "  ... and no timer step read from its CPU times (a GPU event timer's, in a GPU campaign only)" \
  bash -c 'grep -q "{#tbl:gpu-c1-history}" "$1" && ! grep -q "the event timer" "$1"' _ "$G"
tap_ok "  ... the scaling points marked EMULATED" bash -c 'grep -q "| EMULATED |" "$1" && ! grep -q "| ok |$" "$1"' _ "$G"
tap_ok "  ... its figures drawn, flagged emulated (the EMULATED label of figures/common.gp)" \
  bash -c 'test -s "$1/fig/paper/gpu/c1/scaling.png" -a -s "$1/fig/paper/gpu/c1/ecdf.png" &&
           grep -qx "emulated = 1" "$1/rep/gen/gpu/c1/plot-vars.gp"' _ "$tmp"
pdftotext -layout "$tmp/rep/paper.pdf" "$tmp/p.txt"
tap_ok "  ... in the PDF too, and the paper's first banner says so" \
  bash -c 'grep -q "Measured on GPUs" "$1" && grep -q "EMULATED CAMPAIGN (CPU)" "$1" && grep -q "EMULATED CAMPAIGNS IN THE GPU PART" "$1" &&
           ! grep -q "GPU CAMPAIGNS\." "$1"' _ "$tmp/p.txt"
snap >"$tmp/after"
tap_ok "nothing was written under the checkout's data/ or figures/" cmp -s "$tmp/before" "$tmp/after"
tap_done
