# Shared by the suites that edit copies of the SYNTHETIC GPU campaign fixture into one case each
# (stage7g.sh, coverage.sh). Sourced after tests/tap.sh, with R (the sdpa-report under test) and
# tmp (the suite's scratch directory, which it removes) set.
FX=tests/report/fixtures/gpu-campaign/data/gpu
SLUG=fixture-gpu-synthetic-not-a-measurement ID=20260102T030405Z-fixture-1

# edit FILE JQ_FILTER: FILE rewritten through the filter.
edit() { jq "$2" "$1" >"$1.new" && mv "$1.new" "$1"; }
# render NAME [SDPA_REPORT]: the paper's generated files from $tmp/NAME/gpu into $tmp/NAME/out; the
# exit status in rc, the log's tail as TAP comments when it failed.
render() {
  "${2:-$R}" paper --published data/published/seed-l4.json --out "$tmp/$1/out" --gpu-data "$tmp/$1/gpu" \
    >"$tmp/$1.log" 2>&1
  rc=$?
  [ $rc -eq 0 ] || sed 's/^/# /' "$tmp/$1.log" | tail -n 5
}
