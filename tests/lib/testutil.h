/* Shared helpers of the host unit tests (cmocka): includes in cmocka's required order, a
 * double-precision closeness assertion (cmocka 1.1.5's assert_float_equal works in float), and
 * scratch directories that the tests remove again. */
#ifndef TESTUTIL_H
#define TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* |a - b| <= tol, printing both values on failure. NaN never passes. */
#define assert_close(a, b, tol)                                                                              \
    do {                                                                                                     \
        double a_ = (a), b_ = (b), t_ = (tol);                                                               \
        if (!(fabs(a_ - b_) <= t_))                                                                          \
            fail_msg("%s = %.17g, expected %s = %.17g (tolerance %.3g)", #a, a_, #b, b_, t_);                \
    } while (0)

/* Bit-identical doubles (exact results, or NaN where NaN is expected). */
#define assert_same_double(a, b)                                                                             \
    do {                                                                                                     \
        double a_ = (a), b_ = (b);                                                                           \
        if (memcmp(&a_, &b_, sizeof a_) != 0)                                                                \
            fail_msg("%s = %a, expected %s = %a (bit for bit)", #a, a_, #b, b_);                             \
    } while (0)

/* a contains the substring b. */
#define assert_contains(a, b)                                                                                \
    do {                                                                                                     \
        const char *a_ = (a), *b_ = (b);                                                                     \
        if (!a_ || !strstr(a_, b_)) fail_msg("'%s' does not contain '%s'", a_ ? a_ : "(null)", b_);          \
    } while (0)

/* A fresh empty directory under $TMPDIR (or /tmp); the caller frees the name. */
static inline char *test_tmpdir(void) {
    const char *base = getenv("TMPDIR");
    char path[512];
    snprintf(path, sizeof path, "%s/fp8sdpa-test-XXXXXX", base && *base ? base : "/tmp");
    char *dir = mkdtemp(path) ? strdup(path) : NULL;
    assert_non_null(dir);
    return dir;
}

/* Entries of a directory other than . and .. */
static inline int test_count_entries(const char *dir) {
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(d);
    return n;
}

/* Removes the files of a flat scratch directory, then the directory; frees the name. */
static inline void test_rmdir(char *dir) {
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        char path[1024];
        while ((e = readdir(d))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            if (unlink(path) != 0) rmdir(path);
        }
        closedir(d);
    }
    rmdir(dir);
    free(dir);
}

/* dir + "/" + name in a static buffer (one at a time). */
static inline const char *test_path(const char *dir, const char *name) {
    static char buf[1024];
    snprintf(buf, sizeof buf, "%s/%s", dir, name);
    return buf;
}

#endif
