/* sdpa-report ingest (make ingest; tools/campaign/ingest.sh): a campaign tarball, checked, into
 * DATA/gpu/<device-slug>/<campaign-id>/ (data/SCHEMA.md, "What make ingest accepts").
 *
 *   sdpa-report ingest TARBALL DATA_DIR [--allow-emulated] [--same-ok] [--expect-part P]
 *                      [--record FILE] [--max-file-bytes N] [--max-campaign-bytes N] [--max-members N]
 *
 * 1. the listing (tar_read.h, `gzip -dc` of the tarball): members, names, one campaign-<id>/,
 *    sizes within the limits; nothing is written before it passes;
 * 2. extraction, with the same checks, into DATA/gpu/.ingest-<id>.XXXXXX (a dot name on the data
 *    directory's file system, never read by the paper); the listing must not have changed;
 * 3. SHA256SUMS exact; every JSON file's head (schema version, kind, meta); campaign.json's head
 *    and names (ingest_check.h); the backend cross-checked in every file that records it; each
 *    run's experiment.mk and run.args parsed strictly (params.h);
 * 4. one rename(2) (RENAME_NOREPLACE) to DATA/gpu/<slug>/<id>: the campaign appears whole or
 *    not at all. SIGINT, SIGTERM and SIGHUP remove the staging directory (exit 130, 143, 129).
 * --allow-emulated: accept a campaign without a GPU (tests, emulated sweep kinds).
 * --same-ok: a campaign already ingested with the same SHA256SUMS is success (the sweep collector,
 *   which may have stopped between an ingest and its record).
 * --expect-part P: the campaign must be of that one part (its parts or parts_planned is [P]).
 * --record FILE: write the destination's path to FILE (atomically) on success.
 * Exit 0; 2 when the tarball is refused (the message names the member, file, field or line);
 * 1 when the data directory cannot be written. */
#ifndef INGEST_H
#define INGEST_H

int ingest_main(int argc, char **argv);

#endif
