# TAP helpers for shell test suites (sourced). Each check prints one TAP line.
#   tap_ok NAME CMD...      passes when CMD exits 0
#   tap_fail NAME CMD...    passes when CMD exits non-zero
#   tap_skip NAME REASON
#   tap_done                exits non-zero if any check failed
_tap_n=0; _tap_failed=0
_tap_line() { _tap_n=$((_tap_n + 1)); echo "$1 $_tap_n - $2"; }
tap_ok()   { local n=$1; shift; if "$@"; then _tap_line ok "$n"; else _tap_line "not ok" "$n"; _tap_failed=1; fi; }
tap_fail() { local n=$1; shift; if "$@"; then _tap_line "not ok" "$n"; _tap_failed=1; else _tap_line ok "$n"; fi; }
tap_skip() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $1 # SKIP $2"; }
tap_diag() { echo "# $*"; }
tap_done() { echo "1..$_tap_n"; exit $_tap_failed; }
