# wgmma-inflight.awk: registers of a wgmma that other instructions touch while it may still run, in
# a PTX listing (the nvcc build's, after NVVM's register coalescing: what ptxas and the hardware get).
# The PTX ISA (wgmma.wait_group) makes it undefined to access a wgmma's accumulators, or the registers
# of its A fragment (RS), before a wait_group that retires its group: the tensor core may read A and
# write D until then (hazards W4, W5, W11 of hopper-wgmma-notes). The emulator checks the C++
# source's accesses; this checks the compiler's. An "r"(a) asm operand is dead to nvcc once the asm
# that names it has run, so without prims::wgmma_wait's operand fences nvcc may put another value in
# A's registers while the wgmma still reads them.
#
# Per kernel, a may-analysis over its control flow (basic blocks from labels and branches, states
# merged at joins until nothing changes): each wgmma.mma_async adds its accumulators (role acc) and A
# registers (role A) to the open group; commit_group closes it (an empty one too, as the ISA says);
# wait_group N retires all closed groups but the newest N. A state is the set of "POS/REG/ROLE"
# tokens (POS "o" for the open group, else 0 for the newest closed one, 1 the one before, ..., 8 for
# any older); at a join the union, position by position: a register is taken as in flight where any
# path leaves it so (no path is told apart by its predicates: a wait under "if (t > 0)" after an
# issue under the same test reads as skippable, so the kernels wait unconditionally where it matters).
# Then each reachable instruction other than a wgmma that writes a register in flight, or reads an
# accumulator in flight, is reported.
# Output, tab-separated: KERNEL PTX-LINE SOURCE WHAT REGISTER INSTRUCTION, SOURCE the file:line of
# the instruction's innermost .loc (-lineinfo), WHAT one of A-written, acc-written, acc-read; and per
# kernel "KERNEL 0 - scanned N -", N its wgmma.mma_async instructions. Printed at the end (the
# listing's .file table follows the kernels).
# Usage: awk -f tools/wgmma-inflight.awk LISTING.ptx

