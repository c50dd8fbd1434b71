# Shared helpers of the report test suites (sourced after tests/tap.sh).
# Every suite works in a temporary directory that it removes: fixtures are SYNTHETIC
# (meta.tool = "synthetic-fixture") and may never be rendered into data/, figures/ or paper/.

FIXTURES=tests/report/fixtures
TMP=$(mktemp -d "${TMPDIR:-/tmp}/report-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
MAKE_CMD=(${MAKE:-make} --no-print-directory -s)

# new_run FIXTURE EXPERIMENT [RUN_ID]: a run directory under $TMP/data holding the fixture's JSON
# and the experiment definition, with its manifest, as experiments/run.sh leaves a complete run.
# Prints its path.
new_run() {
  local fx=$1 exp=$2 id=${3:-20260102T030405Z-0000000}
  local dir=$TMP/data/$exp/$id
  mkdir -p "$dir"
  cp "$FIXTURES/$fx"/*.json "experiments/$exp/experiment.mk" "experiments/$exp/hypothesis.md" "$dir/"
  "${SDPA_REPORT:-build/bin/sdpa-report}" manifest --run "$dir" >&2
  echo "$dir"
}

# report_tables RUN: sdpa-report experiment with the parameters of the stage2 experiment.
report_tables() {
  "$SDPA_REPORT" experiment --run "$1" --experiment stage2-wmma-pv --title "Stage 2 (fixture)" \
    --baseline stage1 --candidate stage2 --gate-speedup 1.15 --static-budget "${BUDGET:-128,0,0,49152}" \
    --published data/published/seed-l4.json --make-target stage2 "${@:2}"
}

# gate_cell FILE NAME-PREFIX COLUMN: a cell of the gate table (columns: 1 gate ... 5 status).
gate_cell() {
  awk -F' [|] ' -v name="$2" -v col="$3" 'index($1, "| " name) == 1 { sub(/ [|]$/, "", $NF); print $col; exit }' "$1"
}

# json FILE FILTER: a value with jq (-r).
json() { jq -r "$2" "$1"; }

# near A B RELTOL: |A - B| <= RELTOL * |B|
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; exit !(d <= t * m) }'; }

# fake_run: RUN_ARGS, experiments/run.sh's keys for a small stage2 run on the fake harness
# (tests/report/fake-bench.sh) into $TMP/data, reporting with $SDPA_REPORT; run_sh KEY=VALUE...
# runs it with those added.
fake_run() {
  RUN_ARGS=(exp=stage2-wmma-pv data="$TMP/data" bench=tests/report/fake-bench.sh report="$SDPA_REPORT"
    ptxas="$FIXTURES/emulated/ptxas.json" baseline=stage1 candidate=stage2 shapes="small" seeds=0,1
    timing_shape=small gpu="20 200 2 30" emu="1 6 0 40" l2=cold run_id= backend=auto)
}
run_sh() { experiments/run.sh "${RUN_ARGS[@]}" "$@"; }
