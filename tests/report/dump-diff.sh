#!/usr/bin/env bash
# sdpa-report dump-diff (host/report/dump_diff.c): where two dumps of one problem differ. The
# yardstick is an emulator dump of stage 6 at (2,3,200,64) (sdpa-bench --dump); the examined dumps
# are copies of it whose o.npy was edited here with python3 into a known pattern (the second half
# of every 16-row fragment off by more than the outputs' scale, as a wrong fragment row mapping
# would leave it; one column; one head; 70 % of the elements drawn at random, as an error that
# mixes every output leaves them), so the lines the tool prints are checked against what was
# planted, not against its own output. Also: a dump against itself, dumps of other problems,
# missing and malformed files; tools/campaign/dump-diff.sh (the emulator's run of the problem a
# meta.json names, its fields checked as data).
# Usage: tests/report/dump-diff.sh build/bin/sdpa-bench build/bin/sdpa-report [sdpa-report-asan]
# shellcheck disable=SC2016 # the checks' bash -c scripts expand their own arguments
set -u
. tests/tap.sh
bench=$(realpath "$1")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dump-diff-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
command -v python3 >/dev/null || { tap_skip "dump-diff" "python3 not installed"; tap_done; }
"$bench" --backend emu --check-only --quiet --variant stage6 --shape 2,3,200,64 --seeds 0 --dump "$tmp/ref" >/dev/null
"$bench" --backend emu --check-only --quiet --variant stage6 --shape 2,3,200,64 --seeds 1 --dump "$tmp/seed1" >/dev/null

# plant NAME PYTHON_CONDITION: a copy of the yardstick whose elements (b, h, r, d) meeting the
# condition hold x + 1 + |x| instead of x, at least 1 away from it where the slices' RMS is about
# 0.1 (float16, the .npy's own header kept).
plant() {
  mkdir -p "$tmp/$1" && cp "$tmp/ref/meta.json" "$tmp/$1/"
  python3 - "$tmp/ref/o.npy" "$tmp/$1/o.npy" "$2" <<'EOF'
import random, struct, sys
random.seed(7)
src, dst, cond = sys.argv[1], sys.argv[2], sys.argv[3]
raw = open(src, 'rb').read()
hl = struct.unpack('<H', raw[8:10])[0]
head, data = raw[:10 + hl], bytearray(raw[10 + hl:])
B, H, S, D = 2, 3, 200, 64
for i in range(B * H * S * D):
    b, h, r, d = i // (H * S * D), i // (S * D) % H, i // D % S, i % D
    if eval(cond):
        x = struct.unpack('<e', data[2 * i:2 * i + 2])[0]
        data[2 * i:2 * i + 2] = struct.pack('<e', x + 1.0 + abs(x))
open(dst, 'wb').write(head + bytes(data))
EOF
}
plant rows 'r % 16 >= 8'
plant column 'd == 37'
plant head 'h == 1 and b == 0'
plant mixed 'random.random() < 0.7' # 70 % of the elements, drawn (seeded)

