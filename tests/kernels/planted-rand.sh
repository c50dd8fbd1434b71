#!/usr/bin/env bash
# Planted regressions that only a random schedule shows (mk/kernel-tests.mk, PLANTS_RAND): under the
# emulator's fixed schedules the racing threads happen to run in a safe order and every result is
# right, so planted.sh's first requirement (a failed check under fwd and rev) cannot hold. Each must
# instead be reported by ThreadSanitizer as a data race at a line of the kernel source under the
# random schedule, for each of three fixed seeds (so the suite's verdict does not depend on chance).
# Usage: planted-rand.sh PLANT_DIR PLANT...
. "$(dirname "$0")/../tap.sh"
dir=$1; shift
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}"
for p in "$@"; do
  variant=$(cat "$dir/$p/variant")
  shape=$(cat "$dir/$p/tsan-shape")
  for seed in 1 2 3; do
    log=$tmp/$p-$seed.log
    "$dir/$p/sdpa-bench-tsan" --backend emu --check-only --quiet --shape "$shape" --seeds 0 --variant "$variant" \
      --schedule rand --schedule-seed "$seed" --out "$tmp/$p-$seed.json" >"$log" 2>&1
    rc=$?
    tap_ok "$p (TSan, $variant at $shape, random schedule, seed $seed): a data race is reported (exit 66)" \
      bash -c '[ "$1" -eq 66 ] && grep -q "WARNING: ThreadSanitizer: data race" "$2"' _ $rc "$log"
    tap_ok "$p (seed $seed):   ... at a line of the kernel source" grep -qE "$p/[a-z_0-9]+\.cuh:[0-9]+" "$log"
    grep -m1 -oE "[A-Za-z_0-9]+[^ ]* [^ ]*$p/[a-z_0-9]+\.cuh:[0-9]+" "$log" | sed 's/^/# /'
  done
done
tap_done
