/* See gpu_campaigns.h. */
#include "gpu_campaigns.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gpu_section.h"
#include "names.h"
#include "json_file.h"
#include "manifest.h"

enum {
    F_CAMPAIGN,
    F_DEVICE,
    F_HISTORY,
    F_CEILINGS,
    F_SANITIZERS,
    F_PROFILE,
    F_HISTORY_WARM,
    F_AA_CONTROL,
    F_PROBES,
    F_GATE,                               /* then one per gate-shape profile */
    F_MATRIX = F_GATE + GPU_GATE_PROFILES /* then one per matrix file */
};
const char *const gpu_gate_profiles[GPU_GATE_PROFILES] = {[GPU_GATE_7F] = "profile-gate",
                                                          [GPU_GATE_7J] = "profile-gate-d128",
                                                          [GPU_GATE_7M] = "profile-gate-causal"};
_Static_assert(F_MATRIX + GPU_MATRIX_FILES ==
                   sizeof((gpu_campaign_t *)0)->paths / sizeof *((gpu_campaign_t *)0)->paths,
               "gpu_campaign_t.paths holds one path per F_* file");

static bool is_dir(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}
static bool is_file(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}
static int no_dot(const struct dirent *e) { return e->d_name[0] != '.'; }

/* Sorted entries of a directory (no dot files); n < 0 when it cannot be read. */
typedef struct {
    struct dirent **e;
    int n;
} listing_t;
static listing_t list_dir(const char *p) {
    listing_t l = {0};
    l.n = scandir(p, &l.e, no_dot, alphasort);
    return l;
}
static void listing_free(listing_t *l) {
    for (int i = 0; i < l->n; i++) free(l->e[i]);
    free(l->e);
}

/* An optional document: absent is fine (root stays NULL); present but bad is an error. */
static int load_opt(gpu_campaign_t *c, int f, const char *file, const char *kind, rj_t *v, cJSON **doc,
                    char *err, size_t n) {
    size_t l = strlen(c->dir); /* dir < REPORT_PATH_MAX; paths[f] has 32 bytes more for the name */
    memcpy(c->paths[f], c->dir, l);
    snprintf(c->paths[f] + l, sizeof c->paths[f] - l, "/%s", file);
    *v = (rj_t){NULL, c->paths[f], err, n};
    if (!is_file(c->paths[f])) return 0;
    if (!(*doc = results_load(c->paths[f], kind, err, n))) return -1;
    v->root = *doc;
    return 0;
}

/* A new point of series (its shape and libraries from the run file doc), or NULL when full. */
static gpu_point_t *new_point(gpu_campaign_t *c, const cJSON *doc, const rj_t *d, const char *series,
                              char *err, size_t n) {
    if (c->npts >= GPU_MAX_POINTS) {
        snprintf(err, n, "%s: more than %d scaling results", c->dir, GPU_MAX_POINTS);
        return NULL;
    }
    gpu_point_t *p = &c->pts[c->npts];
    *p = (gpu_point_t){
        .peer = strncmp(series, "peer-", 5) == 0, .median_us = NAN, .tflops = NAN, .n = NAN, .noise = NAN};
    snprintf(p->series, sizeof p->series, "%s", series);
    double S;
    if (rj_num(d, &p->B, "config.shapes.0.B") < 0 || rj_num(d, &p->H, "config.shapes.0.H") < 0 ||
        rj_num(d, &S, "config.shapes.0.S") < 0 || rj_num(d, &p->D, "config.shapes.0.D") < 0)
        return NULL;
    p->S = (long)S;
    const cJSON *e;
    const size_t k = gpu_library_text(jo(doc, "library"), p->library, sizeof p->library);
    const char *rt = jo_str(jo(jo(doc, "meta"), "device"), "runtime_version");
    if (!k && p->peer && rt) snprintf(p->library, sizeof p->library, "CUDA runtime %s (sdpa-bench)", rt);
    /* The rows of every slice its correctness check covered (a sampled reference: fewer than S). */
    cJSON_ArrayForEach(e, jo(doc, "correctness")) {
        if (jo_eq(e, "variant", series) && isfinite(jo_num(e, "reference_rows"))) {
            p->ref_rows = (long)jo_num(e, "reference_rows");
            break;
        }
    }
    return p;
}

