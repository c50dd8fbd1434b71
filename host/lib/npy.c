/* .npy writer and header reader (npy.h). The writer emits version 1.0 only; the reader also
 * accepts 2.0 (a 4-byte header length), which numpy uses for very large headers. */
#include "npy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"

#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAGIC_LEN 6
#define NPY_ALIGN 64

/* Element size of a supported descriptor; 0 if unsupported. */
static size_t descr_size(const char *descr) {
    static const struct {
        const char *d;
        size_t size;
    } known[] = {
        {NPY_U1, 1},
        {NPY_F2, 2},
        {NPY_F4, 4},
        {NPY_F8, 8},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(descr, known[i].d) == 0) return known[i].size;
    return 0;
}

static int host_is_little_endian(void) {
    const uint16_t one = 1;
    return *(const uint8_t *)&one == 1;
}

/* The header dict, padded with spaces and ended by '\n' so that magic + version + length + dict
 * is a multiple of 64 bytes. Returns its length, or 0 if it does not fit. */
static size_t format_header(char *out, size_t cap, const char *descr, const size_t *shape, int ndim) {
    /* A Python tuple: "()" for no dimension, "(5,)" for one, "(2, 3)" for more. */
    char dims[8 * 24] = "";
    size_t used = 0;
    for (int i = 0; i < ndim; i++)
        used += (size_t)snprintf(dims + used, sizeof dims - used, "%s%zu", i ? ", " : "", shape[i]);
    if (ndim == 1) snprintf(dims + used, sizeof dims - used, ",");
    int n = snprintf(out, cap, "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", descr, dims);
    if (n < 0 || (size_t)n >= cap) return 0;
    size_t len = (size_t)n + 1; /* + '\n' */
    size_t total = NPY_MAGIC_LEN + 2 + 2 + len;
    size_t pad = (NPY_ALIGN - total % NPY_ALIGN) % NPY_ALIGN;
    if ((size_t)n + pad + 2 > cap) return 0;
    memset(out + n, ' ', pad);
    out[n + pad] = '\n';
    out[n + pad + 1] = '\0';
    return len + pad;
}

int npy_write(const char *path, const char *descr, const size_t *shape, int ndim, const void *data, char *err,
              size_t errlen) {
    size_t esize = descr ? descr_size(descr) : 0;
    if (!esize || ndim < 0 || ndim > 8 || (ndim > 0 && !shape) || !path) {
        if (err && errlen)
            snprintf(err, errlen, "%s: npy_write: unsupported dtype '%s' or rank %d", path ? path : "(null)",
                     descr ? descr : "(null)", ndim);
        errno = EINVAL;
        return -1;
    }
    size_t count = 1;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] && count > SIZE_MAX / shape[i])
            count = SIZE_MAX;
        else
            count *= shape[i];
    }
    char header[512];
    size_t hlen = format_header(header, sizeof header, descr, shape, ndim);
    size_t pre = NPY_MAGIC_LEN + 4;
    if (!hlen || hlen > 65535 || count > (SIZE_MAX - pre - hlen) / esize || (count && !data)) {
        if (err && errlen) snprintf(err, errlen, "%s: npy_write: array too large or no data", path);
        errno = EINVAL;
        return -1;
    }
    size_t total = pre + hlen + count * esize;
    unsigned char *buf = malloc(total);
    if (!buf) {
        if (err && errlen) snprintf(err, errlen, "%s: npy_write: out of memory", path);
        errno = ENOMEM;
        return -1;
    }
    memcpy(buf, NPY_MAGIC, NPY_MAGIC_LEN);
    buf[6] = 1; /* version 1.0 */
    buf[7] = 0;
    buf[8] = (unsigned char)(hlen & 0xff);
    buf[9] = (unsigned char)(hlen >> 8);
    memcpy(buf + pre, header, hlen);
    unsigned char *dst = buf + pre + hlen;
    if (count) memcpy(dst, data, count * esize);
    if (esize > 1 && !host_is_little_endian()) {
        for (size_t i = 0; i < count; i++) {
            unsigned char *e = dst + i * esize;
            for (size_t a = 0, b = esize - 1; a < b; a++, b--) {
                unsigned char t = e[a];
                e[a] = e[b];
                e[b] = t;
            }
        }
    }
    int rc = file_write_new(path, buf, total, err, errlen);
    free(buf);
    return rc;
}

