/* See tar_read.h. Header layout: POSIX.1-2001 ustar (name 0, mode 100, uid 108, gid 116, size
 * 124, mtime 136, chksum 148, typeflag 156, linkname 157, magic 257, version 263, prefix 345);
 * GNU tar writes magic "ustar  " and keeps long names in a preceding 'L' member. */
#include "tar_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sha256.h"

#define BLOCK 512
#define META_MAX 65536 /* an 'L' long name or a pax header's data */

/* ---- the set of names seen: duplicates, and files used as directories ---------------------- */
enum { SEEN_FILE = 1, SEEN_DIR = 2, SEEN_EXPLICIT = 4 };
typedef struct {
    char **names;
    unsigned char *flags;
    size_t cap, used;
} name_set_t;

static uint64_t fnv(const char *s, size_t n) {
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

/* The slot of name[0..n) (its own or the empty one where it would go). */
static size_t set_slot(const name_set_t *s, const char *name, size_t n) {
    size_t i = (size_t)fnv(name, n) & (s->cap - 1);
    while (s->names[i] && !(strlen(s->names[i]) == n && memcmp(s->names[i], name, n) == 0))
        i = (i + 1) & (s->cap - 1);
    return i;
}

static int set_grow(name_set_t *s) {
    name_set_t g = {.cap = s->cap ? s->cap * 2 : 256};
    g.names = calloc(g.cap, sizeof *g.names);
    g.flags = calloc(g.cap, 1);
    if (!g.names || !g.flags) {
        free(g.names);
        free(g.flags);
        return -1;
    }
    for (size_t i = 0; i < s->cap; i++)
        if (s->names[i]) {
            size_t k = set_slot(&g, s->names[i], strlen(s->names[i]));
            g.names[k] = s->names[i];
            g.flags[k] = s->flags[i];
        }
    g.used = s->used;
    free(s->names);
    free(s->flags);
    *s = g;
    return 0;
}

/* Flags of name[0..n), inserting it with none when absent; NULL when out of memory. */
static unsigned char *set_get(name_set_t *s, const char *name, size_t n) {
    if (2 * (s->used + 1) > s->cap && set_grow(s) != 0) return NULL;
    size_t i = set_slot(s, name, n);
    if (!s->names[i]) {
        if (!(s->names[i] = strndup(name, n))) return NULL;
        s->used++;
    }
    return &s->flags[i];
}

static void set_free(name_set_t *s) {
    for (size_t i = 0; i < s->cap; i++) free(s->names[i]);
    free(s->names);
    free(s->flags);
    *s = (name_set_t){0};
}

/* Records a member: each parent must not be a file, the member itself must be new (a directory
 * may have been implied by an earlier member's path). */
static int set_add(name_set_t *s, const char *name, bool dir, char *err, size_t n) {
    for (const char *p = strchr(name, '/'); p; p = strchr(p + 1, '/')) {
        unsigned char *f = set_get(s, name, (size_t)(p - name));
        if (!f) goto oom;
        if (*f & SEEN_FILE) {
            snprintf(err, n, "member '%s' lies inside '%.*s', which is a file", name, (int)(p - name), name);
            return -1;
        }
        *f |= SEEN_DIR;
    }
    unsigned char *f = set_get(s, name, strlen(name));
    if (!f) goto oom;
    if ((*f & SEEN_EXPLICIT) || (!dir && (*f & SEEN_DIR))) {
        snprintf(err, n, "member '%s' is listed twice (or as both a file and a directory)", name);
        return -1;
    }
    *f |= SEEN_EXPLICIT | (dir ? SEEN_DIR : SEEN_FILE);
    return 0;
oom:
    snprintf(err, n, "out of memory listing the members");
    return -1;
}

/* ---- headers ------------------------------------------------------------------------------- */
typedef struct {
    tar_read_fn rd;
    void *ctx;
    volatile sig_atomic_t *stop;
    uint64_t offset;
} src_t;

/* Exactly n bytes, or -1 (err: truncated, read error, interrupted). */
static int read_full(src_t *s, void *buf, size_t n, char *err, size_t errlen) {
    for (size_t got = 0; got < n;) {
        if (s->stop && *s->stop) {
            snprintf(err, errlen, "interrupted");
            return -1;
        }
        ssize_t r = s->rd(s->ctx, (char *)buf + got, n - got);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            snprintf(err, errlen, "read error at byte %llu: %s", (unsigned long long)(s->offset + got),
                     strerror(errno));
            return -1;
        }
        if (r == 0) {
            snprintf(err, errlen, "the tar stream ends early at byte %llu (truncated)",
                     (unsigned long long)(s->offset + got));
            return -1;
        }
        got += (size_t)r;
    }
    s->offset += n;
    return 0;
}

