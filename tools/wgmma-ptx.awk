# wgmma-ptx.awk: the PTX dialect of tools/wgmma-flow.awk (read it first): nvcc's listing, kernel by
# kernel (.entry), with -lineinfo's .loc lines naming each instruction's source and the .file table.
# Usage: awk -f tools/wgmma-flow.awk -f tools/wgmma-ptx.awk LISTING.ptx

# The registers of s, space-separated.
function ptx_regs(s,    l) {
    l = ""
    while (match(s, /%[a-z]+[0-9]+/)) {
        l = l (l == "" ? "" : " ") substr(s, RSTART, RLENGTH)
        s = substr(s, RSTART + RLENGTH)
    }
    return l
}
/^[ \t]*\.(visible[ \t]+)?\.entry[ \t]/ {
    analyse()
    reset()
    kernel = $0
    sub(/.*\.entry[ \t]+/, "", kernel); sub(/\(.*/, "", kernel)
    next
}
/^[ \t]*\.file[ \t]/ {
    f = $3
    gsub(/"/, "", f); sub(/.*\/kernels\//, "kernels/", f)
    file[$2] = f
    next
}
/^[ \t]*\.loc[ \t]/ { cur_loc = $2 SUBSEP $3; next }
kernel == "" { next }
{
    line = $0
    sub(/\/\/.*/, "", line)
    gsub(/^[ \t{}]+|[ \t{}]+$/, "", line) # prims.cuh's asm blocks open and close scopes
    if (line == "" || line ~ /^\./) next
    if (line ~ /^[$A-Za-z_][$A-Za-z0-9_]*:$/) {
        label[substr(line, 1, length(line) - 1)] = ni + 1
        next
    }
    ni++
    text[ni] = line
    ln[ni] = NR
    loc[ni] = cur_loc
    guarded[ni] = (line ~ /^@/)
    sub(/^@!?%[a-z]+[0-9]+[ \t]+/, "", line) # a guard predicate is read, never a wgmma operand
    op = line
    sub(/[ \t].*/, "", op)
    args = line
    sub(/^[^ \t]+[ \t]*/, "", args); sub(/;.*/, "", args)
    if (op ~ /^wgmma\.mma_async/) {
        # {D...}, then {A...} (RS) or A's descriptor (SS), B's descriptor, scale-d, the imm-scales.
        kind[ni] = "mma"
        d = args
        sub(/\}.*/, "", d)
        accs[ni] = ptx_regs(d)
        rest = substr(args, length(d) + 2)
        a = ""
        if (rest ~ /^[ \t]*,[ \t]*\{/) {
            a = rest
            sub(/^[ \t]*,[ \t]*\{/, "", a); sub(/\}.*/, "", a)
        }
        aregs[ni] = ptx_regs(a)
    } else if (op ~ /^wgmma\.commit_group/) kind[ni] = "commit"
    else if (op ~ /^wgmma\.wait_group/) {
        kind[ni] = "wait"
        waitn[ni] = args + 0
    } else if (op ~ /^bra/) {
        kind[ni] = "bra"
        t = args
        gsub(/[ \t]/, "", t)
        target[ni] = t
    } else if (op ~ /^(ret|exit)$/) kind[ni] = "end"
    else {
        # The first operand is written, unless the instruction writes memory, synchronises or
        # branches (its first operand then an address, a barrier or an immediate).
        kind[ni] = "other"
        w = ""
        if (op !~ /^(st|red|bar|barrier|cp|fence|membar|prefetch|setmaxnreg|call|trap|wgmma)(\.|$)/ &&
            args !~ /^\[/) {
            w = args
            if (w ~ /^\{/) sub(/\}.*/, "", w)
            else sub(/,.*/, "", w)
        }
        dsts[ni] = ptx_regs(w)
        srcs[ni] = ptx_regs(substr(args, length(w) + 1))
    }
}
