# The correctness-matrix runner shared by correctness.sh (emulator) and gpu-correctness.sh (sourced;
# needs tests/tap.sh, and $tmp, $matrix, $schema set by the caller).
#   run NAME EXPECTED_CHECKS "E2E_LO E2E_HI"|"" BACKEND BENCH ARGS...: one sdpa-bench run on BACKEND
#   (emu or cuda), then one TAP line per checked launch and cross-variant comparison
#   (check_matrix), each prefixed with NAME.
run() {
  local name=$1 expected=$2 range=$3 backend=$4 bin=$5; shift 5
  local t0=$SECONDS
  "$bin" --backend "$backend" --check-only --quiet --out "$tmp/$name.json" "$@" >"$tmp/$name.log" 2>&1
  local rc=$?
  tap_diag "$name: $((SECONDS - t0)) s"
  tap_ok "$name: sdpa-bench exits 0 (every check passed)" test $rc -eq 0
  [ $rc -eq 0 ] || sed 's/^/# /' "$tmp/$name.log" | tail -n 30
  tap_fail "$name: no sanitizer or emulator report" \
    grep -qE 'WARNING: ThreadSanitizer|ERROR: AddressSanitizer|runtime error:|^simt: ' "$tmp/$name.log"
  [ -f "$tmp/$name.json" ] || return
  tap_ok "$name: the result file follows data/SCHEMA.md" "$schema" "$tmp/$name.json"
  # shellcheck disable=SC2086
  "$matrix" "$tmp/$name.json" "$expected" $range >"$tmp/$name.tap"
  while IFS= read -r line; do
    case $line in
      "ok "*) _tap_line ok "$name: ${line#* - }" ;;
      "not ok "*) _tap_line "not ok" "$name: ${line#* - }"; _tap_failed=1 ;;
    esac
  done <"$tmp/$name.tap"
}

# The emulator suites' common setup (correctness.sh, correctness-large.sh; needs registry.sh and
# $bench): nvar, the variants sdpa-bench builds; nwide, the wide rows (D = 128 and causal); the
# FP8_MMA rows judged by the fp8p bars, every other by fp16 (check_matrix checks each entry).
emu_matrix_setup() {
  nvar=$("$bench" --list-variants | grep -vc '^custom')
  nwide=$(registry_rows | while IFS='|' read -r _ _ _ sw; do registry_wide "$sw" && echo; done | wc -l)
  CHECK_FP8P_VARIANTS=$(registry_rows | while IFS='|' read -r _ id _ sw; do
    registry_has "$sw" FP8_MMA && echo "$id"; done | tr '\n' ' ')
  export CHECK_FP8P_VARIANTS
}
# The schedule flags: fwd, rev, or rand with its seed.
sched_args() { if [ "$1" = rand ]; then echo "--schedule rand --schedule-seed $2"; else echo "--schedule $1"; fi; }
