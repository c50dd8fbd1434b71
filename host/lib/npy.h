/* NumPy .npy files, format version 1.0 (https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html):
 * magic "\x93NUMPY", version 1.0, little-endian header length, a Python dict literal
 * {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), } padded with spaces to a multiple of
 * 64 bytes and ended by '\n', then the raw little-endian data in C order. */
#ifndef NPY_H
#define NPY_H

#include <stddef.h>
#include <stdint.h>

/* dtype descriptors used by the artifact */
#define NPY_U1 "|u1"
#define NPY_F2 "<f2"
#define NPY_F4 "<f4"
#define NPY_F8 "<f8"

/* Writes a new file (never overwrites; fileio.h). data is in host byte order and converted to
 * little-endian. Returns 0 or -1 with a message in err. */
int npy_write(const char *path, const char *descr, const size_t *shape, int ndim, const void *data, char *err,
              size_t errlen);

/* header_len is the HEADER_LEN field (the dict, its padding and the '\n'); data_offset (added) is
 * where the data start: 10 + header_len for version 1.0, 12 + header_len for 2.0. */
typedef struct {
    char descr[8];
    int fortran_order;
    int ndim;
    size_t shape[8];
    size_t header_len;
    size_t data_offset;
} npy_header_t;
/* Parses the header of an .npy file; 0 or -1 with a message. */
int npy_read_header(const char *path, npy_header_t *h, char *err, size_t errlen);

#endif
