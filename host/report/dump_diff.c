/* sdpa-report dump-diff (dump_diff.h). */
#include "dump_diff.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "fileio.h"
#include "half.h"
#include "npy.h"

static int usage(const char *why) {
    fprintf(
        stderr,
        "sdpa-report dump-diff: %s\n"
        "usage: sdpa-report dump-diff A B [--large F]\n"
        "  A, B: dump directories of one problem (sdpa-bench --dump or --dump-failed: o.npy, meta.json);\n"
        "  prints where A's output differs from B's by more than F x the root mean square of B over\n"
        "  its (b,h) slice (default %g), by query row, query tile, column, head and batch entry\n",
        why, DUMP_DIFF_LARGE);
    return 2;
}

typedef struct {
    cJSON *meta;
    uint16_t *o;
    int B, H, S, D;
} dump_t;

static void dump_free(dump_t *d) {
    cJSON_Delete(d->meta);
    free(d->o);
}

/* meta.json and o.npy of dir; 0 or -1 with a message naming the file. */
static int dump_load(const char *dir, dump_t *d) {
    char path[4096], err[512];
    size_t n = 0;
    memset(d, 0, sizeof *d);
    snprintf(path, sizeof path, "%s/meta.json", dir);
    char *text = file_read_all(path, &n);
    if (!text)
        return fprintf(stderr, "sdpa-report: dump-diff: %s: cannot read: %s\n", path, strerror(errno)), -1;
    d->meta = cJSON_ParseWithLength(text, n);
    free(text);
    if (!cJSON_IsObject(d->meta))
        return fprintf(stderr, "sdpa-report: dump-diff: %s: not a JSON object\n", path), -1;
    const cJSON *sh = jo(d->meta, "shape");
    const double dims[4] = {jo_num(sh, "B"), jo_num(sh, "H"), jo_num(sh, "S"), jo_num(sh, "D")};
    for (int i = 0; i < 4; i++)
        if (!(dims[i] >= 1 && dims[i] <= 1 << 24 && dims[i] == floor(dims[i])))
            return fprintf(stderr, "sdpa-report: dump-diff: %s: no valid shape.%c\n", path, "BHSD"[i]), -1;
    d->B = (int)dims[0], d->H = (int)dims[1], d->S = (int)dims[2], d->D = (int)dims[3];
    const size_t want[4] = {(size_t)d->B, (size_t)d->H, (size_t)d->S, (size_t)d->D};
    /* A dump comes from elsewhere: its size is bounded before anything is allocated (2^30 elements,
     * 2 GiB of float16, far above any shape the artifact runs: (2,32,8192,64) is 2^25). */
    size_t count = 1;
    for (int i = 0; i < 4; i++)
        count = count <= ((size_t)1 << 30) / want[i] ? count * want[i] : ((size_t)1 << 30) + 1;
    if (count > (size_t)1 << 30)
        return fprintf(stderr, "sdpa-report: dump-diff: %s: more than 2^30 elements (%d,%d,%d,%d)\n", path,
                       d->B, d->H, d->S, d->D),
               -1;
    snprintf(path, sizeof path, "%s/o.npy", dir);
    npy_header_t h;
    if (npy_read_header(path, &h, err, sizeof err) != 0)
        return fprintf(stderr, "sdpa-report: dump-diff: %s\n", err), -1;
    if (strcmp(h.descr, NPY_F2) != 0 || h.fortran_order || h.ndim != 4 ||
        memcmp(h.shape, want, sizeof want) != 0)
        return fprintf(stderr,
                       "sdpa-report: dump-diff: %s: not a C-order <f2 array of meta.json's shape "
                       "(%d,%d,%d,%d)\n",
                       path, d->B, d->H, d->S, d->D),
               -1;
    FILE *f = fopen(path, "rb");
    d->o = malloc(count * sizeof *d->o);
    unsigned char *raw = malloc(count * 2);
    const bool ok =
        f && d->o && raw && fseek(f, (long)h.data_offset, SEEK_SET) == 0 && fread(raw, 2, count, f) == count;
    for (size_t i = 0; ok && i < count; i++) d->o[i] = (uint16_t)(raw[2 * i] | raw[2 * i + 1] << 8); /* <f2 */
    free(raw);
    if (f) fclose(f);
    if (!ok)
        return fprintf(stderr, "sdpa-report: dump-diff: %s: cannot read its %zu elements\n", path, count), -1;
    return 0;
}

/* The two dumps are of one problem: shape, mask, seed, codec, dist, and the inputs' checksum where
 * both recorded it. 0, or -1 naming the first field that differs. */
