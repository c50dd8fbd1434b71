#!/usr/bin/env bash
# The static issue-slot model as the paper prints it (host/report/issue_slots.c, the model in
# paper/methods.md#prereg-stage7g-slots): every cell recomputed here with awk from the committed
# paper/derivation/issue-slots.tsv and the committed campaign's device record; the two predictions
# follow the bounds (85 % from the code's rule, 480 TFLOP/s from stage 7f's experiment.mk), and stage
# 7h's, 7i's and 7j's static gates and ceilings (paper/methods.md#prereg-stage7h, #prereg-stage7i,
# #prereg-stage7j; gates that can be missed or met), 7j's turns' bound at D = 64 and 128; without
# an sm_90 campaign no TFLOP/s is printed; a stage-7f XU figure is set against the bounds (the
# fixture marked, deciding nothing; within, between, beyond); each counted kernel's fastest GPU timing
# is set against its ceiling (none committed; beyond, between the two ceilings, within; its own head
# dimension's row; the fastest of a kernel's timings; from a run, the scaling sweep or the history;
# no clock, no ceiling); a malformed counts file stops the paper with its file, line and column.
# Usage: tests/report/issue-slots.sh build/bin/sdpa-report [build/tests/report/sdpa-report-asan]
# shellcheck disable=SC2016 # the checks' bash -c scripts expand their own arguments
set -u
. tests/tap.sh
command -v jq >/dev/null || { tap_skip "the issue-slot model" "jq not installed (make deps)"; tap_done; }
R=$(realpath "$1") A=${2:+$(realpath "$2")}
TSV=paper/derivation/issue-slots.tsv
tmp=$(mktemp -d "${TMPDIR:-/tmp}/issue-slots-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
render() { # NAME GPU_DATA [SDPA_REPORT]: the paper's generated files into $tmp/NAME; exit status in rc
  "${3:-$R}" paper --published data/published/seed-l4.json --out "$tmp/$1" --gpu-data "$2" >"$tmp/$1.log" 2>&1
  rc=$?
  [ $rc -eq 0 ] || sed 's/^/# /' "$tmp/$1.log" | tail -n 5
}
md() { cat "$tmp/$1/issue-slots.md"; }

# The committed data: the device of the first measured sm_90 campaign.
dev=$(for d in data/gpu/*/*/device-run.json; do
  jq -r 'select(.meta.device.cc == "9.0") | "\(.meta.device.sm_count) \(.meta.device.sm_clock_default_mhz)"' "$d"
done | head -1)
render committed data/gpu
tap_ok "committed data: sdpa-report paper exits 0 and writes issue-slots.md" test $rc -eq 0 -a -s "$tmp/committed/issue-slots.md"
tap_ok "  ... an sm_90 device is committed ($dev: SMs, MHz)" test -n "$dev"
# The rows as the model gives them: XU 8E/N (and 8(E+C)/N, "none" from 100 %), 16 m n D tiles / (W N).
awk -F'\t' -v sms="${dev% *}" -v mhz="${dev#* }" 'NR > 1 {
  xu1 = 800 * ($13 + $14) / $12; fl = 16 * $6 * $7 * $15 * $5 / ($8 * $12)
  printf "| %s | %d | %d × %d | %d | %d (%d) | %d | %d | %.1f %% | %s | %.0f | %.0f |\n", $2, $5, $6, $7 * $15, $8,
    $11, $12, $13, $14, 800 * $13 / $12, xu1 < 100 ? sprintf("%.1f %%", xu1) : "none", fl, fl * sms * mhz / 1e6 }' \
  "$TSV" >"$tmp/want.rows"
grep '^| stage7' "$tmp/committed/issue-slots.md" >"$tmp/got.rows"
diff "$tmp/want.rows" "$tmp/got.rows" | sed 's/^/# /'
tap_ok "  ... its $(grep -c . "$tmp/want.rows") rows, every cell, as recomputed from $TSV and the device record" \
  cmp -s "$tmp/want.rows" "$tmp/got.rows"
tap_ok "  ... the caption names the device of the TFLOP/s, its SMs and clock" \
  grep -q "the TFLOP/s on NVIDIA H100 80GB HBM3 (${dev% *} SMs at ${dev#* } MHz, campaign .*'s device record)" "$tmp/committed/issue-slots.md"
# The predictions for stage 7f at D = 64 follow the numbers.
read -r xu0 xu1 tf < <(awk -F'\t' -v sms="${dev% *}" -v mhz="${dev#* }" '$1 == "sdpa_stage7f_e4m3" {
  print 800 * $13 / $12, 800 * ($13 + $14) / $12, 16 * $6 * $7 * $15 * $5 / ($8 * $12) * sms * mhz / 1e6 }' "$TSV")
