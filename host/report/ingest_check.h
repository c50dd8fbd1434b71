/* What `make ingest` checks in an extracted campaign (ingest.c runs them on the staged copy):
 * campaign.json's head, every file's agreement with the backend it claims, SHA256SUMS. Each
 * function works on one document or one text, so that the fuzz harness drives them directly.
 * Every refusal names the file (relative to the campaign) and the field or line. */
#ifndef INGEST_CHECK_H
#define INGEST_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

/* campaign.json as ingest needs it (pointers into the document). */
typedef struct {
    const char *id, *backend, *device;
    char slug[200];
    bool emulated;              /* backend is not cuda */
    bool interrupted;           /* "interrupted": true (the campaign was stopped; see parts_completed) */
    int n_planned, n_completed; /* parts_planned, parts_completed (-1: absent) */
} campaign_head_t;

/* Checks campaign.json (already loaded as kind gpu-campaign): campaign_id equal to dir_id (the
 * tarball's campaign-<id>/), backend cuda or emu, device a name that gives a directory
 * (name_device_slug), the optional fields' types (quick, interrupted bool; parts,
 * parts_planned, parts_completed arrays of part names, the completed ones planned), steps an
 * array. 0, or -1 with err set. */
int ingest_campaign_head(const cJSON *doc, const char *dir_id, campaign_head_t *h, char *err, size_t n);

/* The evidence of the backend, gathered over the campaign's files. */
typedef struct {
    const char *backend, *device; /* campaign.json's */
    int recorded;                 /* files whose meta.backend agreed */
} evidence_t;

/* A JSON file of the campaign (file: its path inside the campaign): meta.backend, when present,
 * equal to the campaign's (never "selftest"); meta.device and meta.emulator as that backend
 * records them (a GPU's name equal to campaign.json's device; no emulator block on cuda; no
 * device on emu); no meta.backend_fallback on cuda; every "timing" string anywhere in the document
 * (meta.timing, each timing and comparison entry's) gpu or none on cuda, emulated or none on emu.
 * 0, or -1 with err naming the file and the field. */
int ingest_evidence_json(const cJSON *doc, const char *file, evidence_t *ev, char *err, size_t n);
/* A text file that records the backend: logs/probe.log (the probe's "cuda: ..." or "emu: ..."
 * line), nvidia-smi.txt (on cuda, a Product Name that names the device), run.args (backend auto
 * or the campaign's). Other files: nothing to check. 0, or -1 with err naming file and line. */
int ingest_evidence_text(const char *file, const char *text, size_t len, evidence_t *ev, char *err, size_t n);

/* SHA256SUMS (text, len bytes) of the campaign at dir against the regular files found there
 * (files[0..nfiles), paths relative to dir, SHA256SUMS itself excluded): each line
 * "<64 hex>  <path>" (or " *"; "./" before the path allowed), each path listed once and a regular
 * file inside the campaign, every file listed, every digest matching. 0, or -1 with err set. */
int ingest_check_sums(const char *dir, const char *text, size_t len, char *const *files, size_t nfiles,
                      char *err, size_t n);

/* A part name as campaign.sh --part takes it: history, scaling, ceilings, peers, sanitizers,
 * profiles, experiment:<name>, scaling:S1,S2,... */
bool ingest_part_ok(const char *p);

#endif