# The registers of s, in order, into r[1..n]; returns n.
function regs(s, r,    n) {
    n = 0
    while (match(s, /%[a-z]+[0-9]+/)) {
        r[++n] = substr(s, RSTART, RLENGTH)
        s = substr(s, RSTART + RLENGTH)
    }
    return n
}
# The written operand of instruction i (its first, unless it writes memory, synchronises or branches)
# as dst, and the rest as src.
function split_operands(i) {
    dst = ""
    src = args[i]
    if (op[i] ~ /^(st|red|bar|barrier|cp|fence|membar|prefetch|setmaxnreg|call|ret|exit|trap)(\.|$)/ ||
        args[i] ~ /^\[/)
        return
    dst = args[i]
    if (dst ~ /^\{/) sub(/\}.*/, "", dst)
    else sub(/,.*/, "", dst)
    src = substr(args[i], length(dst) + 1)
}
# cur: the state being walked (cur[token]); role_of[reg]: its registers' roles.
function index_roles(    t, p) {
    split("", role_of)
    for (t in cur) {
        split(t, p, "/")
        role_of[p[2]] = p[3]
    }
}
# The state after instruction i (a wgmma instruction; others leave it as it is).
function step(i,    t, p, next_state, n, r, k, d, a, rest) {
    if (op[i] ~ /^wgmma\.mma_async/) {
        # {D...}, then {A...} (RS) or A's descriptor (SS), B's descriptor, scale-d, the imm-scales.
        d = args[i]
        sub(/\}.*/, "", d)
        rest = substr(args[i], length(d) + 2)
        n = regs(d, r)
        for (k = 1; k <= n; k++) cur["o/" r[k] "/acc"] = 1
        if (rest ~ /^[ \t]*,[ \t]*\{/) {
            a = rest
            sub(/^[ \t]*,[ \t]*\{/, "", a); sub(/\}.*/, "", a)
            n = regs(a, r)
            for (k = 1; k <= n; k++) cur["o/" r[k] "/A"] = 1
        }
    } else if (op[i] ~ /^wgmma\.commit_group/) {
        split("", next_state)
        for (t in cur) {
            split(t, p, "/")
            # Positions past 8 are one, "8 or older": wait_group's N is at most 7, so any wait
            # retires them all, and a loop that commits without waiting reaches a fixed point.
            next_state[(p[1] == "o" ? 0 : (p[1] + 1 > 8 ? 8 : p[1] + 1)) "/" p[2] "/" p[3]] = 1
        }
        split("", cur)
        for (t in next_state) cur[t] = 1
    } else if (op[i] ~ /^wgmma\.wait_group/) {
        n = args[i] + 0
        split("", next_state)
        for (t in cur) {
            split(t, p, "/")
            if (p[1] == "o" || p[1] + 0 < n) next_state[t] = 1
        }
        split("", cur)
        for (t in next_state) cur[t] = 1
    } else return
    index_roles()
}
# Merges cur into block b's entry state (entry[b, token], listed in tokens[b]); 1 when that added a
# token or first reached b.
function merge(b,    t, grew) {
    grew = 0
    for (t in cur)
        if (!((b, t) in entry)) {
            entry[b, t] = 1
            tokens[b] = tokens[b] " " t
            grew = 1
        }
    if (!(b in reached)) {
        reached[b] = 1
        grew = 1
    }
    return grew
}
function push(b) {
    if (!(b in queued)) {
        queued[b] = 1
        work[++nwork] = b
    }
}
function emit(i, what, reg) {
    out[++nout] = kernel "\t" ln[i] "\t" loc[i] "\t" what "\t" reg "\t" text[i]
}
# Walks block b (instructions b .. the next leader or an unguarded branch) from its entry state; reports when report is 1.
function walk(b, report,    i, t, p, k, n, r, ro, target) {
    b += 0 # a block is named by its first instruction's index (array keys are strings)
    split("", cur)
    n = split(tokens[b], p, " ")
    for (k = 1; k <= n; k++) cur[p[k]] = 1
    index_roles()
    for (i = b; i <= ni; i++) {
        if (i > b && (i in leader)) {
            if (!report && merge(i)) push(i)
            return
        }
        if (op[i] ~ /^wgmma\./) {
            step(i)
        } else if (op[i] ~ /^bra/) {
            target = args[i]
            gsub(/[ \t]/, "", target)
            if (!report && (target in label) && merge(label[target])) push(label[target])
            if (!guarded[i]) return
        } else if (op[i] ~ /^(ret|exit)$/) {
            return
        } else if (report) {
            split_operands(i)
            n = regs(dst, r)
            for (k = 1; k <= n; k++)
                if ((ro = role_of[r[k]]) != "") emit(i, ro "-written", r[k])
            n = regs(src, r)
            for (k = 1; k <= n; k++)
                if (role_of[r[k]] == "acc") emit(i, "acc-read", r[k])
        }
    }
}
function analyse(    b, k, nmma) {
    if (kernel == "") return
    nmma = 0
    for (k = 1; k <= ni; k++) if (op[k] ~ /^wgmma\.mma_async/) nmma++
    if (nmma > 0) {
        # Leaders: the first instruction, branch targets (labels), and what follows a branch.
        leader[1] = 1
        for (k in label) leader[label[k]] = 1
        for (k = 1; k < ni; k++) if (op[k] ~ /^bra/) leader[k + 1] = 1
        split("", cur)
        merge(1)
        push(1)
        while (nwork > 0) {
            b = work[nwork--]
            delete queued[b]
            walk(b, 0)
        }
        for (b in reached) walk(b, 1)
    }
    out[++nout] = kernel "\t0\t-\tscanned\t" nmma "\t-"
}
function reset() {
    split("", op); split("", args); split("", text); split("", ln); split("", loc); split("", guarded)
    split("", label); split("", leader); split("", entry); split("", tokens)
    split("", reached)
    split("", queued); split("", work)
    ni = nwork = 0
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
    gsub(/^[ \t{}]+|[ \t{}]+$/, "", line)
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
    o = line
    sub(/[ \t].*/, "", o)
    op[ni] = o
    a = line
    sub(/^[^ \t]+[ \t]*/, "", a); sub(/;.*/, "", a)
    args[ni] = a
}
END {
    analyse()
    for (k = 1; k <= nout; k++) {
        n = split(out[k], fld, "\t")
        if (fld[3] != "-") {
            split(fld[3], fl, SUBSEP)
            fld[3] = ((fl[1] in file) ? file[fl[1]] : "file" fl[1]) ":" fl[2]
        }
        line = fld[1]
        for (i = 2; i <= n; i++) line = line "\t" fld[i]
        print line
    }
}