gate=$(sed -n 's/^GATE_TFLOPS *:= *//p' experiments/stage7f-overlap/experiment.mk)
go=$(sed -n 's/^#define STAGE7G_GO_PCT \([0-9.]*\).*/\1/p' host/report/gpu_stage7g.h)
want_xu=$(awk -v a="$xu0" -v b="$xu1" -v g="$go" 'BEGIN { print b < g ? "predicts no-go" : a < g ? "predicts nothing" : "predicts that a go is possible" }')
want_tf=$(awk -v t="$tf" -v g="$gate" 'BEGIN { print t < g ? "misses that gate" : "can meet that gate" }')
tap_ok "  ... stage 7f: XU at most $xu0 % ($xu1 %) against $go %: the model $want_xu" \
  bash -c 'grep -q "can be at most $(printf "%.1f" "$1") % busy ($(printf "%.1f" "$2") % if .*the model $3\." <<<"$4"' _ "$xu0" "$xu1" "$want_xu" "$(md committed)"
tap_ok "  ... stage 7f: at most $tf TFLOP/s against the gate's $gate: the model predicts that stage 7f $want_tf" \
  bash -c 'grep -q "$(printf "%.0f" "$1") TFLOP/s on NVIDIA H100 80GB HBM3 at .* the $2 TFLOP/s of its absolute gate: the model predicts that stage 7f $3" <<<"$4"' _ "$tf" "$gate" "$want_tf" "$(md committed)"
