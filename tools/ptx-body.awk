# ptx-body.awk: one kernel's PTX listing, from its ".entry NAME(" line to the brace that closes its
# body. Braces are counted, not the first "}" line taken: prims.cuh's inline asm blocks put their own
# "{" and "}" lines inside a kernel (taking the first "}" read about half of stage 7a's body).
# Usage: awk -v k=KERNEL -f tools/ptx-body.awk LISTING.ptx
$0 ~ "\\.entry " k "\\(" { on = 1 }
on {
    print
    if ($0 ~ /^[ \t]*\{[ \t]*$/) d++
    else if ($0 ~ /^[ \t]*\}[ \t]*$/ && --d == 0) exit
}
