#!/usr/bin/env bash
# Results written where hard links fail (host/lib/fileio.c): under an LD_PRELOAD shim that makes
# link(2) fail (tests/lib/nolink_shim.c: EPERM, EXDEV, ENOTSUP, as some FUSE and 9p mounts and
# sandboxes do), the library's unit tests still pass (no overwrite, no temporary file left,
# racing writers: one wins), by renameat2(RENAME_NOREPLACE), or by the O_EXCL claim where that
# fails too; and every writer (sdpa-bench, sdpa-report) writes its results and still refuses to
# overwrite them. Plain binaries only: an ASan binary must load its runtime first, before any
# LD_PRELOAD library.
# Usage: tests/lib/nolink.sh SHIM TEST_FILEIO|- [SDPA_BENCH SDPA_REPORT]   (-: the writers only)
set -u
. tests/tap.sh
shim=$(realpath "$1") fileio=$2 bench=${3:+$(realpath "$3")} report=${4:+$(realpath "$4")}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nolink-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export TMPDIR=$tmp

# shimmed LOG [VAR=VALUE...] CMD...: CMD with link(2) refused, its interceptions in LOG.
shimmed() { local log=$1; shift; : >"$log"; env LD_PRELOAD="$shim" NOLINK_LOG="$log" "$@"; }

echo x >"$tmp/a"
tap_fail "the shim refuses hard links (ln fails under it)" shimmed "$tmp/ln.log" ln "$tmp/a" "$tmp/b" 2>/dev/null
tap_ok "  ... and says so in its log" grep -qx "link EPERM" "$tmp/ln.log"

for e in EPERM EXDEV ENOTSUP; do
  [ "$fileio" = - ] && break
  shimmed "$tmp/f-$e.log" NOLINK_ERRNO=$e "$fileio" >"$tmp/f-$e.out" 2>&1
  rc=$?
  [ $rc -eq 0 ] || sed 's/^/# /' "$tmp/f-$e.out"
  tap_ok "link(2) fails with $e: every fileio unit test passes (no overwrite, racing writers, signals, full disk)" test $rc -eq 0
  tap_ok "  ... the files were named by renameat2(RENAME_NOREPLACE)" \
    bash -c 'grep -qx "link $2" "$1" && grep -qx "renameat2 ok" "$1"' _ "$tmp/f-$e.log" "$e"
done
if [ "$fileio" != - ]; then
  shimmed "$tmp/f-excl.log" NOLINK_RENAME2=EINVAL "$fileio" >"$tmp/f-excl.out" 2>&1
  rc=$?
  [ $rc -eq 0 ] || sed 's/^/# /' "$tmp/f-excl.out"
  tap_ok "renameat2's RENAME_NOREPLACE refused too: every fileio unit test passes by the O_EXCL claim" test $rc -eq 0
  tap_ok "  ... renameat2 was tried and refused" grep -qx "renameat2 EINVAL" "$tmp/f-excl.log"
fi

if [ -z "$bench" ] || [ -z "$report" ]; then tap_done; fi
for way in rename2 excl; do
  opt=; [ $way = excl ] && opt=NOLINK_RENAME2=EINVAL
  d=$tmp/w-$way && mkdir -p "$d"
  shimmed "$d/bench.log" $opt "$bench" --backend emu --check-only --variant stage0 --shape small --seeds 0 --quiet \
    --out "$d/run.json" >/dev/null 2>"$d/bench.err"
  want="renameat2 ok"; [ $way = excl ] && want="renameat2 EINVAL"
  tap_ok "sdpa-bench writes its result where link(2) fails ($way)" \
    bash -c '[ "$("$1" get "$2" kind)" = sdpa-bench-run ] && grep -qx "link EPERM" "$3" && grep -qx "$4" "$3"' _ \
    "$report" "$d/run.json" "$d/bench.log" "$want"
  cp "$d/run.json" "$d/run.before"
  shimmed "$d/bench2.log" $opt "$bench" --backend emu --check-only --variant stage0 --shape small --seeds 0 --quiet \
    --out "$d/run.json" >/dev/null 2>"$d/bench2.err"
  rc=$?
  tap_ok "  ... and refuses to overwrite it (exit 2, the file as it was, no temporary file left)" \
    bash -c '[ $1 -eq 2 ] && cmp -s "$2/run.json" "$2/run.before" && ! ls "$2" | grep -q "\.tmp\."' _ $rc "$d"
  # A run directory as experiments/run.sh leaves it (the files a manifest requires).
  mkdir -p "$d/run" && cp "$d/run.before" "$d/run/run.json" && cp "$d/run.before" "$d/run/run-timing.json" &&
    echo "# test" >"$d/run/experiment.mk" && echo "# test" >"$d/run/hypothesis.md"
  shimmed "$d/report.log" $opt "$report" manifest --run "$d/run" >/dev/null 2>"$d/report.err"
  tap_ok "sdpa-report writes a manifest where link(2) fails ($way)" \
    bash -c '[ "$("$1" get "$2" kind)" = run-manifest ] && grep -qx "link EPERM" "$3" && grep -qx "$4" "$3"' _ \
    "$report" "$d/run/manifest.json" "$d/report.log" "$want"
  cp "$d/run/manifest.json" "$d/manifest.before"
  shimmed "$d/report2.log" $opt "$report" manifest --run "$d/run" >/dev/null 2>"$d/report2.err"
  rc=$?
  tap_ok "  ... and refuses to overwrite it (non-zero exit naming the file, the file as it was)" \
    bash -c '[ $1 -ne 0 ] && grep -q "manifest.json" "$3" && cmp -s "$2/run/manifest.json" "$2/manifest.before"' _ $rc "$d" "$d/report2.err"
  cp "$d/run.before" "$d/src.json" # install consumes its source (a temporary of the caller's)
  echo old >"$d/installed.json"
  shimmed "$d/install.log" $opt "$report" install "$d/src.json" "$d/installed.json" >/dev/null 2>&1
  tap_ok "sdpa-report install (a derived file: replaced by rename(2), no link) is unaffected ($way)" \
    cmp -s "$d/installed.json" "$d/run.before"
done
tap_done