# line LABEL CASE: what follows LABEL on its line of $tmp/CASE.out
line() { grep -E "^  $1 +" "$tmp/$2.out" | sed -E "s/^  $1 +//"; }
for R in "${@:2}"; do
  R=$(realpath "$R") n=$(basename "$R")
  "$R" dump-diff "$tmp/rows" "$tmp/ref" >"$tmp/rows.out" 2>&1
  tap_ok "$n: two dumps of one problem compare (exit 0)" test $? -eq 0
  tap_ok "$n: rows 8-15 of every 16 planted: the fragment-row line says so" \
    test "$(line 'query row mod 16:' rows)" = "0-7 0 %, 8-15 100 %"
  tap_ok "$n:   ... modulo 64, four such runs" \
    test "$(line 'query row mod 64:' rows)" = "0-7 0 %, 8-15 100 %, 16-23 0 %, 24-31 100 %, 32-39 0 %, 40-47 100 %, 48-55 0 %, 56-63 100 %"
  tap_ok "$n:   ... every column, head and batch entry as wrong as the whole (96 of 200 rows)" \
    bash -c '[ "$1" = "0-63 48 %" ] && [ "$2" = "0-2 48 %" ] && [ "$3" = "0-1 48 %" ]' _ \
    "$(line 'column:' rows)" "$(line 'head:' rows)" "$(line 'batch entry:' rows)"
  # 200 rows: 12 whole fragments and rows 192-199 (none of them planted): 96 of every 200 rows.
  tap_ok "$n:   ... the count of large elements: 96 rows of 200 in each of 6 slices, 64 columns" \
    grep -qx "large: 36864 (48.00 %), 0 of them not finite in A .*" "$tmp/rows.out"
  tap_ok "$n:   ... the tiles of 64 and 128 (tile 3 of 64: rows 192-199, none; tile 1 of 128: 32 of 72)" \
    bash -c '[ "$1" = "0-2 50 %, 3 0 %" ] && [ "$2" = "0 50 %, 1 44 %" ]' _ \
    "$(line 'query tile of 64:' rows)" "$(line 'query tile of 128:' rows)"
  tap_ok "$n:   ... the variants and backends named (A, then B)" \
    bash -c 'grep -qx "A .*/rows: stage6 on emu" "$1" && grep -qx "B .*/ref: stage6 on emu" "$1"' _ "$tmp/rows.out"
  "$R" dump-diff "$tmp/column" "$tmp/ref" >"$tmp/column.out" 2>&1
  tap_ok "$n: one column planted: column 37 alone, 5 of every 16 (a quarter: 5, 21, 37, 53), every row" \
    bash -c '[ "$1" = "0-36 0 %, 37 100 %, 38-63 0 %" ] && [ "$2" = "0-4 0 %, 5 25 %, 6-15 0 %" ] &&
      [ "$3" = "0-15 2 %" ]' _ \
    "$(line 'column:' column)" "$(line 'column mod 16:' column)" "$(line 'query row mod 16:' column)"
  "$R" dump-diff "$tmp/head" "$tmp/ref" >"$tmp/head.out" 2>&1
  tap_ok "$n: one slice planted: head 1 of batch entry 0 (of the six slices, every head but 1 clean)" \
    bash -c '[ "$1" = "0 0 %, 1 50 %, 2 0 %" ] && [ "$2" = "0 33 %, 1 0 %" ]' _ \
    "$(line 'head:' head)" "$(line 'batch entry:' head)"
  "$R" dump-diff "$tmp/mixed" "$tmp/ref" >"$tmp/mixed.out" 2>&1
  tap_ok "$n: 70 % of the elements anywhere: no pattern along rows and columns, said in one range" \
    bash -c '[[ "$1" =~ ^every\ class\ (6[0-9]|7[0-9])-(6[0-9]|7[0-9])\ %\ \(no\ pattern\)$ ]] &&
      [[ "$2" =~ ^every\ class\ (6[0-9]|7[0-9])-(6[0-9]|7[0-9])\ %\ \(no\ pattern\)$ ]]' _ \
    "$(line 'query row mod 16:' mixed)" "$(line 'column:' mixed)"
  tap_ok "$n:   ... a partition of four classes or fewer keeps its classes (the tiles of 128: two)" \
    bash -c '[[ "$1" =~ ^0\ [67][0-9]\ %,\ 1\ [67][0-9]\ %$ || "$1" =~ ^0-1\ [67][0-9]\ %$ ]]' _ "$(line 'query tile of 128:' mixed)"
  "$R" dump-diff "$tmp/ref" "$tmp/ref" >"$tmp/same.out" 2>&1
  tap_ok "$n: a dump against itself: identical, no table" \
    bash -c 'grep -qx "identical: none of the 76800 elements differs" "$1" && ! grep -q "share of large" "$1"' _ "$tmp/same.out"
  "$R" dump-diff "$tmp/seed1" "$tmp/ref" >"$tmp/seed.out" 2>&1
  tap_ok "$n: dumps of other seeds: exit 1 naming the field" \
    bash -c '[ $1 -eq 1 ] && grep -q "seed1/meta.json: seed \"1\", the other dump.s \"0\"" "$2"' _ $? "$tmp/seed.out"
  mkdir -p "$tmp/bad" && cp "$tmp/ref/meta.json" "$tmp/bad/"
  "$R" dump-diff "$tmp/bad" "$tmp/ref" >"$tmp/bad.out" 2>&1
  tap_ok "$n: no o.npy: exit 1 naming the file" bash -c '[ $1 -eq 1 ] && grep -q "bad/o.npy" "$2"' _ $? "$tmp/bad.out"
  head -c 100 "$tmp/ref/o.npy" >"$tmp/bad/o.npy"
  "$R" dump-diff "$tmp/bad" "$tmp/ref" >"$tmp/bad.out" 2>&1
  tap_ok "$n: a truncated o.npy: exit 1 naming it" bash -c '[ $1 -eq 1 ] && grep -q "bad/o.npy" "$2"' _ $? "$tmp/bad.out"
  echo '{"shape": {"B": 2}}' >"$tmp/bad/meta.json"
  "$R" dump-diff "$tmp/bad" "$tmp/ref" >"$tmp/bad.out" 2>&1
  tap_ok "$n: a meta.json without the shape: exit 1 naming the field" \
    bash -c '[ $1 -eq 1 ] && grep -q "bad/meta.json: no valid shape.H" "$2"' _ $? "$tmp/bad.out"
  echo '{"shape": {"B": 65536, "H": 65536, "S": 65536, "D": 65536}}' >"$tmp/bad/meta.json"
  "$R" dump-diff "$tmp/bad" "$tmp/ref" >"$tmp/bad.out" 2>&1
  tap_ok "$n: a shape of 2^64 elements: exit 1 before any allocation" \
    bash -c '[ $1 -eq 1 ] && grep -q "more than 2^30 elements" "$2"' _ $? "$tmp/bad.out"
  "$R" dump-diff "$tmp/ref" >/dev/null 2>&1
  tap_ok "$n: one directory only: usage, exit 2" test $? -eq 2
  "$R" dump-diff "$tmp/rows" "$tmp/ref" --large 2 >/dev/null 2>&1
  tap_ok "$n: --large outside (0, 1]: usage, exit 2" test $? -eq 2
  "$R" dump-diff "$tmp/rows" "$tmp/ref" --large 1 >"$tmp/large.out" 2>&1
  tap_ok "$n: --large 1: the planted elements (off by at least 1, ten times the RMS) still count" \
    test "$(line 'query row mod 16:' large)" = "0-7 0 %, 8-15 100 %"
