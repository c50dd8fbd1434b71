# Keep the rows of kernels/variants.def whose ids keep names (and the custom row):
# awk -v keep="ID [ID ...]" -f variants-only.awk FILE; each id named must have its row.
# A row is the SDPA_VARIANT( statement from its first line to the line that closes it; comments and
# preprocessor lines stay. Used by the planted regressions (mk/kernel-tests.mk), whose copies of
# the kernel need only the variant each plant breaks: a copy of every kernel per plant was most
# of make test's compile time.
BEGIN { n = split(keep, ids, " "); for (i = 1; i <= n; i++) want[ids[i]] = 1 }
/^SDPA_VARIANT\(/ {
    split($0, f, "\"")
    skip = !(f[2] in want) && f[2] != "custom"
    if (f[2] in want) found[f[2]] = 1
}
!skip { print }
skip && /\)[ \t]*$/ { skip = 0 }
END {
    for (i = 1; i <= n; i++)
        if (!(ids[i] in found)) {
            printf "variants-only.awk: no row with id \"%s\" in %s\n", ids[i], FILENAME > "/dev/stderr"
            exit 1
        }
    if (!n) {
        printf "variants-only.awk: no id to keep (-v keep=ID)\n" > "/dev/stderr"
        exit 1
    }
}
