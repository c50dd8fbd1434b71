#!/usr/bin/env bash
# paper/prereg.sh, the pre-registration table from git, and its key (PREREG_KEY): a fresh clone
# writes the committed bytes; while the inputs stand, a run reads no history; each input (a new
# experiment in the work tree, a new commit, the table edited or removed) makes it compute again.
# Runs in a scratch clone of HEAD (with the work tree's script), never in the checkout.
set -u
. tests/tap.sh
TMP=$(mktemp -d "${TMPDIR:-/tmp}/prereg-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
script=$PWD/paper/prereg.sh
# As paper/prereg.sh itself: without git history (a tarball, a shallow clone) there is nothing to read.
git rev-parse --is-inside-work-tree >/dev/null 2>&1 && [ "$(git rev-parse --is-shallow-repository)" != true ] ||
  { tap_skip "paper/prereg.sh and its key" "not a git checkout with its history"; tap_done; }
git clone -q "$PWD" "$TMP/c" || { tap_ok "a scratch clone of the checkout" false; tap_done; }
cp "$script" "$TMP/c/paper/prereg.sh"
cd "$TMP/c" || exit 1
# git on PATH counts its calls: a run that reads the history makes ~210, a kept table 3.
real_git=$(command -v git)
mkdir -p "$TMP/bin"
printf '#!/bin/sh\necho x >>"%s"\nexec "%s" "$@"\n' "$TMP/calls" "$real_git" >"$TMP/bin/git"
chmod +x "$TMP/bin/git"
run() { # run [KEY]: paper/prereg.sh with PREREG_KEY=KEY (none: no key); sets calls
  : >"$TMP/calls"
  PATH=$TMP/bin:$PATH PREREG_KEY=${1:-} bash paper/prereg.sh >"$TMP/out" 2>&1
  local rc=$?
  calls=$(wc -l <"$TMP/calls")
  return $rc
}
key=$TMP/key/prereg.key
kept() { run "$1" && [ "$calls" -le 3 ]; }       # the table kept, the history not read
computed() { run "${1:-}" && [ "$calls" -gt 100 ]; } # the history read again
row() { awk -F'\t' -v e="$1" '$1 == "hypothesis" && $2 == e' paper/prereg.tsv; }

tap_ok "a first run with a key exits 0" run "$key"
tap_ok "it writes the committed table byte for byte (a fresh clone's history)" git diff --quiet -- paper/prereg.tsv
tap_ok "it read the history (> 100 git commands, $calls)" test "$calls" -gt 100
tap_ok "it wrote the key" test -s "$key"
tap_ok "the key names HEAD" grep -qx "$(git rev-parse HEAD)" "$key"
tap_ok "a second run, nothing changed: the table kept, no history read (at most 3 git commands)" kept "$key"
tap_ok "the table is still the committed one" git diff --quiet -- paper/prereg.tsv
tap_ok "without a key, every run reads the history" computed

# A new experiment in the work tree (a candidate without a registry row, so that its hypothesis.md
# is what fixes it): its row appears, with no fixing commit yet.
mkdir -p experiments/zz-probe
printf 'CANDIDATE := zz-none\n' >experiments/zz-probe/experiment.mk
echo "Hypothesis: a test's." >experiments/zz-probe/hypothesis.md
tap_ok "a new experiment.mk in the work tree: computed again" computed "$key"
tap_ok "the new experiment has its row" test -n "$(row zz-probe)"
tap_ok "its hypothesis has no commit yet" bash -c '[ -z "$(cut -f4 <<<"$1")" ]' _ "$(row zz-probe)"
tap_ok "run again: kept" kept "$key"
# A commit (HEAD moves; the work tree as before): the hypothesis gets its commit.
git add experiments/zz-probe && git -c user.name=t -c user.email=t@example.invalid commit -qm "zz-probe" ||
  tap_ok "committing the new experiment" false
head_short=$(git log -1 --format=%h)
tap_ok "after a commit (HEAD moved, the work tree as before): computed again" computed "$key"
tap_ok "the hypothesis row names the new commit $head_short" bash -c '[ "$(cut -f4 <<<"$1")" = "$2" ]' _ "$(row zz-probe)" "$head_short"
# The table edited by hand, or removed: written again.
cp paper/prereg.tsv "$TMP/good"
echo "edited" >>paper/prereg.tsv
tap_ok "an edited table: the run exits 0" run "$key"
tap_ok "the table is written again" cmp -s paper/prereg.tsv "$TMP/good"
rm paper/prereg.tsv
tap_ok "a removed table: the run exits 0" run "$key"
tap_ok "the table is written again" cmp -s paper/prereg.tsv "$TMP/good"
# The script itself changed (a comment): computed again, the same table.
echo "# a comment" >>paper/prereg.sh
tap_ok "a changed script: computed again" computed "$key"
tap_ok "the same table" cmp -s paper/prereg.tsv "$TMP/good"
# A key whose directory cannot be made: the table is still written and the run succeeds.
rm paper/prereg.tsv
touch "$TMP/file"
tap_ok "a key under a file (no directory): the run exits 0" run "$TMP/file/prereg.key"
tap_ok "the table is written" cmp -s paper/prereg.tsv "$TMP/good"
tap_done
