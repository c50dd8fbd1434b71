#!/usr/bin/env bash
# Planted regressions that only a random schedule shows (mk/kernel-tests.mk, PLANTS_RAND): under the
# emulator's fixed schedules the racing threads happen to run in a safe order and every result is
# right, so planted.sh's first requirement (a failed check under fwd and rev) cannot hold. Each must
# instead be reported by ThreadSanitizer as a data race at a line of the kernel source under the
# random schedule. Fixed seeds, so that the verdict does not depend on chance: six, of which at least
# half must report it (each report at a line of the kernel source). Which interleaving a seed gives
# moves with any change to the emulated code: stage 7m's coordinates (cta_order.cuh) took seed 2 of
# ws-drain-unwaited's three off its race, though no plant or kernel of 7f changed.
# Usage: planted-rand.sh PLANT_DIR PLANT...
. "$(dirname "$0")/../tap.sh"
dir=$1; shift
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}"
for p in "$@"; do
  variant=$(cat "$dir/$p/variant")
  shape=$(cat "$dir/$p/tsan-shape")
  found=0 seeds=
  for seed in 1 2 3 4 5 6; do
    log=$tmp/$p-$seed.log
    "$dir/$p/sdpa-bench-tsan" --backend emu --check-only --quiet --shape "$shape" --seeds 0 --variant "$variant" \
      --schedule rand --schedule-seed "$seed" --out "$tmp/$p-$seed.json" >"$log" 2>&1
    rc=$?
    if [ $rc -eq 66 ] && grep -q "WARNING: ThreadSanitizer: data race" "$log"; then
      found=$((found + 1)) seeds="$seeds $seed"
      tap_ok "$p (seed $seed): the race reported at a line of the kernel source" grep -qE "$p/[a-z_0-9]+\.cuh:[0-9]+" "$log"
      grep -m1 -oE "[A-Za-z_0-9]+[^ ]* [^ ]*$p/[a-z_0-9]+\.cuh:[0-9]+" "$log" | sed 's/^/# /'
    else
      tap_diag "$p (seed $seed): no race reported (exit $rc)"
    fi
  done
  tap_ok "$p (TSan, $variant at $shape, random schedule): a data race reported under at least 3 of 6 seeds (${found}:${seeds:- none})" \
    test "$found" -ge 3
done
tap_done
