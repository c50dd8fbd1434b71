#!/usr/bin/env bash
# dump-diff.sh: a GPU's failed output (sdpa-bench --dump-failed: DIR/o.npy and meta.json, brought
# home by the short lease in failed/) against the emulator's output of the same variant on the same
# inputs: the emulator's --dump of the problem meta.json names (variant, shape, seed, codec, dist),
# then sdpa-report dump-diff of the two, whose output this prints.
#   dump-diff.sh DIR [SDPA_BENCH [SDPA_REPORT]]   (defaults build/bin/sdpa-bench, build/bin/sdpa-report)
# meta.json comes from another machine: it is read with jq, every field checked against the few
# values it may hold, and nothing of it is run or sourced; a field outside them is exit 2, naming it.
# Exit status: dump-diff's (0 compared, 1 a dump unreadable or of another problem), 2 on bad usage
# or a bad meta.json, 3 when the emulator's run fails. The emulator's dump is removed at the end.
set -u
if [ $# -lt 1 ] || [ $# -gt 3 ]; then echo "usage: dump-diff.sh DIR [SDPA_BENCH [SDPA_REPORT]]" >&2; exit 2; fi
dir=$1 bench=${2:-build/bin/sdpa-bench} report=${3:-build/bin/sdpa-report}
meta=$dir/meta.json
command -v jq >/dev/null || { echo "dump-diff.sh: jq is needed (make deps)" >&2; exit 2; }
[ -f "$meta" ] || { echo "dump-diff.sh: $meta: no such file" >&2; exit 2; }
# field NAME JQ_PATH ERE: the field's value, refused unless it matches ERE whole
field() {
  local v
  if ! v=$(jq -er "$2 | if type == \"string\" or type == \"number\" or type == \"boolean\" then tostring else error end" \
    "$meta" 2>/dev/null) || ! [[ $v =~ ^($3)$ ]]; then
    echo "dump-diff.sh: $meta: $1 missing or not of the form $3" >&2
    exit 2
  fi
  printf '%s' "$v"
}
variant=$(field variant .variant '[a-z0-9][a-z0-9-]{0,39}') || exit 2
name=$(field shape.name .shape.name '[a-z0-9][a-z0-9,-]{0,39}') || exit 2
dims=() && for k in B H S D; do dims+=("$(field "shape.$k" ".shape.$k" '[1-9][0-9]{0,7}')") || exit 2; done
causal=$(field shape.causal .shape.causal 'true|false') || exit 2
seed=$(field seed .seed '[0-9]{1,19}') || exit 2
codec=$(field codec .codec 'e4m3|seed-linear') || exit 2
dist=$(field dist .dist 'normal|uniform|outliers') || exit 2
# A named shape by its name where the bench knows it with these dimensions; otherwise B,H,S,D.
shape=(--shape "$(IFS=,; echo "${dims[*]}")")
[ "$causal" = true ] && shape+=(--causal)
known=$("$bench" --list-shapes 2>/dev/null | awk -v n="$name" '$1 == n { print $2 ($3 == "causal" ? " causal" : "") }')
want="$(IFS=,; echo "${dims[*]}")$([ "$causal" = true ] && echo ' causal')"
[ -n "$known" ] && [ "$known" = "$want" ] && shape=(--shape "$name")
emu=$(mktemp -d "${TMPDIR:-/tmp}/dump-diff-emu.XXXXXX") || exit 3
trap 'rm -rf "$emu"' EXIT
echo "dump-diff.sh: the emulator's $variant, ${shape[*]}, seed $seed, $codec, $dist" >&2
"$bench" --backend emu --check-only --quiet --variant "$variant" "${shape[@]}" --seeds "$seed" --codec "$codec" \
  --dist "$dist" --dump "$emu/dump" >"$emu/bench.log" 2>&1
rc=$?
# exit 1 is a failed check on the emulator too (then both outputs are wrong, and the diff still says how)
if [ $rc -gt 1 ] || [ ! -f "$emu/dump/o.npy" ]; then
  cat "$emu/bench.log" >&2
  echo "dump-diff.sh: the emulator's run failed (exit $rc)" >&2
  exit 3
fi
"$report" dump-diff "$dir" "$emu/dump"
