#!/usr/bin/env bash
# CITATION.cff against what the artifact says of itself: the four keys Citation File Format 1.2.0
# requires, its version that of the tools' result files (host/lib/json_file.h), every arXiv id and
# DOI it cites present in the reports' bibliography (paper/refs.bib), and every work the README's
# "How to cite" names as the reports' references present in it (by arXiv id, DOI or address).
# With cffconvert installed, also its schema validation. Usage: tests/style/citation.sh
set -u
. tests/tap.sh
cff=CITATION.cff bib=paper/refs.bib

for key in cff-version message title authors; do
  tap_ok "$cff: top-level '$key:' (required by CFF 1.2.0)" grep -q "^$key:" "$cff"
done
tap_ok "$cff: cff-version 1.2.0" grep -qx 'cff-version: 1.2.0' "$cff"
tool=$(sed -n 's/^#define RESULTS_TOOL_VERSION "\(.*\)"$/\1/p' host/lib/json_file.h)
tap_ok "$cff: version ${tool:-?} as the result files' tool_version" grep -qx "version: $tool" "$cff"

# Every identifier the file cites is one the bibliography has.
missing=""
while read -r id; do
  grep -qF "$id" "$bib" || missing="$missing $id"
done < <(sed -n 's/.*value: "arXiv:\([0-9.]*\)".*/\1/p; s/^ *doi: *//p' "$cff")
tap_ok "$cff: every arXiv id and DOI is in $bib${missing:+ (not:$missing)}" test -z "$missing"

# The README's list of the reports' references: each in CITATION.cff.
ident() { # bib key -> its eprint, doi or url
  awk -v k="$1" '$0 ~ "^@[a-z]+\\{" k "," { on = 1; next } on && /^}/ { exit }
    on && /^ *(eprint|doi|url) *=/ { sub(/^[^{]*\{/, ""); sub(/\}.*/, ""); print; exit }' "$bib"
}
for key in evoengineer flashattention2 flashattention3 sageattention nvbench hoefler2015 kalibera2013; do
  id=$(ident "$key")
  id=${id#https://github.com/}
  tap_ok "$cff cites $key (${id:-no identifier in $bib})" bash -c '[ -n "$1" ] && grep -qF "$1" "$2"' _ "$id" "$cff"
done

if command -v cffconvert >/dev/null; then
  tap_ok "$cff: cffconvert --validate" cffconvert --validate -i "$cff"
else
  tap_skip "$cff: cffconvert --validate" "cffconvert not installed (pip install cffconvert)"
fi
# Every commit of the original study that data/published/seed-l4.json cites ("<sha>:<file>") is
# named in the original study's reference.
pub=data/published/seed-l4.json
shas=$(grep -oE '\b[0-9a-f]{7}:[A-Za-z_.]' "$pub" | cut -c1-7 | sort -u)
absent=$(for c in $shas; do grep -q "$c" "$cff" || echo "$c"; done | tr '\n' ' ')
tap_ok "$cff: names the $(wc -w <<<"$shas") original commits $pub cites${absent:+ (missing: $absent)}" \
  test -n "$shas" -a -z "$absent"
tap_done
