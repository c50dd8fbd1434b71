#!/usr/bin/env bash
# experiments/README.md, "How to add an experiment", followed to the letter with a throwaway
# experiment in a temporary copy of the checkout (never in it): before, its target does not exist;
# after creating its directory and its paper section only, `make help` lists it, `make all` runs
# it, `make <target>` makes a complete run directory (on the fake harness, tables only), and the
# paper writes its section. Also: `make help` lists every experiment's MAKE_TARGET of the checkout.
# About half a minute (the copy takes the built programs along, so nothing is rebuilt).
# Usage: tests/experiments/add-experiment.sh
set -u
. tests/tap.sh
TMP=$(mktemp -d "${TMPDIR:-/tmp}/add-experiment.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
MK=(${MAKE:-make} --no-print-directory -s)

# Every experiment of the checkout is listed by make help, under its own MAKE_TARGET.
"${MK[@]}" help >"$TMP/help" 2>&1
missing=$(for f in experiments/*/experiment.mk; do
  t=$(sed -n 's/^MAKE_TARGET *:= *//p' "$f"); grep -q "^  $t  *run " "$TMP/help" || echo "$t"; done)
tap_ok "make help lists every experiment's target ($(ls experiments/*/experiment.mk | wc -l))" test -z "$missing"

# The copy: every file git would commit (tracked, and untracked but not ignored), mtimes kept, and
# build/ as it is, so that make finds the programs up to date.
C=$TMP/co
mkdir -p "$C" && git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
  [ -e "$f" ] && printf '%s\0' "$f"; done | tar --null -T - -cf - | tar -xf - -C "$C"
[ -d build ] && cp -a build "$C/build"
cd "$C" || exit 1
targets() { "${MK[@]}" --eval 'print-targets: ; @echo $(EXPERIMENT_TARGETS)' print-targets; }
NAME=stage9-throwaway T=stage9
"${MK[@]}" help >"$TMP/help0" 2>&1
tap_ok "before: no target $T, make help does not list it" \
  bash -c '! grep -q "^  stage9 " "$1" && ! "${@:2}" -n stage9 >/dev/null 2>&1' _ "$TMP/help0" "${MK[@]}"
before=$(targets)

# Step 1: experiments/<name>/experiment.mk (stage 2's definition under a new title and target).
mkdir "experiments/$NAME"
sed -e 's/^TITLE *:=.*/TITLE        := Throwaway: stage1 to stage2 again/' -e "s/^MAKE_TARGET *:=.*/MAKE_TARGET  := $T/" \
  experiments/stage2-wmma-pv/experiment.mk >"experiments/$NAME/experiment.mk"
# Step 2: hypothesis.md with its three sections.
cp experiments/stage2-wmma-pv/hypothesis.md "experiments/$NAME/hypothesis.md"
# Step 3: its section of the paper.
printf '\n# Throwaway\n\n::: {.include src="{gen}/stage-%s.md"}\n:::\n' "$NAME" >>paper/paper.md

"${MK[@]}" help >"$TMP/help1" 2>&1
tap_ok "after: make help lists $T with its TITLE" \
  grep -q "^  stage9  *run Throwaway: stage1 to stage2 again into a new run directory" "$TMP/help1"
tap_ok "  ... make all runs it, after the others ($(targets))" test "$(targets)" = "$before $T"
tap_ok "  ... so does the bundle (its experiment list)" \
  bash -c '"$@" --eval "p: ; @echo \$(EXPERIMENTS)" p | grep -qw stage9-throwaway' _ "${MK[@]}"
# Step 4: make <target>, on the fake harness, tables only (no figures, no pandoc).
"${MK[@]}" $T SDPA_BENCH=tests/report/fake-bench.sh PTXAS_JSON= SHAPES=small SEEDS=0 TIMING_SHAPE=small \
  DATA_DIR="$TMP/data" FIG_DIR="$TMP/fig" REPORT_DIR="$TMP/rep" render_missing=pandoc >"$TMP/run.log" 2>&1
rc=$?
[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/run.log" | tail -n 15
R=$(ls -d "$TMP/data/$NAME"/*/ 2>/dev/null | head -n 1)
tap_ok "make $T: exit 0, a complete run directory under data/$NAME/" \
  bash -c 'test $1 -eq 0 && test -n "$2" && build/bin/sdpa-report check-run "$2"' _ $rc "${R%/}"
tap_ok "  ... judged by its own definition (summary.json names the experiment)" \
  bash -c 'build/bin/sdpa-report get "$1/summary.json" experiment | grep -qx stage9-throwaway' _ "${R%/}"
tap_ok "  ... and make paper's pick is that run" test "$(build/bin/sdpa-report latest-run "$TMP/data/$NAME" 2>/dev/null)" = "${R%/}"
build/bin/sdpa-report paper --published data/published/seed-l4.json --out "$TMP/gen" \
  --stage "$NAME" "${R%/}" "$TMP/fig/$NAME" >"$TMP/paper.log" 2>&1
tap_ok "the paper writes its section (stage-$NAME.md, its latest run)" \
  bash -c 'test $1 -eq 0 && grep -q "$(basename "$2")" "$3/stage-stage9-throwaway.md"' _ $? "${R%/}" "$TMP/gen"
tap_done
