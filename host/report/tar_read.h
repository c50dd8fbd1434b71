/* A strict reader of an uncompressed tar stream (ustar, GNU and pax headers), for `make ingest`:
 * the same walk lists a campaign tarball before anything is written and extracts it after, so the
 * checks of the listing (member types, names, sizes, one top directory) hold during extraction
 * too. Accepted: regular files and directories only, each name a plain relative path
 * (names.h) under one top directory, listed once, no file used as a directory; a GNU long name
 * ('L') or a pax header ('x') with the keys path, size, mtime, atime, ctime, uid, gid, uname,
 * gname; an end-of-archive block followed by zeros only. Refused, naming the member: links,
 * devices, fifos, sparse and multi-volume members (GNU 'S', GNU.sparse pax keys), any other pax
 * key, a bad header checksum, a file or a whole listing over the limits (checked from each header
 * before its data is read), a stream that ends early. Modes, owners and times are never applied. */
#ifndef TAR_READ_H
#define TAR_READ_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "names.h"

typedef struct {
    uint64_t file_bytes;  /* one regular file's size */
    uint64_t total_bytes; /* the sum of every file's size */
    uint64_t members;     /* files and directories */
} tar_limits_t;

typedef struct {
    const char *name; /* validated relative path, without a trailing '/' */
    bool dir;
    uint64_t size; /* 0 for a directory */
} tar_member_t;

/* What the walk does with each member; any callback may be NULL (a listing). Each returns 0, or
 * -1 with a message in err that stops the walk. */
typedef struct {
    int (*member)(void *ctx, const tar_member_t *m, char *err, size_t n);     /* before its data */
    int (*data)(void *ctx, const void *buf, size_t len, char *err, size_t n); /* its data, in order */
    int (*end)(void *ctx, const tar_member_t *m, char *err, size_t n);        /* after its data */
    void *ctx;
} tar_sink_t;

/* Reads up to n bytes; returns the count, 0 at the end, -1 on error (errno set). */
typedef ssize_t (*tar_read_fn)(void *ctx, void *buf, size_t n);

typedef struct {
    char top[NAME_MAX_LEN + 1]; /* the one top directory */
    uint64_t members, files, bytes;
    unsigned char digest[32]; /* SHA-256 of the listing (type, size, name per member) */
} tar_summary_t;

/* Walks the stream; stop (may be NULL) is polled between blocks (a signal handler sets it; the
 * walk then fails with "interrupted"). 0, or -1 with a message in err. */
int tar_walk(tar_read_fn rd, void *rctx, const tar_limits_t *lim, const tar_sink_t *sink, tar_summary_t *sum,
             volatile sig_atomic_t *stop, char *err, size_t n);

#endif