static bool all_zero(const unsigned char *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (b[i]) return false;
    return true;
}

/* An octal field (NUL or space terminated, leading spaces allowed) or, for sizes, GNU base-256
 * (first byte 0x80: big-endian binary); -1 when malformed. */
static int number(const unsigned char *f, size_t n, uint64_t *out) {
    uint64_t v = 0;
    if (f[0] & 0x80) {
        if (f[0] != 0x80) return -1; /* negative, or beyond 64 bits */
        for (size_t i = 1; i < n; i++) {
            if (v >> 56) return -1;
            v = v << 8 | f[i];
        }
        *out = v;
        return 0;
    }
    size_t i = 0;
    while (i < n && f[i] == ' ') i++;
    bool digits = false;
    for (; i < n && f[i] >= '0' && f[i] <= '7'; i++, digits = true) {
        if (v >> 61) return -1;
        v = v << 3 | (uint64_t)(f[i] - '0');
    }
    for (; i < n; i++)
        if (f[i] != ' ' && f[i] != '\0') return -1;
    if (!digits) return -1;
    *out = v;
    return 0;
}

static bool checksum_ok(const unsigned char *h) {
    uint64_t want;
    if (number(h + 148, 8, &want) != 0) return false;
    uint64_t u = 0;
    int64_t s = 0;
    for (int i = 0; i < BLOCK; i++) {
        unsigned char c = i >= 148 && i < 156 ? ' ' : h[i];
        u += c;
        s += (signed char)c;
    }
    return u == want || (uint64_t)s == want; /* some old tars summed signed bytes */
}

/* The pax keys accepted: the name and size, which are used, and those that are never applied. */
static const char *const PAX_KEYS[] = {"path", "size", "mtime", "atime", "ctime",
                                       "uid",  "gid",  "uname", "gname"};

/* Parses a pax extended header ("LEN key=value\n" records): path and size are returned. */
static int pax_parse(const char *d, size_t len, char **path, uint64_t *size, bool *has_size, char *err,
                     size_t n) {
    size_t i = 0;
    while (i < len) {
        size_t rl = 0, j = i;
        while (j < len && d[j] >= '0' && d[j] <= '9' && rl < META_MAX) rl = rl * 10 + (size_t)(d[j++] - '0');
        if (j == i || j >= len || d[j] != ' ' || rl < 5 || rl > len - i || d[i + rl - 1] != '\n') {
            snprintf(err, n, "a malformed pax header record at byte %zu", i);
            return -1;
        }
        const char *k = d + j + 1, *end = d + i + rl - 1, *eq = memchr(k, '=', (size_t)(end - k));
        if (!eq || eq == k) {
            snprintf(err, n, "a pax header record without key=value at byte %zu", i);
            return -1;
        }
        size_t kl = (size_t)(eq - k), vl = (size_t)(end - eq - 1);
        bool known = false;
        for (size_t p = 0; p < sizeof PAX_KEYS / sizeof PAX_KEYS[0]; p++)
            known |= strlen(PAX_KEYS[p]) == kl && memcmp(PAX_KEYS[p], k, kl) == 0;
        if (!known) {
            snprintf(err, n, "pax header key '%.*s' is not accepted%s", (int)(kl > 64 ? 64 : kl), k,
                     kl >= 10 && memcmp(k, "GNU.sparse", 10) == 0 ? " (a sparse member)" : "");
            return -1;
        }
        if (kl == 4 && memcmp(k, "path", 4) == 0) {
            /* a second path record replaces the first; on a refusal nothing is left to free twice */
            free(*path);
            *path = NULL;
            if (memchr(eq + 1, '\0', vl)) {
                snprintf(err, n, "a pax path with a NUL byte");
                return -1;
            }
            if (!(*path = strndup(eq + 1, vl))) {
                snprintf(err, n, "out of memory for a pax path");
                return -1;
            }
        } else if (kl == 4 && memcmp(k, "size", 4) == 0) {
            uint64_t v = 0;
            if (vl == 0 || vl > 19) goto bad_size;
            for (size_t q = 0; q < vl; q++) {
                if (eq[1 + q] < '0' || eq[1 + q] > '9') goto bad_size;
                v = v * 10 + (uint64_t)(eq[1 + q] - '0');
            }
            *size = v, *has_size = true;
        }
        i += rl;
    }
    return 0;
bad_size:
    snprintf(err, n, "a pax size that is not a decimal number");
    return -1;
}

