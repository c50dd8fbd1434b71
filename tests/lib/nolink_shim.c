/* LD_PRELOAD shim: a file system that refuses hard links, as some FUSE and 9p mounts and
 * sandboxes do (tests/lib/nolink.sh). link(2) and linkat(2) fail with EPERM, or with the errno
 * named by NOLINK_ERRNO (EXDEV, ENOTSUP); with NOLINK_RENAME2=EINVAL renameat2 fails too, as on a
 * file system without RENAME_NOREPLACE. Each intercepted call appends one line to the file
 * NOLINK_LOG (when set), so a test can tell which way a writer took. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void note(const char *what) {
    const char *log = getenv("NOLINK_LOG");
    FILE *f = log && *log ? fopen(log, "a") : NULL;
    if (!f) return;
    fprintf(f, "%s\n", what);
    fclose(f);
}

static int refuse(void) {
    const char *e = getenv("NOLINK_ERRNO");
    int code = EPERM;
    if (e && !strcmp(e, "EXDEV")) code = EXDEV;
    if (e && !strcmp(e, "ENOTSUP")) code = ENOTSUP;
    note(code == EPERM ? "link EPERM" : code == EXDEV ? "link EXDEV" : "link ENOTSUP");
    errno = code;
    return -1;
}

int link(const char *from, const char *to) {
    (void)from;
    (void)to;
    return refuse();
}

int linkat(int fd1, const char *from, int fd2, const char *to, int flags) {
    (void)fd1;
    (void)from;
    (void)fd2;
    (void)to;
    (void)flags;
    return refuse();
}

int renameat2(int fd1, const char *from, int fd2, const char *to, unsigned flags) {
    const char *r = getenv("NOLINK_RENAME2");
    if (r && !strcmp(r, "EINVAL")) {
        note("renameat2 EINVAL");
        errno = EINVAL;
        return -1;
    }
    int (*real)(int, const char *, int, const char *, unsigned) =
        (int (*)(int, const char *, int, const char *, unsigned))dlsym(RTLD_NEXT, "renameat2");
    if (!real) {
        errno = ENOSYS;
        return -1;
    }
    const int rc = real(fd1, from, fd2, to, flags);
    note(rc == 0 ? "renameat2 ok" : "renameat2 failed");
    return rc;
}
