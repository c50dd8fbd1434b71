/* The run manifest (data/SCHEMA.md, kind run-manifest): written last into a run directory by
 * experiments/run.sh, it lists the run's files with their SHA-256 and says the run is complete.
 * A run directory without a manifest that matches its files is incomplete. */
#ifndef MANIFEST_H
#define MANIFEST_H

#include <stddef.h>
#include <stdio.h>

#include "gates.h"
#include "run.h"

#define MANIFEST_NAME "manifest.json"
/* Written by experiments/run.sh when a run stops early: one line, why (interrupted, failed). */
#define INCOMPLETE_NOTE "incomplete.txt"

/* Writes DIR/manifest.json (never replaces one). Refuses, naming the file, when a file every run
 * has is missing or an incomplete.txt is present. 0, or -1 with a message in err. */
int manifest_write(const char *dir, int argc, char **argv, char *err, size_t errlen);
/* 0 when DIR has a manifest matching its files; 1 when incomplete, with what is missing and why
 * (when known) in why; -1 on an unreadable directory (message in why). */
int manifest_check(const char *dir, char *why, size_t whylen);
/* The latest complete run of an experiment: among the directories of EXPDIR
 * (data/<experiment>/, or a campaign's runs/<experiment>/) named as run ids (name_id_ok; ids sort
 * by their UTC start time), the newest whose manifest matches its files (manifest_check). The one
 * definition `make paper` (sdpa-report latest-run) and the paper's GPU part use. Each directory
 * passed over is said on log (when not NULL) as "[paper] skipping DIR: why". 1 with the path in
 * out; 0 when there is none (no such directory, or no complete run in it). */
int manifest_latest_run(const char *expdir, char *out, size_t n, FILE *log);
/* Writer of tables/incomplete.md: empty for a complete run, else the INCOMPLETE banner. */
int table_incomplete(report_t *r, const gates_t *g);

#endif