/* ---- reading ----------------------------------------------------------------------------- */

static int fail(char *err, size_t errlen, const char *path, const char *what) {
    if (err && errlen) snprintf(err, errlen, "%s: %s", path, what);
    errno = EINVAL;
    return -1;
}

/* The value text after "'key':" in the dict, or NULL. */
static const char *dict_value(const char *dict, const char *key) {
    char pat[32];
    snprintf(pat, sizeof pat, "'%s':", key);
    const char *p = strstr(dict, pat);
    if (!p) return NULL;
    p += strlen(pat);
    while (*p == ' ') p++;
    return p;
}

static int parse_dict(const char *dict, npy_header_t *h, const char *path, char *err, size_t errlen) {
    const char *d = dict_value(dict, "descr");
    if (!d || *d != '\'') return fail(err, errlen, path, "npy header: no 'descr'");
    const char *q = strchr(d + 1, '\'');
    if (!q || (size_t)(q - d - 1) >= sizeof h->descr)
        return fail(err, errlen, path, "npy header: bad 'descr'");
    memcpy(h->descr, d + 1, (size_t)(q - d - 1));
    h->descr[q - d - 1] = '\0';
    const char *f = dict_value(dict, "fortran_order");
    if (f && strncmp(f, "False", 5) == 0)
        h->fortran_order = 0;
    else if (f && strncmp(f, "True", 4) == 0)
        h->fortran_order = 1;
    else
        return fail(err, errlen, path, "npy header: bad 'fortran_order'");
    const char *s = dict_value(dict, "shape");
    if (!s || *s != '(') return fail(err, errlen, path, "npy header: bad 'shape'");
    s++;
    h->ndim = 0;
    for (;;) {
        while (*s == ' ' || *s == ',') s++;
        if (*s == ')') break;
        char *end;
        errno = 0;
        unsigned long long v = strtoull(s, &end, 10);
        if (end == s || errno || h->ndim >= 8) return fail(err, errlen, path, "npy header: bad 'shape'");
        h->shape[h->ndim++] = (size_t)v;
        s = end;
        while (*s == 'L') s++; /* Python 2 longs */
    }
    return 0;
}

int npy_read_header(const char *path, npy_header_t *h, char *err, size_t errlen) {
    memset(h, 0, sizeof *h);
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (err && errlen) snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    unsigned char pre[12];
    int rc = -1;
    char *dict = NULL;
    if (fread(pre, 1, 10, f) != 10 || memcmp(pre, NPY_MAGIC, NPY_MAGIC_LEN) != 0) {
        fail(err, errlen, path, "not an .npy file (no \\x93NUMPY magic)");
    } else if (pre[6] != 1 && pre[6] != 2) {
        fail(err, errlen, path, "unsupported .npy version (only 1.x and 2.x)");
    } else if (pre[6] == 2 && fread(pre + 10, 1, 2, f) != 2) {
        fail(err, errlen, path, "truncated .npy header");
    } else {
        size_t len = pre[8] | (size_t)pre[9] << 8;
        size_t off = 10;
        if (pre[6] == 2) {
            len |= (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
            off = 12;
        }
        dict = len < (1u << 20) ? malloc(len + 1) : NULL;
        if (!dict || fread(dict, 1, len, f) != len) {
            fail(err, errlen, path, "truncated or oversized .npy header");
        } else {
            dict[len] = '\0';
            h->header_len = len;
            h->data_offset = off + len;
            rc = parse_dict(dict, h, path, err, errlen);
        }
    }
    free(dict);
    fclose(f);
    return rc;
}