static int same_problem(const char *a_dir, const dump_t *a, const dump_t *b) {
    const cJSON *sa = jo(a->meta, "shape"), *sb = jo(b->meta, "shape");
    if (!jo_same_shape(sa, sb)) {
        fprintf(stderr,
                "sdpa-report: dump-diff: %s/meta.json: shape (B, H, S, D and causal) differs from the other "
                "dump's\n",
                a_dir);
        return -1;
    }
    static const char *const keys[] = {"seed", "codec", "dist", "inputs_checksum"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const cJSON *x = jo(a->meta, keys[i]), *y = jo(b->meta, keys[i]);
        if (i == 3 && (!x || !y)) continue; /* dumps written before the checksum */
        char *sx = x ? cJSON_PrintUnformatted(x) : NULL, *sy = y ? cJSON_PrintUnformatted(y) : NULL;
        const bool same = sx && sy && strcmp(sx, sy) == 0;
        if (!same)
            fprintf(stderr, "sdpa-report: dump-diff: %s/meta.json: %s %s, the other dump's %s\n", a_dir,
                    keys[i], sx ? sx : "absent", sy ? sy : "absent");
        free(sx), free(sy);
        if (!same) return -1;
    }
    return 0;
}

/* One way of classing the elements: class k of n, and per class the elements and the large ones. */
typedef struct {
    const char *name;
    size_t n;
    size_t *all, *large;
} part_t;

enum { P_ROW16, P_ROW64, P_TILE64, P_TILE128, P_COL8, P_COL16, P_COL, P_HEAD, P_BATCH, P_COUNT };

static size_t class_of(int p, size_t b, size_t h, size_t r, size_t d) {
    switch (p) {
    case P_ROW16: return r % 16;
    case P_ROW64: return r % 64;
    case P_TILE64: return r / 64;
    case P_TILE128: return r / 128;
    case P_COL8: return d % 8;
    case P_COL16: return d % 16;
    case P_COL: return d;
    case P_HEAD: return h;
    default: return b;
    }
}

/* A class's share of large elements as printed: "0 %" only when none is, "<1 %" when some are;
 * a class without elements (rows past S) says so. */
static void share(char *out, size_t n, size_t large, size_t all) {
    if (!all)
        snprintf(out, n, "(no element)");
    else if (!large)
        snprintf(out, n, "0 %%");
    else if (100.0 * (double)large / (double)all < 1)
        snprintf(out, n, "<1 %%");
    else
        snprintf(out, n, "%.0f %%", 100.0 * (double)large / (double)all);
}

/* Classes that all hold large elements in shares within 25 points of each other: no pattern along
 * this partition (an error that mixes every output, such as V's keys in the wrong order). The
 * lowest and highest shares, in percent, in lo and hi. */
static bool uniform(const part_t *p, double *lo, double *hi) {
    *lo = 100, *hi = 0;
    for (size_t k = 0; k < p->n; k++) {
        if (!p->all[k]) continue;
        const double x = 100.0 * (double)p->large[k] / (double)p->all[k];
        if (!p->large[k]) return false;
        *lo = fmin(*lo, x), *hi = fmax(*hi, x);
    }
    return *hi >= *lo && *hi - *lo <= 25;
}

/* The end of the run of classes from k on whose printed share is class k's (in s). */
static size_t run_end(const part_t *p, size_t k, char *s, size_t n) {
    char t[24];
    share(s, n, p->large[k], p->all[k]);
    for (k++; k < p->n; k++) {
        share(t, sizeof t, p->large[k], p->all[k]);
        if (strcmp(s, t) != 0) break;
    }
    return k;
}

/* One line: runs of consecutive classes with the same printed share, "0-7 0 %, 8-15 100 %"; more
 * than four runs of a uniform partition as one range of shares. */
static void print_part(const part_t *p) {
    printf("  %-22s", p->name);
    char s[24];
    size_t runs = 0;
    for (size_t k = 0; k < p->n; runs++) k = run_end(p, k, s, sizeof s);
    double lo, hi;
    if (runs > 4 && uniform(p, &lo, &hi)) {
        printf(" every class %.0f-%.0f %% (no pattern)\n", lo, hi);
        return;
    }
    runs = 0;
    for (size_t k = 0, e; k < p->n; k = e) {
        e = run_end(p, k, s, sizeof s);
        if (++runs > 16) {
            printf(" ... (%zu classes in all)", p->n);
            break;
        }
        if (e - k == 1)
            printf("%s %zu %s", runs > 1 ? "," : "", k, s);
        else
            printf("%s %zu-%zu %s", runs > 1 ? "," : "", k, e - 1, s);
    }
    putchar('\n');
}

static void describe(const char *label, const char *dir, const dump_t *d) {
    printf("%s %s: %s on %s\n", label, dir, jo_str_or(d->meta, "variant", "variant not recorded"),
           jo_str_or(d->meta, "backend", "backend not recorded"));
}

