#!/usr/bin/env bash
# make deps: install the Debian packages the artifact needs, by role, only those that are missing.
#   tools/deps.sh [ROLE...]          roles: build measure render test (none given: all of them)
#   tools/deps.sh --list [ROLE...]   print the roles' packages, one per line, sorted; install nothing
#   - does nothing (quietly) when everything is present;
#   - runs `apt-get update` once, then one `apt-get install`, when it can (root, apt-get present);
#   - otherwise prints the one command to run and exits 1.
# Roles: build (compile the host code, the emulator, the kernels and the tests), measure (run the
# experiments and the campaign: provenance and packing), render (figures, PDF and HTML reports, the
# browser that opens them), test (what only make test's suites use). make's compiles need build
# only, so a GPU node with the toolkit but no report tools builds and measures; make deps installs
# every role (what make test needs).
# The CUDA toolkit is not a Debian package here: it is detected (nvcc on PATH or under CUDA_HOME)
# and its absence only disables the GPU builds (see README, "What needs a GPU").
set -u

ROLES=(build measure render test)
declare -A PKGS=(
  # host C11, emulator (clang++), sanitizer runtimes; JSON results; unit tests (built with the rest)
  [build]="make gcc g++ clang libclang-rt-14-dev libcjson-dev libcmocka-dev git ca-certificates"
  # provenance (git SHA) in every result; campaign tarballs
  [measure]="git ca-certificates tar gzip"
  # figures (pngcairo), reports (pandoc, pdflatex), the browser that opens the HTML (tests/report/browser.sh)
  [render]="gnuplot-nox pandoc texlive-latex-recommended texlive-fonts-recommended texlive-latex-extra lmodern chromium"
  # the format check; pdftotext and JSON queries of the report tests; the headless browser test;
  # make sweep's tests start a one-node Slurm cluster (tests/sweep/); numpy reads back the .npy
  # files sdpa-bench writes (tests/lib/test_npy.c, a cross-check that skips without it)
  [test]="clang-format poppler-utils jq chromium slurmctld slurmd slurm-client munge python3-numpy"
)

list=0
[ "${1:-}" = --list ] && { list=1; shift; }
[ $# -eq 0 ] && set -- "${ROLES[@]}"
want=()
for r in "$@"; do
  [ -n "${PKGS[$r]+x}" ] || { echo "deps: unknown role '$r' (roles: ${ROLES[*]})" >&2; exit 2; }
  want+=(${PKGS[$r]})
done
mapfile -t PKGS_WANTED < <(printf '%s\n' "${want[@]}" | sort -u)
if [ $list -eq 1 ]; then printf '%s\n' "${PKGS_WANTED[@]}"; exit 0; fi
SELECTED=("$@")
has_role() { local r; for r in "${SELECTED[@]}"; do [ "$r" = "$1" ] && return 0; done; return 1; }

# The CPU emulator compiles the kernels against the CUDA toolkit's headers (cuda_fp16.h,
# cuda_fp8.h compile in host mode), so they are needed even where nvcc and GPUs are not.
check_cuda_headers() {
  local inc=${CUDA_INC:-/usr/local/cuda/include}
  [ -f "$inc/cuda_fp8.h" ] && [ -f "$inc/cuda_fp16.h" ] && return 0
  echo "deps: the CUDA toolkit's headers were not found in $inc (cuda_fp16.h, cuda_fp8.h)." >&2
  echo "deps: the CPU emulator compiles the kernels against them, even without nvcc or a GPU." >&2
  echo "deps: install the CUDA toolkit (13.x; NVIDIA's Debian repository or its PyPI wheels), or set CUDA_HOME." >&2
  return 1
}
# Only the build compiles against them.
cuda_headers() { has_role build || return 0; check_cuda_headers; }

# The SASS check (tests/emu/sass-check.sh) needs cuobjdump and the nvdisasm it runs. A toolkit
# installed from NVIDIA's wheels has neither; PyPI has both as separate wheels. Installed with pip
# --user when missing and pip is there; never fatal (the check then reports SKIP).
sass_tools() {
  local bin=${CUDA_HOME:-/usr/local/cuda}/bin
  [ -x "$bin/cuobjdump" ] && [ -x "$bin/nvdisasm" ] && return 0
  command -v cuobjdump >/dev/null 2>&1 && command -v nvdisasm >/dev/null 2>&1 && return 0
  python3 -c 'import importlib.util, sys; sys.exit(0 if importlib.util.find_spec("nvidia") else 1)' 2>/dev/null &&
    ls "$(python3 -c 'import site; print(site.getusersitepackages())' 2>/dev/null)"/nvidia/cu13/bin/nvdisasm \
      >/dev/null 2>&1 && return 0
  python3 -m pip --version >/dev/null 2>&1 || return 0
  echo "deps: installing cuobjdump and nvdisasm from PyPI (for the SASS check)" >&2
  python3 -m pip install --user -q nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm >&2 ||
    echo "deps: pip could not install them; the SASS check will SKIP" >&2
  return 0
}
has_role test && sass_tools

# The CuTe cross-check (tests/emu/cute-check.sh) compiles NVIDIA's CuTe headers for the host; PyPI's
# nvidia-cutlass wheel ships them (no Debian package does). Installed with pip --user when missing,
# without its Python dependencies (only the headers are used); never fatal (the check then SKIPs).
cutlass_headers() {
  python3 -c 'import cutlass_library' >/dev/null 2>&1 && return 0
  python3 -m pip --version >/dev/null 2>&1 || return 0
  echo "deps: installing the CuTe headers from PyPI (nvidia-cutlass, for the CuTe cross-check)" >&2
  python3 -m pip install --user -q --no-deps nvidia-cutlass >&2 ||
    echo "deps: pip could not install nvidia-cutlass; the CuTe cross-check will SKIP" >&2
  return 0
}
has_role test && cutlass_headers

have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "deps: not a Debian-based system; install the equivalents of: ${PKGS_WANTED[*]}" >&2
  # Not fatal when the tools are there anyway (checked by the build itself).
  cuda_headers; exit $?
fi

# make -j may check two roles at once (the build's stamp and an experiment's render stamp): one
# apt-get at a time, each installing what is still missing once it holds the lock.
lock=${TMPDIR:-/tmp}/fp8-sdpa-stages-deps.lock
if command -v flock >/dev/null 2>&1 && (: >>"$lock") 2>/dev/null; then exec 9>>"$lock" && flock 9; fi

missing=()
for p in "${PKGS_WANTED[@]}"; do have_pkg "$p" || missing+=("$p"); done
[ ${#missing[@]} -eq 0 ] && { cuda_headers; exit $?; }

cmd="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "deps: missing Debian packages (roles: ${SELECTED[*]}): ${missing[*]}" >&2
  echo "deps: run this once as root, then run make again:" >&2
  echo "  sudo sh -c '$cmd'" >&2
  exit 1
fi
echo "deps: installing missing Debian packages: ${missing[*]}" >&2
if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >&2; then
  echo "deps: apt-get failed; run by hand: $cmd" >&2
  exit 1
fi
echo "deps: done" >&2
cuda_headers
