/* See ingest_check.h. */
#include "ingest_check.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "names.h"
#include "params.h"
#include "sha256.h"

static const cJSON *item(const cJSON *o, const char *k) { return cJSON_GetObjectItemCaseSensitive(o, k); }

bool ingest_part_ok(const char *p) {
    static const char *const fixed[] = {"history",    "scaling",  "ceilings", "peers",
                                        "sanitizers", "profiles", "probes",   "matrix"};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if (!strcmp(p, fixed[i])) return true;
    if (!strncmp(p, "experiment:", 11)) return name_id_ok(p + 11);
    if (strncmp(p, "scaling:", 8) != 0) return false;
    for (const char *s = p + 8;; s++) { /* S1,S2,...: each an integer >= 1 without a leading 0 */
        if (*s < '1' || *s > '9') return false;
        while (s[1] >= '0' && s[1] <= '9') s++;
        if (!s[1]) return true;
        if (*++s != ',') return false;
    }
}

/* An optional array of part names; its length in *count (-1 when absent). */
static int part_list(const cJSON *doc, const char *key, int *count, char *err, size_t n) {
    const cJSON *a = item(doc, key), *e;
    *count = -1;
    if (!a) return 0;
    if (!cJSON_IsArray(a)) {
        snprintf(err, n, "campaign.json: field '%s' is not an array", key);
        return -1;
    }
    int i = 0;
    cJSON_ArrayForEach(e, a) {
        if (!cJSON_IsString(e) || !ingest_part_ok(e->valuestring)) {
            snprintf(err, n,
                     "campaign.json: %s.%d is not a part name (history, scaling[:S,...], ceilings, peers, "
                     "sanitizers, profiles, experiment:<name>)",
                     key, i);
            return -1;
        }
        i++;
    }
    *count = i;
    return 0;
}

static bool listed_in(const cJSON *a, const char *s) {
    const cJSON *e;
    cJSON_ArrayForEach(e, a) {
        if (cJSON_IsString(e) && !strcmp(e->valuestring, s)) return true;
    }
    return false;
}

static int opt_bool(const cJSON *doc, const char *key, bool *out, char *err, size_t n) {
    const cJSON *b = item(doc, key);
    *out = false;
    if (!b || cJSON_IsNull(b)) return 0;
    if (!cJSON_IsBool(b)) {
        snprintf(err, n, "campaign.json: field '%s' is not true or false", key);
        return -1;
    }
    *out = cJSON_IsTrue(b);
    return 0;
}

int ingest_campaign_head(const cJSON *doc, const char *dir_id, campaign_head_t *h, char *err, size_t n) {
    *h = (campaign_head_t){0};
    const cJSON *id = item(doc, "campaign_id"), *be = item(doc, "backend"), *dev = item(doc, "device");
    if (!cJSON_IsString(id) || !name_id_ok(id->valuestring)) {
        snprintf(err, n, "campaign.json: campaign_id is %s ([A-Za-z0-9][A-Za-z0-9._-]*, at most %d bytes)",
                 cJSON_IsString(id) ? "not a valid id" : "missing or not a string", NAME_MAX_LEN);
        return -1;
    }
    if (strcmp(id->valuestring, dir_id) != 0) {
        snprintf(err, n,
                 "campaign.json: campaign_id '%s' is not the id of its directory campaign-%s/ (a renamed "
                 "campaign would be ingested twice)",
                 id->valuestring, dir_id);
        return -1;
    }
    if (!cJSON_IsString(be) || (strcmp(be->valuestring, "cuda") && strcmp(be->valuestring, "emu"))) {
        snprintf(err, n, "campaign.json: backend %s%s%s: expected cuda or emu", cJSON_IsString(be) ? "'" : "",
                 cJSON_IsString(be) ? be->valuestring : "missing or not a string",
                 cJSON_IsString(be) ? "'" : "");
        return -1;
    }
    if (!cJSON_IsString(dev)) {
        snprintf(err, n, "campaign.json: device is missing or not a string");
        return -1;
    }
    h->id = id->valuestring, h->backend = be->valuestring, h->device = dev->valuestring;
    h->emulated = strcmp(h->backend, "cuda") != 0;
    char why[512];
    if (name_device_slug(h->device, h->emulated, h->slug, sizeof h->slug, why, sizeof why) != 0) {
        snprintf(err, n, "campaign.json: device: %s", why);
        return -1;
    }
    bool quick;
    int n_parts;
    if (opt_bool(doc, "quick", &quick, err, n) || opt_bool(doc, "interrupted", &h->interrupted, err, n) ||
        part_list(doc, "parts", &n_parts, err, n) || part_list(doc, "parts_planned", &h->n_planned, err, n) ||
        part_list(doc, "parts_completed", &h->n_completed, err, n))
        return -1;
    const cJSON *e, *planned = item(doc, "parts_planned");
    if (planned) {
        cJSON_ArrayForEach(e, item(doc, "parts_completed")) {
            if (!listed_in(planned, e->valuestring)) {
                snprintf(err, n, "campaign.json: parts_completed names '%s', which parts_planned lacks",
                         e->valuestring);
                return -1;
            }
        }
    }
    if (!cJSON_IsArray(item(doc, "steps"))) {
        snprintf(err, n, "campaign.json: field 'steps' is missing or not an array");
        return -1;
    }
    return 0;
}

