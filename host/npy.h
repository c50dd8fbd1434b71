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
int npy_write(const char *path, const char *descr, const size_t *shape, int ndim, const void *data,
              char *err, size_t errlen);

typedef struct { char descr[8]; int fortran_order; int ndim; size_t shape[8]; size_t header_len; } npy_header_t;
/* Parses the header of an .npy file; 0 or -1 with a message. */
int npy_read_header(const char *path, npy_header_t *h, char *err, size_t errlen);

#endif