/* Point p from timing entry ti of the run file. */
static int timed_point(const rj_t *d, int ti, gpu_point_t *p) {
    if (rj_num(d, &p->median_us, "timing.%d.summary.median", ti) < 0 ||
        rj_num(d, &p->ci_lo, "timing.%d.summary.ci_lo", ti) < 0 ||
        rj_num(d, &p->ci_hi, "timing.%d.summary.ci_hi", ti) < 0)
        return -1;
    p->status = "ok";
    p->tflops = 4 * p->B * p->H * (double)p->S * (double)p->S * p->D / (p->median_us * 1e6);
    const cJSON *sum = jo(cJSON_GetArrayItem(jo(d->root, "timing"), ti), "summary");
    p->n = jo_num(sum, "n");
    p->noise = jo_num(sum, "rel_iqr");
    return 0;
}

/* One result file of the sweep in the per-series form (<series>-S<s>.json): its first timing entry
 * at its first shape. */
static int load_point(gpu_campaign_t *c, const char *path, const char *series, char *err, size_t n) {
    cJSON *doc = results_load(path, "sdpa-bench-run", err, n);
    if (!doc) return -1;
    rj_t d = {doc, path, err, n};
    gpu_point_t *p = new_point(c, doc, &d, series, err, n);
    int rc = -1;
    if (!p) goto out;
    if (rj_present(&d, "timing.0.summary")) {
        if (timed_point(&d, 0, p) < 0) goto out;
    } else {
        p->status = "failed";
        const char *why = jo_str(cJSON_GetArrayItem(jo(doc, "not_timed"), 0), "reason");
        if (!why) why = jo_str(cJSON_GetArrayItem(jo(doc, "not_supported"), 0), "reason");
        snprintf(p->reason, sizeof p->reason, "%s", why ? why : "no sample kept");
    }
    c->npts++;
    rc = 0;
out:
    cJSON_Delete(doc);
    return rc;
}

/* One result file of the sweep in the per-S form (S<s>.json: one sdpa-bench process with every
 * variant and peer, campaign.sh): a point per timing entry, and per variant or peer left untimed
 * (not_timed: failed, with the reason; not_supported: skipped). */
static int load_sweep_file(gpu_campaign_t *c, const char *path, char *err, size_t n) {
    cJSON *doc = results_load(path, "sdpa-bench-run", err, n);
    if (!doc) return -1;
    rj_t d = {doc, path, err, n};
    int rc = 0, ti = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, jo(doc, "timing")) {
        const char *v = jo_str(e, "variant");
        gpu_point_t *p = v ? new_point(c, doc, &d, v, err, n) : NULL;
        if (!v) snprintf(err, n, "%s: field 'timing.%d.variant' missing", path, ti);
        if (!p || timed_point(&d, ti++, p) < 0) {
            rc = -1;
            break;
        }
        c->npts++;
    }
    static const char *const untimed[2][2] = {{"not_timed", "failed"}, {"not_supported", "skipped"}};
    for (int k = 0; rc == 0 && k < 2; k++) cJSON_ArrayForEach(e, jo(doc, untimed[k][0])) {
            const char *v = jo_str(e, "variant"), *why = jo_str(e, "reason");
            gpu_point_t *p = v ? new_point(c, doc, &d, v, err, n) : NULL;
            if (!p) {
                if (!v) snprintf(err, n, "%s: an entry of '%s' without its variant", path, untimed[k][0]);
                rc = -1;
                break;
            }
            p->status = untimed[k][1];
            snprintf(p->reason, sizeof p->reason, "%s", why ? why : "no reason recorded");
            c->npts++;
        }
    cJSON_Delete(doc);
    return rc;
}

/* "<variant> S=<s> B=<b> H=<h> <status>: <reason>" per line of scaling/skipped.txt (status
 * "skipped") or scaling/failed.txt ("failed": its process stopped without a result; campaign.sh). */
static int load_listed(gpu_campaign_t *c, const char *path, const char *status, char *err, size_t n) {
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char line[1024], tag[32];
    snprintf(tag, sizeof tag, " %s: ", status);
    int rc = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        gpu_point_t p = {.status = status, .median_us = NAN, .tflops = NAN, .D = 64, .n = NAN, .noise = NAN};
        const char *why = strstr(line, tag);
        if (!*line) continue;
        if (sscanf(line, "%95s S=%ld B=%lf H=%lf", p.series, &p.S, &p.B, &p.H) != 4 || !why ||
            c->npts >= GPU_MAX_POINTS) {
            snprintf(err, n, "%s: line '%s' is not '<variant> S=<s> B=<b> H=<h> %s: <reason>'", path, line,
                     status);
            rc = -1;
            break;
        }
        p.peer = strncmp(p.series, "peer-", 5) == 0;
        snprintf(p.reason, sizeof p.reason, "%s", why + strlen(tag));
        c->pts[c->npts++] = p;
    }
    fclose(f);
    return rc;
}