/* Reads a member's data (size bytes, padded to blocks) into a new NUL-terminated buffer. */
static char *read_meta(src_t *s, uint64_t size, const char *what, char *err, size_t n) {
    if (size > META_MAX) {
        snprintf(err, n, "%s of %llu bytes (at most %d)", what, (unsigned long long)size, META_MAX);
        return NULL;
    }
    size_t padded = ((size_t)size + BLOCK - 1) / BLOCK * BLOCK;
    char *d = malloc(padded + 1);
    if (!d) {
        snprintf(err, n, "out of memory");
        return NULL;
    }
    if (read_full(s, d, padded, err, n) != 0) {
        free(d);
        return NULL;
    }
    d[size] = '\0';
    return d;
}

static const char *type_name(char t) {
    switch (t) {
    case '1': return "a hard link";
    case '2': return "a symbolic link";
    case '3': return "a character device";
    case '4': return "a block device";
    case '6': return "a fifo";
    case '7': return "a contiguous file";
    case 'S': return "a sparse file";
    case 'K': return "a long link name";
    case 'g': return "a global pax header";
    default: return "not a regular file or directory";
    }
}

/* The name of header h: the pending long name (taken over), else ustar's prefix/name. A new
 * string, or NULL when out of memory. */
static char *header_name(const unsigned char *h, char **pending) {
    char *name;
    if (*pending) {
        name = *pending;
        *pending = NULL;
    } else {
        char buf[256 + 2] = "";
        size_t nl = strnlen((const char *)h, 100);
        bool posix = memcmp(h + 257,
                            "ustar\0"
                            "00",
                            8) == 0;
        size_t pl = posix ? strnlen((const char *)h + 345, 155) : 0;
        if (pl)
            snprintf(buf, sizeof buf, "%.*s/%.*s", (int)pl, (const char *)h + 345, (int)nl, (const char *)h);
        else
            snprintf(buf, sizeof buf, "%.*s", (int)nl, (const char *)h);
        name = strdup(buf);
    }
    return name;
}

static int member_done(const tar_sink_t *sink, const tar_member_t *m, char *err, size_t n) {
    return sink && sink->end ? sink->end(sink->ctx, m, err, n) : 0;
}

/* A regular file's data: handed to the sink in chunks, then the padding read. */
static int copy_data(src_t *s, const tar_sink_t *sink, uint64_t size, char *err, size_t n) {
    static unsigned char buf[65536];
    uint64_t left = (size + BLOCK - 1) / BLOCK * BLOCK, data = size;
    while (left > 0) {
        size_t k = left < sizeof buf ? (size_t)left : sizeof buf;
        if (read_full(s, buf, k, err, n) != 0) return -1;
        size_t d = data < k ? (size_t)data : k;
        if (d && sink && sink->data && sink->data(sink->ctx, buf, d, err, n) != 0) return -1;
        data -= d, left -= k;
    }
    return 0;
}

/* After the end-of-archive block: zeros only (the record padding), up to the stream's end. */
static int trailer(src_t *s, char *err, size_t n) {
    unsigned char b[BLOCK];
    for (int i = 0; i < 4096; i++) { /* 2 MiB of padding at most */
        ssize_t r;
        do r = s->rd(s->ctx, b, sizeof b);
        while (r < 0 && errno == EINTR);
        if (r == 0) return 0;
        if (r < 0 || !all_zero(b, (size_t)r)) {
            snprintf(err, n, "%s after the end-of-archive marker",
                     r < 0 ? "a read error" : "data (not zeros)");
            return -1;
        }
        s->offset += (uint64_t)r;
    }
    snprintf(err, n, "more than 2 MiB after the end-of-archive marker");
    return -1;
}

