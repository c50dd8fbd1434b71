#!/usr/bin/env bash
# sdpa-bench's command line through the binary: every bad input exits 2 with a message that
# names the flag (and the accepted values), files that exist are refused and left untouched,
# and --help / --version / --list-* work. Usage: cli.sh SDPA_BENCH_BINARY
. "$(dirname "$0")/../tap.sh"
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# usage NAME PATTERN ARGS...: exit status 2, and stderr has "sdpa-bench: " and PATTERN.
usage() {
  local name=$1 pat=$2; shift 2
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ $rc -eq 2 ] && grep -qF -- "sdpa-bench: " "$tmp/err" && grep -qF -- "$pat" "$tmp/err"; then
    tap_ok "$name" true
  else
    tap_diag "exit $rc, stderr: $(cat "$tmp/err")"
    tap_ok "$name" false
  fi
}

# Success paths that do no work.
"$bin" --help >"$tmp/help"
tap_ok "--help exits 0" test $? -eq 0
for flag in --list-variants --list-shapes --variant --vs --shape --seeds --codec --dist --backend --check-only \
            --warmup --iters --min-time --max-time --l2 --force --out --dump --quiet --help --version \
            --list-peers --peer --ceilings --ref-rows --ref-threads --causal; do
  tap_ok "--help documents $flag" grep -qe "$flag" "$tmp/help"
done
tap_ok "--help documents the exit statuses" grep -q "Exit status: 0" "$tmp/help"
tap_ok "--version exits 0 and names the tool" bash -c '"$1" --version | grep -q "^sdpa-bench "' _ "$bin"
"$bin" --list-variants >"$tmp/variants"
for id in stage0 stage1 stage2 stage3a stage3a-swz; do
  tap_ok "--list-variants lists $id first on its line" grep -q "^$id " "$tmp/variants"
done
"$bin" --list-shapes >"$tmp/shapes"
for s in small mission long ragged partial single label-a stage5 mission-d128 mission-causal mission-d128-causal \
         ragged-d128 ragged-causal ragged-d128-causal fa-s512-d64 fa-s16384-d128-causal; do
  tap_ok "--list-shapes lists $s" grep -q "^$s " "$tmp/shapes"
done
tap_ok "--list-shapes gives B,H,S,D" grep -q "^mission  *1,8,512,64 " "$tmp/shapes"
tap_ok "--list-shapes marks a causal shape" grep -q "^mission-d128-causal  *1,8,512,128 causal " "$tmp/shapes"
# The FlashAttention grid: 16384 tokens (B x S), H x D = 2048; 6 S x 2 D x 2 masks.
tap_ok "--list-shapes: the FlashAttention grid, B x S = 16384, H x D = 2048" \
  bash -c 'grep -q "^fa-s512-d64  *32,32,512,64 " "$1" && grep -q "^fa-s16384-d128-causal  *1,16,16384,128 causal " "$1"' _ "$tmp/shapes"
tap_ok "--list-shapes: 24 members of the grid" test "$(grep -c '^fa-s' "$tmp/shapes")" -eq 24

# Bad usage and bad input: exit 2, the flag named.
usage "unknown flag" "unknown option '--bogus'" --bogus
usage "--ref-rows 1: a sample needs both ends" "--ref-rows: invalid value '1'; accepted: 0 (every row) or a number of rows >= 2" --ref-rows 1
usage "--ref-rows x" "--ref-rows: invalid value 'x'" --ref-rows x
usage "--ref-threads 2000" "--ref-threads: invalid value '2000'" --ref-threads 2000
usage "stray argument" "unexpected argument 'stage2'" stage2
usage "missing value" "--iters needs a value" --iters
usage "unknown variant" "--variant: unknown variant 'stage9'; accepted: stage0, stage1" --variant stage9
usage "unknown baseline" "--vs: unknown variant 'nope'" --vs nope --variant stage2
usage "unknown baseline lists the peers too" "; or a peer: cublas-unfused" --vs nope --variant stage2
usage "unknown peer" "--peer: unknown peer 'nope'; accepted: cublas-unfused" --peer nope
usage "a peer given twice" "--peer cublas-unfused: given twice" --peer cublas-unfused --peer cublas-unfused
usage "--ceilings without --out" "--ceilings needs --out FILE.json" --ceilings
usage "--ceilings with a variant" "--ceilings measures the device, not variants" --ceilings --variant stage2 \
  --out "$tmp/c.json"