static int point_cmp(const void *a, const void *b) {
    const gpu_point_t *x = a, *y = b;
    if (x->peer != y->peer) return x->peer - y->peer;
    int s = strcmp(x->series, y->series);
    return s ? s : (x->S > y->S) - (x->S < y->S);
}

/* The sweep's files (gpu_campaigns.h, gpu_point_t). */
static int load_scaling(gpu_campaign_t *c, char *err, size_t n) {
    char d[REPORT_PATH_MAX + 16], p[2 * REPORT_PATH_MAX];
    snprintf(d, sizeof d, "%s/scaling", c->dir);
    listing_t l = list_dir(d);
    int rc = 0;
    for (int i = 0; rc == 0 && i < l.n; i++) {
        const char *name = l.e[i]->d_name, *dash = strrchr(name, '-');
        size_t len = strlen(name), digits = strspn(name + 1, "0123456789");
        if (len < 6 || strcmp(name + len - 5, ".json")) continue;
        snprintf(p, sizeof p, "%s/%s", d, name);
        if (name[0] == 'S' && digits && digits + 6 == len) { /* S<s>.json: every series at one S */
            rc = load_sweep_file(c, p, err, n);
            continue;
        }
        if (!dash || dash[1] != 'S') continue;
        char series[96];
        snprintf(series, sizeof series, "%.*s", (int)(dash - name), name);
        rc = load_point(c, p, series, err, n);
    }
    listing_free(&l);
    snprintf(p, sizeof p, "%s/skipped.txt", d);
    if (rc == 0) rc = load_listed(c, p, "skipped", err, n);
    snprintf(p, sizeof p, "%s/failed.txt", d);
    if (rc == 0) rc = load_listed(c, p, "failed", err, n);
    qsort(c->pts, (size_t)c->npts, sizeof c->pts[0], point_cmp);
    return rc;
}

/* peers/<peer>-<shape>.json: the peers' runs at the mission shape (skipped.txt beside them is the scaling
 * sweep's, read there). Each a sdpa-bench run document; present but bad stops the paper. */
static int load_peers(gpu_campaign_t *c, char *err, size_t n) {
    char d[REPORT_PATH_MAX + 16];
    snprintf(d, sizeof d, "%s/peers", c->dir);
    listing_t l = list_dir(d);
    int rc = 0;
    const size_t dl = strlen(d); /* < REPORT_PATH_MAX + 7; peer_paths have 209 bytes more */
    for (int i = 0; rc == 0 && i < l.n; i++) {
        const char *name = l.e[i]->d_name;
        const size_t len = strlen(name);
        if (len < 6 || len > 200 || strcmp(name + len - 5, ".json")) continue;
        if (c->npeers >= GPU_MAX_PEER_FILES) {
            snprintf(err, n, "%s: more than %d peer files", d, GPU_MAX_PEER_FILES);
            rc = -1;
            break;
        }
        char *p = c->peer_paths[c->npeers];
        memcpy(p, d, dl);
        p[dl] = '/';
        memcpy(p + dl + 1, name, len + 1);
        if (!is_file(p)) continue;
        if (!(c->peers[c->npeers] = results_load(p, "sdpa-bench-run", err, n))) {
            rc = -1;
            break;
        }
        c->PE[c->npeers] = (rj_t){c->peers[c->npeers], p, err, n};
        c->npeers++;
    }
    listing_free(&l);
    return rc;
}

/* runs/<experiment>/<run-id>/: the latest complete run of each experiment (manifest_latest_run,
 * the definition make paper uses for data/<experiment>/). */
static int load_runs(gpu_campaign_t *c, const char *published, char *err, size_t n) {
    char d[REPORT_PATH_MAX + 16], p[2 * REPORT_PATH_MAX];
    snprintf(d, sizeof d, "%s/runs", c->dir);
    listing_t l = list_dir(d);
    int rc = 0;
    for (int i = 0; rc == 0 && i < l.n; i++) {
        snprintf(p, sizeof p, "%s/%s", d, l.e[i]->d_name);
        if (!is_dir(p)) continue;
        if (c->nruns >= GPU_MAX_RUNS) {
            snprintf(err, n, "%s: more than %d experiments", d, GPU_MAX_RUNS);
            rc = -1;
            break;
        }
        gpu_run_t *r = &c->runs[c->nruns];
        snprintf(r->name, sizeof r->name, "%s", l.e[i]->d_name);
        c->nruns++;
        char m[REPORT_PATH_MAX + 16];
        if (!manifest_latest_run(p, r->dir, sizeof r->dir, NULL)) { /* make paper said why */
            snprintf(r->note, sizeof r->note,
                     "no complete run (none with a manifest.json matching its files)");
            continue;
        }
        snprintf(m, sizeof m, "%s/summary.json", r->dir);
        if (!is_file(m)) {
            snprintf(r->note, sizeof r->note, "no summary.json (sdpa-report experiment has not run on it)");
            continue;
        }
        rc = report_load_summarised(&r->r, &r->summary, r->dir, r->name, published, err, n);
        r->loaded = rc == 0;
    }
    listing_free(&l);
    return rc;
}

