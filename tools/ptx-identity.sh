#!/usr/bin/env bash
# PTX byte-identity of the kernels between two versions of the source: the gate of a refactor
# that must not change any kernel (moving code between headers, renaming a local, reordering
# declarations). For each architecture, `nvcc -ptx kernels/stages.cu` of BASE and of HEAD (each
# from its own copy of kernels/, compiled from the same relative path under setarch -R, as the
# build does: mk/config.mk, NVCC_DET) must be identical byte for byte. Prints one line per
# architecture with the SHA-256 of both listings and the number of kernels, and for a difference
# the kernels whose bodies differ.
#
# Usage: tools/ptx-identity.sh [--arch "80 89 90"] [--nvcc PATH] BASE [HEAD]
#   BASE, HEAD: commits (anything git rev-parse accepts), or directories holding a kernels/; HEAD
#   defaults to the working tree (kernels/ as it is on disk), so a refactor can be checked before
#   it is committed.
# PTX_IDENTITY_RETRIES (default 4): extra compiles of each side when the first listings differ.
# Exit status: 0 identical on every architecture, 1 a difference, 2 bad usage or a failed compile.
set -u
archs="80 89 90"
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
while [ $# -gt 0 ]; do
  case $1 in
    --arch) archs=$2; shift 2 ;;
    --nvcc) nvcc=$2; shift 2 ;;
    -h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "ptx-identity: unknown option '$1'" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: tools/ptx-identity.sh [--arch LIST] [--nvcc PATH] BASE [HEAD]" >&2; exit 2; }
base=$1 head=${2:-}
nvcc=$(command -v "$nvcc") || nvcc=""
[ -n "$nvcc" ] || { echo "ptx-identity: nvcc not found; give --nvcc or set NVCC" >&2; exit 2; }
det=()
if setarch -R true 2>/dev/null; then det=(setarch -R); else
  echo "ptx-identity: setarch -R unavailable: nvcc's PTX may differ between identical compiles" >&2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptx-identity.XXXXXX") || { echo "ptx-identity: cannot create a temporary directory" >&2; exit 2; }
trap 'rm -rf "$tmp"' EXIT

# checkout REV DIR: kernels/ of REV (or of the working tree when REV is empty) into DIR/kernels.
checkout() {
  mkdir -p "$2"
  if [ -z "$1" ]; then
    cp -r kernels "$2/kernels"
  elif [ -d "$1/kernels" ]; then
    cp -r "$1/kernels" "$2/kernels"
  else
    git rev-parse --verify -q "$1^{commit}" >/dev/null || { echo "ptx-identity: '$1' is not a commit" >&2; return 1; }
    git archive "$1" kernels | tar -x -C "$2"
  fi
}
checkout "$base" "$tmp/base" || exit 2
checkout "$head" "$tmp/head" || exit 2
label() { if [ -z "$1" ]; then echo "working tree"; elif [ -d "$1/kernels" ]; then echo "$1"; else git rev-parse --short "$1"; fi; }
label_base=$(label "$base") label_head=$(label "$head")

body_awk=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/ptx-body.awk
entries() { grep -oE '^\.visible \.entry [A-Za-z0-9_]+' "$1" | awk '{print $3}'; }
# A kernel's listing ends at the brace that closes its body: counted, because prims.cuh's inline
# asm blocks put lines of a lone '{' or '}' inside it (a cut at the first '}' lost the rest).
body() {
  awk -v k="$2" -f "$body_awk" "$1"
}
# compile SIDE ARCH N: the N-th listing of SIDE for ARCH, kept as $tmp/SIDE.smARCH.N.ptx.
compile() {
  (cd "$tmp/$1" && "${det[@]}" "$nvcc" -std=c++17 -O3 -Ikernels -arch=compute_$2 -ptx kernels/stages.cu \
    -o "../$1.sm$2.$3.ptx") 2>"$tmp/$1.err" || {
    echo "ptx-identity: nvcc failed for $1 (sm_$2):" >&2; cat "$tmp/$1.err" >&2; exit 2; }
}
hash_of() { sha256sum <"$1" | cut -c1-16; }
# nvcc 13.0 is not fully deterministic even under setarch -R: about one compile in ten of the same
# source numbers the registers of one kernel differently (observed for sm_90, always in the same
# kernel), and a change to one kernel can renumber another's (observed: editing stage 6 changed
# sdpa_stage3a_seedlin), so the kernels named below are a hint; the verdict is the whole listing. When the first listings differ, each side is compiled RETRIES more times and
# kernels are compared one by one: a kernel is identical when some listing of BASE and some
# listing of HEAD give it the same body, and the versions are identical when every kernel and
# everything outside the kernels (declarations, globals) is.
retries=${PTX_IDENTITY_RETRIES:-4}
# bodies SIDE ARCH KERNEL: the distinct hashes of KERNEL's body over SIDE's listings.
bodies() { for f in "$tmp/$1".sm$2.*.ptx; do body "$f" "$3" | sha256sum | cut -c1-16; done | sort -u; }
outside() { for f in "$tmp/$1".sm$2.*.ptx; do awk '/^\.visible \.entry/ {on=1; d=0} !on {print}
    on && /^[ \t]*\{[ \t]*$/ {d++} on && /^[ \t]*\}[ \t]*$/ && --d == 0 {on=0}' "$f" |
  sha256sum | cut -c1-16; done | sort -u; }
rc=0
for a in $archs; do
  compile base "$a" 0
  compile head "$a" 0
  b=$tmp/base.sm$a.0.ptx h=$tmp/head.sm$a.0.ptx
  nk=$(entries "$b" | wc -l)
  if cmp -s "$b" "$h"; then
    echo "sm_$a: identical: $nk kernels, $(wc -c <"$b") bytes, sha256 $(hash_of "$b")... ($label_base = $label_head)"
    continue
  fi
  for i in $(seq 1 "$retries"); do compile base "$a" "$i"; compile head "$a" "$i"; done
  nb=$(for f in "$tmp"/base.sm$a.*.ptx; do hash_of "$f"; done | sort -u | wc -l)
  nh=$(for f in "$tmp"/head.sm$a.*.ptx; do hash_of "$f"; done | sort -u | wc -l)
  note="nvcc gave $nb distinct listing(s) of BASE and $nh of HEAD in $((retries + 1)) compiles each"
  diffs=""
  for k in $( (entries "$b"; entries "$h") | sort -u); do
    [ -n "$(comm -12 <(bodies base "$a" "$k") <(bodies head "$a" "$k"))" ] ||
      diffs+="  $k: $(diff <(body "$b" "$k") <(body "$h" "$k") | grep -c '^[<>]') lines differ"$'\n'
  done
  [ -n "$(comm -12 <(outside base "$a") <(outside head "$a"))" ] ||
    diffs+="  outside the kernel bodies: $(diff <(outside base "$a" | head -1) <(outside head "$a" | head -1) >/dev/null; echo declarations differ)"$'\n'
  if [ -z "$diffs" ]; then
    echo "sm_$a: identical: $nk kernels, each with the same body on both sides ($label_base = $label_head; $note)"
  else
    rc=1
    echo "sm_$a: DIFFERENT: sha256 $(hash_of "$b")... ($label_base) vs $(hash_of "$h")... ($label_head; $note)"
    printf '%s' "$diffs"
  fi
done
exit $rc
