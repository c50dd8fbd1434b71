#!/usr/bin/env bash
# Pre-registration, from git: for every bar family of paper/methods.md and every experiment's
# hypothesis, the commit that fixed it and the commit of the first kernel it judged, and whether the
# first is an ancestor of the second (fixed before that kernel existed). Written to paper/prereg.tsv
# (committed) when run in a git work tree with its history; sdpa-report reads that file, so a
# tarball without git still shows what the build last found. Only first commits are read, so a
# fresh clone writes the same bytes; a new bar or experiment adds a row (commit the file).
# Usage: [PREREG_KEY=FILE] paper/prereg.sh [OUT (default paper/prereg.tsv)]
# PREREG_KEY (make passes build/prereg.key): where the inputs of the last run are kept. The table
# is a function of the history (HEAD), the work tree's experiments/*/experiment.mk and
# kernels/variants.def (which candidates, which shapes), this script and OUT itself; while none has
# changed, OUT stands and the ~210 git commands (~1.5 s) are not run again (every make report, make
# stage2 and make paper runs this: ~60 times in make test).
set -u
out=${1:-paper/prereg.tsv}
# Without git or without history (a tarball, a shallow clone), the committed file stands.
git rev-parse --is-inside-work-tree >/dev/null 2>&1 && [ "$(git rev-parse --is-shallow-repository 2>/dev/null)" != true ] ||
  { [ -f "$out" ] && exit 0; echo "prereg.sh: no git history and no $out" >&2; exit 1; }
key=${PREREG_KEY:-}
inputs() { # the table's inputs, as one text to compare
  git rev-parse HEAD && sha256sum "$0" "$out" kernels/variants.def experiments/*/experiment.mk
}
if [ -n "$key" ] && [ -f "$out" ]; then
  now=$(inputs) && [ -f "$key" ] && [ "$now" = "$(cat "$key")" ] && exit 0
fi

# first PATH [PICKAXE]: "<short sha>\t<date>" of the first commit that added PATH (or the string).
first() {
  local c
  if [ -n "${2:-}" ]; then c=$(git log --reverse --format=%H -S"$2" -- "$1" | head -n 1)
  else c=$(git log --reverse --diff-filter=A --format=%H -- "$1" | head -n 1); fi
  [ -n "$c" ] && git log -1 --format='%h%x09%cs' "$c"
}
# later A B: the later of two "<sha>\t<date>" commits (the one the other is an ancestor of).
later() {
  if git merge-base --is-ancestor "${1%%	*}" "${2%%	*}" 2>/dev/null; then echo "$2"; else echo "$1"; fi
}
# order FIXED KERNEL: before (FIXED is an ancestor of KERNEL), after (the reverse), same commit,
# or, for commits of parallel branches merged later, by their commit times.
order() {
  local a=${1%%	*} b=${2%%	*}
  if [ "$a" = "$b" ]; then echo "same commit"
  elif git merge-base --is-ancestor "$a" "$b"; then echo before
  elif git merge-base --is-ancestor "$b" "$a"; then echo after
  elif [ "$(git log -1 --format=%ct "$a")" -lt "$(git log -1 --format=%ct "$b")" ]; then echo "before (parallel branches: by commit time)"
  else echo "after (parallel branches: by commit time)"; fi
}
# row KIND ITEM WHAT FIXED KERNEL
row() {
  local o=unknown
  [ -n "$4" ] && [ -n "$5" ] && o=$(order "$4" "$5")
  [ -n "$4" ] && [ -z "$5" ] && o="no kernel yet"
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "${4:-	}" "${5:-	}" "$o"
}
# registry_hypothesis IDENT: the first commit whose kernels/variants.def states a "Hypothesis:" in
# the comment just above the row SDPA_VARIANT(IDENT, (the registry states each stage's hypothesis).
# Each version of the file is read once, for every row (hypotheses: "IDENT<tab><sha><tab><date>",
# the first commit of each), not once per experiment: that was ~600 of this script's git commands.
hypotheses=$(git log --reverse --format='%H %h %cs' -- kernels/variants.def | while read -r c h d; do
  git show "$c:kernels/variants.def" | awk -v c="$h" -v d="$d" '
    /^\/\*/ { h = 0 } /Hypothesis:/ { h = 1 }
    /^SDPA_VARIANT\(/ { id = substr($0, 14); id = substr(id, 1, index(id, ",") - 1)
                        if (!(id in seen)) { seen[id] = 1; if (h) print id "\t" c "\t" d } }'
done | awk -F'\t' '!first[$1]++')
registry_hypothesis() { awk -F'\t' -v id="$1" '$1 == id { print $2 "\t" $3; exit }' <<<"$hypotheses"; }
# earlier A B: the earlier of two commits (either may be empty)
earlier() {
  [ -n "$1" ] || { echo "$2"; return; }
  [ -n "$2" ] || { echo "$1"; return; }
  case $(order "$1" "$2") in before*|same*) echo "$1" ;; *) echo "$2" ;; esac
}
kernel0=$(first kernels/stages.cu)
# the first commit with the variant's registry row and a kernel source
kernel_of() { local r; r=$(first kernels/variants.def "SDPA_VARIANT(${1//-/_},"); later "$kernel0" "${r:-$kernel0}"; }

