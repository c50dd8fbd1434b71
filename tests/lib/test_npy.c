/* .npy v1.0 writer and header reader (host/lib/npy.c). Checked against the format description
 * (numpy.lib.format): magic, version, little-endian header length, the dict literal padded with
 * spaces to a 64-byte boundary and ended by '\n', then little-endian data. numpy itself is only
 * an optional extra check (skipped when python3 with numpy is not installed). */
#include "testutil.h"

#include <sys/stat.h>

#include "fileio.h"
#include "half.h"
#include "npy.h"

static unsigned char *read_file(const char *path, size_t *len) {
    char *t = file_read_all(path, len);
    assert_non_null(t);
    return (unsigned char *)t;
}

/* The header dict of file bytes b starts with dict and is then padded with spaces. */
static void assert_dict(const unsigned char *b, const char *dict) {
    size_t n = strlen(dict), hlen = b[8] | (size_t)b[9] << 8;
    assert_memory_equal(b + 10, dict, n);
    for (size_t i = 10 + n; i < 10 + hlen - 1; i++) assert_int_equal(b[i], ' ');
    assert_int_equal(b[10 + hlen - 1], '\n');
    assert_int_equal((10 + hlen) % 64, 0);
}

static void test_f4_layout(void **state) {
    (void)state;
    char *dir = test_tmpdir();
    char err[512] = "", path[600];
    snprintf(path, sizeof path, "%s/x.npy", dir);
    float data[24];
    for (int i = 0; i < 24; i++) data[i] = (float)i - 0.5f;
    data[0] = 1.0f;
    const size_t shape[3] = {2, 3, 4};
    assert_int_equal(npy_write(path, NPY_F4, shape, 3, data, err, sizeof err), 0);
    size_t len;
    unsigned char *b = read_file(path, &len);
    assert_memory_equal(b, "\x93NUMPY\x01\x00", 8);
    size_t hlen = b[8] | (size_t)b[9] << 8;
    assert_dict(b, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3, 4), }");
    assert_int_equal(len, 10 + hlen + 24 * 4);
    const unsigned char one_le[4] = {0x00, 0x00, 0x80, 0x3f}; /* 1.0f, little-endian */
    assert_memory_equal(b + 10 + hlen, one_le, 4);
    const unsigned char last_le[4] = {0x00, 0x00, 0xb4, 0x41}; /* 23 - 0.5 = 22.5f */
    assert_memory_equal(b + len - 4, last_le, 4);
    free(b);

    npy_header_t h;
    assert_int_equal(npy_read_header(path, &h, err, sizeof err), 0);
    assert_string_equal(h.descr, "<f4");
    assert_int_equal(h.fortran_order, 0);
    assert_int_equal(h.ndim, 3);
    assert_int_equal(h.shape[0], 2);
    assert_int_equal(h.shape[1], 3);
    assert_int_equal(h.shape[2], 4);
    assert_int_equal(h.header_len, hlen);
    assert_int_equal(h.data_offset, 10 + hlen);
    /* Never overwrites. */
    assert_int_equal(npy_write(path, NPY_F4, shape, 3, data, err, sizeof err), -1);
    assert_contains(err, "exists");
    assert_int_equal(test_count_entries(dir), 1);
    test_rmdir(dir);
}

static void test_u1_f2_f8_and_ranks(void **state) {
    (void)state;
    char *dir = test_tmpdir();
    char err[512] = "";
    npy_header_t h;
    size_t len;

    const uint8_t codes[5] = {0, 0x7e, 0x80, 0xfe, 255};
    const size_t s1[1] = {5};
    assert_int_equal(npy_write(test_path(dir, "u1.npy"), NPY_U1, s1, 1, codes, err, sizeof err), 0);
    unsigned char *b = read_file(test_path(dir, "u1.npy"), &len);
    assert_dict(b, "{'descr': '|u1', 'fortran_order': False, 'shape': (5,), }");
    assert_memory_equal(b + len - 5, codes, 5);
    free(b);
    assert_int_equal(npy_read_header(test_path(dir, "u1.npy"), &h, err, sizeof err), 0);
    assert_string_equal(h.descr, "|u1");
    assert_int_equal(h.ndim, 1);
    assert_int_equal(h.shape[0], 5);

    const uint16_t halves[2][2] = {{0x3c00, 0xc000}, {0x7bff, 0x0001}};
    const size_t s2[2] = {2, 2};
    assert_int_equal(npy_write(test_path(dir, "f2.npy"), NPY_F2, s2, 2, halves, err, sizeof err), 0);
    b = read_file(test_path(dir, "f2.npy"), &len);
    const unsigned char f2_le[8] = {0x00, 0x3c, 0x00, 0xc0, 0xff, 0x7b, 0x01, 0x00};
    assert_memory_equal(b + len - 8, f2_le, 8);
    assert_int_equal(b[8] | b[9] << 8, 118); /* 10 + 118 = 128 */
    free(b);
    assert_int_equal(npy_read_header(test_path(dir, "f2.npy"), &h, err, sizeof err), 0);
    assert_string_equal(h.descr, "<f2");
    assert_int_equal(h.ndim, 2);

    const double d = -2.0;
    assert_int_equal(npy_write(test_path(dir, "f8.npy"), NPY_F8, NULL, 0, &d, err, sizeof err), 0);
    assert_int_equal(npy_read_header(test_path(dir, "f8.npy"), &h, err, sizeof err), 0);
    assert_int_equal(h.ndim, 0);
    b = read_file(test_path(dir, "f8.npy"), &len);
    assert_dict(b, "{'descr': '<f8', 'fortran_order': False, 'shape': (), }");
    assert_int_equal(len, h.data_offset + 8);
    assert_int_equal(b[len - 1], 0xc0);
    free(b);

    /* An empty array is valid. */
    const size_t s0[2] = {0, 64};
    assert_int_equal(npy_write(test_path(dir, "empty.npy"), NPY_F4, s0, 2, NULL, err, sizeof err), 0);
    test_rmdir(dir);
}

