#!/usr/bin/env bash
# Planted regressions (mk/kernel-tests.mk builds them, each with the one variant it breaks): each
# must fail the correctness checks that the real kernels pass, under more than one schedule, and the barrier plants must be reported by
# ThreadSanitizer as data races at a line of the kernel source, the cp.async, TMA and wgmma plants by
# the emulator at a line, under every schedule (on their plain build: they have no TSan build);
# an arithmetic plant (fp8-*, mask-*) must fail its variant's check in the TSan build too, with no report.
# Usage: planted.sh PLANT_DIR PLANT...
. "$(dirname "$0")/../tap.sh"
dir=$1; shift
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}"
for p in "$@"; do
  for sched in fwd rev; do
    # shellcheck disable=SC2046 # the plant's shapes (mk/kernel-tests.mk, plant_check_shapes_NAME)
    "$dir/$p/sdpa-bench" --backend emu --check-only --quiet $(printf -- '--shape %s ' $(cat "$dir/$p/check-shapes" 2>/dev/null ||
      echo small ragged mission)) --seeds 0 --schedule "$sched" --out "$tmp/$p-$sched.json" >"$tmp/$p-$sched.log" 2>&1
    rc=$?
    tap_ok "$p ($sched schedule): the correctness checks fail (exit 1)" test $rc -eq 1
    tap_diag "$(grep -cE '^check .* FAIL' "$tmp/$p-$sched.log") of $(grep -c '^check ' "$tmp/$p-$sched.log") checked launches failed"
    case $p in
      fp8-*) # the FP8 line's tight check (paper/methods.md#fp8-mirror) fails on every shape by itself
        n_fail=$(jq '[.correctness[] | select(.fp8_mirror != null and .fp8_mirror.gating and (.fp8_mirror.pass | not))] | length' \
          "$tmp/$p-$sched.json")
        n_fp8=$(jq '[.correctness[] | select(.fp8_mirror != null)] | length' "$tmp/$p-$sched.json")
        tap_ok "$p ($sched schedule): the mirror check fails on every FP8 launch ($n_fail of $n_fp8)" \
          test "$n_fp8" -gt 0 -a "$n_fail" -eq "$n_fp8"
        tap_diag "mirror rel-L2: $(jq -r '[.correctness[] | select(.fp8_mirror != null) | "\(.variant)/\(.shape) \(.fp8_mirror.rel_l2 | . * 1e4 | round / 1e4) (fp64 gate \(.gates.kernel_only))"] | join(", ")' "$tmp/$p-$sched.json")" ;;
    esac
  done
  variant=$(cat "$dir/$p/variant" 2>/dev/null || echo stage2) # the variant the plant breaks
  shape=$(cat "$dir/$p/tsan-shape" 2>/dev/null || echo ragged) # a shape where it shows
  # A plant the emulator faults on has no TSan build (mk/kernel-tests.mk, PLANTS_EMU_FAULT): its three
  # schedules run on the plain build; every other plant's on its ThreadSanitizer build.
  bin=$dir/$p/sdpa-bench-tsan
  [ -e "$bin" ] || case $p in *barrier|ring-*|ws-*|fp8-*|mask-*|rows-*|lpt-*) ;; *) bin=$dir/$p/sdpa-bench ;; esac
  for sched in fwd rev rand; do # TSan sees only the interleaving that ran: every schedule
    log=$tmp/$p-tsan-$sched.log
    "$bin" --backend emu --check-only --quiet --shape "$shape" --seeds 0 --variant "$variant" \
      --schedule "$sched" --out "$tmp/$p-tsan-$sched.json" >"$log" 2>&1
    rc=$?
    case $p in
      *barrier)
        tap_ok "$p (TSan, $sched): ThreadSanitizer reports a data race" grep -q 'WARNING: ThreadSanitizer: data race' "$log"
        tap_ok "$p (TSan, $sched):   ... at a line of the kernel source" grep -qE "$p/[a-z_0-9]+\.cuh:[0-9]+" "$log"
        grep -m2 -oE "[A-Za-z_:<>]*[ (].*$p/[a-z_0-9]+\.cuh:[0-9]+" "$log" | sed 's/^/# /' ;;
      ring-*|ws-*) # a read of a copy still in flight: a race with the landing copy (TSan), or the
        # copy never lands and the emulator reports it at thread exit, whichever comes first
        tap_ok "$p (TSan, $variant, $sched): a race or an emulator fault is reported" \
          grep -qE '^simt: |WARNING: ThreadSanitizer: data race' "$log"
        tap_ok "$p (TSan, $sched):   ... at a line of the kernel source" grep -qE "$p/[a-z_0-9]+\.cuh:[0-9]+" "$log"
        grep -m1 -E "^simt: |$p/[a-z_0-9]+\.cuh:[0-9]+" "$log" | sed 's/^/# /' ;;
      lpt-*) # [stage 7m] a causal CTA order that is no bijection of the grid: tiles computed twice
        # or never; whatever else a CTA past the sequence meets, the variant's check fails
        tap_ok "$p (TSan, $variant, $sched): the variant fails its correctness check" \
          grep -qE "^check +$variant .* FAIL" "$log" ;;
      fp8-*|mask-*) # an arithmetic plant (mask-*: a key test left out): no race and no fault, only
        # outputs outside the bars
        tap_ok "$p (TSan, $variant, $sched): the variant fails its correctness check" \
          grep -qE "^check +$variant .* FAIL" "$log"
        tap_fail "$p (TSan, $sched):   ... with no sanitizer report (nothing but arithmetic is wrong)" \
          grep -qE '^simt: |WARNING: ThreadSanitizer' "$log" ;;
      rows-*) # two warps own the same rows: their output stores collide (a race on O) and rows
        # 16-31 are never written (the plain builds' checks above fail on those)
        tap_ok "$p (TSan, $variant, $sched): ThreadSanitizer reports the colliding stores as a data race" \
          grep -q 'WARNING: ThreadSanitizer: data race' "$log"
        tap_ok "$p (TSan, $sched):   ... at a line of the kernel source" grep -qE "$p/[a-z_0-9]+\.cuh:[0-9]+" "$log"
        grep -m1 -oE "[A-Za-z_:<>]*[ (].*$p/[a-z_0-9]+\.cuh:[0-9]+" "$log" | sed 's/^/# /' ;;
      pp-*) # [stage 7j] an imbalance of the warpgroups' barriers: the emulator's deadlock report
        tap_ok "$p ($(basename "$bin"), $sched): the emulator reports a deadlock" grep -qE '^simt: .*: deadlock: ' "$log"
        tap_ok "$p ($(basename "$bin"), $sched):   ... at a line of the kernel source" grep -qE "^simt: [^ ]*$p/[a-z_0-9]+\.cuh:[0-9]+" "$log"
        grep -m1 '^simt: ' "$log" | sed 's/^/# /' ;;
      *)
        tap_ok "$p ($(basename "$bin"), $sched): the emulator reports the fault" grep -q '^simt: ' "$log"
        tap_ok "$p ($(basename "$bin"), $sched):   ... at a line of the kernel source" grep -qE "^simt: [^ ]*$p/[a-z_0-9]+\.cuh:[0-9]+" "$log"
        grep -m1 '^simt: ' "$log" | sed 's/^/# /' ;;
    esac
    tap_ok "$p ($(basename "$bin"), $sched): that run fails too (exit $rc)" test $rc -ne 0
  done
done
tap_done
