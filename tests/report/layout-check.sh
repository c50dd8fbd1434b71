#!/usr/bin/env bash
# Layout defects a reader sees but no other check catches, in rendered reports and the paper:
#   PDF   every word inside the page's text area (the geometry margin of paper/defaults/pdf.yaml,
#         plus 3 pt for glyphs that overhang a justified line; vertically, the middle of the
#         word's box; only a page number may sit below it), and no two words overprinting each other (their boxes intersect: a table cell run
#         into the next column, a clipped identifier; words of one character are left out, as
#         a formula stacks them on purpose: sub- and superscripts, radicals). Word boxes come
#         from `pdftotext -bbox-layout`.
#   HTML  no id given to two elements (a link to it would jump to the first one), and no table
#         with a header but not one row (a generated table should say "none" instead).
# Prints one line per defect ("FILE: page N: ...") and a count per file; exit 1 when any file has
# one, 2 on usage or an unreadable file.
# Usage: tests/report/layout-check.sh FILE.pdf|FILE.html ...
set -u
[ $# -gt 0 ] || { echo "usage: $0 FILE.pdf|FILE.html ..." >&2; exit 2; }
command -v pdftotext >/dev/null || { echo "$0: pdftotext not installed (poppler-utils; make deps)" >&2; exit 2; }

# The margin in pt from "geometry: margin=<n><unit>" (cm, mm, in or pt).
margin_pt() {
  sed -n 's/^ *geometry: *margin=\([0-9.]*\)\([a-z]*\).*/\1 \2/p' "${LAYOUT_PDF_DEFAULTS:-paper/defaults/pdf.yaml}" |
    awk '{ f = $2 == "cm" ? 72 / 2.54 : $2 == "mm" ? 72 / 25.4 : $2 == "in" ? 72 : $2 == "pt" ? 1 : 0; if (f) printf "%.3f", $1 * f }'
}
MARGIN=${LAYOUT_MARGIN_PT:-$(margin_pt)}
[ -n "$MARGIN" ] || { echo "$0: no 'geometry: margin=...' in paper/defaults/pdf.yaml" >&2; exit 2; }

# words PDF: "page xmin ymin xmax ymax width height text" per word, pages numbered from 1.
words() {
  pdftotext -bbox-layout "$1" - 2>/dev/null | awk '
    /<page / { p++; match($0, /width="[0-9.]+"/); w = substr($0, RSTART + 7, RLENGTH - 8)
               match($0, /height="[0-9.]+"/); h = substr($0, RSTART + 8, RLENGTH - 9) }
    /<word / { n = split($0, a, "\""); t = $0; sub(/.*">/, "", t); sub(/<\/word>.*/, "", t)
               printf "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", p, a[2], a[4], a[6], a[8], w, h, t }'
}

# pdf_defects PDF: the defects of one PDF, one per line.
pdf_defects() {
  words "$1" | sort -t "$(printf '\t')" -k1,1n -k3,3g | awk -F '\t' -v m="$MARGIN" '
    function chars(s) { gsub(/[\200-\277]/, "", s); return length(s) } # UTF-8 characters, not bytes
    function box(i) { return sprintf("[x %.1f-%.1f, y %.1f-%.1f]", x0[i], x1[i], y0[i], y1[i]) }
    $1 != page { page = $1; na = 0 }
    {
      # the text area, 3 pt of slack; a page number (digits alone) may sit in the bottom margin
      l = m - 3; r = $6 - m + 3; top = m - 3; bot = $7 - m + 3
      # (vertically by the middle of the box: descenders of a last line reach below the area)
      if ($2 < l || $4 > r || ($3 + $5) / 2 < top || (($3 + $5) / 2 > bot && $8 !~ /^[0-9]+$/))
        printf "page %d: outside the text area [x %.1f-%.1f, y %.1f-%.1f]: \"%s\" [x %.1f-%.1f, y %.1f-%.1f]\n",
               page, l, r, top, bot, $8, $2, $4, $3, $5
      # overprinting: boxes that intersect by more than 1 pt across and half the smaller height
      k = 0
      one = chars($8) < 2
      for (i = 1; i <= na; i++) {
        if (y1[i] <= $3) continue
        k++; x0[k] = x0[i]; x1[k] = x1[i]; y0[k] = y0[i]; y1[k] = y1[i]; t[k] = t[i]
        w = (x1[k] < $4 ? x1[k] : $4) - (x0[k] > $2 ? x0[k] : $2)
        h = (y1[k] < $5 ? y1[k] : $5) - (y0[k] > $3 ? y0[k] : $3)
        hmin = (y1[k] - y0[k] < $5 - $3) ? y1[k] - y0[k] : $5 - $3
        if (!one && chars(t[k]) > 1 && w > 1 && h > 0.5 * hmin)
          printf "page %d: overprinted: \"%s\" %s and \"%s\" [x %.1f-%.1f, y %.1f-%.1f]\n",
                 page, t[k], box(k), $8, $2, $4, $3, $5
      }
      na = k + 1; x0[na] = $2; y0[na] = $3; x1[na] = $4; y1[na] = $5; t[na] = $8
    }'
}

# html_defects HTML: every id given to more than one element; every table without a body row.
html_defects() {
  grep -o '<[a-zA-Z][a-zA-Z0-9]*[^<>]* id="[^"]*"' "$1" | sed 's/.* id="\([^"]*\)"$/\1/' | sort | uniq -c |
    awk '$1 > 1 { printf "id \"%s\" given to %d elements\n", $2, $1 }'
  awk '/<table/ { t++; cap = "" } /<caption>/ { cap = $0; gsub(/<[^>]*>/, "", cap) }
       /<tbody>/ { body = 1; rows = 0; next } body && /<tr/ { rows++ }
       /<\/tbody>/ { body = 0; if (!rows) printf "table %d has a header and no row: \"%.60s\"\n", t, cap }' "$1"
}

status=0
for f in "$@"; do
  [ -r "$f" ] || { echo "$0: $f: cannot read" >&2; exit 2; }
  case $f in
    *.pdf) out=$(pdf_defects "$f") ;;
    *.html) out=$(html_defects "$f") ;;
    *) echo "$0: $f: neither .pdf nor .html" >&2; exit 2 ;;
  esac
  n=$(printf '%s' "$out" | grep -c .)
  [ -n "$out" ] && printf '%s\n' "$out" | sed "s|^|$f: |"
  echo "$f: $n layout defect(s)"
  [ "$n" -eq 0 ] || status=1
done
exit $status