done

# tools/campaign/dump-diff.sh: the emulator's output of the problem a dump's meta.json names, then
# the diff. On a copy of the rows plant (a B,H,S,D shape) and of one at a named shape (ragged).
R=$(realpath "$2") S=tools/campaign/dump-diff.sh
if command -v jq >/dev/null; then
  bash "$S" "$tmp/rows" "$bench" "$R" >"$tmp/script.out" 2>"$tmp/script.err"
  tap_ok "dump-diff.sh on a dump of a B,H,S,D shape: exit 0, the emulator run at 2,3,200,64, the planted rows found" \
    bash -c '[ $1 -eq 0 ] && grep -q "the emulator.s stage6, --shape 2,3,200,64, seed 0, e4m3, normal" "$2" &&
      grep -qx "  query row mod 16: *0-7 0 %, 8-15 100 %" "$3"' _ $? "$tmp/script.err" "$tmp/script.out"
  "$bench" --backend emu --check-only --quiet --variant stage6 --shape ragged --seeds 2 --dump "$tmp/named" >/dev/null
  mkdir -p "$tmp/named2" && cp "$tmp/named/meta.json" "$tmp/named2/" && cp "$tmp/named/o.npy" "$tmp/named2/"
  bash "$S" "$tmp/named2" "$bench" "$R" >"$tmp/script.out" 2>"$tmp/script.err"
  tap_ok "dump-diff.sh on a dump of a named shape (ragged, seed 2): run by its name and seed, identical" \
    bash -c '[ $1 -eq 0 ] && grep -q "the emulator.s stage6, --shape ragged, seed 2," "$2" &&
      grep -q "^identical: " "$3"' _ $? "$tmp/script.err" "$tmp/script.out"
  sed 's/"variant":[^,]*/"variant": "stage6; touch PWNED"/' "$tmp/named/meta.json" >"$tmp/named2/meta.json"
  (cd "$tmp" && bash "$OLDPWD/$S" "$tmp/named2" "$bench" "$R") >/dev/null 2>"$tmp/script.err"
  tap_ok "dump-diff.sh: a variant outside its form in meta.json: exit 2 naming the field, nothing run" \
    bash -c '[ $1 -eq 2 ] && grep -q "meta.json: variant missing or not of the form" "$2" && [ ! -e "$3/PWNED" ] &&
      ! grep -q "the emulator" "$2"' _ $? "$tmp/script.err" "$tmp"
  sed 's/"codec":[^,]*/"codec": ["e4m3"]/' "$tmp/named/meta.json" >"$tmp/named2/meta.json"
  bash "$S" "$tmp/named2" "$bench" "$R" >/dev/null 2>"$tmp/script.err"
  tap_ok "dump-diff.sh: a codec that is not a string: exit 2 naming it" \
    bash -c '[ $1 -eq 2 ] && grep -q "meta.json: codec missing" "$2"' _ $? "$tmp/script.err"
  bash "$S" "$tmp/nowhere" "$bench" "$R" >/dev/null 2>"$tmp/script.err"
  tap_ok "dump-diff.sh: no meta.json: exit 2 naming it" bash -c '[ $1 -eq 2 ] && grep -q "nowhere/meta.json: no such file" "$2"' _ $? "$tmp/script.err"
else
  tap_skip "dump-diff.sh" "jq not installed (make deps)"
fi
tap_done
