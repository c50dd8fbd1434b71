#!/usr/bin/env bash
# The EMULATED watermark of every timing figure lies inside a plot frame. Each figure script that
# sets timing_figure = 1 is rendered from the SYNTHETIC emulated fixture twice: as it is, and with
# `emulated = 0` appended to a copy of plot-vars.gp (no watermark, everything else identical). The
# pixels that differ are the watermark's; each must lie strictly inside one of the frames gnuplot
# reports after each plot (GPVAL_TERM_XMIN..XMAX, YMIN..YMAX, in pixels, y from the bottom: the
# same orientation as gnuplot's own reading of a PNG). The frames are printed by an instrumented
# copy of the script, so a multiplot contributes one frame per panel. A copy of common.gp with
# the old placement (one line at screen centre, which overflowed the speedup frame) must fail.
# No data point under the watermark: a pixel that shows something without the watermark (data,
# a key entry, a label: any colour far from white and the light grid) must look the same with
# it, within the antialiasing of an edge (24 levels per channel). A watermark drawn over the data
# fails this; one drawn behind it, or where no data is, passes. A copy of common.gp with the
# earlier translucent label in front of the data must fail.
# Usage: tests/report/watermark.sh build/bin/sdpa-report
set -u
. tests/tap.sh
. tests/report/lib.sh
SDPA_REPORT=$1
command -v gnuplot >/dev/null || { tap_skip "watermark tests" "gnuplot not installed (make deps)"; tap_done; }

# instrument SCRIPT COMMON: the script with a frame print after every plot command, loading COMMON.
instrument() {
  awk -v common="$2" '
    { sub(/load .figures\/common\.gp./, "load \"" common "\"") }
    /^[ \t]*(s?plot|replot)[ \t]/ { inplot = 1 }
    { print }
    inplot && !/\\[ \t]*$/ { inplot = 0; print "print GPVAL_TERM_XMIN, GPVAL_TERM_XMAX, GPVAL_TERM_YMIN, GPVAL_TERM_YMAX" }
  ' "$1"
}

# render NAME RUNDIR OUT COMMON: the instrumented script into OUT/, its frames into OUT/NAME.frames.
render() {
  mkdir -p "$3"
  instrument "figures/$1.gp" "$4" >"$3/$1.gp"
  gnuplot -e "set print '$3/$1.frames'; rundir='$2'; figdir='$3'" "$3/$1.gp" 2>"$3/$1.log"
}

# pixels PNG: "x y r g b" per pixel, read by gnuplot itself (no image library needed).
pixels() { gnuplot -e "set table '$2'; plot '$1' binary filetype=png using 1:2:3:4:5 with table" 2>/dev/null; }

# outside FRAMES A.png B.png: prints "<differing pixels> <of them outside every frame> <of them
# hiding something drawn without the watermark>".
outside() {
  pixels "$2" "$TMP/a.tab" && pixels "$3" "$TMP/b.tab" || { echo "-1 -1 -1"; return; }
  paste "$TMP/a.tab" "$TMP/b.tab" | awk -v ff="$1" '
    BEGIN { while ((getline l < ff) > 0) { split(l, f, " "); n++; x0[n] = f[1]; x1[n] = f[2]; y0[n] = f[3]; y1[n] = f[4] } }
    NF >= 10 {
      h = NF / 2
      if ($3 == $(h + 3) && $4 == $(h + 4) && $5 == $(h + 5)) next
      d++; inside = 0
      # content under it: far from white in B, and changed by more than antialiasing
      far = 0; ch = 0
      for (c = 3; c <= 5; c++) {
        if (255 - $(h + c) > far) far = 255 - $(h + c)
        dc = $c - $(h + c); if (dc < 0) dc = -dc; if (dc > ch) ch = dc
      }
      if (far > 96 && ch > 24) hid++
      for (i = 1; i <= n; i++) if ($1 > x0[i] && $1 < x1[i] && $2 > y0[i] && $2 < y1[i]) { inside = 1; break }
      if (!inside) o++
    }
    END { print d + 0, o + 0, hid + 0 }'
}

