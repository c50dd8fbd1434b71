# issue-slots.awk: the loop counts of tools/issue-slots.sh from one kernel's SASS listing, one
# instruction per line as "<hex address> [@predicate] OPCODE operands" (cuobjdump -sass, trimmed).
# Variables: per_tile (the exponentials one warp's lanes take per key tile), pre (the row's leading
# columns); all=1: print every loop instead (first and last address, instructions, MUFU.EX2). Prints the rest of the row; exit 1 with a message when no loop holds MUFU.EX2 or its
# MUFU.EX2 are not a whole number of tiles. tests/kernels/issue-slots.sh runs it on a listing made
# by hand.
# producer=1: the producers' loop of a warp-specialised kernel instead (stage 7d on): the one closed
# by the last backward branch between USETMAXREG.DEALLOC and the first unconditional EXIT after it.
# Prints "<first address> <last address> <instructions> <non-issuing>", non-issuing being its
# instructions less the block a forward branch skips around the TMA copies (UTMALDG: the issuing
# thread's), the trip stage 7k's static gate compares (paper/methods.md#prereg-stage7k); exit 1 with
# a message when there is no such loop.

function hex(s,   v, i) { # mawk has no strtonum
  s = tolower(s); gsub(/ /, "", s); sub(/^0x/, "", s); v = 0
  for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
  return v
}
{
  n++; a[n] = hex($1); line = $0; sub(/^[0-9a-f]+ +/, "", line)
  pred[n] = (line ~ /^@/); sub(/^@!?U?P[0-9T] +/, "", line)
  op[n] = line; sub(/ .*/, "", op[n]); idx[a[n]] = n
  tgt[n] = -1
  if (op[n] ~ /^BRA/ && match(line, /0x[0-9a-f]+ *$/)) tgt[n] = hex(substr(line, RSTART, RLENGTH))
  if (op[n] == "EXIT" && !pred[n]) exits[n] = 1
  if (!dealloc && op[n] ~ /^USETMAXREG\.DEALLOC/) dealloc = n
  if (dealloc && !stop && (n in exits)) stop = n
}
# producer=1 (above): the producers' loop and a non-issuing warp's trip through it.
function producer_loop(   i, h, e, j, k, skip, tma) {
  if (!dealloc || !stop) { print "issue-slots.awk: no USETMAXREG.DEALLOC followed by an EXIT" > "/dev/stderr"; return 1 }
  for (i = dealloc; i < stop; i++)
    if (tgt[i] >= 0 && tgt[i] <= a[i] && (tgt[i] in idx) && idx[tgt[i]] > dealloc) { h = idx[tgt[i]]; e = i }
  if (!e) { print "issue-slots.awk: no loop between USETMAXREG.DEALLOC and the EXIT" > "/dev/stderr"; return 1 }
  skip = 0
  for (j = h; j <= e; j++)
    if (op[j] ~ /^BRA/ && tgt[j] > a[j] && (tgt[j] in idx) && idx[tgt[j]] <= e) {
      tma = 0
      for (k = j + 1; k < idx[tgt[j]]; k++) if (op[k] ~ /^UTMALDG/) tma = 1
      if (tma) { skip = idx[tgt[j]] - j - 1; break }
    }
  printf "0x%x 0x%x %d %d\n", a[h], a[e], e - h + 1, e - h + 1 - skip
  return 0
}
# Whether an unconditional EXIT lies in h..i: then the branch at i is an out-of-line block's return
# (an mbarrier wait's retry, placed after the kernel's exit) into the code, not a loop's back edge.
function has_exit(h, i,   j) {
  for (j = h; j <= i; j++) if (j in exits) return 1
  return 0
}
END {
  if (producer) exit producer_loop()
  best = 0
  for (i = 1; i <= n; i++) if (tgt[i] >= 0 && tgt[i] <= a[i] && (tgt[i] in idx) && !has_exit(idx[tgt[i]], i)) {
    h = idx[tgt[i]]; e = 0
    for (j = h; j <= i; j++) if (op[j] ~ /^MUFU\.EX2/) e++
    if (all) printf "0x%x\t0x%x\t%d\t%d\n", a[h], a[i], i - h + 1, e
    if (e > best || (e == best && e > 0 && i - h < bi - bh)) { best = e; bh = h; bi = i }
  }
  if (all) exit 0
  if (!best) { print "issue-slots.sh: no loop with MUFU.EX2" > "/dev/stderr"; exit 1 }
  # The fewest instructions from the head to the back edge, and the most MUFU.EX2 and conversions any
  # trip can issue: one pass in address order (a loop whose trip takes one of two bodies, stage 7i's,
  # holds both bodies' MUFU.EX2 but a trip issues one body's; for a loop of one body, all of them).
  for (j = bh; j <= bi; j++) { d[j] = 1e9; mu[j] = -1; cv[j] = -1 }
  d[bh] = 0; mu[bh] = 0; cv[bh] = 0
  for (j = bh; j <= bi; j++) {
    if (mu[j] < 0) continue # no trip reaches it (after an unconditional branch)
    c = d[j] + 1; cm = mu[j] + (op[j] ~ /^MUFU\.EX2/); cc = cv[j] + (op[j] ~ /^(F2FP|F2F|F2I|I2F|FRND)(\.|$)/)
    fwd = (op[j] ~ /^BRA/ && tgt[j] > a[j] && (tgt[j] in idx) && idx[tgt[j]] <= bi)
    if (fwd) {
      k = idx[tgt[j]]
      if (c < d[k]) d[k] = c
      if (cm > mu[k]) mu[k] = cm
      if (cc > cv[k]) cv[k] = cc
    }
    if (!(fwd && !pred[j]) && j < bi) {
      if (c < d[j + 1]) d[j + 1] = c
      if (cm > mu[j + 1]) mu[j + 1] = cm
      if (cc > cv[j + 1]) cv[j + 1] = cc
    }
  }
  best = mu[bi] + (op[bi] ~ /^MUFU\.EX2/); conv = cv[bi]
  tiles = int(best / per_tile)
  if (tiles < 1 || best - tiles * per_tile >= per_tile / 2) {
    printf "issue-slots.sh: %d MUFU.EX2 on a trip of the loop is not a whole number of tiles of %d exponentials\n", best, per_tile > "/dev/stderr"; exit 1
  }
  printf "%s\t0x%x\t0x%x\t%d\t%d\t%d\t%d\t%d\n", pre, a[bh], a[bi], bi - bh + 1, d[bi] + 1, best, conv, tiles
}
