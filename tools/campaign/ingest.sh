#!/usr/bin/env bash
# make ingest RESULTS=campaign-<id>.tar.gz: checks a campaign tarball and unpacks it under
# DATA/gpu/<device-slug>/<campaign-id>/, never overwriting; the work is `sdpa-report ingest`
# (host/report/ingest.h), in C so that every check is exact and fuzzed (tests/fuzz/ingest). What it
# accepts and refuses: data/SCHEMA.md, "What make ingest accepts". Refused, with exit 2, a message
# naming the member, file, field or line, and nothing written: an unreadable or truncated tarball;
# a member that is not a regular file or directory, has an absolute path, a '..' component or any
# name outside the plain-name grammar, lies outside one campaign-<id>/ directory, is listed twice,
# or is over the size limits (checked from the listing before extraction and during it); a file
# missing from SHA256SUMS, a listed name that is not a regular file of the campaign, a digest that
# does not match; a JSON file of a schema major version the readers do not accept; campaign.json
# whose id is not its directory's, whose device cannot name a directory or whose backend another
# file contradicts (meta.backend, meta.device, every timing label, the probe log, nvidia-smi,
# run.args); a run's experiment.mk or run.args that does not parse as data; a campaign id that
# exists. An emulated campaign (no GPU) is refused unless --allow-emulated is given (tests use
# it): the data/gpu/ tree holds GPU measurements only. A self-test file of the torch peer script is refused always.
# The campaign is staged under DATA/gpu/.ingest-<id>.*, renamed into place in one step, and the
# staging directory removed on SIGINT/SIGTERM/SIGHUP or any failure.
# Usage: tools/campaign/ingest.sh TARBALL DATA_DIR SDPA_REPORT [--allow-emulated] [sdpa-report ingest's options]
set -u
[ $# -ge 3 ] || { echo "usage: tools/campaign/ingest.sh TARBALL DATA_DIR SDPA_REPORT [--allow-emulated] ..." >&2; exit 2; }
tgz=$1 data=$2 report=$3
shift 3
exec "$report" ingest "$tgz" "$data" "$@"
