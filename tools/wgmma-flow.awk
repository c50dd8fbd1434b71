# wgmma-flow.awk: registers of a wgmma that other instructions touch while it may still run, in a
# kernel listing. The analysis; a dialect's parser, given after it, reads the listing
# (tools/wgmma-ptx.awk for nvcc's PTX, tools/wgmma-sass.awk for cuobjdump's SASS):
#   awk -f tools/wgmma-flow.awk -f tools/wgmma-ptx.awk LISTING.ptx   (tools/wgmma-inflight.sh runs it)
# The PTX ISA (wgmma.wait_group) makes it undefined to access a wgmma's accumulators, or the registers
# of its A fragment (RS), before a wait_group that retires its group: the tensor core may read A and
# write D until then (hazards W4, W5, W11 of hopper-wgmma-notes). The emulator checks the C++
# source's accesses; this checks the compiler's. An "r"(a) asm operand is dead to nvcc once the asm
# that names it has run, so nvcc may put another value in A's registers while the wgmma still reads
# them (stage 7f's first build did: kernels/README.md); ptxas, from correct PTX, should not.
#
# Per kernel, a may-analysis over its control flow (basic blocks from labels and branches, states
# merged at joins until nothing changes): each wgmma adds its accumulators (role acc) and A registers
# (role A) to the open group; a commit closes it (an empty one too, as the ISA says); a wait for N
# retires all closed groups but the newest N. A state is the set of "POS/REG/ROLE" tokens (POS "o"
# for the open group, else 0 for the newest closed one, 1 the one before, ..., 8 for any older); at
# a join the union, position by position: a register is taken as in flight where any path leaves it
# so (no path is told apart by its predicates: a wait under "if (t > 0)" after an issue under the same
# test reads as skippable, so the kernels wait unconditionally where it matters). Then each reachable
# instruction other than a wgmma that writes a register in flight, or reads an accumulator in flight,
# is reported.
#
# A parser fills, per instruction i of the kernel `kernel` (1..ni): kind[i] (mma, commit, wait, bra,
# end, other), guarded[i] (1: a predicate guards it), text[i], ln[i] (its line), loc[i] (its source,
# "FILE-INDEX SUBSEP LINE", or text as it is); for mma: accs[i] and aregs[i] (registers, space-
# separated) and closes[i] (1: the wgmma also closes its group, SASS's gsb0); for wait: waitn[i]; for
# bra: target[i] (a name of label[]); for other: dsts[i] and srcs[i] (registers written, read);
# label[NAME] = the index of the instruction the label stands before; file[INDEX] = a path. It calls
# analyse() then reset() when a new kernel begins.
# Output, tab-separated: KERNEL LINE SOURCE WHAT REGISTER INSTRUCTION, WHAT one of A-written,
# acc-written, acc-read; and per kernel "KERNEL 0 - scanned N -", N its wgmma instructions. Printed at
# the end (a PTX listing's .file table follows the kernels).

# cur: the state being walked (cur[token]); role_of[reg]: its registers' roles.
function index_roles(    t, p) {
    split("", role_of)
    for (t in cur) {
        split(t, p, "/")
        role_of[p[2]] = p[3]
    }
}
function commit_group(    t, p, next_state) {
    split("", next_state)
    for (t in cur) {
        split(t, p, "/")
        # Positions past 8 are one, "8 or older": a wait's N is at most 7, so any wait retires them
        # all, and a loop that commits without waiting reaches a fixed point.
        next_state[(p[1] == "o" ? 0 : (p[1] + 1 > 8 ? 8 : p[1] + 1)) "/" p[2] "/" p[3]] = 1
    }
    split("", cur)
    for (t in next_state) cur[t] = 1
}
# The state after instruction i (a wgmma, commit or wait; others leave it as it is).
function step(i,    t, p, next_state, n, r, k) {
    if (kind[i] == "mma") {
        n = split(accs[i], r, " ")
        for (k = 1; k <= n; k++) cur["o/" r[k] "/acc"] = 1
        n = split(aregs[i], r, " ")
        for (k = 1; k <= n; k++) cur["o/" r[k] "/A"] = 1
        if (closes[i]) commit_group()
    } else if (kind[i] == "commit") {
        commit_group()
    } else if (kind[i] == "wait") {
        split("", next_state)
        for (t in cur) {
            split(t, p, "/")
            if (p[1] == "o" || p[1] + 0 < waitn[i]) next_state[t] = 1
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
# Walks block b (instructions b .. the next leader or an unguarded branch or end) from its entry
# state; reports when report is 1.
function walk(b, report,    i, p, k, n, r, ro) {
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
        if (kind[i] == "mma" || kind[i] == "commit" || kind[i] == "wait") {
            step(i)
        } else if (kind[i] == "bra") {
            if (!report && (target[i] in label) && merge(label[target[i]])) push(label[target[i]])
            if (!guarded[i]) return
        } else if (kind[i] == "end") {
            if (!guarded[i]) return
        } else if (report) {
            n = split(dsts[i], r, " ")
            for (k = 1; k <= n; k++)
                if ((ro = role_of[r[k]]) != "") emit(i, ro "-written", r[k])
            n = split(srcs[i], r, " ")
            for (k = 1; k <= n; k++)
                if (role_of[r[k]] == "acc") emit(i, "acc-read", r[k])
        }
    }
}
function analyse(    b, k, nmma) {
    if (kernel == "") return
    nmma = 0
    for (k = 1; k <= ni; k++) nmma += kind[k] == "mma"
    if (nmma > 0) {
        # Leaders: the first instruction, branch targets, and what follows a branch or an end.
        leader[1] = 1
        for (k = 1; k <= ni; k++)
            if (kind[k] == "bra" || kind[k] == "end") {
                leader[k + 1] = 1
                if (kind[k] == "bra" && (target[k] in label)) leader[label[target[k]]] = 1
            }
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
    split("", kind); split("", guarded); split("", text); split("", ln); split("", loc)
    split("", accs); split("", aregs); split("", closes); split("", waitn); split("", target)
    split("", dsts); split("", srcs); split("", label)
    split("", leader); split("", entry); split("", tokens); split("", reached); split("", queued)
    split("", work)
    ni = nwork = 0
}
END {
    analyse()
    for (k = 1; k <= nout; k++) {
        n = split(out[k], fld, "\t")
        if (index(fld[3], SUBSEP)) {
            split(fld[3], fl, SUBSEP)
            fld[3] = ((fl[1] in file) ? file[fl[1]] : "file" fl[1]) ":" fl[2]
        }
        line = fld[1]
        for (i = 2; i <= n; i++) line = line "\t" fld[i]
        print line
    }
}