/* ---- the backend's evidence ---------------------------------------------------------------- */
static int disagree(char *err, size_t n, const char *file, const char *field, const char *got,
                    const evidence_t *ev) {
    snprintf(err, n, "%s: %s '%.80s' disagrees with campaign.json's backend '%s'%s", file, field, got,
             ev->backend,
             !strcmp(ev->backend, "cuda") ? " (an emulated campaign relabelled as a GPU's?)" : "");
    return -1;
}

/* Every string member named "timing", wherever it is (path: its dotted path so far). */
static int timing_walk(const cJSON *o, char *path, size_t len, size_t cap, const char *file,
                       const evidence_t *ev, char *err, size_t n) {
    const bool cuda = !strcmp(ev->backend, "cuda");
    int i = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, o) {
        size_t l = len;
        if (cJSON_IsArray(o))
            l += (size_t)snprintf(path + len, cap - len, "%s%d", len ? "." : "", i);
        else
            l += (size_t)snprintf(path + len, cap - len, "%s%s", len ? "." : "", c->string ? c->string : "");
        if (l >= cap) l = cap - 1;
        if (!cJSON_IsArray(o) && c->string && !strcmp(c->string, "timing") && cJSON_IsString(c)) {
            const char *t = c->valuestring;
            if (strcmp(t, "none") != 0 && strcmp(t, cuda ? "gpu" : "emulated") != 0)
                return disagree(err, n, file, path, t, ev);
        }
        if ((cJSON_IsObject(c) || cJSON_IsArray(c)) && timing_walk(c, path, l, cap, file, ev, err, n) != 0)
            return -1;
        path[len] = '\0';
        i++;
    }
    return 0;
}

int ingest_evidence_json(const cJSON *doc, const char *file, evidence_t *ev, char *err, size_t n) {
    const bool cuda = !strcmp(ev->backend, "cuda");
    const cJSON *meta = item(doc, "meta"), *be = item(meta, "backend"), *dev = item(meta, "device");
    if (be) {
        if (!cJSON_IsString(be)) {
            snprintf(err, n, "%s: field 'meta.backend' is not a string", file);
            return -1;
        }
        if (!strcmp(be->valuestring, "selftest")) {
            snprintf(err, n,
                     "%s: a self-test file of tools/peers/torch_sdpa.py (meta.backend selftest): stand-ins, "
                     "never a "
                     "measurement",
                     file);
            return -1;
        }
        if (strcmp(be->valuestring, ev->backend) != 0)
            return disagree(err, n, file, "meta.backend", be->valuestring, ev);
        ev->recorded++;
    }
    if (cuda && item(meta, "backend_fallback") && !cJSON_IsNull(item(meta, "backend_fallback")))
        return disagree(err, n, file, "meta.backend_fallback", "present: this run fell back to the emulator",
                        ev);
    if (cuda && item(meta, "emulator") && !cJSON_IsNull(item(meta, "emulator")))
        return disagree(err, n, file, "meta.emulator", "an emulator block", ev);
    if (dev && !cJSON_IsNull(dev)) {
        const cJSON *name = item(dev, "name");
        if (!cuda)
            return disagree(err, n, file, "meta.device",
                            cJSON_IsString(name) ? name->valuestring : "a device", ev);
        if (!cJSON_IsString(name) || strcmp(name->valuestring, ev->device) != 0) {
            snprintf(err, n, "%s: meta.device.name '%.80s' disagrees with campaign.json's device '%s'", file,
                     cJSON_IsString(name) ? name->valuestring : "(missing)", ev->device);
            return -1;
        }
    } else if (cuda && be) {
        snprintf(err, n, "%s: meta.device is %s while meta.backend is cuda: no GPU recorded", file,
                 dev ? "null" : "missing");
        return -1;
    }
    char path[512] = "";
    return timing_walk(doc, path, 0, sizeof path, file, ev, err, n);
}

