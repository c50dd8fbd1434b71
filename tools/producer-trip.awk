# producer-trip.awk: the producer warps' loop of a warp-specialised kernel (stage 7d on), from its
# SASS listing as issue-slots.awk reads it ("<hex address> [@predicate] OPCODE operands", one per
# line: tools/sass-mix.sh sass_listing_addr). The loop is the one closed by the last backward branch
# between the producers' USETMAXREG.DEALLOC and the first unconditional EXIT after it. Prints
#   <first address> <last address> <instructions> <non-issuing>
# non-issuing: its instructions less the block a forward branch skips around the TMA copies
# (UTMALDG: the issuing thread's), i.e. the trip of a producer warp that does not issue them, the
# figure stage 7k's static gate compares (paper/methods.md#prereg-stage7k). Exit 1 with a message
# when there is no such loop. tests/kernels/sass-gates.sh runs it; its tests run it on a listing
# made by hand.

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
  if (!dealloc && op[n] ~ /^USETMAXREG\.DEALLOC/) dealloc = n
  if (dealloc && !stop && op[n] == "EXIT" && !pred[n]) stop = n
}
END {
  if (!dealloc || !stop) { print "producer-trip.awk: no USETMAXREG.DEALLOC followed by an EXIT" > "/dev/stderr"; exit 1 }
  for (i = dealloc; i < stop; i++)
    if (tgt[i] >= 0 && tgt[i] <= a[i] && (tgt[i] in idx) && idx[tgt[i]] > dealloc) { h = idx[tgt[i]]; e = i }
  if (!e) { print "producer-trip.awk: no loop between USETMAXREG.DEALLOC and the EXIT" > "/dev/stderr"; exit 1 }
  skip = 0
  for (j = h; j <= e; j++)
    if (op[j] ~ /^BRA/ && tgt[j] > a[j] && (tgt[j] in idx) && idx[tgt[j]] <= e) {
      tma = 0
      for (k = j + 1; k < idx[tgt[j]]; k++) if (op[k] ~ /^UTMALDG/) tma = 1
      if (tma) { skip = idx[tgt[j]] - j - 1; break }
    }
  printf "0x%x 0x%x %d %d\n", a[h], a[e], e - h + 1, e - h + 1 - skip
}
