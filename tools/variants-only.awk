# Keep one row of kernels/variants.def (and the custom row): awk -v keep=ID -f variants-only.awk FILE.
# A row is the SDPA_VARIANT( statement from its first line to the line that closes it; comments and
# preprocessor lines stay. Used by the planted regressions (mk/kernel-tests.mk), whose copies of
# the kernel need only the variant each plant breaks: a copy of every kernel per plant was most
# of make test's compile time.
/^SDPA_VARIANT\(/ {
    split($0, f, "\"")
    skip = (f[2] != keep && f[2] != "custom")
    found += (f[2] == keep)
}
!skip { print }
skip && /\)[ \t]*$/ { skip = 0 }
END {
    if (!found) {
        printf "variants-only.awk: no row with id \"%s\" in %s\n", keep, FILENAME > "/dev/stderr"
        exit 1
    }
}
