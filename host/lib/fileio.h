/* Files are written atomically and never overwrite earlier results.
 * file_write_new: writes to a temporary file in the target's directory, fsyncs it, then links it
 * to the final name with link(2), which fails if the name exists (EEXIST): a concurrent or
 * earlier file is never replaced, and a reader never sees a half-written file. Where the file
 * system refuses hard links (EPERM, ENOTSUP, EXDEV: some FUSE, 9p and sandboxed mounts), the name
 * is given by renameat2(RENAME_NOREPLACE), else by an O_EXCL claim renamed over (fileio.c), with
 * the same refusal of an existing name. */
#ifndef FILEIO_H
#define FILEIO_H

#include <stddef.h>
#include <stdio.h>

/* Returns 0, or -1 with errno set (EEXIST if path exists) and a message in err (may be NULL). */
int file_write_new(const char *path, const void *data, size_t len, char *err, size_t errlen);
/* Same, but replaces an existing file atomically (rename(2)); for generated, derived files only. */
int file_write_replace(const char *path, const void *data, size_t len, char *err, size_t errlen);
/* Opens a regular file for reading; a fifo, device or directory is refused without blocking
 * (EINVAL; EISDIR for a directory): every reader of a file that may have arrived from elsewhere
 * goes through it. A descriptor, or -1 with errno set. */
int file_open_regular(const char *path);
/* Reads a whole regular file (NUL-terminated, file_open_regular); NULL with errno set on failure. */
char *file_read_all(const char *path, size_t *len);
/* The same from an open stream (stdin), which it leaves open. */
char *file_read_stream(FILE *f, size_t *len);
/* mkdir -p; 0 or -1 with errno. */
int mkdir_p(const char *path);
/* For programs that write results (sdpa-bench, sdpa-report): on SIGINT or SIGTERM, removes the
 * temporary file of a write in progress and exits with 128 + the signal (130, 143), so an
 * interrupted program leaves no partial file; SIGXFSZ is ignored, so that a file-size limit
 * (ulimit -f) makes the write fail with EFBIG and the usual message instead of killing the
 * process. Call once, early in main; 0 or -1 with errno. */
int file_signals_install(void);
/* A line (ending in a newline) the handler above writes to stderr before it exits, naming what the
 * program was doing and, appended before the newline, for how long: ", for N s" (whole seconds
 * since this call). sdpa-bench sets "sdpa-bench: stopped by a signal while timing V on SHAPE..."
 * before each launch (and clears it while the host checks an output or pauses), so that a step
 * stopped for a hang names the kernel in flight and how long it had run (the campaign's step guard
 * reads both: a launch of a second is a slow step, not a hang). NULL clears it. The text is not
 * copied: it must outlive the next call. */
void file_signals_note(const char *line);

#endif
