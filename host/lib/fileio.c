/* Atomic, no-clobber file writes (fileio.h). The data go to a temporary file in the target's own
 * directory (so that link/rename stay within one file system), named "<path>.tmp.<pid>.<n>"
 * (ignored by git: *.tmp.*) and created with O_EXCL, so two writers never share one. It is
 * fsynced before it gets its final name, and removed on every path out.
 *
 * The final name of a new file: link(2), which refuses an existing name. Some file systems refuse
 * hard links altogether (EPERM on some FUSE and 9p mounts and in sandboxes, ENOTSUP, EXDEV): then
 * renameat2(RENAME_NOREPLACE), as atomic and as refusing; where that flag is unsupported too
 * (EINVAL, ENOSYS), the name is claimed with an empty O_EXCL file and the complete temporary file
 * renamed over that claim. The last way also never replaces someone else's file; a reader may see
 * the empty claim for that instant, never a partial file. */
#define _GNU_SOURCE /* renameat2 */
#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Formats "<path>: <what>: <strerror>" into err, keeping errno. */
static void set_err(char *err, size_t errlen, const char *path, const char *what, int e) {
    if (err && errlen) snprintf(err, errlen, "%s: %s: %s", path, what, strerror(e));
    errno = e;
}

static int write_all(int fd, const void *data, size_t len) {
    const char *p = data;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

/* fsync of the directory holding path, so that the new name itself is durable. Best effort: some
 * file systems refuse fsync on a directory, which does not make the write fail. */
static void sync_parent(const char *path) {
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    if (!dir) return;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    free(dir);
}

/* The temporary file being written, for the signal handler (file_signals_install): the name is
 * copied before the file is created and the flag cleared once it is gone, so the handler never
 * removes a file this process does not own. One at a time: the tools write from one thread. */
static char pending_tmp[4096];
static volatile sig_atomic_t pending_set;

static void pending_begin(const char *tmp) {
    pending_set = 0;
    snprintf(pending_tmp, sizeof pending_tmp, "%s", tmp);
    pending_set = 1;
}

/* Lock-free atomics: reading them is async-signal-safe (C11 7.14.1.1). The time is stored before
 * the pointer, so a handler that sees a note sees a time no older than it. */
static _Atomic(const char *) signal_note;
static _Atomic(int64_t) signal_note_ns; /* CLOCK_MONOTONIC when the note was set */

static int64_t monotonic_ns(void) { /* clock_gettime is async-signal-safe (POSIX) */
    struct timespec t;
    return clock_gettime(CLOCK_MONOTONIC, &t) == 0 ? (int64_t)t.tv_sec * 1000000000 + t.tv_nsec : -1;
}

void file_signals_note(const char *line) {
    if (line) atomic_store_explicit(&signal_note_ns, monotonic_ns(), memory_order_relaxed);
    atomic_store_explicit(&signal_note, line, memory_order_release);
}

/* The note without its newline, then ", for N s\n": how long it had stood when the signal came
 * (whole seconds), in one write; no snprintf, which is not async-signal-safe. */
static void write_note(const char *note) {
    char line[1024], digits[24];
    const size_t room = sizeof line - 32; /* the tail's ", for " + 20 digits + " s\n" */
    size_t n = 0, d = 0;
    while (note[n] && n < room) line[n] = note[n], n++;
    if (n && line[n - 1] == '\n') n--;
    const int64_t set = atomic_load_explicit(&signal_note_ns, memory_order_relaxed), now = monotonic_ns();
    uint64_t s = set >= 0 && now >= set ? (uint64_t)(now - set) / 1000000000u : 0;
    do digits[d++] = (char)('0' + s % 10);
    while ((s /= 10) && d < sizeof digits);
    for (const char *t = ", for "; *t;) line[n++] = *t++;
    while (d) line[n++] = digits[--d];
    line[n++] = ' ', line[n++] = 's', line[n++] = '\n';
    if (write(STDERR_FILENO, line, n) < 0) { /* nothing more can be done in a handler */
    }
}

static void on_signal(int sig) {
    if (pending_set) unlink(pending_tmp); /* async-signal-safe */
    const char *note = atomic_load_explicit(&signal_note, memory_order_acquire);
    if (note) write_note(note);
    _exit(128 + sig);
}

int file_signals_install(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGINT, &sa, NULL) != 0 || sigaction(SIGTERM, &sa, NULL) != 0) return -1;
    return signal(SIGXFSZ, SIG_IGN) == SIG_ERR ? -1 : 0;
}

/* Creates and fills the temporary file; its name goes to tmp (size tmplen). */
static int write_temp(const char *path, const void *data, size_t len, char *tmp, size_t tmplen, char *err,
                      size_t errlen) {
    static atomic_uint counter; /* distinct names for concurrent writers in one process */
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        unsigned k = atomic_fetch_add(&counter, 1u);
        int n = snprintf(tmp, tmplen, "%s.tmp.%ld.%u", path, (long)getpid(), k);
        if (n < 0 || (size_t)n >= tmplen) {
            set_err(err, errlen, path, "path too long", ENAMETOOLONG);
            return -1;
        }
        pending_begin(tmp);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0) pending_set = 0; /* on EEXIST the name is not ours to remove */
        if (fd < 0 && errno != EEXIST) {
            set_err(err, errlen, path, "cannot create a temporary file beside it", errno);
            return -1;
        }
    }
    if (fd < 0) {
        set_err(err, errlen, path, "no free temporary file name beside it", EEXIST);
        return -1;
    }
    if (write_all(fd, data, len) != 0 || fsync(fd) != 0) {
        int e = errno;
        close(fd);
        unlink(tmp);
        set_err(err, errlen, path, "cannot write the temporary file", e);
        return -1;
    }
    if (close(fd) != 0) {
        int e = errno;
        unlink(tmp);
        set_err(err, errlen, path, "cannot close the temporary file", e);
        return -1;
    }
    return 0;
}