{
  printf '# paper/prereg.sh: what was fixed before which kernel (git); columns below\n'
  printf 'kind\titem\twhat\tfixed\tfixed_date\tfirst_kernel\tkernel_date\torder\n'
  row bars "fp16 family" "stages 0-3a; methods, Rounding budget and tolerances" \
    "$(first paper/methods.md 'kernel-only rel-L2 bar')" "$kernel0"
  row bars "stages 3b-5" "methods, Bars of the register-resident and FP8 stages" \
    "$(first paper/methods.md 'Bars of the register-resident and FP8 stages')" "$(kernel_of stage3b)"
  row bars "fp8p family" "stage 6; methods, Bars of the register-resident and FP8 stages" \
    "$(first paper/methods.md 'stage-6 kernel-only rel-L2 bar')" "$(kernel_of stage6)"
  # The FP8 mirror's bar: the stage-6 kernel is older; what it judges from is the mirror reference.
  row bars "fp8 mirror" "stage 6 against its mirror reference (the reference is what it judges from: host/lib/reference_fp8.c; the stage-6 kernel is older); methods, A tight check of the FP8 line" \
    "$(first paper/methods.md 'A tight check of the FP8 line: the mirror reference')" "$(first host/lib/reference_fp8.c)"
  # The Hopper line: fixed for all its steps at once; judged from its first row (stage 7a) on.
  row bars "stage 7 (Hopper line)" "predictions and gates of 7a-7g; methods, The Hopper line (stage 7)" \
    "$(first paper/methods.md 'The Hopper line (stage 7): predictions and gates')" \
    "$(first kernels/variants.def 'SDPA_VARIANT(stage7a,')"
  # Stage 7e changes the arithmetic (128-key tiles): its bars were re-derived before its kernel.
  row bars "stage 7e" "128-key tiles: stage 6's bars, the mirror on the kernel's tiles; methods, Stage 7e: tiles of 128 keys" \
    "$(first paper/methods.md 'Stage 7e: tiles of 128 keys, the bars re-derived')" \
    "$(first kernels/variants.def 'SDPA_VARIANT(stage7e,')"
  # Stage 7g's polynomial: what its bound first judges is the polynomial itself (kernels/exp2_poly.h
  # and its host twin's sweep); the kernel step is built only on a go.
  row bars "stage 7g polynomial" "the cubic exp2 on the FMA pipe and its relative bound against exp2 in double (kernels/exp2_poly.h); methods, Stage 7g's polynomial" \
    "$(first paper/methods.md "Stage 7g's polynomial: its form and its bound")" "$(first kernels/exp2_poly.h)"
  # Stage 7h: a step added after the table above, on the issue-slot model's evidence.
  row bars "stage 7h" "P's exponentials flushed to zero (class FLUSH): bit-identity on the emulator and a GPU, SASS and GPU gates; methods, Stage 7h" \
    "$(first paper/methods.md "Stage 7h: P's exponentials without the subnormal path")" \
    "$(first kernels/variants.def 'SDPA_VARIANT(stage7h,')"
  # Stage 7i: the key mask only on the tiles that need it, on the same model's evidence.
  row bars "stage 7i" "the key mask only where a tile needs it (class LOAD): bit-identity on the emulator and a GPU, SASS and GPU gates; methods, Stage 7i" \
    "$(first paper/methods.md "Stage 7i: the key mask only where a tile needs it")" \
    "$(first kernels/variants.def 'SDPA_VARIANT(stage7i,')"
  # Stage 7j: the consumer warpgroups in turn at the tensor cores, on the same model's evidence.
  row bars "stage 7j" "a FULL barrier per consumer warpgroup and the two in turn at the tensor cores (class LOAD): bit-identity on the emulator and a GPU, static and GPU gates; methods, Stage 7j" \
    "$(first paper/methods.md "Stage 7j: the two consumer warpgroups in turn at the tensor cores")" \
    "$(first kernels/variants.def 'SDPA_VARIANT(stage7j,')"
  # Stage 7k: V transposed by ldmatrix and stmatrix, on the same model's evidence.
  row bars "stage 7k" "V swizzled by TMA and transposed by ldmatrix.trans, byte permutes and stmatrix (class LOAD): bit-identity on the emulator and a GPU, static and GPU gates; methods, Stage 7k" \
    "$(first paper/methods.md "Stage 7k: V transposed by ldmatrix and stmatrix")" \
    "$(first kernels/variants.def 'SDPA_VARIANT(stage7k,')"
  # Stage 7l: one empty-barrier arrival per warp, on FlashAttention-3's report of the per-thread cost.
  row bars "stage 7l" "the TMA ring's empty mbarriers take one arrival per warp (class LOAD): bit-identity on the emulator and a GPU, static and GPU gates; methods, Stage 7l" \
    "$(first paper/methods.md "Stage 7l: one empty-barrier arrival per warp")" \
    "$(first kernels/variants.def 'SDPA_VARIANT(stage7l,')"
  # Stage 7m: causal CTAs longest first (FlashAttention-3's order; built at D = 64, as amended).
  row bars "stage 7m" "causal CTAs take their query tiles longest first, heads fastest (class LOAD; built at D = 64, as amended before any GPU run): bit-identity on the emulator and a GPU, static and GPU gates; methods, Stage 7m" \
    "$(first paper/methods.md "Stage 7m: causal CTAs longest first")" \
    "$(first kernels/variants.def 'SDPA_VARIANT(stage7m,')"
  for mk in experiments/*/experiment.mk; do
    e=$(basename "$(dirname "$mk")")
    cand=$(sed -n 's/^CANDIDATE *:= *//p' "$mk")
    reg=$(registry_hypothesis "${cand//-/_}") file=$(first "experiments/$e/hypothesis.md")
    kernel=$(kernel_of "$cand")
    # An experiment timed at D = 128 judges the candidate's D = 128 instance: the registry row's
    # hypothesis is its D = 64 one, and for a Hopper row the kernel is the first with D = 128
    # instances of the TMA rows (kernels/stages.cu, SDPA_TMA_D128_KERNELS).
    if [ "$(sed -n 's/^TIMING_SHAPE *:= *//p' "$mk" | awk -F, '{print $4}')" = 128 ]; then
      reg=
      tma128=$(first kernels/stages.cu 'SDPA_TMA_D128_KERNELS')
      grep "^SDPA_VARIANT(${cand//-/_}," kernels/variants.def | grep -q 'SDPA_SW(TMA_KV)' &&
        [ -n "$tma128" ] && kernel=$(later "$kernel" "$tma128")
    fi
    fixed=$(earlier "$reg" "$file")
    where="experiments/$e/hypothesis.md"
    [ -n "$fixed" ] && [ "$fixed" = "$reg" ] && where="the registry row of $cand in kernels/variants.def; later experiments/$e/hypothesis.md"
    row hypothesis "$e" "$where" "$fixed" "$kernel"
  done
} >"$out.tmp.$$" && tools/write-if-changed.sh "$out" <"$out.tmp.$$"
rc=$?
rm -f "$out.tmp.$$"
# The key after the table (a run killed between them recomputes next time), written atomically.
if [ $rc -eq 0 ] && [ -n "$key" ]; then
  mkdir -p "$(dirname "$key")" && inputs >"$key.tmp.$$" && mv -f "$key.tmp.$$" "$key" || rm -f "$key.tmp.$$"
fi
exit $rc