static const char *base_name(const char *p) {
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* The next line of text at *pos (without its newline) into buf; false at the end. */
static bool next_line(const char *text, size_t len, size_t *pos, char *buf, size_t cap) {
    if (*pos >= len) return false;
    const char *s = text + *pos, *e = memchr(s, '\n', len - *pos);
    size_t l = e ? (size_t)(e - s) : len - *pos;
    snprintf(buf, cap, "%.*s", (int)(l < cap ? l : cap - 1), s);
    *pos += l + 1;
    return true;
}

int ingest_evidence_text(const char *file, const char *text, size_t len, evidence_t *ev, char *err,
                         size_t n) {
    const char *b = base_name(file);
    const bool cuda = !strcmp(ev->backend, "cuda");
    char line[1024];
    size_t pos = 0;
    int no = 0;
    if (!strcmp(b, "probe.log")) {
        while (next_line(text, len, &pos, line, sizeof line)) {
            no++;
            const char *chose = !strncmp(line, "cuda: ", 6)  ? "cuda"
                                : !strncmp(line, "emu: ", 5) ? "emu"
                                                             : NULL;
            if (!chose) continue;
            if (strcmp(chose, ev->backend) != 0) {
                snprintf(err, n, "%s:%d: the probe chose '%s', campaign.json's backend is '%s'", file, no,
                         chose, ev->backend);
                return -1;
            }
            return 0;
        }
        if (!cuda) return 0;
        snprintf(err, n, "%s: no 'cuda: ...' line: the probe never found a usable GPU", file);
        return -1;
    }
    if (!strcmp(b, "nvidia-smi.txt") && cuda) {
        while (next_line(text, len, &pos, line, sizeof line)) {
            const char *k = strstr(line, "Product Name");
            const char *c = k ? strchr(k, ':') : NULL;
            if (!c) continue;
            c++;
            while (*c == ' ') c++;
            size_t l = strlen(c);
            while (l && c[l - 1] == ' ') l--;
            if (l && !strncmp(ev->device, c, l)) return 0; /* the same GPU, or a MIG slice of it */
        }
        snprintf(err, n, "%s: no 'Product Name' names the device '%s' of campaign.json", file, ev->device);
        return -1;
    }
    if (!strcmp(b, "run.args")) {
        run_args_t a;
        if (params_check_run_args(text, len, file, &a, err, n) != 0) return -1;
        if (strcmp(a.backend, "auto") != 0 && strcmp(a.backend, ev->backend) != 0)
            return disagree(err, n, file, "backend", a.backend, ev);
    }
    return 0;
}

/* ---- SHA256SUMS ----------------------------------------------------------------------------- */
static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int ingest_check_sums(const char *dir, const char *text, size_t len, char *const *files, size_t nfiles,
                      char *err, size_t n) {
    char **names = calloc(nfiles + 1, sizeof *names);
    size_t k = 0, pos = 0;
    int no = 0, rc = -1;
    char line[1024], why[512];
    if (!names) {
        snprintf(err, n, "SHA256SUMS: out of memory");
        return -1;
    }
    if (len && text[len - 1] != '\n') {
        snprintf(err, n, "SHA256SUMS: its last line has no newline (truncated?)");
        goto out;
    }
    while (next_line(text, len, &pos, line, sizeof line)) {
        no++;
        size_t ll = strlen(line);
        if (ll < 67 || strspn(line, "0123456789abcdef") != 64 || line[64] != ' ' ||
            (line[65] != ' ' && line[65] != '*')) {
            snprintf(err, n, "SHA256SUMS:%d: expected '<64 lowercase hex digits>  <path>'", no);
            goto out;
        }
        char *path = line + 66;
        if (!strncmp(path, "./", 2)) path += 2;
        if (!name_path_ok(path, why, sizeof why)) {
            snprintf(err, n, "SHA256SUMS:%d: %s", no, why);
            goto out;
        }
        if (!strcmp(path, "SHA256SUMS")) {
            snprintf(err, n, "SHA256SUMS:%d: lists itself", no);
            goto out;
        }
        char p[4096], hex[65];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", dir, path);
        if (lstat(p, &st) != 0 || !S_ISREG(st.st_mode)) {
            snprintf(err, n, "SHA256SUMS:%d: '%s' is not a regular file of the campaign", no, path);
            goto out;
        }
        if (k == nfiles) {
            snprintf(err, n, "SHA256SUMS:%d: more lines than the campaign has files ('%s' listed twice?)", no,
                     path);
            goto out;
        }
        if (!(names[k++] = strdup(path))) {
            snprintf(err, n, "SHA256SUMS: out of memory");
            goto out;
        }
        line[64] = '\0';
        if (sha256_file_hex(p, hex) != 0 || strcmp(hex, line) != 0) {
            snprintf(err, n, "%s does not match its SHA-256 in SHA256SUMS (line %d)", path, no);
            goto out;
        }
    }
    qsort(names, k, sizeof *names, cmp_str);
    for (size_t i = 1; i < k; i++)
        if (!strcmp(names[i - 1], names[i])) {
            snprintf(err, n, "SHA256SUMS lists '%s' twice", names[i]);
            goto out;
        }
    for (size_t i = 0; i < nfiles; i++)
        if (!bsearch(&files[i], names, k, sizeof *names, cmp_str)) {
            snprintf(err, n, "files not in SHA256SUMS: %s (every file of a campaign must be listed)",
                     files[i]);
            goto out;
        }
    rc = 0;
out:
    for (size_t i = 0; i < k; i++) free(names[i]);
    free(names);
    return rc;
}