static int load_campaign(gpu_campaign_t *c, const char *published, char *err, size_t n) {
    TRY(load_opt(c, F_CAMPAIGN, "campaign.json", "gpu-campaign", &c->C, &c->campaign, err, n));
    if (!c->campaign) {
        snprintf(err, n, "%s: no campaign.json", c->dir);
        return -1;
    }
    TRY(load_opt(c, F_DEVICE, "device-run.json", "sdpa-bench-run", &c->DR, &c->device_run, err, n));
    TRY(load_opt(c, F_HISTORY, "history.json", "sdpa-bench-run", &c->H, &c->history, err, n));
    TRY(load_opt(c, F_CEILINGS, "ceilings.json", "ceilings", &c->CE, &c->ceilings, err, n));
    TRY(load_opt(c, F_SANITIZERS, "sanitizers.json", "sanitizers", &c->SA, &c->sanitizers, err, n));
    TRY(load_opt(c, F_PROFILE, "profile.json", "profile", &c->PR, &c->profile, err, n));
    TRY(load_opt(c, F_HISTORY_WARM, "history-warm.json", "sdpa-bench-run", &c->HW, &c->history_warm, err, n));
    TRY(load_opt(c, F_AA_CONTROL, "aa-control.json", "sdpa-bench-run", &c->AA, &c->aa_control, err, n));
    TRY(load_opt(c, F_PROBES, "probes/probes.json", "probes", &c->PB, &c->probes, err, n));
    for (int k = 0; k < GPU_MATRIX_FILES; k++) {
        char f[64];
        snprintf(f, sizeof f, "matrix/%s.json", gpu_matrix_files[k]);
        TRY(load_opt(c, F_MATRIX + k, f, "sdpa-bench-run", &c->MX[k], &c->matrix[k], err, n));
    }
    for (int k = 0; k < GPU_GATE_PROFILES; k++) {
        char f[64];
        snprintf(f, sizeof f, "%s.json", gpu_gate_profiles[k]);
        TRY(load_opt(c, F_GATE + k, f, "profile", &c->GP[k], &c->gate_profile[k], err, n));
    }
    const char *backend = rj_str(&c->C, "backend");
    if (!backend || !rj_str(&c->C, "device") || !rj_str(&c->C, "campaign_id")) return -1;
    c->emulated = strcmp(backend, "cuda") != 0;
    c->fixture = jo_eq(jo(c->campaign, "meta"), "tool", "synthetic-fixture");
    TRY(load_scaling(c, err, n));
    TRY(load_peers(c, err, n));
    return load_runs(c, published, err, n);
}

/* sweeps/<sweep>.json: the Slurm collector's summaries (kind sweep-summary). */
static int load_sweeps(gpu_data_t *g, const char *dir, char *err, size_t n) {
    char d[REPORT_PATH_MAX];
    snprintf(d, sizeof d, "%s/sweeps", dir);
    listing_t l = list_dir(d);
    int rc = 0;
    for (int i = 0; rc == 0 && i < l.n; i++) {
        size_t len = strlen(l.e[i]->d_name);
        if (len < 6 || strcmp(l.e[i]->d_name + len - 5, ".json")) continue;
        if (g->nsweeps >= GPU_MAX_SWEEPS) {
            snprintf(err, n, "%s: more than %d sweep summaries", d, GPU_MAX_SWEEPS);
            rc = -1;
            break;
        }
        char *p = g->sweep_paths[g->nsweeps];
        snprintf(p, REPORT_PATH_MAX, "%.*s/%s", REPORT_PATH_MAX / 2, d, l.e[i]->d_name);
        if (!(g->sweeps[g->nsweeps] = results_load(p, "sweep-summary", err, n)))
            rc = -1;
        else
            g->nsweeps++;
    }
    listing_free(&l);
    return rc;
}

