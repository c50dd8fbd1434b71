#!/usr/bin/env bash
# sdpa-bench's command line is documented once, in host/bench/README.md ("Command line"): every
# option `sdpa-bench --help` prints has a row there, and every row names an option --help prints.
# A control drops a row from a copy and must see the difference.
# Usage: tests/bench/readme-options.sh SDPA_BENCH
set -u
. "$(dirname "$0")/../tap.sh"
bench=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/readme-options.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# The options of the README's table: the first cell of each row (escaped pipes are not cells).
readme_opts() {
  sed -n '/^## Command line/,/^## [^C]/p' "$1" | sed 's/\\|/ /g' | awk -F'|' '/^\| `--/ { print $2 }' |
    grep -o -- '--[a-z][a-z0-9-]*' | sort -u
}
"$bench" --help | grep -o -- '--[a-z][a-z0-9-]*' | sort -u >"$tmp/help"
readme_opts host/bench/README.md >"$tmp/readme"
tap_ok "every option of sdpa-bench --help has a row in host/bench/README.md, and no row more ($(wc -l <"$tmp/help") options)" \
  bash -c 'test -s "$1" && diff "$1" "$2" >&2' _ "$tmp/help" "$tmp/readme"
grep -v '^| `--seeds' host/bench/README.md >"$tmp/README.md"
readme_opts "$tmp/README.md" >"$tmp/readme2"
tap_fail "control: a README without the --seeds row differs" diff -q "$tmp/help" "$tmp/readme2"
tap_done