static int compare(const char *a_dir, const dump_t *a, const char *b_dir, const dump_t *b,
                   double large_frac) {
    const size_t B = (size_t)a->B, H = (size_t)a->H, S = (size_t)a->S, D = (size_t)a->D, slice = S * D;
    static const char *const names[P_COUNT] = {
        "query row mod 16:", "query row mod 64:", "query tile of 64:", "query tile of 128:",
        "column mod 8:",     "column mod 16:",    "column:",           "head:",
        "batch entry:"};
    const size_t sizes[P_COUNT] = {16, 64, (S + 63) / 64, (S + 127) / 128, 8, 16, D, H, B};
    part_t parts[P_COUNT];
    bool ok = true;
    for (int p = 0; p < P_COUNT; p++) {
        parts[p] =
            (part_t){names[p], sizes[p], calloc(sizes[p], sizeof(size_t)), calloc(sizes[p], sizeof(size_t))};
        ok &= parts[p].all && parts[p].large;
    }
    size_t n_large = 0, n_nonfinite = 0, n_diff = 0;
    double num = 0, den = 0, worst = 0, worst_rel = 0;
    for (size_t bh = 0; ok && bh < B * H; bh++) {
        const uint16_t *oa = a->o + bh * slice, *ob = b->o + bh * slice;
        double scale = 0; /* the RMS of B over the slice */
        for (size_t i = 0; i < slice; i++)
            scale += (double)half_to_float(ob[i]) * (double)half_to_float(ob[i]);
        scale = sqrt(scale / (double)slice);
        for (size_t i = 0; i < slice; i++) {
            const double x = half_to_float(oa[i]), y = half_to_float(ob[i]), e = fabs(x - y);
            n_diff += oa[i] != ob[i];
            const bool bad = !isfinite(x) || e > large_frac * scale;
            n_nonfinite += !isfinite(x);
            if (isfinite(x) && isfinite(y)) {
                num += e * e, den += y * y;
                if (e > worst) worst = e, worst_rel = scale > 0 ? e / scale : INFINITY;
            }
            n_large += bad;
            for (int p = 0; p < P_COUNT; p++) {
                const size_t k = class_of(p, bh / H, bh % H, i / D, i % D);
                parts[p].all[k]++;
                parts[p].large[k] += bad;
            }
        }
    }
    if (ok) {
        const size_t n = B * H * slice;
        describe("A", a_dir, a);
        describe("B", b_dir, b);
        printf("problem: %s (%zu,%zu,%zu,%zu%s), seed %s, %s, %s\n",
               jo_str_or(jo(a->meta, "shape"), "name", "shape not named"), B, H, S, D,
               cJSON_IsTrue(jo(jo(a->meta, "shape"), "causal")) ? ", causal" : "",
               jo_str_or(a->meta, "seed", "?"), jo_str_or(a->meta, "codec", "?"),
               jo_str_or(a->meta, "dist", "?"));
        if (n_diff == 0) {
            printf("identical: none of the %zu elements differs\n", n);
        } else {
            printf("%zu of %zu elements differ; rel-L2 of A against B %.3g; largest |A - B| %.4g (%.3g of "
                   "its slice's RMS of B)\n",
                   n_diff, n, den > 0 ? sqrt(num / den) : (num > 0 ? INFINITY : 0.0), worst, worst_rel);
            printf("large: %zu (%.2f %%), %zu of them not finite in A (a difference above %g x the RMS of B "
                   "over its (b,h) slice, or not finite)\n",
                   n_large, 100.0 * (double)n_large / (double)n, n_nonfinite, large_frac);
            printf("share of large elements by\n");
            for (int p = 0; p < P_COUNT; p++) print_part(&parts[p]);
        }
    } else {
        fprintf(stderr, "sdpa-report: dump-diff: out of memory\n");
    }
    for (int p = 0; p < P_COUNT; p++) free(parts[p].all), free(parts[p].large);
    return ok ? 0 : 1;
}

int dump_diff_main(int argc, char **argv) {
    const char *dir[2] = {NULL, NULL};
    double large_frac = DUMP_DIFF_LARGE;
    int nd = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--large")) {
            char *end = NULL;
            if (i + 1 >= argc) return usage("--large: a fraction (0, 1]");
            large_frac = strtod(argv[++i], &end);
            if (!end || *end || !(large_frac > 0 && large_frac <= 1))
                return usage("--large: a fraction (0, 1]");
        } else if (nd < 2) {
            dir[nd++] = argv[i];
        } else {
            return usage("more than two dump directories");
        }
    }
    if (nd != 2) return usage("two dump directories, A and B");
    dump_t a = {0}, b = {0};
    int rc = 1;
    if (dump_load(dir[0], &a) == 0 && dump_load(dir[1], &b) == 0 && same_problem(dir[0], &a, &b) == 0)
        rc = compare(dir[0], &a, dir[1], &b, large_frac);
    dump_free(&a);
    dump_free(&b);
    return rc;
}