# check LABEL NAME RUNDIR COMMON: renders with and without the watermark; prints the counts.
check() {
  local w=$TMP/w-$1 n=$TMP/n-$1 png counts d o h total=0 out=0 hid=0
  rm -rf "$n.run" "$w.run" && cp -r "$3" "$n.run" && echo "emulated = 0" >>"$n.run/plot-vars.gp"
  cp -r "$3" "$w.run" && echo "emulated = 1" >>"$w.run/plot-vars.gp" # the GPU fixture is not emulated
  rm -rf "$w" "$n"
  render "$2" "$w.run" "$w" "$4" && render "$2" "$n.run" "$n" "$4" || return 1
  for png in "$w"/*.png; do
    [ -e "$png" ] || continue
    counts=$(outside "$w/$2.frames" "$png" "$n/${png##*/}")
    read -r d o h <<<"$counts"
    [ "$d" -ge 0 ] || return 1
    tap_diag "$1 ${png##*/}: $d watermark pixels, $o outside the $(wc -l <"$w/$2.frames") frame(s), $h over data"
    total=$((total + d)); out=$((out + o)); hid=$((hid + h))
  done
  echo "$total $out $hid"
}

E=$(new_run emulated stage2-wmma-pv)
report_tables "$E" >/dev/null
GEN=$TMP/gen
# --gpu-data: the synthetic GPU campaign gives the GPU figures (scaling, roofline, ECDF, profile) data.
"$SDPA_REPORT" paper --published data/published/seed-l4.json --out "$GEN" \
  --gpu-data tests/report/fixtures/gpu-campaign/data/gpu --stage stage2-wmma-pv "$E" "$TMP/figs" >/dev/null

# Each timing script is rendered from the run directory (a report's figures) or, failing that,
# from the paper's gen/ (the paper's); a script with no input in either (a figure of data the
# fixtures do not have) is skipped, with gnuplot's first complaint.
for gp in $(grep -l '^timing_figure = 1' figures/*.gp); do
  name=$(basename "$gp" .gp) res= d=0 o=0 h=0
  for dir in "$E" "$GEN" "$GEN"/gpu/*/; do
    res=$(check "$name" "$name" "$dir" "$PWD/figures/common.gp") || continue
    read -r d o h <<<"$(tail -1 <<<"$res")"
    [ "$d" -gt 0 ] && break
  done
  if [ "$d" -eq 0 ]; then
    tap_skip "$name: watermark inside the frame" \
      "no figure drawn from the fixtures ($(grep -m1 . "$TMP/w-$name/$name.log" 2>/dev/null || echo 'no data'))"
    continue
  fi
  sed '$d' <<<"$res"
  tap_ok "$name: the EMULATED watermark is drawn ($d pixels)" test "$d" -gt 2000
  tap_ok "$name: every watermark pixel inside a plot frame ($o outside)" test "$o" -eq 0
  tap_ok "$name: no data point under the watermark ($h pixels of data changed by it)" test "$h" -eq 0
done

# control LABEL SCRIPT RUNDIR COMMON: check with a broken common.gp; its diagnostics, then the
# counts "differing outside over-data" in $TMP/counts.
control() {
  local res
  res=$(check "$@")
  sed '$d' <<<"$res"
  tail -1 <<<"$res" >"$TMP/counts"
}
# The check can fail: the old placement (one line across the figure, at screen centre).
sed 's/^emu_text = .*/emu_text = "EMULATED (CPU) — not GPU timings"/; s/at graph 0.5, 0.5/at screen 0.5, 0.5/; s/Bold,30/Bold,34/' \
  figures/common.gp >"$TMP/common-old.gp"
control old-speedup speedup "$E" "$TMP/common-old.gp"
read -r d o h <"$TMP/counts"
tap_ok "control: the old screen-centred watermark is found outside the speedup frame ($o pixels)" test "$o" -gt 0
# ... and the earlier label: translucent red, in front of the data, at the centre of each frame.
sed 's/^emu_text = .*/emu_text = "EMULATED (CPU)\\nnot GPU timings"/; s/^ *set label 99 .*/    set label 99 emu_text at graph 0.5, 0.5 center front font "DejaVu Sans Bold,30" textcolor rgb "#50d00000"/' \
  figures/common.gp >"$TMP/common-front.gp"
control front-ecdf ecdf "$GEN/gpu/c1" "$TMP/common-front.gp"
read -r d o h <"$TMP/counts"
tap_ok "control: the earlier translucent label in front of the data is found over data ($h pixels)" test "$h" -gt 0
tap_done
