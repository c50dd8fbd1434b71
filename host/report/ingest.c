/* See ingest.h. */
#define _GNU_SOURCE /* renameat2, syncfs */
#include "ingest.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fileio.h"
#include "ingest_check.h"
#include "json_file.h"
#include "names.h"
#include "params.h"
#include "tar_read.h"

/* Generous for real data (a full campaign is tens of MB), small enough that no tarball can fill
 * the disk of whoever ingests it (data/SCHEMA.md). */
#define DEFAULT_FILE_BYTES (256ull << 20)
#define DEFAULT_CAMPAIGN_BYTES (1ull << 30)
#define DEFAULT_MEMBERS 20000ull
#define SUMS_MAX (8u << 20)
#define TEXT_MAX (16u << 20) /* a log read for evidence */

#define MAX_CREATED 16

static volatile sig_atomic_t g_stop;
static void on_signal(int s) { g_stop = s; }

typedef struct {
    const char *tgz, *data, *record, *expect_part;
    bool allow_emulated, same_ok;
    tar_limits_t lim;
    /* what has been created, for the cleanup: directories (in order) and the staging one */
    char created[MAX_CREATED][1300];
    int ncreated;
    char staging[1300];
    char err[2048];
} ingest_t;

/* ---- the tar stream from gzip -dc --------------------------------------------------------- */
typedef struct {
    int fd;
    pid_t pid;
} gz_t;

static ssize_t gz_read(void *ctx, void *buf, size_t n) { return read(((gz_t *)ctx)->fd, buf, n); }

static int gz_open(int tar_fd, gz_t *g, char *err, size_t n) {
    int p[2];
    if (lseek(tar_fd, 0, SEEK_SET) != 0 || pipe(p) != 0) {
        snprintf(err, n, "cannot read it: %s", strerror(errno));
        return -1;
    }
    fflush(NULL);
    g->pid = fork();
    if (g->pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (dup2(tar_fd, 0) < 0 || dup2(p[1], 1) < 0 || null < 0 || dup2(null, 2) < 0) _exit(126);
        close(p[0]);
        close(p[1]);
        execlp("gzip", "gzip", "-dc", (char *)NULL);
        _exit(127);
    }
    close(p[1]);
    if (g->pid < 0) {
        close(p[0]);
        snprintf(err, n, "cannot start gzip: %s", strerror(errno));
        return -1;
    }
    g->fd = p[0];
    return 0;
}

/* Closes the pipe and returns gzip's exit status, -1 when a signal ended it. A walk that stopped
 * early (a refusal, a signal) stops gzip too, whatever it was doing. */
