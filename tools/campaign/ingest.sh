#!/usr/bin/env bash
# make ingest RESULTS=campaign-<id>.tar.gz: checks a campaign tarball and unpacks it under
# DATA/gpu/<device-slug>/<campaign-id>/, never overwriting. Refused, with exit 2, a message naming
# the problem and nothing written: an unreadable or truncated tarball; a member with an absolute
# path, a ".." component, or outside one campaign-<id>/ directory; a link; a checksum that does
# not match SHA256SUMS; a JSON file of another schema major version; a campaign id that exists.
# An emulated campaign (no GPU) is refused unless --allow-emulated is given (tests use it): the
# data/gpu/ tree holds GPU measurements only. A peer file of the torch script's self-test
# (meta.backend "selftest": stand-in backends, no measurement) is refused always.
# Usage: tools/campaign/ingest.sh TARBALL DATA_DIR SDPA_REPORT [--allow-emulated]
set -u
tgz=$1 data=$2 report=$3 allow_emu=${4:-}
die() { echo "ingest: $tgz: $*" >&2; exit 2; }
[ -f "$tgz" ] || die "no such file"
list=$(tar -tzvf "$tgz" 2>/dev/null) || die "not a readable gzip tarball (truncated or corrupted)"
top=
while IFS= read -r line; do
  kind=${line:0:1} name=${line##* }
  case $kind in -|d) ;; *) die "member '$name' is a link or special file; only files and directories are accepted" ;; esac
  case $name in /*) die "member '$name' has an absolute path" ;; esac
  case /$name/ in */../*) die "member '$name' has a '..' component" ;; esac
  t=${name%%/*}
  [ -n "$top" ] || top=$t
  [ "$t" = "$top" ] || die "members lie in more than one directory ('$top', '$t')"
done <<<"$list"
case $top in campaign-*) ;; *) die "the tarball holds '$top', not a campaign-<id>/ directory" ;; esac
id=${top#campaign-}
case $id in ''|*[!A-Za-z0-9._-]*) die "campaign id '$id' has characters outside [A-Za-z0-9._-]" ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ingest.XXXXXX") || die "cannot create a temporary directory (TMPDIR=${TMPDIR:-unset})"
trap 'rm -rf "$tmp"' EXIT
tar -xzf "$tgz" -C "$tmp" --no-same-owner --no-same-permissions 2>/dev/null || die "extraction failed (truncated?)"
c=$tmp/$top
[ -f "$c/SHA256SUMS" ] || die "no SHA256SUMS"
[ -f "$c/campaign.json" ] || die "no campaign.json"
(cd "$c" && sha256sum --quiet --strict -c SHA256SUMS >/dev/null 2>&1) || die "a file does not match SHA256SUMS"
unlisted=$(cd "$c" && find . -type f ! -name SHA256SUMS | sort | while read -r f; do grep -qF "  $f" SHA256SUMS || echo "$f"; done)
[ -z "$unlisted" ] || die "files not in SHA256SUMS: $unlisted"
kind=$("$report" get "$c/campaign.json" kind 2>/dev/null) || die "campaign.json: unreadable or of another schema version"
[ "$kind" = gpu-campaign ] || die "campaign.json: kind '$kind', expected gpu-campaign"
while IFS= read -r j; do
  "$report" get "$j" schema_version >/dev/null 2>"$tmp/err" || die "${j#"$tmp"/}: $(sed 's/^sdpa-report: //' "$tmp/err")"
  [ "$("$report" get "$j" meta.backend 2>/dev/null)" != selftest ] ||
    die "${j#"$tmp"/}: a self-test file of tools/peers/torch_sdpa.py (meta.backend selftest): stand-ins, never a measurement"
done < <(find "$c" -name '*.json' -type f)
backend=$("$report" get "$c/campaign.json" backend)
if [ "$backend" != cuda ] && [ "$allow_emu" != --allow-emulated ]; then
  die "an emulated campaign (backend $backend, no GPU): data/gpu/ holds GPU measurements only (--allow-emulated to ingest it anyway)"
fi
device=$("$report" get "$c/campaign.json" device)
slug=$(echo "$device" | tr 'A-Z' 'a-z' | sed -E 's/[^a-z0-9]+/-/g; s/^-+|-+$//g')
[ "$backend" = cuda ] || slug=emulated-$slug
dest=$data/gpu/$slug/$id
[ -e "$dest" ] && die "campaign $id exists already at $dest; ingest never overwrites"
mkdir -p "$data/gpu/$slug" || die "cannot create $data/gpu/$slug"
# rename(2) on one file system: the campaign appears whole or not at all.
mv -T "$c" "$dest.tmp.$$" 2>/dev/null || cp -a "$c" "$dest.tmp.$$" || die "cannot write under $data/gpu/$slug"
mv -T -n "$dest.tmp.$$" "$dest" && [ ! -e "$dest.tmp.$$" ] || { rm -rf "$dest.tmp.$$"; die "campaign $id appeared meanwhile at $dest"; }
echo "ingest: $dest ($(find "$dest/runs" -mindepth 2 -maxdepth 2 -type d 2>/dev/null | wc -l) run directories; device $device, backend $backend)"