# Stage 7h's static gate and ceilings (paper/methods.md#prereg-stage7h), from the same rows.
read -r h7 f7 hm fm tf7h tfx7h < <(awk -F'\t' -v sms="${dev% *}" -v mhz="${dev#* }" '
  $1 == "sdpa_stage7f_e4m3" { f = $12; fm = $13 }
  $1 == "sdpa_stage7h_e4m3" { h = $12; hm = $13; fl = 16 * $6 * $7 * $15 * $5 / ($8 * $12); n = $12; x = 8 * ($13 + $14) }
  END { print h, f, hm, fm, fl * sms * mhz / 1e6, fl * n / (x > n ? x : n) * sms * mhz / 1e6 }' "$TSV")
gate7h=$(sed -n 's/^GATE_TFLOPS *:= *//p' experiments/stage7h-ftz-exp/experiment.mk)
want7h=$(awk -v a="$tf7h" -v b="$tfx7h" -v g="$gate7h" 'BEGIN { print (b >= g ? "can meet that gate either way" : a >= g ? "can meet that gate only if the conversions do not run on the XU" : "misses that gate") }')
met7h=$(awk -v h="$h7" -v f="$f7" -v a="$hm" -v b="$fm" 'BEGIN { print (h <= 0.8 * f && a == b ? "met" : "MISSED") }')
tap_ok "  ... stage 7h: $h7 of 7f's $f7 instructions, its static gate $met7h; $tf7h ($tfx7h) TFLOP/s against $gate7h: $want7h" \
  bash -c 'grep -q "fewest trip is $1 instructions, $(awk -v a="$1" -v b="$2" "BEGIN { printf \"%.1f\", 100 * a / b }") % of stage 7f.s $2, with $3 MUFU.EX2 against $4; its static gate (at most 80 % of 7f.s, the same MUFU.EX2) is $5\. " <<<"$9" &&
           grep -q "$(printf "%.0f" "$6") TFLOP/s on NVIDIA H100 80GB HBM3 (campaign .*; if the conversions share the XU, which then binds first, $(printf "%.0f" "$7") TFLOP/s\. Against the $8 TFLOP/s of its absolute gate the model predicts that stage 7h ${10}\." <<<"$9"' \
  _ "$h7" "$f7" "$hm" "$fm" "$met7h" "$tf7h" "$tfx7h" "$gate7h" "$(md committed)" "$want7h"
# Stage 7i's (paper/methods.md#prereg-stage7i) against stage 7h: at most 85 %; when the conversions on
# the XU bind both at one ceiling, no speedup is predicted.
read -r i7 ih7 im ihm tf7i tfx7i tfx7hh < <(awk -F'\t' -v sms="${dev% *}" -v mhz="${dev#* }" '
  function ceil(r, x, fl) { fl = 16 * $6 * $7 * $15 * $5 / ($8 * $12); x = 8 * ($13 + $14); return fl * $12 / (x > $12 ? x : $12) * sms * mhz / 1e6 }
  $1 == "sdpa_stage7h_e4m3" { h = $12; hm = $13; hx = ceil() }
  $1 == "sdpa_stage7i_e4m3" { i = $12; im = $13; fl = 16 * $6 * $7 * $15 * $5 / ($8 * $12); ix = ceil() }
  END { print i, h, im, hm, fl * sms * mhz / 1e6, ix, hx }' "$TSV")
gate7i=$(sed -n 's/^GATE_TFLOPS *:= *//p' experiments/stage7i-edge-mask/experiment.mk)
met7i=$(awk -v i="$i7" -v h="$ih7" -v a="$im" -v b="$ihm" 'BEGIN { print (i <= 0.85 * h && a == b ? "met" : "MISSED") }')
same7i=$(awk -v a="$tfx7i" -v b="$tfx7hh" 'BEGIN { print (a <= b * (1 + 1e-9) ? 1 : 0) }')
tap_ok "  ... stage 7i: $i7 of 7h's $ih7 instructions, its static gate $met7i; $tf7i ($tfx7i) TFLOP/s; the XU binding 7h alike: $same7i" \
  bash -c 'grep -q "fewest trip is $1 instructions, $(awk -v a="$1" -v b="$2" "BEGIN { printf \"%.1f\", 100 * a / b }") % of stage 7h.s $2, with $3 MUFU.EX2 against $4; its static gate (at most 85 % of 7h.s, the same MUFU.EX2) is $5\. " <<<"$8" &&
           grep -q "$(printf "%.0f" "$6") TFLOP/s on NVIDIA H100 80GB HBM3 (campaign .*; if the conversions share the XU, which then binds first, $(printf "%.0f" "$7") TFLOP/s\." <<<"$8" &&
           if [ "$9" = 1 ]; then grep -q "^If they do, the XU binds stage 7h at the same ceiling, and the model predicts no speedup over it\.$" <<<"$8"
           else ! grep -q "binds stage 7h at the same ceiling" <<<"$8"; fi' \
  _ "$i7" "$ih7" "$im" "$ihm" "$met7i" "$tf7i" "$tfx7i" "$(md committed)" "$same7i"
# Stage 7j's (paper/methods.md#prereg-stage7j) against stage 7i: at most 102 % at both head dimensions,
# and the turns' bound: a warpgroup's Q.K^T holds the tensor cores T = (m / (W / 4)) n D / 4096 cycles;
# held together a tile takes T + the parent's (W / 4) N (or its XU's (W / 4) 8 (E + C), if longer), in
# turns the longer of the step's issue, its XU and the tensor cores' 2 (W / 4) T.
turns() { # KERNEL_SUFFIX: "N_7j N_7i ratio% gain gain_xu T issue_7i issue_7j xu_7j met"
  awk -F'\t' -v s="$1" 'function mx(a, b) { return a > b ? a : b }
    $1 == "sdpa_stage7i_e4m3" s { pn = $12; pm = $13; px = 2 * ($13 + $14) }
    $1 == "sdpa_stage7j_e4m3" s { n = $12; m = $13; w = $8 / 4; x = 2 * ($13 + $14); t = ($6 / w) * $7 * $15 * $5 / 4096 }
    END { ip = w * pn; is = w * n; xp = w * 4 * px; xs = w * 4 * x
      printf "%d %d %.2f %.3f %.3f %.0f %.0f %.0f %.0f %s\n", n, pn, 100 * n / pn, (t + ip) / mx(is, 2 * w * t),
        (t + mx(ip, xp)) / mx(mx(is, xs), 2 * w * t), t, ip, is, xs, (n <= 1.02 * pn && m == pm) ? "met" : "MISSED" }' "$TSV"
}
read -r j7 ij7 r7 g7 gx7 t7 ip7 is7 xs7 met7j < <(turns "")
read -r j8 ij8 r8 g8 gx8 t8 ip8 is8 xs8 met8j < <(turns _d128)
tap_ok "  ... stage 7j at D = 64: $j7 of 7i's $ij7 instructions, its static gate $met7j; the turns gain at most $g7 ($gx7)" \
  bash -c 'grep -q "fewest trip is $1 instructions, $(awk -v a="$1" -v b="$2" "BEGIN { printf \"%.1f\", 100 * a / b }") % of stage 7i.s $2, with [0-9]* MUFU.EX2 against [0-9]*; its static gate (at most 102 % of 7i.s, the same MUFU.EX2) is $3\. " <<<"$9" &&
           grep -q "At D = 64, a warpgroup.s Q·Kᵀ holds the tensor cores $4 cycles a tile at the datasheet.s rate; held together, stage 7i.s partitions issue $5 instructions a tile after it, in turns stage 7j.s $6 while it runs: by the model the turns gain at most $7, or $8 if the conversions share the XU" <<<"$9"' \
  _ "$j7" "$ij7" "$met7j" "$t7" "$ip7" "$is7" "$g7" "$gx7" "$(md committed)"
tap_ok "  ... stage 7j at D = 128: $j8 of 7i's $ij8 instructions ($r8 %), its static gate $met8j; the turns gain at most $g8 ($gx8)" \
  bash -c 'grep -q "At D = 128, where its gate is timed, stage 7j.s fewest trip is $1 instructions against stage 7i.s $2 ($3 %; its static gate of at most 102 % is $4); a warpgroup.s Q·Kᵀ holds the tensor cores $5 cycles a tile at the datasheet.s rate; held together, stage 7i.s partitions issue $6 instructions a tile after it, in turns stage 7j.s $7 while it runs: by the model the turns gain at most $8, or $9 if the conversions share the XU (${10} cycles a tile then)\." <<<"${11}"' \
  _ "$j8" "$ij8" "$r8" "$met8j" "$t8" "$ip8" "$is8" "$g8" "$gx8" "$xs8" "$(md committed)"
# Stage 7k's (paper/methods.md#prereg-stage7k) against stage 7j and stage 7l's (#prereg-stage7l)
# against 7k: the consumers' loop at most 101 %, the same MUFU.EX2 (the producers' half is
# sass-gates.sh's); no absolute gate, so its FLOP per SM cycle.
for pair in 7k:7j 7l:7k; do
  s=${pair%:*} p=${pair#*:}
  read -r n pn m pm fl flx < <(awk -F'\t' -v s="sdpa_stage${s}_e4m3" -v p="sdpa_stage${p}_e4m3" '
    $1 == p { j = $12; jm = $13 }
    $1 == s { k = $12; km = $13; fl = 16 * $6 * $7 * $15 * $5 / ($8 * $12); x = 8 * ($13 + $14) }
    END { printf "%d %d %d %d %.0f %.0f\n", k, j, km, jm, fl, fl * k / (x > k ? x : k) }' "$TSV")
  met=$(awk -v k="$n" -v j="$pn" -v a="$m" -v b="$pm" 'BEGIN { print (k <= 1.01 * j && a == b ? "met" : "MISSED") }')
  tap_ok "  ... stage $s: $n of $p's $pn instructions, its static gate $met; $fl ($flx) FLOP per SM cycle, no absolute gate" \
    bash -c 'grep -q "^Stage $9 (Methods, \"Stage $9\") .* fewest trip is $1 instructions, $(awk -v a="$1" -v b="$2" "BEGIN { printf \"%.1f\", 100 * a / b }") % of stage ${10}.s $2, with $3 MUFU.EX2 against $4; its static gate (at most 101 % of ${10}.s, the same MUFU.EX2) is $5\. Its issue slots allow at most $6 FLOP per SM cycle ($7 if the conversions share the XU)\.$" <<<"$8"' \
    _ "$n" "$pn" "$m" "$pm" "$met" "$fl" "$flx" "$(md committed)" "$s" "$p"
done
tap_ok "  ... stage 7h, whose ceilings are above 7f's, gets no such sentence" \
  bash -c '! grep -q "binds stage 7f at the same ceiling" <<<"$1"' _ "$(md committed)"
tap_ok "  ... no stage-7f XU figure is committed, so nothing is measured against the bound" \
  bash -c '! grep -q "Measured against the bound" <<<"$1"' _ "$(md committed)"

# No campaign: the counts and FLOP per cycle, no TFLOP/s.
render none "$tmp/no-such-dir"
tap_ok "no campaign: exit 0, the TFLOP/s column n/a and said why" \
  bash -c '[ $1 -eq 0 ] && grep -q "the TFLOP/s n/a: no sm_90 device is committed" <<<"$2" && grep -q "| n/a |$" <<<"$2" && grep -q "no sm_90 device is committed to turn that into TFLOP/s" <<<"$2"' _ $rc "$(md none)"

# The fixture's profile at the gate shape (stage 7f's XU 72.75 %), and measured copies of it.
FX=tests/report/fixtures/gpu-campaign/data/gpu SLUG=fixture-gpu-synthetic-not-a-measurement ID=20260102T030405Z-fixture-1
XU=sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active
render fx "$FX"
tap_ok "the fixture: its XU figure is set against the bounds, marked synthetic, confirming nothing" \
  bash -c 'grep -q "Measured against the bound: campaign $1 on .*SYNTHETIC FIXTURE, NOT A MEASUREMENT: it confirms or refutes nothing): 72.75 %, above the MUFU-only bound and within the one with the conversions" <<<"$2"' _ "$ID" "$(md fx)"
measured() { # NAME XU: a measured copy of the fixture with stage 7f's XU figure XU
  mkdir -p "$tmp/$1.gpu" && cp -r "$FX/." "$tmp/$1.gpu/"
  local c=$tmp/$1.gpu/$SLUG/$ID
  jq '.meta.tool = "sdpa-report"' "$c/campaign.json" >"$c/x" && mv "$c/x" "$c/campaign.json"
  jq --argjson v "$2" ".variants |= map(if .variant == \"stage7f\" then .values[\"$XU\"] = \$v else . end)" \
    "$c/profile-gate.json" >"$c/x" && mv "$c/x" "$c/profile-gate.json"
  render "$1" "$tmp/$1.gpu"
}
measured beyond 99
tap_ok "a measured 99 %: beyond both bounds, the model refuted" \
  bash -c 'grep -q "Measured against the bound: campaign $1 on [^:]*: 99 %, BEYOND both bounds: the model is refuted\." <<<"$2"' _ "$ID" "$(md beyond)"
measured within 20
tap_ok "a measured 20 %: within the bound" \
  bash -c 'grep -q ": 20 %, within the bound\." <<<"$1" && ! grep -q SYNTHETIC <<<"$1"' _ "$(md within)"
# With Nsight Compute's issue-slot share recorded for stage 7f, it is printed beside the XU figure.
IS=sm__inst_issued.avg.pct_of_peak_sustained_active
c=$tmp/within.gpu/$SLUG/$ID
# Ten more metrics before it: the table's 10 columns would not reach it in the metrics' order.
jq --arg m "$IS" '.metrics += [range(10) | {"name": "filler\(.)", "label": "filler \(.)", "unit": "%", "hypothesis": "h", "available": true, "reason": null}]
  | .metrics += [{"name": $m, "label": "issue slots busy", "unit": "%", "hypothesis": "h", "available": true, "reason": null}]
  | .variants |= map(if .variant == "stage7f" then .values[$m] = 97.5 else . end)' "$c/profile-gate.json" >"$c/x" && mv "$c/x" "$c/profile-gate.json"
render within-issue "$tmp/within.gpu"
tap_ok "  ... with the issue slots' share recorded: printed beside it" \
  bash -c 'grep -q ": 20 %, within the bound (issue slots busy 97.5 %)\." <<<"$1"' _ "$(md within-issue)"
tap_ok "  ... the campaign's gate-shape profile table: the XU share, then the issue slots' (of 13 metrics)" \
  grep -q "^| variant | XU (MUFU) pipe busy (%) | issue slots busy (%) | tensor pipe active (%) | filler 0 (%) |" "$tmp/within-issue/gpu.md"

# Timings against the ceilings (issue_measured.c): none committed yet; a copy of the fixture whose
# history gains GPU timings of counted kernels, each placed by its throughput (the FLOP over the upper
# end of its median's CI) relative to its row's ceilings on the fixture's device record.
tap_ok "the committed data: no counted kernel timed, said so (no table)" \
  bash -c 'grep -q "^No campaign has timed a counted kernel on a GPU: nothing is measured against the ceilings yet\.$" <<<"$1" &&
           ! grep -q "tbl:issue-slots-measured" <<<"$1"' _ "$(md committed)"
fxdev=$(jq -r '.meta.device | "\(.sm_count) \(.sm_clock_default_mhz)"' "$FX/$SLUG/$ID/device-run.json")
ceil() { # KERNEL: its ceilings (issue slots; the conversions on the XU) on the fixture's device, TFLOP/s
  awk -F'\t' -v k="$1" -v sms="${fxdev% *}" -v mhz="${fxdev#* }" '$1 == k {
    fl = 16 * $6 * $7 * $15 * $5 / ($8 * $12); x = 8 * ($13 + $14); n = $12
    print fl * sms * mhz / 1e6, fl * n / (x > n ? x : n) * sms * mhz / 1e6 }' "$TSV"
}
read -r f7c f7x < <(ceil sdpa_stage7f_e4m3)
read -r h7c h7x < <(ceil sdpa_stage7h_e4m3)
read -r e7c _ < <(ceil sdpa_stage7e_e4m3)
read -r f7dc _ < <(ceil sdpa_stage7f_e4m3_d128)
timed() { # NAME TOOL SPEC...: a copy of the fixture (campaign.json's meta.tool TOOL) whose history adds a
  # GPU timing per SPEC "variant B H S D causal TFLOPS_AT_CI_HI MEDIAN_OVER_CI_HI", then its paper
  local name=$1 tool=$2 c=$tmp/$1.gpu/$SLUG/$ID
  shift 2
  mkdir -p "$tmp/$name.gpu" && cp -r "$FX/." "$tmp/$name.gpu/"
  jq --arg t "$tool" '.meta.tool = $t' "$c/campaign.json" >"$c/x" && mv "$c/x" "$c/campaign.json"
  jq --arg spec "$(printf '%s\n' "$@")" '.timing[0] as $t | reduce ($spec | split("\n")[] | select(. != "") | split(" ")) as $s (.;
    ($s[1:5] | map(tonumber)) as [$B, $H, $S, $D] | (4 * $B * $H * $S * $S * $D) as $fl
    | ($fl / ($s[6] | tonumber) / 1e6) as $hi | ("t\(.config.shapes | length)") as $n
    | .config.variants += [$s[0]] | .config.shapes += [{name: $n, B: $B, H: $H, S: $S, D: $D, causal: ($s[5] == "1")}]
    | .timing += [$t + {variant: $s[0], shape: $n, flops: ($fl | tostring),
        summary: ($t.summary + {median: ($hi * ($s[7] | tonumber)), ci_lo: ($hi * 0.98), ci_hi: $hi})}])' \
    "$c/history.json" >"$c/x" && mv "$c/x" "$c/history.json"
  render "$name" "$tmp/$name.gpu"
}
x() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6g", a * b }'; } # a x b
# stage 7f at 1.2x its ceiling; 7h twice (60 % of its ceiling at a small shape, then between its two
# ceilings at the gate shape: the faster counts); 7e's median beyond, its interval's end at 99.5 %;
# 7f at D = 128, causal, at 60 % of its D = 128 row's ceiling.
timed refuted sdpa-report "stage7f 2 32 8192 64 0 $(x "$f7c" 1.2) 0.99" "stage7h 1 8 512 64 0 $(x "$h7c" 0.6) 0.99" \
  "stage7h 2 32 8192 64 0 $(awk -v a="$h7c" -v b="$h7x" 'BEGIN { print (a + b) / 2 }') 0.99" \
  "stage7e 2 32 8192 64 0 $(x "$e7c" 0.995) 0.99" "stage7f 2 16 4096 128 1 $(x "$f7dc" 0.6) 0.99"
row() { grep "^| $ID | FIXTURE GPU (synthetic, not a measurement) | $1 | $2 | history, $3 | " "$tmp/$4/issue-slots.md"; }
tap_ok "measured timings: exit 0, a table of them with its caption" \
  bash -c '[ $1 -eq 0 ] && grep -q "{#tbl:issue-slots-measured}" "$2" && ! grep -q "No campaign has timed" "$2"' _ $rc "$tmp/refuted/issue-slots.md"
cell() { awk -v a="$1" -v b="$2" 'BEGIN { if (b < a) printf "%.0f (%.0f)", a, b; else printf "%.0f", a }'; } # the ceiling's cell
tap_ok "  ... stage 7f at 1.2x its ceiling ($(cell "$f7c" "$f7x") TFLOP/s): BEYOND, the model refuted" \
  bash -c 'grep -qF "| $2 | BEYOND the ceiling: the model is refuted |" <<<"$1"' _ \
  "$(row stage7f 64 "(2, 32, 8192, 64)" refuted)" "$(cell "$f7c" "$f7x")"
tap_ok "  ... stage 7h: its faster timing counts, between its ceilings: the conversions do not share the XU" \
  bash -c 'grep -qF "| $3 | within; above the bracketed ceiling, so the conversions do not share the XU (" <<<"$1" &&
           [ "$(grep -c "^| $4 | .* | stage7h |" "$2")" -eq 1 ]' _ "$(row stage7h 64 "(2, 32, 8192, 64)" refuted)" \
  "$tmp/refuted/issue-slots.md" "$(cell "$h7c" "$h7x")" "$ID"
tap_ok "  ... stage 7e, its median beyond and its interval's end within: within, not established" \
  bash -c 'grep -q " | within at the interval.s end; its median beyond (99.5 % of it) |$" <<<"$1"' _ \
  "$(row stage7e 64 "(2, 32, 8192, 64)" refuted)"
tap_ok "  ... stage 7f at D = 128, causal: its own row's ceiling ($(printf %.0f "$f7dc")), 60 % of it" \
  bash -c 'grep -q "| $(printf "%.0f" "$2")\( ([0-9]*)\)\? | within (60 % of it) |$" <<<"$1"' _ \
  "$(row stage7f 128 "(2, 16, 4096, 128, causal)" refuted)" "$f7dc"
tap_ok "  ... a measured copy: no synthetic mark" bash -c '! grep -q "SYNTHETIC" <<<"$(grep -A 3 "^| campaign | device | stage" "$1")"' _ "$tmp/refuted/issue-slots.md"
timed synthetic synthetic-fixture "stage7f 2 32 8192 64 0 $(x "$f7c" 1.2) 0.99"
tap_ok "the fixture's own timing: marked in its verdict and caption, deciding nothing" \
  bash -c 'grep -q "| SYNTHETIC BEYOND the ceiling: the model is refuted |$" "$1" && grep -q "^Table: SYNTHETIC FIXTURE, NOT A MEASUREMENT: Each counted kernel.s fastest GPU timing" "$1"' _ "$tmp/synthetic/issue-slots.md"
timed noclock sdpa-report "stage7f 2 32 8192 64 0 $(x "$f7c" 0.5) 0.99"
c=$tmp/noclock.gpu/$SLUG/$ID
jq '.meta.device.sm_clock_default_mhz = null' "$c/device-run.json" >"$c/x" && mv "$c/x" "$c/device-run.json"
render noclock "$tmp/noclock.gpu"
tap_ok "a device record without its clock: no ceiling, said why" \
  bash -c '[ $1 -eq 0 ] && grep -q "| n/a | no ceiling: the device record has no SM count or clock |$" "$2"' _ $rc "$tmp/noclock/issue-slots.md"

# Where the timings come from: a checkout-like directory whose counts list stage1, stage2 and stage4
# (rows of any kernel: the sources are what is checked), over a copy of the fixture without its warm
# history and with its stage2-wmma-pv run summarised (make paper does that: only a summarised run
# is read): stage 1's fastest is in that run, stage 2's in the scaling sweep, stage 4's in the history.
src=$tmp/sources
mkdir -p "$src/paper/derivation" "$src/experiments/stage7f-overlap" "$src/experiments/stage7h-ftz-exp" "$src/data/published"
cp experiments/stage7f-overlap/experiment.mk "$src/experiments/stage7f-overlap/"
cp experiments/stage7h-ftz-exp/experiment.mk "$src/experiments/stage7h-ftz-exp/"
cp data/published/seed-l4.json "$src/data/published/"
{ head -n 1 "$TSV"; for v in stage1 stage2 stage4; do printf 'k_%s\t%s\tx\tsm_90a\t64\t64\t32\t4\t0x0\t0x10\t500\t500\t18\t50\t1\n' $v $v; done; } \
  >"$src/paper/derivation/issue-slots.tsv"
cp -r "$FX" "$src/gpu" && rm "$src/gpu/$SLUG/$ID/history-warm.json"
run=$(ls -d "$src/gpu/$SLUG/$ID/runs/stage2-wmma-pv/"*/)
"$R" experiment --run "$run" --experiment stage2-wmma-pv --definition "$run/experiment.mk" \
  --published data/published/seed-l4.json >"$src/summary.log" 2>&1
(cd "$src" && "$R" paper --published data/published/seed-l4.json --out out --gpu-data "$src/gpu") >"$src/paper.log" 2>&1
rc=$?
tap_ok "the sources: stage 1 from its experiment run, stage 2 from the scaling sweep, stage 4 from the history" \
  bash -c '[ $1 -eq 0 ] && grep -q "| stage1 | 64 | run of stage2-wmma-pv, (1, 8, 512, 64) | " "$2" &&
           grep -q "| stage2 | 64 | scaling, (1, 64, 1024, 64) | " "$2" && grep -q "| stage4 | 64 | history, (1, 8, 512, 64) | " "$2"' \
  _ $rc "$src/out/issue-slots.md"

# A malformed counts file stops the paper with its file, line and column.
bad() { # NAME SED: a checkout-like directory with an edited copy of the counts; its paper's exit status
  local e
  mkdir -p "$tmp/$1/paper/derivation" "$tmp/$1/data/published"
  sed "$2" "$TSV" >"$tmp/$1/paper/derivation/issue-slots.tsv"
  for e in stage7f-overlap stage7h-ftz-exp stage7i-edge-mask stage7j-pingpong stage7k-vt-ldsm stage7l-warp-release; do
    mkdir -p "$tmp/$1/experiments/$e" && cp "experiments/$e/experiment.mk" "$tmp/$1/experiments/$e/"
  done
  cp data/published/seed-l4.json "$tmp/$1/data/published/"
  (cd "$tmp/$1" && "${3:-$R}" paper --published data/published/seed-l4.json --out out --gpu-data none) >"$tmp/$1.log" 2>&1
}
# Each case: its name, the edit, what the message must say (a grep pattern), the check's words. The
# first row's counts are read from the file (they move with the compiler and the code).
n2=$(awk -F'\t' 'NR == 2 {print $11}' "$TSV") m2=$(awk -F'\t' 'NR == 2 {print $12}' "$TSV")
while IFS='|' read -r name edit want what; do
  bad "$name" "$edit"
  tap_ok "$what: exit 1, said so" bash -c '[ $1 -eq 1 ] && grep -q "issue-slots.tsv$2" "$3"' _ $? "$want" "$tmp/$name.log"
done <<EOF_CASES
b1|2s/\t$n2\t$m2\t/\tx$n2\t$m2\t/|:2: instructions .x$n2. is not a count|a count that is not a number (file, line, column)
b2|1s/mufu_ex2/mufu/|:1: column 13 is .mufu., expected .mufu_ex2.|a renamed column (which, and what it should be)
b3|2s/\t$n2\t$m2\t/\t$n2\t99999\t/|:2: instructions_min 99999 must be 1 to instructions ($n2)|a shortest trip longer than the loop
b4|2s/\t[0-9]*\$//|:2: 14 fields, expected 15|a row with a field missing
b5|2,\$d|: a header and no kernel|a header alone (no table with headers only)
b6|d|: empty|an empty file
EOF_CASES
# Stage 7h's static gate can fail: its fewest trip at 90 % of stage 7f's, or one MUFU.EX2 fewer.
bad h1 "/^sdpa_stage7h_e4m3\t/s/\t[0-9]*\t$h7\t/\t$f7\t$((f7 * 9 / 10))\t/"
tap_ok "stage 7h at 90 % of 7f's fewest trip: its static gate MISSED" \
  bash -c '[ $1 -eq 0 ] && grep -q "% of stage 7f.s [0-9]*, with .* is MISSED\. " "$2"' _ $? "$tmp/h1/out/issue-slots.md"
bad h2 "/^sdpa_stage7h_e4m3\t/s/\t$hm\t/\t$((hm - 1))\t/"
tap_ok "stage 7h with one MUFU.EX2 fewer than 7f: its static gate MISSED" \
  bash -c '[ $1 -eq 0 ] && grep -q "with $(($3 - 1)) MUFU.EX2 against $3; .* is MISSED\. " "$2"' _ $? "$tmp/h2/out/issue-slots.md" "$hm"
bad i1 "/^sdpa_stage7i_e4m3\t/s/\t[0-9]*\t$i7\t/\t$ih7\t$((ih7 * 9 / 10))\t/"
tap_ok "stage 7i at 90 % of 7h's fewest trip: its static gate MISSED" \
  bash -c '[ $1 -eq 0 ] && grep -q "% of stage 7h.s [0-9]*, with .* is MISSED\. " "$2"' _ $? "$tmp/i1/out/issue-slots.md"
# Stage 7j's gate can be met too: its fewest trip at stage 7i's, at each head dimension.
bad j1 "/^sdpa_stage7j_e4m3\t/s/\t$j7\t/\t$ij7\t/; /^sdpa_stage7j_e4m3_d128\t/s/\t$j8\t/\t$ij8\t/"
tap_ok "stage 7j at 7i's fewest trip: its static gate met at D = 64 and 128" \
  bash -c '[ $1 -eq 0 ] && grep -q "% of stage 7i.s [0-9]*, with .* is met\. " "$2" && grep -q "(100.00 %; its static gate of at most 102 % is met)" "$2"' \
  _ $? "$tmp/j1/out/issue-slots.md"
# Stage 7k's can be missed: its consumers' fewest trip at 103 % of 7j's.
k7=$(awk -F'\t' '$1 == "sdpa_stage7k_e4m3" { print $12 }' "$TSV") jk7=$(awk -F'\t' '$1 == "sdpa_stage7j_e4m3" { print $12 }' "$TSV")
bad k1 "/^sdpa_stage7k_e4m3\t/s/\t$k7\t/\t$((jk7 * 103 / 100))\t/"
tap_ok "stage 7k at 103 % of 7j's fewest trip: its static gate MISSED" \
  bash -c '[ $1 -eq 0 ] && grep -q "% of stage 7j.s [0-9]*, with .* (at most 101 % of 7j.s, the same MUFU.EX2) is MISSED\. " "$2"' _ $? "$tmp/k1/out/issue-slots.md"
if [ -n "$A" ]; then
  render asan data/gpu "$A"
  tap_ok "ASan: the committed data, the same file" bash -c '[ $1 -eq 0 ] && cmp -s "$2" "$3"' _ $rc "$tmp/asan/issue-slots.md" "$tmp/committed/issue-slots.md"
  bad b7 "2s/\t$n2\t$m2\t/\tx$n2\t$m2\t/" "$A"
  tap_ok "ASan: a malformed file, the same error, no leak" \
    bash -c '[ $1 -eq 1 ] && grep -q "is not a count" "$2" && ! grep -q "ERROR: \(Address\|Leak\)Sanitizer" "$2"' _ $? "$tmp/b7.log"
fi
tap_done