usage "unknown shape" "--shape: unknown shape 'huge'; accepted: small, mission" --shape huge
usage "D not 64 or 128" "--shape 1,8,512,96: head dimension not supported; accepted: D = 64, 128" --shape 1,8,512,96
usage "a grid member with an inexact B" "--shape: unknown shape 'fa-t1000-s512-d64'" --shape fa-t1000-s512-d64
usage "a grid member with D = 32" "--shape fa-s512-d32: head dimension not supported; accepted: D = 64, 128" --shape fa-s512-d32
usage "a shape given twice with --causal" "--shape mission-causal: given twice (with --causal)" --causal \
  --shape mission --shape mission-causal
usage "S = 0" "--shape 1,8,0,64: empty problem" --shape 1,8,0,64
usage "B*H*S*D overflows" "--shape 4096,4096,4096,64: problem too large" --shape 4096,4096,4096,64
usage "H beyond the grid" "--shape 1,65536,1,64: problem too large" --shape 1,65536,1,64
usage "unknown codec" "--codec: invalid value 'e5m2'; accepted: e4m3 or seed-linear" --codec e5m2
usage "unknown dist" "--dist: invalid value 'x'; accepted: normal, uniform or outliers" --dist x
usage "unknown backend" "--backend: invalid value 'rocm'; accepted: auto, cuda or emu" --backend rocm
usage "unknown l2 mode" "--l2: invalid value 'tepid'; accepted: cold or warm" --l2 tepid
usage "zero iterations" "--iters: invalid value '0'" --iters 0
usage "max-time below min-time" "--max-time 1 is below --min-time 3" --min-time 3 --max-time 1
usage "bad seeds" "--seeds 1,x: expected comma-separated unsigned integers" --seeds 1,x
usage "schedule with --backend cuda" "--schedule" --backend cuda --schedule rev
usage "unwritable --out (no such directory)" "--out $tmp/no/such/dir/run.json: cannot create a file" \
  --out "$tmp/no/such/dir/run.json" --backend emu
touch "$tmp/plainfile"
usage "unwritable --out (a file as directory)" "--out $tmp/plainfile/run.json" --out "$tmp/plainfile/run.json"
usage "--ptxas missing" "--ptxas $tmp/none.json: cannot read" --ptxas "$tmp/none.json"
echo '{"schema_version": "1.0.0", "kind": "sdpa-bench-run"}' >"$tmp/wrongkind.json"
usage "--ptxas of the wrong kind" "--ptxas: " --ptxas "$tmp/wrongkind.json" --backend emu --check-only --shape single

# A peer whose kernel this program does not link (this test build's kernel table is plain C) is
# "not supported" with the reason, and the run goes on: never a failure.
"$bin" --backend emu --check-only --shape small --seeds 0 --variant stage2 --peer cublas-unfused \
  --out "$tmp/peer.json" >"$tmp/peer.out" 2>"$tmp/peer.err"
tap_ok "a peer not built into the program: exit 0" test $? -eq 0
tap_ok "  ... not supported, with the reason" \
  grep -q "^skip    peer-cublas-unfused not built into this program" "$tmp/peer.out"
tap_ok "  ... recorded in not_supported" grep -q '"variant":[[:space:]]*"peer-cublas-unfused"' "$tmp/peer.json"

# An existing --out is refused and left byte for byte as it was; so are --dump files.
printf 'earlier results\n' >"$tmp/run.json"
cp "$tmp/run.json" "$tmp/run.json.orig"
usage "existing --out refused" "--out $tmp/run.json: the file exists; sdpa-bench never overwrites" \
  --out "$tmp/run.json" --backend emu --check-only --shape single --seeds 0
tap_ok "existing --out left untouched" cmp -s "$tmp/run.json" "$tmp/run.json.orig"
mkdir -p "$tmp/dump" && printf 'keep\n' >"$tmp/dump/o.npy"
usage "existing --dump file refused" "--dump $tmp/dump: $tmp/dump/o.npy already exists" \
  --dump "$tmp/dump" --backend emu --check-only --shape single --seeds 0
tap_ok "existing --dump file left untouched" grep -qx keep "$tmp/dump/o.npy"
tap_ok "refused runs wrote nothing else" bash -c '[ "$(ls "$1/dump")" = o.npy ]' _ "$tmp"
tap_done