static int gz_close(gz_t *g, bool early) {
    close(g->fd);
    if (early) kill(g->pid, SIGTERM);
    int st = 0;
    while (waitpid(g->pid, &st, 0) < 0 && errno == EINTR) {}
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* One pass over the tarball: the walk, then gzip's verdict on the stream. */
static int pass(ingest_t *in, int fd, const tar_sink_t *sink, tar_summary_t *sum) {
    gz_t g;
    if (gz_open(fd, &g, in->err, sizeof in->err) != 0) return -1;
    int rc = tar_walk(gz_read, &g, &in->lim, sink, sum, &g_stop, in->err, sizeof in->err);
    int gz = gz_close(&g, rc != 0);
    if (g_stop) return -1;
    if (gz == 127) {
        snprintf(in->err, sizeof in->err, "gzip not found (needed to read the tarball)");
        return -1;
    }
    if (gz > 0 && (rc == 0 || strstr(in->err, "ends early") || strstr(in->err, "checksum"))) {
        snprintf(in->err, sizeof in->err,
                 "not a readable gzip tarball (truncated or corrupted: gzip -dc exit %d)", gz);
        return -1;
    }
    return rc;
}

/* ---- extraction ---------------------------------------------------------------------------- */
typedef struct {
    ingest_t *in;
    size_t top_len; /* "campaign-<id>" */
    int fd;         /* the file being written */
    char path[1800];
} extract_t;

static int ex_member(void *ctx, const tar_member_t *m, char *err, size_t n) {
    extract_t *x = ctx;
    x->fd = -1;
    if (!m->name[x->top_len]) return 0; /* the top directory: the staging directory itself */
    snprintf(x->path, sizeof x->path, "%.1299s/%.400s", x->in->staging, m->name + x->top_len + 1);
    char parent[1800];
    snprintf(parent, sizeof parent, "%s", x->path);
    *strrchr(parent, '/') = '\0';
    if (mkdir_p(parent) != 0) goto fail;
    if (m->dir) {
        struct stat st;
        if (mkdir(x->path, 0755) != 0 &&
            !(errno == EEXIST && lstat(x->path, &st) == 0 && S_ISDIR(st.st_mode)))
            goto fail;
        return 0;
    }
    x->fd = open(x->path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (x->fd >= 0) return 0;
fail:
    snprintf(err, n, "cannot write %s: %s", x->path, strerror(errno));
    return -1;
}

static int ex_data(void *ctx, const void *buf, size_t len, char *err, size_t n) {
    extract_t *x = ctx;
    for (const char *p = buf; len > 0;) {
        if (g_stop) {
            snprintf(err, n, "interrupted");
            return -1;
        }
        ssize_t w = write(x->fd, p, len);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0) {
            snprintf(err, n, "cannot write %s: %s", x->path, strerror(errno));
            return -1;
        }
        p += w, len -= (size_t)w;
    }
    return 0;
}

static int ex_end(void *ctx, const tar_member_t *m, char *err, size_t n) {
    extract_t *x = ctx;
    (void)m;
    if (x->fd >= 0 && close(x->fd) != 0) {
        x->fd = -1;
        snprintf(err, n, "cannot write %s: %s", x->path, strerror(errno));
        return -1;
    }
    x->fd = -1;
    return 0;
}

/* ---- the staged copy's files ---------------------------------------------------------------- */
static struct {
    char **v;
    size_t n, cap;
    size_t root_len;
    bool bad;
} g_files;

static int collect(const char *p, const struct stat *st, int type, struct FTW *f) {
    (void)f;
    if (g_stop) return 1;
    if (type == FTW_D || type == FTW_DP) return 0;
    if (type != FTW_F || !S_ISREG(st->st_mode)) return g_files.bad = true, 1; /* never made by the walk */
    const char *rel = p + g_files.root_len + 1;
    if (!strcmp(rel, "SHA256SUMS")) return 0;
    if (g_files.n == g_files.cap) {
        size_t cap = g_files.cap ? 2 * g_files.cap : 256;
        char **v = realloc(g_files.v, cap * sizeof *v);
        if (!v) return g_files.bad = true, 1;
        g_files.v = v, g_files.cap = cap;
    }
    if (!(g_files.v[g_files.n] = strdup(rel))) return g_files.bad = true, 1;
    g_files.n++;
    return 0;
}

static void files_free(void) {
    for (size_t i = 0; i < g_files.n; i++) free(g_files.v[i]);
    free(g_files.v);
    memset(&g_files, 0, sizeof g_files);
}

static bool ends_with(const char *s, const char *suffix) {
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

/* runs/<experiment>/<run-id>/: names, and the parameter files as the renderers will parse them. */
static int check_run_file(ingest_t *in, const char *rel, const char *path) {
    char exp[NAME_MAX_LEN + 1], id[NAME_MAX_LEN + 1], file[NAME_MAX_LEN + 1];
    if (strncmp(rel, "runs/", 5) != 0) return 0;
    if (sscanf(rel + 5, "%128[^/]/%128[^/]/%128s", exp, id, file) != 3 || strchr(file, '/')) return 0;
    if (!name_id_ok(exp) || !name_id_ok(id)) {
        snprintf(in->err, sizeof in->err, "%s: '%s' or '%s' is not a valid experiment or run id", rel, exp,
                 id);
        return -1;
    }
    exp_def_t d;
    if (!strcmp(file, "experiment.mk")) return params_load_experiment(path, &d, in->err, sizeof in->err);
    if (strcmp(file, "run.args") != 0) return 0;
    size_t len;
    char *text = params_read_small(path, 65536, &len, in->err, sizeof in->err);
    run_args_t a;
    int rc = text ? params_check_run_args(text, len, rel, &a, in->err, sizeof in->err) : -1;
    if (rc == 0 && strcmp(a.exp, exp) != 0) {
        snprintf(in->err, sizeof in->err, "%s: exp '%s' is not its directory's experiment '%s'", rel, a.exp,
                 exp);
        rc = -1;
    }
    free(text);
    return rc;
}

/* The text files that record the backend, in the order they are checked. */
static const char *const EVIDENCE_TEXTS[] = {"/probe.log", "nvidia-smi.txt", "/run.args"};

static int check_text(ingest_t *in, const char *rel, const char *path, evidence_t *ev) {
    size_t len;
    char *text = params_read_small(path, TEXT_MAX, &len, in->err, sizeof in->err);
    int rc = text ? ingest_evidence_text(rel, text, len, ev, in->err, sizeof in->err) : -1;
    free(text);
    return rc;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Every file of the staged campaign, sorted: the runs' parameters and every JSON head with the
 * backend's evidence first, then the logs that record it, so that a refusal names the same file
 * whatever order the tarball had. */
static int check_files(ingest_t *in, evidence_t *ev) {
    qsort(g_files.v, g_files.n, sizeof *g_files.v, cmp_str);
    for (size_t t = 0; t <= sizeof EVIDENCE_TEXTS / sizeof EVIDENCE_TEXTS[0]; t++)
        for (size_t i = 0; i < g_files.n && !g_stop; i++) {
            const char *rel = g_files.v[i];
            char path[1800];
            snprintf(path, sizeof path, "%.1299s/%.400s", in->staging, rel);
            if (t > 0) {
                if (ends_with(rel, EVIDENCE_TEXTS[t - 1]) && check_text(in, rel, path, ev) != 0) return -1;
                continue;
            }
            if (check_run_file(in, rel, path) != 0) return -1;
            if (!ends_with(rel, ".json")) continue;
            char e[1024];
            cJSON *doc = results_load(path, NULL, e, sizeof e);
            int rc = doc ? ingest_evidence_json(doc, rel, ev, in->err, sizeof in->err) : -1;
            if (!doc) snprintf(in->err, sizeof in->err, "%s", e + strlen(in->staging) + 1);
            cJSON_Delete(doc);
            if (rc != 0) return -1;
        }
    if (!strcmp(ev->backend, "cuda") && ev->recorded == 0) {
        snprintf(in->err, sizeof in->err,
                 "campaign.json says backend cuda, but no file of the campaign records meta.backend (no "
                 "device-run.json, no run): nothing shows that a GPU ran it");
        return -1;
    }
    return 0;
}

/* --expect-part: the campaign ran that part and no other. */
static int check_part(ingest_t *in, const cJSON *doc) {
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(doc, "parts_planned");
    if (!a) a = cJSON_GetObjectItemCaseSensitive(doc, "parts");
    const cJSON *p = cJSON_GetArrayItem(a, 0);
    if (cJSON_GetArraySize(a) == 1 && cJSON_IsString(p) && !strcmp(p->valuestring, in->expect_part)) return 0;
    char *s = a ? cJSON_PrintUnformatted(a) : NULL;
    snprintf(in->err, sizeof in->err,
             "campaign.json: its parts are %.200s, not the one part '%s' this tarball stands for",
             s ? s : "missing (all)", in->expect_part);
    free(s);
    return -1;
}

/* ---- the data directory ------------------------------------------------------------------- */
/* mkdir -p, remembering what it created so that a refusal leaves nothing behind. */
static int mkdir_new(ingest_t *in, const char *path) {
    char p[1300];
    snprintf(p, sizeof p, "%.1299s", path);
    for (char *s = p + 1;; s++) {
        if (*s != '/' && *s) continue;
        char c = *s;
        *s = '\0';
        struct stat st;
        if (mkdir(p, 0755) == 0) {
            if (in->ncreated < MAX_CREATED)
                snprintf(in->created[in->ncreated++], sizeof in->created[0], "%s", p);
        } else if (!(errno == EEXIST && stat(p, &st) == 0 && S_ISDIR(st.st_mode))) {
            snprintf(in->err, sizeof in->err, "cannot create %.1200s: %s", p,
                     errno == EEXIST ? "not a directory" : strerror(errno));
            return -1;
        }
        if (!(*s = c)) return 0;
    }
}

static int rm_entry(const char *p, const struct stat *st, int type, struct FTW *f) {
    (void)st, (void)type, (void)f;
    remove(p);
    return 0;
}

static void cleanup(ingest_t *in) {
    if (in->staging[0]) nftw(in->staging, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    in->staging[0] = '\0';
    for (int i = in->ncreated - 1; i >= 0; i--) rmdir(in->created[i]); /* only if still empty */
    in->ncreated = 0;
}

static bool same_sums(const char *a, const char *b) {
    char p[4096];
    size_t la, lb;
    snprintf(p, sizeof p, "%s/SHA256SUMS", a);
    char *x = file_read_all(p, &la);
    snprintf(p, sizeof p, "%s/SHA256SUMS", b);
    char *y = file_read_all(p, &lb);
    bool same = x && y && la == lb && !memcmp(x, y, la);
    free(x);
    free(y);
    return same;
}

/* The staged campaign takes its final name at once, never over another. */
static int publish(ingest_t *in, const char *dest) {
    int dfd = open(in->staging, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) syncfs(dfd), close(dfd); /* the files are durable before they have a name */
    if (renameat2(AT_FDCWD, in->staging, AT_FDCWD, dest, RENAME_NOREPLACE) == 0) return 0;
    if (errno == EINVAL || errno == ENOSYS) { /* no RENAME_NOREPLACE here: claim the name first */
        if (mkdir(dest, 0755) == 0) {
            if (rename(in->staging, dest) == 0) return 0;
            rmdir(dest);
        }
    }
    if (errno == EEXIST || errno == ENOTEMPTY) return 1;
    snprintf(in->err, sizeof in->err, "cannot rename %.900s to %.900s: %s", in->staging, dest,
             strerror(errno));
    return -1;
}

static int usage(const char *msg) {
    fprintf(stderr,
            "sdpa-report ingest: %s\n"
            "usage: sdpa-report ingest TARBALL DATA_DIR [--allow-emulated] [--same-ok] [--expect-part P]\n"
            "           [--record FILE] [--max-file-bytes N] [--max-campaign-bytes N] [--max-members N]\n",
            msg);
    return 2;
}

static int parse_args(int argc, char **argv, ingest_t *in) {
    in->lim = (tar_limits_t){DEFAULT_FILE_BYTES, DEFAULT_CAMPAIGN_BYTES, DEFAULT_MEMBERS};
    int pos = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t *lim = !strcmp(a, "--max-file-bytes")       ? &in->lim.file_bytes
                        : !strcmp(a, "--max-campaign-bytes") ? &in->lim.total_bytes
                        : !strcmp(a, "--max-members")        ? &in->lim.members
                                                             : NULL;
        if (!strcmp(a, "--allow-emulated"))
            in->allow_emulated = true;
        else if (!strcmp(a, "--same-ok"))
            in->same_ok = true;
        else if (!strcmp(a, "--record") || !strcmp(a, "--expect-part") || lim) {
            if (!v) return usage("an option lacks its value");
            char *end;
            errno = 0;
            unsigned long long x = lim ? strtoull(v, &end, 10) : 0;
            if (lim && (errno || end == v || *end || !x || v[0] == '-'))
                return usage("a limit must be a positive integer");
            if (lim)
                *lim = x;
            else if (!strcmp(a, "--record"))
                in->record = v;
            else
                in->expect_part = v;
            i++;
        } else if (a[0] == '-')
            return usage("unknown option");
        else if (pos == 0)
            in->tgz = a, pos++;
        else if (pos == 1)
            in->data = a, pos++;
        else
            return usage("more than TARBALL and DATA_DIR");
    }
    if (pos == 2 && strlen(in->data) > 1024) return usage("DATA_DIR: a path of at most 1024 bytes");
    return pos == 2 ? 0 : usage("TARBALL and DATA_DIR are required");
}

static const char *sig_name(int s) { return s == SIGINT ? "SIGINT" : s == SIGTERM ? "SIGTERM" : "SIGHUP"; }

/* The whole ingest; 0, 1 (this machine could not write) or 2 (refused), with in->err set. */
/* Reads the tarball twice: its listing (s1, checked), then the extraction into a new staging
 * directory under DATA/gpu/, which must read the same bytes. 0, or the exit status (1: could not
 * write, 2: refused) with in->err set. */
static int extract_staged(ingest_t *in, int fd, tar_summary_t *s1, const char **id) {
    tar_summary_t s2;
    char dir[1300];
    if (pass(in, fd, NULL, s1) != 0) return 2;
    *id = s1->top + strlen("campaign-");
    if (strncmp(s1->top, "campaign-", 9) != 0 || !name_id_ok(*id)) {
        snprintf(in->err, sizeof in->err,
                 "the tarball holds '%s', not one campaign-<id>/ directory with an id of [A-Za-z0-9._-]",
                 s1->top);
        return 2;
    }
    snprintf(dir, sizeof dir, "%.1024s/gpu", in->data);
    if (mkdir_new(in, in->data) != 0 || mkdir_new(in, dir) != 0) return 1;
    snprintf(in->staging, sizeof in->staging, "%.1028s/.ingest-%.128s.XXXXXX", dir, *id);
    if (!mkdtemp(in->staging)) {
        snprintf(in->err, sizeof in->err, "cannot create a staging directory in %.1028s: %s", dir,
                 strerror(errno));
        in->staging[0] = '\0';
        return 1;
    }
    mode_t mask = umask(0);
    umask(mask);
    chmod(in->staging, 0755 & ~mask); /* mkdtemp's 0700 would hide the campaign from other readers */
    extract_t x = {in, strlen(s1->top), -1, ""};
    tar_sink_t sink = {ex_member, ex_data, ex_end, &x};
    if (pass(in, fd, &sink, &s2) != 0) {
        if (x.fd >= 0) close(x.fd);
        return strncmp(in->err, "cannot write", 12) ? 2 : 1;
    }
    if (memcmp(s1->digest, s2.digest, sizeof s1->digest) != 0) {
        snprintf(in->err, sizeof in->err, "the tarball changed while it was read");
        return 2;
    }
    return 0;
}

/* The staged campaign's checks: every file listed in SHA256SUMS with its digest, campaign.json's
 * head, the backend in every file, emulated only when allowed. 0 with *doc (campaign.json) and h,
 * or 2 with in->err set (*doc may still need freeing). */
static int check_staged(ingest_t *in, const char *id, cJSON **doc, campaign_head_t *h) {
    g_files.root_len = strlen(in->staging);
    if (nftw(in->staging, collect, 16, FTW_PHYS) != 0 || g_files.bad) {
        snprintf(in->err, sizeof in->err, "cannot list the extracted campaign");
        return 2;
    }
    char p[1500], e[1024];
    size_t len;
    snprintf(p, sizeof p, "%.1299s/SHA256SUMS", in->staging);
    char *sums = params_read_small(p, SUMS_MAX, &len, in->err, sizeof in->err);
    if (!sums) {
        snprintf(in->err, sizeof in->err, "no SHA256SUMS (a regular file at the campaign's top)");
        return 2;
    }
    int src = ingest_check_sums(in->staging, sums, len, g_files.v, g_files.n, in->err, sizeof in->err);
    free(sums);
    if (src != 0) return 2;
    snprintf(p, sizeof p, "%.1299s/campaign.json", in->staging);
    if (!(*doc = results_load(p, "gpu-campaign", e, sizeof e))) {
        snprintf(in->err, sizeof in->err, "%s",
                 access(p, F_OK) ? "no campaign.json" : e + strlen(in->staging) + 1);
        return 2;
    }
    evidence_t ev = {0};
    if (ingest_campaign_head(*doc, id, h, in->err, sizeof in->err) != 0 ||
        (in->expect_part && check_part(in, *doc) != 0))
        return 2;
    ev.backend = h->backend, ev.device = h->device;
    if (check_files(in, &ev) != 0) return 2;
    if (h->emulated && !in->allow_emulated) {
        snprintf(in->err, sizeof in->err,
                 "an emulated campaign (backend %s, no GPU): data/gpu/ holds GPU measurements only "
                 "(--allow-emulated to ingest it anyway)",
                 h->backend);
        return 2;
    }
    return 0;
}

/* The checked campaign renamed to DATA/gpu/<slug>/<id> in one step, said on stdout (and in
 * --record). Signals wait from here on: the campaign is published whole, or not at all. 0, or the
 * exit status with in->err set. */
static int publish_staged(ingest_t *in, const char *id, const campaign_head_t *h) {
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGINT), sigaddset(&block, SIGTERM), sigaddset(&block, SIGHUP);
    sigprocmask(SIG_BLOCK, &block, NULL);
    if (g_stop) return 2;
    char dir[1300], dest[1500];
    snprintf(dir, sizeof dir, "%.1024s/gpu/%.199s", in->data, h->slug);
    snprintf(dest, sizeof dest, "%.1228s/%.128s", dir, id);
    if (mkdir_new(in, dir) != 0) return 1;
    int pub = publish(in, dest);
    if (pub < 0) return 1;
    if (pub > 0 && !(in->same_ok && same_sums(in->staging, dest))) {
        snprintf(in->err, sizeof in->err, "campaign %s exists already at %s; ingest never overwrites", id,
                 dest);
        return 2;
    }
    if (pub == 0) in->staging[0] = '\0', in->ncreated = 0; /* it is the campaign now */
    int runs = 0;
    for (size_t i = 0; i < g_files.n; i++) runs += ends_with(g_files.v[i], "/run.args");
    char extra[128] = "";
    if (h->interrupted)
        snprintf(extra, sizeof extra, "; INTERRUPTED: %d of %d planned parts completed",
                 h->n_completed < 0 ? 0 : h->n_completed, h->n_planned < 0 ? 0 : h->n_planned);
    printf("ingest: %s (%s%d run directories; device %s, backend %s%s)\n", dest,
           pub > 0 ? "ingested before, the same: " : "", runs, h->device, h->backend, extra);
    if (in->record) {
        char line[1600];
        int l = snprintf(line, sizeof line, "%s\n", dest);
        if (file_write_replace(in->record, line, (size_t)l, in->err, sizeof in->err) != 0) return 1;
    }
    return 0;
}

static int ingest(ingest_t *in) {
    int fd = file_open_regular(in->tgz);
    if (fd < 0) {
        snprintf(in->err, sizeof in->err, "%s",
                 errno == ENOENT                      ? "no such file"
                 : errno == EINVAL || errno == EISDIR ? "not a regular file"
                                                      : strerror(errno));
        return 2;
    }
    tar_summary_t s1;
    const char *id = NULL;
    cJSON *doc = NULL;
    campaign_head_t h;
    int rc = extract_staged(in, fd, &s1, &id);
    if (rc == 0) rc = check_staged(in, id, &doc, &h);
    if (rc == 0) rc = publish_staged(in, id, &h);
    cJSON_Delete(doc);
    close(fd);
    return rc;
}

int ingest_main(int argc, char **argv) {
    ingest_t in = {0};
    int rc = parse_args(argc, argv, &in);
    if (rc != 0) return rc;
    /* A signal only raises the flag: the walk, the writes and the checks stop at the next block, and
     * the staging directory is removed here, whatever was under way. */
    struct sigaction sa = {0};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) sigaction(sigs[i], &sa, NULL);
    rc = ingest(&in);
    cleanup(&in);
    files_free();
    if (g_stop) {
        fprintf(stderr, "ingest: %s: interrupted (%s); nothing was ingested\n", in.tgz, sig_name(g_stop));
        return 128 + g_stop;
    }
    if (rc != 0) fprintf(stderr, "ingest: %s: %s\n", in.tgz, in.err);
    return rc;
}
