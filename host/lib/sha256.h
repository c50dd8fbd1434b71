/* SHA-256 (FIPS 180-4), for the run manifest (data/SCHEMA.md, kind run-manifest): anyone can check
 * a result file with sha256sum, and the artifact needs no crypto library for it. */
#ifndef SHA256_H
#define SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t h[8];
    uint64_t bytes; /* message length so far */
    unsigned char block[64];
    size_t used; /* bytes in block */
} sha256_t;

void sha256_init(sha256_t *s);
void sha256_update(sha256_t *s, const void *data, size_t len);
void sha256_final(sha256_t *s, unsigned char digest[32]);
/* One-shot digest as 64 lowercase hex digits and a NUL. */
void sha256_hex(const void *data, size_t len, char hex[65]);
/* Digest of a file's contents; 0, or -1 with errno set. */
int sha256_file_hex(const char *path, char hex[65]);

#endif
