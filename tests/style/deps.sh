#!/usr/bin/env bash
# make deps by role (tools/deps.sh): each role's packages, the union that make deps installs, the
# build role alone behind every compile, the messages without root, and an experiment measured
# where the report tools are missing. Package managers are
# replaced by fakes on PATH (dpkg-query reads $FAKE_INSTALLED, apt-get logs its arguments), so
# nothing is installed and no network is used. A few seconds (make stage2 on a fake harness).
# Usage: tests/style/deps.sh
set -u
. tests/tap.sh
TMP=$(mktemp -d "${TMPDIR:-/tmp}/deps-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

list() { tools/deps.sh --list "$@" | tr '\n' ' '; }
has() { grep -qw -- "$2" <<<" $1 "; }
has_all() { local l=$1 p; shift; for p in "$@"; do has "$l" "$p" || { echo "# missing $p" >&2; return 1; }; done; }
has_none() { local l=$1 p; shift; for p in "$@"; do has "$l" "$p" && { echo "# unexpected $p" >&2; return 1; }; done; return 0; }
REPORT_TOOLS=(pandoc gnuplot-nox texlive-latex-recommended texlive-fonts-recommended texlive-latex-extra lmodern chromium)

B=$(list build); M=$(list measure); R=$(list render); T=$(list test)
tap_ok "build: compilers, cJSON, cmocka, git" has_all "$B" make gcc g++ clang libclang-rt-14-dev libcjson-dev libcmocka-dev git
tap_ok "build: no report tool, no Slurm" has_none "$B" "${REPORT_TOOLS[@]}" slurmctld munge poppler-utils
tap_ok "measure: provenance and packing" has_all "$M" git ca-certificates tar gzip
tap_ok "measure: no report tool (a GPU node measures without them)" has_none "$M" "${REPORT_TOOLS[@]}"
tap_ok "render: gnuplot, pandoc, TeX, chromium" has_all "$R" "${REPORT_TOOLS[@]}"
tap_ok "test: format check, report tests' tools, browser, Slurm, numpy" \
  has_all "$T" clang-format poppler-utils jq chromium slurmctld slurmd slurm-client munge python3-numpy
tap_ok "every role is one of build measure render test" bash -c "tools/deps.sh --list bogus 2>/dev/null; [ \$? -eq 2 ]"
union=$(printf '%s\n' $B $M $R $T | sort -u | tr '\n' ' ')
tap_ok "--list without a role is the union of the four" test "$union" = "$(list)"

# Fakes: nothing installed (or what FAKE_INSTALLED lists), apt-get records each call, id says root
# unless FAKE_UID is set, python3 has no pip (no PyPI install of the SASS tools).
mkdir -p "$TMP/bin"
cat >"$TMP/bin/dpkg-query" <<'EOF'
#!/bin/sh
pkg=$(eval echo \${$#})
grep -qx "$pkg" "${FAKE_INSTALLED:-/dev/null}" 2>/dev/null && printf 'install ok installed'
exit 0
EOF
cat >"$TMP/bin/apt-get" <<'EOF'
#!/bin/sh
mkdir "$FAKE_APT_LOG.busy" 2>/dev/null || echo OVERLAP >>"$FAKE_APT_LOG"
echo "$*" >>"$FAKE_APT_LOG"
[ "$1" = install ] && { sleep 0.3; for p in "$@"; do echo "$p"; done >>"$FAKE_INSTALLED"; }
rmdir "$FAKE_APT_LOG.busy"
exit 0
EOF
printf '#!/bin/sh\n[ "$1" = -u ] && { echo "${FAKE_UID:-0}"; exit 0; }\nexec /usr/bin/id "$@"\n' >"$TMP/bin/id"
printf '#!/bin/sh\nexit 1\n' >"$TMP/bin/python3"
chmod +x "$TMP/bin"/*
fake() { env PATH="$TMP/bin:$PATH" FAKE_APT_LOG="$TMP/apt.log" FAKE_INSTALLED="$TMP/installed" CUDA_INC=/usr/local/cuda/include "$@"; }
installed() { grep '^install' "$TMP/apt.log" | sed 's/.*--no-install-recommends //' | tr ' ' '\n' | grep . | sort -u | tr '\n' ' '; }

: >"$TMP/apt.log"; : >"$TMP/installed"
fake make --no-print-directory -s deps BUILD="$TMP/b1" >"$TMP/deps.out" 2>&1
tap_ok "make deps: one apt-get update, one apt-get install" \
  test "$(grep -c '^update' "$TMP/apt.log")" -eq 1 -a "$(grep -c '^install' "$TMP/apt.log")" -eq 1
tap_ok "make deps installs the union of the roles" test "$(installed)" = "$union"
tap_ok "make deps (and make test): the build stamp, checked first, asks for every role" bash -c \
  "make -n --no-print-directory BUILD='$TMP/b4' deps | grep -m1 'tools/deps.sh' | grep -q 'tools/deps.sh build measure render test\$'"
tap_ok "make deps: a stamp per role" bash -c "for r in build measure render test; do test -f '$TMP/b1/.deps-checked-'\$r || exit 1; done"

: >"$TMP/apt.log"; : >"$TMP/installed"
fake make --no-print-directory -s deps-render BUILD="$TMP/b2" >/dev/null 2>&1
tap_ok "make deps-render installs the render role only" test "$(installed)" = "$R"

# make -j can check two roles at once: their apt-get calls never overlap, and both get installed.
: >"$TMP/apt.log"; : >"$TMP/installed"
fake tools/deps.sh build >/dev/null 2>&1 & fake tools/deps.sh render >/dev/null 2>&1 & wait
tap_ok "two roles checked at once: one apt-get at a time" bash -c "! grep -q OVERLAP '$TMP/apt.log'"
tap_ok "two roles checked at once: both roles installed" \
  test "$(installed)" = "$(printf '%s\n' $B $R | sort -u | tr '\n' ' ')"

# Every compile's order-only prerequisite is the build role's stamp: no report tool is asked for.
tap_ok "compiles check the build role only" bash -c \
  "make -n --no-print-directory BUILD='$TMP/b3' '$TMP/b3/lib/libhost.a' | grep 'tools/deps.sh' | grep -qx '.*tools/deps.sh build'"

# Without root: the missing packages of the roles asked for and the one command; exit 1.
printf '%s\n' $B >"$TMP/have-build"
: >"$TMP/apt.log"
rc=0
fake env FAKE_UID=1000 FAKE_INSTALLED="$TMP/have-build" tools/deps.sh build >"$TMP/nr1.out" 2>&1 || rc=$?
tap_ok "build role complete: nothing to do, exit 0, no apt-get" test $rc -eq 0 -a ! -s "$TMP/apt.log"
rc=0
fake env FAKE_UID=1000 FAKE_INSTALLED="$TMP/have-build" tools/deps.sh build render >"$TMP/nr2.out" 2>&1 || rc=$?
tap_ok "without root, render missing: exit 1" test $rc -eq 1
tap_ok "without root: names the roles, the missing packages and the command" bash -c \
  "grep -q 'missing Debian packages (roles: build render): .*pandoc' '$TMP/nr2.out' && grep -q 'apt-get install -y --no-install-recommends .*chromium' '$TMP/nr2.out' && ! grep -q ' gcc' '$TMP/nr2.out'"
# A machine without the report tools (here: RENDER_TOOLS names one that does not exist) still
# measures: make stage2 (fake harness) leaves a complete run with its tables, writes no report,
# and says which steps it skipped.
rc=0
FAKE_BENCH_LOG=/dev/null make --no-print-directory -s stage2 SDPA_BENCH=tests/report/fake-bench.sh PTXAS_JSON= \
  RENDER_TOOLS="gnuplot no-such-renderer" DATA_DIR="$TMP/data" FIG_DIR="$TMP/figures" REPORT_DIR="$TMP/out" \
  RUN_ID=norender >"$TMP/stage2.log" 2>&1 || rc=$?
R=$TMP/data/stage2-wmma-pv/norender
tap_ok "no report tools: make stage2 exits 0 with a complete run and its tables" \
  bash -c "[ $rc -eq 0 ] && test -s '$R/manifest.json' -a -s '$R/tables/gates.md'" || sed 's/^/# /' "$TMP/stage2.log"
tap_ok "no report tools: no figure, no report" test ! -e "$TMP/out/stage2-wmma-pv/norender/report.pdf" -a ! -e "$TMP/figures/stage2-wmma-pv/norender"
tap_ok "no report tools: says which steps it skipped, what is missing and what to run" \
  grep -qF "[stage2-wmma-pv 5-6/6] skipped: figures and report (no-such-renderer not installed; make deps-render then make report RUN=$R)" "$TMP/stage2.log"
tap_done