/* Whether link(2)'s error means "this file system has no hard links", not "this name". */
static bool no_hard_links(int e) { return e == EPERM || e == ENOTSUP || e == EOPNOTSUPP || e == EXDEV; }

/* Gives the complete temporary file tmp the name path unless path exists (module comment):
 * 0, or -1 with errno (EEXIST when the name is taken). On success tmp is gone or, after link(2),
 * still there for the caller to remove. */
static int name_new(const char *tmp, const char *path) {
    if (link(tmp, path) == 0) return 0;
    if (!no_hard_links(errno)) return -1;
    if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0) return 0;
    if (errno != EINVAL && errno != ENOSYS && !no_hard_links(errno)) return -1;
    /* SIGINT/SIGTERM wait until the claim is the complete file or gone again, so that an
     * interrupted writer leaves no empty claim behind (file_signals_install). */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    const int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    int rc = -1;
    if (fd >= 0) { /* else EEXIST: the name is someone else's */
        close(fd);
        rc = rename(tmp, path);
        if (rc != 0) {
            const int e = errno;
            unlink(path); /* our own empty claim */
            errno = e;
        }
    }
    const int e = errno;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = e;
    return rc;
}

/* Writes a temporary file, then gives it the final name: name_new (fails with EEXIST if the name
 * is taken) or rename(2) (replaces). The temporary name is removed in both cases. */
static int write_atomic(const char *path, const void *data, size_t len, int replace, char *err,
                        size_t errlen) {
    if (!path || !*path || (!data && len)) {
        set_err(err, errlen, path ? path : "(null)", "invalid arguments", EINVAL);
        return -1;
    }
    size_t tmplen = strlen(path) + 64;
    char *tmp = malloc(tmplen);
    if (!tmp) {
        set_err(err, errlen, path, "out of memory", ENOMEM);
        return -1;
    }
    int rc = write_temp(path, data, len, tmp, tmplen, err, errlen);
    if (rc == 0) {
        if (replace) {
            rc = rename(tmp, path);
            if (rc != 0) set_err(err, errlen, path, "cannot rename the temporary file to it", errno);
        } else {
            rc = name_new(tmp, path);
            if (rc != 0 && errno == EEXIST)
                set_err(err, errlen, path, "exists; refusing to overwrite it", EEXIST);
            else if (rc != 0)
                set_err(err, errlen, path, "cannot create", errno);
        }
        int e = errno;
        if (!replace || rc != 0) unlink(tmp);
        errno = e;
        if (rc == 0) sync_parent(path);
    }
    pending_set = 0; /* the temporary name is gone on every path here */
    free(tmp);
    return rc == 0 ? 0 : -1;
}

int file_write_new(const char *path, const void *data, size_t len, char *err, size_t errlen) {
    return write_atomic(path, data, len, 0, err, errlen);
}

int file_write_replace(const char *path, const void *data, size_t len, char *err, size_t errlen) {
    return write_atomic(path, data, len, 1, err, errlen);
}

/* stat first, so that a fifo or a device is refused without being opened; O_NONBLOCK and the
 * fstat recheck, so that one swapped in meanwhile cannot block the open or pass as a file. */
int file_open_regular(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) return -1;
    if (!S_ISREG(st.st_mode)) {
        errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
        return -1;
    }
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return -1;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || fcntl(fd, F_SETFL, 0) != 0) {
        close(fd);
        errno = EINVAL;
        return -1;
    }
    return fd;
}

char *file_read_all(const char *path, size_t *len) {
    int fd = file_open_regular(path);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "rb");
    if (!f) {
        int e = errno;
        if (fd >= 0) close(fd);
        errno = e;
        return NULL;
    }
    char *buf = file_read_stream(f, len);
    int e = errno;
    fclose(f);
    errno = e;
    return buf;
}

char *file_read_stream(FILE *f, size_t *len) {
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n + 1 >= cap) {
            char *nb = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                errno = ENOMEM;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t r = fread(buf + n, 1, cap - 1 - n, f);
        n += r;
        if (r == 0) {
            if (ferror(f)) {
                int e = errno ? errno : EIO;
                free(buf);
                buf = NULL;
                errno = e;
            }
            break;
        }
    }
    int e = errno;
    if (!buf) {
        errno = e ? e : ENOMEM;
        return NULL;
    }
    buf[n] = '\0';
    if (len) *len = n;
    return buf;
}

/* Creates each missing component from the left; an existing component must be a directory. */
int mkdir_p(const char *path) {
    if (!path || !*path) {
        errno = EINVAL;
        return -1;
    }
    char *p = strdup(path);
    if (!p) return -1;
    int rc = 0;
    for (char *s = p + 1;; s++) {
        if (*s != '/' && *s != '\0') continue;
        char c = *s;
        *s = '\0';
        if (mkdir(p, 0777) != 0) {
            struct stat st;
            if (errno != EEXIST || stat(p, &st) != 0 || !S_ISDIR(st.st_mode)) {
                if (errno == EEXIST) errno = ENOTDIR;
                rc = -1;
            }
        }
        *s = c;
        if (rc != 0 || c == '\0') break;
    }
    free(p);
    return rc;
}
