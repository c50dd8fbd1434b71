#!/usr/bin/env bash
# The HTML report and paper in a real headless browser (Debian's chromium): rendered from the
# SYNTHETIC fixtures into a temporary directory, then opened from a temporary copy into which
# browser/check.js is injected first thing in <head>. The page must load with no script error,
# failed resource or console error/warning, every figure decoded (complete, naturalWidth > 0),
# as many tables and images in the DOM as in the file (and some), and its formulas as MathML that
# the browser lays out. Console lines chromium itself logs (--enable-logging) must be none. A copy
# broken on purpose (a missing figure, a script error) must fail the same checks. A screenshot of
# the first screen of each page goes to LOGDIR (browser-report.png, browser-paper.png).
# Usage: tests/report/browser.sh build/bin/sdpa-report [LOGDIR (default build/test-logs)]
set -u
. tests/tap.sh
. tests/report/lib.sh
SDPA_REPORT=$1
LOGDIR=${2:-build/test-logs}
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser)}
[ -n "$CHROMIUM" ] || { tap_skip "HTML in a headless browser" "chromium not installed (make deps-render)"; tap_done; }
for tool in pandoc gnuplot pdflatex jq; do
  command -v $tool >/dev/null || { tap_skip "HTML in a headless browser" "$tool not installed (make deps)"; tap_done; }
done

# chromium needs --no-sandbox as root (and in most containers); its own profile in $TMP.
browser() {
  timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$TMP/profile" \
    --enable-logging=stderr --v=0 --hide-scrollbars --window-size=1280,900 "$@"
}

# inspect HTML NAME: the checker's findings (JSON) in $TMP/NAME.json, chromium's console lines in
# $TMP/NAME.console.
inspect() {
  local page=$TMP/$2.check.html
  awk -v js="tests/report/browser/check.js" '
    !done && sub(/<head>/, "") { print "<head><script>"; while ((getline l < js) > 0) print l; print "</script>"; done = 1 }
    { print }' "$1" >"$page"
  browser --dump-dom --virtual-time-budget=5000 "file://$page" >"$TMP/$2.dom" 2>"$TMP/$2.err"
  grep -F 'CONSOLE' "$TMP/$2.err" >"$TMP/$2.console"
  sed -n 's:.*<pre id="browser-check">\(.*\)</pre>.*:\1:p' "$TMP/$2.dom" |
    sed 's/&lt;/</g; s/&gt;/>/g; s/&amp;/\&/g' >"$TMP/$2.json"
  [ -s "$TMP/$2.json" ] || { echo "# $2: no findings in the DOM (the checker did not run)"; return 1; }
  tap_diag "$2: $(cat "$TMP/$2.json" | cut -c1-300)"
}
q() { jq -r "$2" "$TMP/$1.json"; }

# check HTML NAME: every assertion on one page.
check() {
  local imgs tables
  tap_ok "$2: chromium loads the page and the checker reports" inspect "$1" "$2" || return
  imgs=$(grep -o '<img ' "$1" | wc -l); tables=$(grep -o '<table' "$1" | wc -l)
  tap_ok "$2: no script error, failed resource or console error ($(q "$2" '.errors | length'))" \
    test "$(q "$2" '.errors | length')" -eq 0
  tap_ok "$2: chromium logged no console message ($(wc -l <"$TMP/$2.console"))" test ! -s "$TMP/$2.console"
  tap_ok "$2: every figure loaded ($(q "$2" .images) of $imgs; not loaded: $(q "$2" '.images_not_loaded | length'))" \
    test "$(q "$2" .images)" -eq "$imgs" -a "$imgs" -ge "$3" -a "$(q "$2" '.images_not_loaded | length')" -eq 0
  tap_ok "$2: every table present ($(q "$2" .tables) of $tables)" test "$(q "$2" .tables)" -eq "$tables" -a "$tables" -ge "$4"
  tap_ok "$2: formulas as MathML, laid out ($(q "$2" .math), $(q "$2" .math_without_box) without a box)" \
    test "$(q "$2" .math)" -ge 10 -a "$(q "$2" .math_without_box)" -eq 0
  tap_ok "$2: MathML typeset by the browser (superscripts raised: $(q "$2" .msup_raised) of $(q "$2" .msup))" \
    test "$(q "$2" .msup)" -ge 5 -a "$(q "$2" .msup_raised)" -eq "$(q "$2" .msup)"
  tap_ok "$2: the banner ('$(q "$2" .banner_text)') on the first screen, above the table of contents" \
    bash -c 'jq -e ".banner_top != null and .toc_top != null and .banner_top < .toc_top and .banner_top < .viewport_height" \
      "$1" >/dev/null' _ "$TMP/$2.json"
}

# The report of the emulated fixture, and the paper from it.
E=$(new_run emulated stage2-wmma-pv)
# HTML only: the browser reads nothing else (the PDF and Markdown are render.sh's and layout.sh's).
"${MAKE_CMD[@]}" report RUN="$E" DATA_DIR="$TMP/data" FIG_DIR="$TMP/figs" REPORT_DIR="$TMP/out" PANDOC_FORMATS=html \
  >"$TMP/report.log" 2>&1 ||
  { sed 's/^/# /' "$TMP/report.log"; tap_ok "make report on the emulated fixture" false; tap_done; }
HTML=$TMP/out/stage2-wmma-pv/$(basename "$E")/report.html
"${MAKE_CMD[@]}" paper DATA_DIR="$TMP/data" FIG_DIR="$TMP/pfigs" REPORT_DIR="$TMP/pout" PANDOC_FORMATS=html >"$TMP/paper.log" 2>&1 ||
  { sed 's/^/# /' "$TMP/paper.log"; tap_ok "make paper on the emulated fixture" false; tap_done; }

# Minimum counts: the report has 4 figures (latency, speedup, correctness, ptxas) and more than
# 10 tables; the paper 2 figures (history, published) and more than 10 tables.
check "$HTML" report 4 10
check "$TMP/pout/paper.html" paper 2 10

# The first screen of each page, kept with the test logs.
mkdir -p "$LOGDIR"
for p in "report:$HTML" "paper:$TMP/pout/paper.html"; do
  browser --screenshot="$TMP/${p%%:*}.png" "file://${p#*:}" >/dev/null 2>&1
  tap_ok "${p%%:*}: screenshot of the first screen in $LOGDIR/browser-${p%%:*}.png" \
    bash -c "test -s '$TMP/${p%%:*}.png' && cp '$TMP/${p%%:*}.png' '$LOGDIR/browser-${p%%:*}.png'"
done

# The checks can fail: a copy with one figure's source pointing to a missing file and a script
# that calls an undefined function.
sed '0,/src="data:image\/png;base64,[^"]*"/s//src="missing-figure.png"/' "$HTML" |
  sed 's:</body>:<script>undefined_function_of_the_test();</script></body>:' >"$TMP/broken.html"
inspect "$TMP/broken.html" broken >/dev/null
tap_ok "broken copy: the missing figure is reported" test "$(q broken '.images_not_loaded | length')" -eq 1
tap_ok "broken copy: the resource and the script error are reported" bash -c \
  "jq -e '[.errors[] | select(test(\"resource not loaded: IMG\"))] | length == 1' '$TMP/broken.json' >/dev/null &&
   jq -e '[.errors[] | select(test(\"undefined_function_of_the_test\"))] | length == 1' '$TMP/broken.json' >/dev/null"
tap_ok "broken copy: chromium logged the uncaught error on its console" grep -q 'undefined_function_of_the_test' "$TMP/broken.console"
tap_done
