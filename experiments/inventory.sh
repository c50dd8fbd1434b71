#!/usr/bin/env bash
# Writes the artifact inventory of a report (Markdown table: file, bytes, SHA-256) to stdout.
# Arguments are groups "LABEL DIR FILE..." separated by "--"; files are listed as LABEL/FILE so
# that the table does not depend on where the run directory lives. Missing files are skipped
# (optional inputs such as run-timing.json), so the table lists exactly what the report used.
# Usage: experiments/inventory.sh run data/x/ID run.json ptxas.json -- figures figures/x/ID a.png ...
set -eu
echo "| file | bytes | SHA-256 |"
echo "|:--------------------------|---------:|:------------------------------------------------------------------|"
while [ $# -gt 0 ]; do
  label=$1 dir=$2; shift 2
  while [ $# -gt 0 ] && [ "$1" != -- ]; do
    f=$1; shift
    [ -f "$dir/$f" ] || continue
    printf '| `%s/%s` | %s | `%s` |\n' "$label" "$f" "$(stat -c %s "$dir/$f")" "$(sha256sum "$dir/$f" | cut -d' ' -f1)"
  done
  [ $# -gt 0 ] && shift
done
echo
echo "Table: Artifact inventory: every data file and figure this report was built from. {#tbl:inventory}"
