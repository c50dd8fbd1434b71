/* See params.h. */
#include "params.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend_names.h"
#include "fileio.h"
#include "names.h"
#include "sha256.h"

#define MAX_FILE 65536

/* ---- value grammars ----------------------------------------------------------------------- */
static bool in(char c, const char *set) { return c && strchr(set, c); }
static bool digit(char c) { return c >= '0' && c <= '9'; }

/* A run of 1..max characters of set, starting with one of first. */
static bool word(const char *s, size_t len, const char *first, const char *set, size_t max) {
    if (len == 0 || len > max || !in(s[0], first)) return false;
    for (size_t i = 1; i < len; i++)
        if (!in(s[i], set)) return false;
    return true;
}

#define LOWER "abcdefghijklmnopqrstuvwxyz0123456789"
#define DIGITS "0123456789"

static bool g_text(const char *v) {
    return word(v, strlen(v), LOWER "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                LOWER "ABCDEFGHIJKLMNOPQRSTUVWXYZ .,:;()/+_-", 200);
}
static bool g_variant(const char *v) { return word(v, strlen(v), LOWER, LOWER "._-", 64); }
static bool g_decimal(const char *s, size_t len) { /* 12 or 1.15 */
    const char *dot = memchr(s, '.', len);
    if (!dot) return word(s, len, DIGITS, DIGITS, 12);
    return word(s, (size_t)(dot - s), DIGITS, DIGITS, 12) &&
           word(dot + 1, len - (size_t)(dot - s) - 1, DIGITS, DIGITS, 12);
}
static bool g_number(const char *v) { return g_decimal(v, strlen(v)); }
/* sep-separated items, count of them in [lo, hi], each accepted by item. */
static bool list(const char *v, char sep, int lo, int hi, bool (*item)(const char *, size_t)) {
    int k = 0;
    for (const char *s = v;; k++) {
        const char *e = strchr(s, sep);
        size_t n = e ? (size_t)(e - s) : strlen(s);
        if (k >= hi || !item(s, n)) return false;
        if (!e) break;
        s = e + 1;
    }
    return k + 1 >= lo;
}
static bool i_digits(const char *s, size_t n) { return word(s, n, DIGITS, DIGITS, 19); }
static bool i_dim(const char *s, size_t n) { return word(s, n, DIGITS, DIGITS, 9); }
static bool i_shape(const char *s, size_t n) { /* a named shape, or B,H,S,D */
    if (n && digit(s[0])) {
        char buf[64];
        if (n >= sizeof buf) return false;
        memcpy(buf, s, n);
        buf[n] = '\0';
        return list(buf, ',', 4, 4, i_dim);
    }
    return word(s, n, "abcdefghijklmnopqrstuvwxyz", LOWER "_-", 32);
}
static bool g_shape(const char *v) { return i_shape(v, strlen(v)); }
static bool g_shapes(const char *v) { return list(v, ' ', 1, 32, i_shape); }
bool params_shapes_ok(const char *v) { return g_shapes(v); }
static bool g_seeds(const char *v) { return list(v, ',', 1, 64, i_digits); }
static bool g_budget(const char *v) { return list(v, ',', 4, 4, g_decimal); }
static bool g_timing(const char *v) { return list(v, ' ', 4, 4, g_decimal); }
static bool g_l2(const char *v) { return !strcmp(v, "cold") || !strcmp(v, "warm"); }
static bool g_backend(const char *v) { return backend_name_index(v) >= 0; }
static bool g_throttle(const char *v) { return !strcmp(v, "auto") || g_number(v); }
static bool g_target(const char *v) { return word(v, strlen(v), LOWER, LOWER "-", 32); }
static bool g_exp(const char *v) { return word(v, strlen(v), LOWER, LOWER "._-", NAME_MAX_LEN); }
static bool g_sha(const char *v) {
    return strlen(v) == 64 && word(v, 64, "0123456789abcdef", "0123456789abcdef", 64);
}

typedef struct {
    const char *key;
    bool (*ok)(const char *);
    const char *grammar; /* for the message */
    bool required;
} param_key_t;

/* experiment.mk, in the order of the P_* enum. */
static const param_key_t EXP_KEYS[P_NKEYS] = {
    {"TITLE", g_text, "a title of letters, digits, spaces and .,:;()/+_- (at most 200)", true},
    {"MAKE_TARGET", g_target, "a make target [a-z0-9-]", true},
    {"BASELINE", g_variant, "a variant id [a-z0-9][a-z0-9._-]*", true},
    {"CANDIDATE", g_variant, "a variant id [a-z0-9][a-z0-9._-]*", true},
    {"SHAPES", g_shapes, "shapes (names or B,H,S,D) separated by single spaces", true},
    {"SEEDS", g_seeds, "seeds: integers separated by commas", true},
    {"TIMING_SHAPE", g_shape, "one shape (a name or B,H,S,D)", true},
    {"GATE_SPEEDUP", g_number, "a decimal number", true},
    {"STATIC_BUDGET", g_budget, "REGISTERS,SPILL_BYTES,LOCAL_BYTES,SMEM_BYTES", false},
    {"GPU_TIMING", g_timing, "WARMUP ITERS MIN_TIME_S MAX_TIME_S", false},
    {"EMU_TIMING", g_timing, "WARMUP ITERS MIN_TIME_S MAX_TIME_S", false},
    {"L2", g_l2, "cold or warm", false},
    {"EMU_TIMING_SHAPE", g_shape, "one shape (a name or B,H,S,D)", false},
    {"GATE_TFLOPS", g_number, "a decimal number (TFLOP/s)", false},
};

/* run.args (experiments/run.sh); the first ten are what a resumed run repeats. */
enum {
    A_EXP,
    A_BASELINE,
    A_CANDIDATE,
    A_SHAPES,
    A_SEEDS,
    A_TIMING_SHAPE,
    A_GPU,
    A_EMU,
    A_L2,
    A_BACKEND,
    A_THROTTLE,
    A_EMU_TIMING_SHAPE,
    A_EXP_SHA,
    A_HYP_SHA,
    A_NKEYS
};
static const param_key_t ARG_KEYS[A_NKEYS] = {
    {"exp", g_exp, "an experiment name [a-z0-9][a-z0-9._-]*", true},
    {"baseline", g_variant, "a variant id [a-z0-9][a-z0-9._-]*", true},
    {"candidate", g_variant, "a variant id [a-z0-9][a-z0-9._-]*", true},
    {"shapes", g_shapes, "shapes (names or B,H,S,D) separated by single spaces", true},
    {"seeds", g_seeds, "seeds: integers separated by commas", true},
    {"timing_shape", g_shape, "one shape (a name or B,H,S,D)", true},
    {"gpu", g_timing, "WARMUP ITERS MIN_TIME_S MAX_TIME_S", true},
    {"emu", g_timing, "WARMUP ITERS MIN_TIME_S MAX_TIME_S", true},
    {"l2", g_l2, "cold or warm", true},
    {"backend", g_backend, BACKEND_NAMES_TEXT, true},
    {"throttle", g_throttle, "auto or a fraction of the default SM clock", false},
    {"emu_timing_shape", g_shape, "one shape (a name or B,H,S,D)", false},
    {"experiment_sha256", g_sha, "64 lowercase hex digits", false},
    {"hypothesis_sha256", g_sha, "64 lowercase hex digits", false},
};

static int find_key(const param_key_t *keys, int nkeys, const char *k, size_t kl) {
    for (int i = 0; i < nkeys; i++)
        if (strlen(keys[i].key) == kl && !memcmp(keys[i].key, k, kl)) return i;
    return -1;
}

static void key_list(const param_key_t *keys, int nkeys, char *out, size_t n) {
    size_t k = 0;
    for (int i = 0; i < nkeys && k < n; i++)
        k += (size_t)snprintf(out + k, n - k, "%s%s", i ? " " : "", keys[i].key);
}

/* Checks one value; 0, or -1 with "file:line: KEY = 'v': expected ...". */
static int check_value(const param_key_t *key, const char *v, const char *file, int line, char *err,
                       size_t n) {
    if (key->ok(v)) return 0;
    char where[32] = "";
    if (line > 0) snprintf(where, sizeof where, ":%d", line);
    snprintf(err, n, "%s%s: %s = '%.100s': expected %s", file, where, key->key, v, key->grammar);
    return -1;
}

/* The lines of text, each handed to fn with its number; text must end with a newline, hold no NUL
 * or carriage return. */
typedef int (*line_fn)(void *ctx, char *line, int no, char *err, size_t n);
static int each_line(const char *text, size_t len, const char *file, line_fn fn, void *ctx, char *err,
                     size_t n) {
    if (len == 0 || text[len - 1] != '\n') {
        snprintf(err, n, "%s: %s (truncated?)", file, len ? "its last line has no newline" : "empty");
        return -1;
    }
    if (memchr(text, '\0', len) || memchr(text, '\r', len)) {
        snprintf(err, n, "%s: a NUL byte or carriage return: not a text file of this artifact", file);
        return -1;
    }
    char *copy = strndup(text, len);
    if (!copy) {
        snprintf(err, n, "%s: out of memory", file);
        return -1;
    }
    int no = 0, rc = 0;
    for (char *s = copy, *e; rc == 0 && (e = strchr(s, '\n')); s = e + 1) {
        *e = '\0';
        rc = fn(ctx, s, ++no, err, n);
    }
    free(copy);
    return rc;
}

static char *trim(char *s) {
    while (*s == ' ' || *s == '\t') s++;
    size_t l = strlen(s);
    while (l && (s[l - 1] == ' ' || s[l - 1] == '\t')) s[--l] = '\0';
    return s;
}

typedef struct {
    exp_def_t *d;
    const char *file;
} exp_ctx_t;

static int exp_line(void *vctx, char *line, int no, char *err, size_t n) {
    exp_ctx_t *c = vctx;
    char *s = trim(line);
    if (!*s || *s == '#') return 0;
    size_t kl = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789");
    char *op = s + kl;
    while (*op == ' ' || *op == '\t') op++;
    size_t ol = !strncmp(op, ":=", 2) || !strncmp(op, "?=", 2) ? 2 : *op == '=' ? 1 : 0;
    if (kl == 0 || ol == 0) {
        snprintf(err, n, "%s:%d: '%.80s': expected a comment or KEY := VALUE", c->file, no, s);
        return -1;
    }
    int k = find_key(EXP_KEYS, P_NKEYS, s, kl);
    if (k < 0) {
        char keys[256];
        key_list(EXP_KEYS, P_NKEYS, keys, sizeof keys);
        snprintf(err, n, "%s:%d: unknown key '%.*s' (accepted: %s)", c->file, no, (int)(kl > 40 ? 40 : kl), s,
                 keys);
        return -1;
    }
    if (c->d->set[k]) {
        snprintf(err, n, "%s:%d: %s is set twice", c->file, no, EXP_KEYS[k].key);
        return -1;
    }
    char *v = trim(op + ol);
    if (strlen(v) >= sizeof c->d->value[k]) {
        snprintf(err, n, "%s:%d: %s: a value of more than %zu bytes", c->file, no, EXP_KEYS[k].key,
                 sizeof c->d->value[k] - 1);
        return -1;
    }
    if (check_value(&EXP_KEYS[k], v, c->file, no, err, n) != 0) return -1;
    snprintf(c->d->value[k], sizeof c->d->value[k], "%s", v);
    c->d->set[k] = true;
    return 0;
}

static int required(const param_key_t *keys, int nkeys, const bool *set, const char *file, char *err,
                    size_t n) {
    for (int i = 0; i < nkeys; i++)
        if (keys[i].required && !set[i]) {
            snprintf(err, n, "%s: %s is missing (the file is truncated, or not one this artifact wrote)",
                     file, keys[i].key);
            return -1;
        }
    return 0;
}

int params_parse_experiment(const char *text, size_t len, const char *file, exp_def_t *d, char *err,
                            size_t n) {
    *d = (exp_def_t){0};
    exp_ctx_t c = {d, file};
    if (each_line(text, len, file, exp_line, &c, err, n) != 0) return -1;
    return required(EXP_KEYS, P_NKEYS, d->set, file, err, n);
}

char *params_read_small(const char *path, size_t max, size_t *len, char *err, size_t n) {
    size_t l = 0;
    char *s = file_read_all(path, &l);
    if (!s)
        snprintf(err, n, "%s: cannot read: %s", path,
                 errno == EINVAL ? "not a regular file (a fifo or device is never read)" : strerror(errno));
    else if (l > max) {
        snprintf(err, n, "%s: %zu bytes, more than the %zu an experiment's parameters take", path, l, max);
        free(s);
        s = NULL;
    }
    if (s && len) *len = l;
    return s;
}

int params_load_experiment(const char *path, exp_def_t *d, char *err, size_t n) {
    size_t len;
    char *text = params_read_small(path, MAX_FILE, &len, err, n);
    if (!text) return -1;
    int rc = params_parse_experiment(text, len, path, d, err, n);
    free(text);
    return rc;
}

typedef struct {
    char value[A_NKEYS][256];
    bool set[A_NKEYS];
    const char *file;
} args_ctx_t;

/* One "key=value" (a run.args line, or a command-line argument of params check). */
static int arg_line(void *vctx, char *line, int no, char *err, size_t n) {
    args_ctx_t *c = vctx;
    char *eq = strchr(line, '=');
    int k = eq ? find_key(ARG_KEYS, A_NKEYS, line, (size_t)(eq - line)) : -1;
    if (k < 0) {
        char keys[256];
        key_list(ARG_KEYS, A_NKEYS, keys, sizeof keys);
        snprintf(err, n, "%s:%d: '%.60s': expected key=value with a key of: %s", c->file, no, line, keys);
        return -1;
    }
    if (c->set[k]) {
        snprintf(err, n, "%s:%d: %s is given twice", c->file, no, ARG_KEYS[k].key);
        return -1;
    }
    if (strlen(eq + 1) >= sizeof c->value[k] || check_value(&ARG_KEYS[k], eq + 1, c->file, no, err, n) != 0) {
        if (strlen(eq + 1) >= sizeof c->value[k])
            snprintf(err, n, "%s:%d: %s: too long", c->file, no, ARG_KEYS[k].key);
        return -1;
    }
    snprintf(c->value[k], sizeof c->value[k], "%s", eq + 1);
    c->set[k] = true;
    return 0;
}

static void args_out(const args_ctx_t *c, run_args_t *a) {
    snprintf(a->exp, sizeof a->exp, "%.128s", c->value[A_EXP]);
    snprintf(a->backend, sizeof a->backend, "%.7s", c->value[A_BACKEND]);
    snprintf(a->experiment_sha256, sizeof a->experiment_sha256, "%.64s", c->value[A_EXP_SHA]);
    snprintf(a->hypothesis_sha256, sizeof a->hypothesis_sha256, "%.64s", c->value[A_HYP_SHA]);
}

int params_check_run_args(const char *text, size_t len, const char *file, run_args_t *a, char *err,
                          size_t n) {
    args_ctx_t c = {.file = file};
    if (each_line(text, len, file, arg_line, &c, err, n) != 0 ||
        required(ARG_KEYS, A_NKEYS, c.set, file, err, n) != 0)
        return -1;
    if (a) args_out(&c, a);
    return 0;
}

/* A copy is intact when its digest is the one recorded before it was made. */
static int digest_ok(const char *dir, const char *name, const char *want, char *err, size_t n) {
    char p[1100], hex[65];
    snprintf(p, sizeof p, "%.1024s/%.64s", dir, name);
    if (sha256_file_hex(p, hex) != 0) {
        snprintf(err, n, "%.900s: cannot read: %s", p,
                 errno == EINVAL ? "not a regular file" : strerror(errno));
        return -1;
    }
    if (*want && strcmp(hex, want) != 0) {
        snprintf(err, n, "%.900s: its SHA-256 is not the one run.args recorded before the copy (truncated?)",
                 p);
        return -1;
    }
    return 0;
}

static int resume_check(const char *dir, char *err, size_t n) {
    char p[1100];
    snprintf(p, sizeof p, "%.1024s/run.args", dir);
    size_t len;
    char *text = params_read_small(p, MAX_FILE, &len, err, n);
    if (!text) return -1;
    run_args_t a;
    int rc = params_check_run_args(text, len, p, &a, err, n);
    free(text);
    exp_def_t d;
    snprintf(p, sizeof p, "%.1024s/experiment.mk", dir);
    if (rc == 0) rc = digest_ok(dir, "experiment.mk", a.experiment_sha256, err, n);
    if (rc == 0) rc = params_load_experiment(p, &d, err, n);
    if (rc == 0) rc = digest_ok(dir, "hypothesis.md", a.hypothesis_sha256, err, n);
    return rc;
}

int params_main(int argc, char **argv) {
    char err[1024] = "";
    int rc = -1;
    const char *cmd = argc > 2 ? argv[2] : "";
    if (!strcmp(cmd, "check") && argc > 3) {
        args_ctx_t c = {.file = "the run's parameters"};
        rc = 0;
        for (int i = 3; rc == 0 && i < argc; i++) {
            char buf[512];
            snprintf(buf, sizeof buf, "%s", argv[i]);
            rc = arg_line(&c, buf, 0, err, sizeof err);
        }
    } else if (!strcmp(cmd, "experiment") && argc == 4) {
        exp_def_t d;
        rc = params_load_experiment(argv[3], &d, err, sizeof err);
    } else if (!strcmp(cmd, "resume") && argc == 4) {
        rc = resume_check(argv[3], err, sizeof err);
    } else {
        fprintf(stderr, "usage: sdpa-report params check KEY=VALUE... | experiment FILE | resume RUNDIR\n");
        return 2;
    }
    if (rc != 0) fprintf(stderr, "sdpa-report: %s\n", err);
    return rc == 0 ? 0 : 1;
}