bool gpu_campaign_finished(const char *dir, const char *name, char *why, size_t n) {
    char p[4096];
    struct stat st;
    if (!name_id_ok(name)) {
        snprintf(why, n, "not a campaign id (an ingest in progress or cut short leaves such a name)");
        return false;
    }
    snprintf(p, sizeof p, "%.2000s/%.200s/campaign.json", dir, name);
    if (stat(p, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(why, n, "no campaign.json (not a finished ingest)");
        return false;
    }
    return true;
}

int gpu_data_load(gpu_data_t *g, const char *dir, const char *published, char *err, size_t n) {
    *g = (gpu_data_t){0};
    if (!is_dir(dir)) return 0;
    TRY(load_sweeps(g, dir, err, n));
    listing_t slugs = list_dir(dir);
    int rc = 0;
    for (int i = 0; rc == 0 && i < slugs.n; i++) {
        char sd[REPORT_PATH_MAX];
        snprintf(sd, sizeof sd, "%.*s/%s", REPORT_PATH_MAX / 2, dir, slugs.e[i]->d_name);
        if (!strcmp(slugs.e[i]->d_name, "sweeps") || !is_dir(sd)) continue;
        listing_t ids = list_dir(sd);
        for (int k = 0; rc == 0 && k < ids.n; k++) {
            char cd[2 * REPORT_PATH_MAX];
            snprintf(cd, sizeof cd, "%s/%s", sd, ids.e[k]->d_name);
            if (!is_dir(cd)) continue;
            char why[256];
            if (!gpu_campaign_finished(sd, ids.e[k]->d_name, why, sizeof why)) {
                fprintf(stderr, "[paper] skipping %s: %s\n", cd, why);
                continue;
            }
            if (g->n >= GPU_MAX_CAMPAIGNS) {
                snprintf(err, n, "%s: more than %d campaigns", dir, GPU_MAX_CAMPAIGNS);
                rc = -1;
                break;
            }
            gpu_campaign_t *c = calloc(1, sizeof *c);
            if (!c) {
                snprintf(err, n, "out of memory");
                rc = -1;
                break;
            }
            g->c[g->n++] = c;
            snprintf(c->dir, sizeof c->dir, "%.*s", (int)sizeof c->dir - 1, cd);
            snprintf(c->slug, sizeof c->slug, "%s", slugs.e[i]->d_name);
            snprintf(c->id, sizeof c->id, "%s", ids.e[k]->d_name);
            snprintf(c->tag, sizeof c->tag, "c%d", g->n);
            rc = load_campaign(c, published, err, n);
        }
        listing_free(&ids);
    }
    listing_free(&slugs);
    return rc;
}

void gpu_data_free(gpu_data_t *g) {
    for (int i = 0; i < g->n; i++) {
        gpu_campaign_t *c = g->c[i];
        cJSON *docs[] = {c->campaign, c->device_run,   c->history,    c->ceilings, c->sanitizers,
                         c->profile,  c->history_warm, c->aa_control, c->probes};
        for (size_t k = 0; k < sizeof docs / sizeof docs[0]; k++) cJSON_Delete(docs[k]);
        for (int k = 0; k < GPU_MATRIX_FILES; k++) cJSON_Delete(c->matrix[k]);
        for (int k = 0; k < GPU_GATE_PROFILES; k++) cJSON_Delete(c->gate_profile[k]);
        for (int k = 0; k < c->npeers; k++) cJSON_Delete(c->peers[k]);
        for (int k = 0; k < c->nruns; k++) {
            report_free(&c->runs[k].r);
            cJSON_Delete(c->runs[k].summary);
        }
        free(c);
    }
    for (int i = 0; i < g->nsweeps; i++) cJSON_Delete(g->sweeps[i]);
    *g = (gpu_data_t){0};
}

const char *const gpu_matrix_files[GPU_MATRIX_FILES] = {"e4m3", "seed-linear", "outliers", "wide"};

int gpu_data_runs(const gpu_data_t *g) {
    int n = 0;
    for (int i = 0; i < g->n; i++) n += g->c[i]->nruns;
    return n;
}

const cJSON *gpu_run_performance_gate(const gpu_run_t *r) {
    const cJSON *g;
    cJSON_ArrayForEach(g, jo(r->summary, "gates")) {
        if (jo_eq(g, "group", "performance")) return g;
    }
    return NULL;
}

double gpu_ceiling(const gpu_campaign_t *c, const char *name) {
    const cJSON *e;
    cJSON_ArrayForEach(e, jo(c->ceilings, "ceilings")) {
        if (jo_eq(e, "name", name) && jo_eq(e, "status", "ok")) return jo_num(e, "value");
    }
    return NAN;
}

const char *gpu_timing_label(const gpu_campaign_t *c) {
    return c->fixture ? "SYNTHETIC (fixture)" : c->emulated ? "EMULATED (CPU), not a GPU timing" : "gpu";
}
