# issue-slots.awk: the loop counts of tools/issue-slots.sh from one kernel's SASS listing, one
# instruction per line as "<hex address> [@predicate] OPCODE operands" (cuobjdump -sass, trimmed).
# Variables: per_tile (the exponentials one warp's lanes take per key tile), pre (the row's leading
# columns). Prints the rest of the row; exit 1 with a message when no loop holds MUFU.EX2 or its
# MUFU.EX2 are not a whole number of tiles. tests/kernels/issue-slots.sh runs it on a listing made
# by hand.

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
}
END {
  best = 0
  for (i = 1; i <= n; i++) if (tgt[i] >= 0 && tgt[i] <= a[i] && (tgt[i] in idx)) {
    h = idx[tgt[i]]; e = 0
    for (j = h; j <= i; j++) if (op[j] ~ /^MUFU\.EX2/) e++
    if (e > best || (e == best && e > 0 && i - h < bi - bh)) { best = e; bh = h; bi = i }
  }
  if (!best) { print "issue-slots.sh: no loop with MUFU.EX2" > "/dev/stderr"; exit 1 }
  # The fewest instructions from the head to the back edge: one pass in address order.
  for (j = bh; j <= bi; j++) d[j] = 1e9
  d[bh] = 0; conv = 0
  for (j = bh; j <= bi; j++) {
    c = d[j] + 1
    if (op[j] ~ /^(F2FP|F2F|F2I|I2F|FRND)(\.|$)/) conv++
    fwd = (op[j] ~ /^BRA/ && tgt[j] > a[j] && (tgt[j] in idx) && idx[tgt[j]] <= bi)
    if (fwd && idx[tgt[j]] < bi && c < d[idx[tgt[j]]]) d[idx[tgt[j]]] = c
    if (fwd && idx[tgt[j]] == bi && c < d[bi]) d[bi] = c
    if (!(fwd && !pred[j]) && j < bi && c < d[j + 1]) d[j + 1] = c
  }
  tiles = int(best / per_tile)
  if (tiles < 1 || best - tiles * per_tile >= per_tile / 2) {
    printf "issue-slots.sh: %d MUFU.EX2 in the loop is not a whole number of tiles of %d exponentials\n", best, per_tile > "/dev/stderr"; exit 1
  }
  printf "%s\t0x%x\t0x%x\t%d\t%d\t%d\t%d\t%d\n", pre, a[bh], a[bi], bi - bh + 1, d[bi] + 1, best, conv, tiles
}