/* One member's header checks; fills m (its name owned by *name). */
static int check_member(char type, char **name, uint64_t size, const tar_limits_t *lim, tar_summary_t *sum,
                        char *err, size_t n) {
    bool dir = type == '5';
    size_t len = strlen(*name);
    if (type != '0' && type != '\0' && !dir) {
        snprintf(err, n, "member '%.200s' is %s; only regular files and directories are accepted", *name,
                 type_name(type));
        return -1;
    }
    if (len && (*name)[len - 1] == '/') {
        if (!dir) {
            snprintf(err, n, "member '%.200s' is a regular file whose name ends in '/'", *name);
            return -1;
        }
        (*name)[--len] = '\0';
    }
    char why[512];
    if ((*name)[0] == '/') {
        snprintf(err, n, "member '%.200s' has an absolute path", *name);
        return -1;
    }
    for (const char *c = *name; c; c = strchr(c, '/') ? strchr(c, '/') + 1 : NULL)
        if (!strncmp(c, "..", 2) && (c[2] == '/' || c[2] == '\0')) {
            snprintf(err, n, "member '%.200s' has a '..' component", *name);
            return -1;
        }
    if (!name_path_ok(*name, why, sizeof why)) {
        snprintf(err, n, "member %s", why);
        return -1;
    }
    size_t tl = strcspn(*name, "/");
    if (!sum->top[0]) snprintf(sum->top, sizeof sum->top, "%.*s", (int)tl, *name);
    if (strlen(sum->top) != tl || strncmp(sum->top, *name, tl) != 0) {
        snprintf(err, n, "members lie in more than one directory ('%s', '%.*s')", sum->top, (int)tl, *name);
        return -1;
    }
    if (dir && size != 0) {
        snprintf(err, n, "directory member '%.200s' has %llu bytes of data", *name, (unsigned long long)size);
        return -1;
    }
    if (++sum->members > lim->members) {
        snprintf(err, n, "more than %llu members (the limit per campaign)", (unsigned long long)lim->members);
        return -1;
    }
    if (!dir && size > lim->file_bytes) {
        snprintf(err, n, "member '%.200s' is %llu bytes, over the limit of %llu per file", *name,
                 (unsigned long long)size, (unsigned long long)lim->file_bytes);
        return -1;
    }
    if (!dir && size > lim->total_bytes - sum->bytes) {
        snprintf(err, n, "the members add up to more than %llu bytes (the limit per campaign) at '%.200s'",
                 (unsigned long long)lim->total_bytes, *name);
        return -1;
    }
    if (!dir) sum->files++, sum->bytes += size;
    return 0;
}

int tar_walk(tar_read_fn rd, void *rctx, const tar_limits_t *lim, const tar_sink_t *sink, tar_summary_t *sum,
             volatile sig_atomic_t *stop, char *err, size_t n) {
    src_t s = {rd, rctx, stop, 0};
    *sum = (tar_summary_t){0};
    name_set_t seen = {0};
    sha256_t dg;
    sha256_init(&dg);
    char *pending = NULL, *name = NULL;
    uint64_t pax_size = 0;
    bool has_pax_size = false;
    int rc = -1;
    unsigned char h[BLOCK];
    for (;;) {
        if (read_full(&s, h, BLOCK, err, n) != 0) goto out;
        if (all_zero(h, BLOCK)) {
            if (pending || has_pax_size) {
                snprintf(err, n, "a long-name or pax header with no member after it");
                goto out;
            }
            if (!sum->members) {
                snprintf(err, n, "an empty tarball");
                goto out;
            }
            rc = trailer(&s, err, n);
            goto out;
        }
        if (!checksum_ok(h)) {
            snprintf(err, n, "a header with a bad checksum at byte %llu (not a tar stream, or corrupted)",
                     (unsigned long long)(s.offset - BLOCK));
            goto out;
        }
        char type = (char)h[156];
        uint64_t size;
        if (number(h + 124, 12, &size) != 0) {
            snprintf(err, n, "a header with a malformed size at byte %llu",
                     (unsigned long long)(s.offset - BLOCK));
            goto out;
        }
        if (type == 'L' || type == 'x') {
            char *d = read_meta(&s, size, type == 'L' ? "a long name" : "a pax header", err, n);
            if (!d) goto out;
            int prc = 0;
            if (type == 'L') {
                free(pending);
                pending = d;
            } else {
                prc = pax_parse(d, (size_t)size, &pending, &pax_size, &has_pax_size, err, n);
                free(d);
            }
            if (prc != 0) goto out;
            continue;
        }
        if (has_pax_size) size = pax_size;
        has_pax_size = false;
        free(name);
        if (!(name = header_name(h, &pending))) {
            snprintf(err, n, "out of memory");
            goto out;
        }
        if (check_member(type, &name, size, lim, sum, err, n) != 0) goto out;
        tar_member_t m = {name, type == '5', type == '5' ? 0 : size};
        if (set_add(&seen, name, m.dir, err, n) != 0) goto out;
        char line[64];
        snprintf(line, sizeof line, "%c %llu ", m.dir ? 'd' : 'f', (unsigned long long)m.size);
        sha256_update(&dg, line, strlen(line));
        sha256_update(&dg, name, strlen(name) + 1);
        if (sink && sink->member && sink->member(sink->ctx, &m, err, n) != 0) goto out;
        if (!m.dir && copy_data(&s, sink, m.size, err, n) != 0) goto out;
        if (member_done(sink, &m, err, n) != 0) goto out;
    }
out:
    sha256_final(&dg, sum->digest);
    free(pending);
    free(name);
    set_free(&seen);
    return rc;
}