static void test_errors(void **state) {
    (void)state;
    char *dir = test_tmpdir();
    char err[512] = "";
    const size_t s[1] = {1};
    const float x = 1;
    assert_int_equal(npy_write(test_path(dir, "a.npy"), "<i4", s, 1, &x, err, sizeof err), -1);
    assert_contains(err, "unsupported dtype '<i4'");
    assert_int_equal(npy_write(test_path(dir, "a.npy"), NPY_F4, s, 9, &x, err, sizeof err), -1);
    npy_header_t h;
    char path[600];
    snprintf(path, sizeof path, "%s/junk.npy", dir);
    assert_int_equal(file_write_new(path, "not numpy at all", 16, err, sizeof err), 0);
    assert_int_equal(npy_read_header(path, &h, err, sizeof err), -1);
    assert_contains(err, path);
    assert_contains(err, "magic");
    snprintf(path, sizeof path, "%s/absent.npy", dir);
    assert_int_equal(npy_read_header(path, &h, err, sizeof err), -1);
    assert_contains(err, "cannot open");
    test_rmdir(dir);
}

/* A Python that has numpy: the one on PATH, else the system's (make deps installs Debian's
 * python3-numpy, which a pyenv or venv python3 earlier on PATH does not see); NULL when neither. */
static const char *numpy_python(void) {
    static const char *const candidates[] = {"python3", "/usr/bin/python3"};
    char cmd[256];
    for (size_t i = 0; i < sizeof candidates / sizeof *candidates; i++) {
        snprintf(cmd, sizeof cmd, "%s -c 'import numpy' >/dev/null 2>&1", candidates[i]);
        if (system(cmd) == 0) return candidates[i];
    }
    return NULL;
}

/* Optional: numpy loads what we wrote, with the same values. */
static void test_numpy_cross_check(void **state) {
    (void)state;
    const char *py = numpy_python();
    if (!py) {
        skip(); /* reported as a skip, not a pass */
        return;
    }
    char *dir = test_tmpdir();
    char err[512] = "", cmd[2048];
    float f[6] = {1.5f, -2.0f, 0.25f, 1e-3f, 448.0f, -0.0f};
    uint16_t hb[3] = {half_from_float(0.1f), 0x7c00, 0x8001};
    const size_t s23[2] = {2, 3}, s3[1] = {3};
    assert_int_equal(npy_write(test_path(dir, "f.npy"), NPY_F4, s23, 2, f, err, sizeof err), 0);
    assert_int_equal(npy_write(test_path(dir, "h.npy"), NPY_F2, s3, 1, hb, err, sizeof err), 0);
    snprintf(cmd, sizeof cmd,
             "%s -c \"import numpy as np, sys; d=sys.argv[1];"
             " f=np.load(d+'/f.npy'); h=np.load(d+'/h.npy');"
             " ok = f.shape==(2,3) and f.dtype==np.float32 and "
             "list(f.ravel())==[1.5,-2.0,0.25,np.float32(1e-3),448.0,0.0]"
             " and h.dtype==np.float16 and list(h.view(np.uint16))==[%u,0x7c00,0x8001];"
             " sys.exit(0 if ok else 1)\" %s",
             py, hb[0], dir);
    assert_int_equal(system(cmd), 0);
    test_rmdir(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f4_layout),
        cmocka_unit_test(test_u1_f2_f8_and_ranks),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_numpy_cross_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
