# wgmma-sass.awk: the SASS dialect of tools/wgmma-flow.awk (read it first): cuobjdump -sass of an
# sm_90a object, function by function. A QGMMA/HGMMA writes N/2 (F32) or N/4 (F16) accumulators
# from its first register; its second operand, when a register, is the first of A's 4 (RS); gsb0 on
# it closes the group (ptxas's commit); WARPGROUP.DEPBAR.LE gsb0, N waits. An instruction's written
# registers: its first register operand after any predicates (none for compares, stores, barriers),
# as many as its width says (.64, .WIDE, CS2R: 2; .128 and the MMA fragments: 4); its other register
# operands are taken as read, one register each (a pair or quad read counts its first: fewer
# findings, never false ones). CALL is not followed (its callee's body, after the EXIT, is not
# reached from a wgmma). The source column gives the instruction's address.
# Usage: awk -f tools/wgmma-flow.awk -f tools/wgmma-sass.awk LISTING.sass

# The registers R<n> of s, space-separated (RZ and the uniform URn are not registers of a wgmma).
function sass_regs(s,    l, r) {
    l = ""
    while (match(s, /(^|[^A-Z0-9_.])R[0-9]+/)) {
        r = substr(s, RSTART, RLENGTH)
        sub(/^[^R]/, "", r)
        l = l (l == "" ? "" : " ") r
        s = substr(s, RSTART + RLENGTH)
    }
    return l
}
# n registers from R<k>, space-separated.
function sass_range(first, n,    k, l) {
    k = substr(first, 2) + 0
    l = first
    while (--n > 0) l = l " R" (++k)
    return l
}
/Function : / {
    analyse()
    reset()
    kernel = $0
    sub(/.*Function : /, "", kernel); sub(/[ \t]+$/, "", kernel)
    next
}
kernel == "" || !/^[ \t]*\/\*[0-9a-f]+\*\// { next }
{
    line = $0
    addr = line
    sub(/^[ \t]*\/\*/, "", addr); sub(/\*\/.*/, "", addr)
    sub(/^[ \t]*\/\*[0-9a-f]+\*\/[ \t]*/, "", line); sub(/[ \t]*;.*/, "", line)
    sub(/^0+/, "", addr)
    label["0x" (addr == "" ? "0" : addr)] = ni + 1
    ni++
    text[ni] = line
    ln[ni] = NR
    loc[ni] = "0x" (addr == "" ? "0" : addr)
    guarded[ni] = (line ~ /^@/)
    sub(/^@!?U?P[0-9T]+[ \t]+/, "", line)
    op = line
    sub(/[ \t].*/, "", op)
    args = line
    sub(/^[^ \t]+[ \t]*/, "", args)
    if (op ~ /^[A-Z]+GMMA\./) {
        kind[ni] = "mma"
        n = op
        sub(/^[^.]*\.64x/, "", n); sub(/x.*/, "", n)
        split(args, o, /,[ \t]*/)
        accs[ni] = sass_range(o[1], op ~ /\.F32/ ? n / 2 : n / 4)
        aregs[ni] = o[2] ~ /^R[0-9]+$/ ? sass_range(o[2], 4) : ""
        closes[ni] = args ~ /gsb0/
    } else if (op ~ /^WARPGROUP\.DEPBAR/) {
        kind[ni] = "wait"
        w = args
        sub(/.*,[ \t]*/, "", w)
        waitn[ni] = w ~ /^0x/ ? hex(w) : w + 0
    } else if (op ~ /^(BRA|JMP)(\.|$)/) {
        kind[ni] = "bra"
        t = args
        sub(/^.*[ \t,]/, "", t)
        target[ni] = t
    } else if (op ~ /^(EXIT|RET|BPT|KILL)(\.|$)/) kind[ni] = "end"
    else {
        kind[ni] = "other"
        dsts[ni] = ""
        rest = args
        if (op !~ /SETP|^(PLOP3|FCHK|ELECT|R2UR|ST|STS|STG|STL|RED|REDG|REDUX|BAR|SYNCS|MEMBAR|FENCE|WARPSYNC|BSSY|BSYNC|NOP|YIELD|UTMA|UBLKCP|CCTL|ERRBAR|WARPGROUP|USETMAXREG|CALL|ENDCOLLECTIVE)(\.|$)/) {
            m = args
            while (match(m, /^!?(P[0-9]+|PT)[ \t]*,[ \t]*/)) m = substr(m, RLENGTH + 1)
            if (match(m, /^R[0-9]+/)) {
                d = substr(m, 1, RLENGTH)
                width = 1
                if (op ~ /\.(64|WIDE)(\.|$)/ || (op ~ /^CS2R/ && op !~ /\.32/) || op ~ /^LDSM.*\.2$/) width = 2
                if (op ~ /\.128(\.|$)/ || op ~ /^(HMMA|QMMA|IMMA)\..*\.F32/ || op ~ /^LDSM.*\.4$/) width = 4
                dsts[ni] = sass_range(d, width)
                rest = substr(m, RLENGTH + 1)
            }
        }
        srcs[ni] = sass_regs(rest)
    }
}
# A hexadecimal number "0x..." as a number.
function hex(s,    k, v, c) {
    v = 0
    for (k = 3; k <= length(s); k++) {
        c = index("0123456789abcdef", tolower(substr(s, k, 1)))
        v = 16 * v + c - 1
    }
    return v
}
