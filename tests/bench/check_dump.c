/* Validates a --dump directory: every .npy file has the documented dtype and shape (read with
 * npy_read_header) and exactly the bytes its header promises; meta.json names the run.
 *   check_dump DIR B H S D
 * Exit 0 when valid, 1 with the first problem. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fileio.h"
#include "npy.h"

static int check_npy(const char *dir, const char *name, const char *descr, size_t esize, const size_t *shape,
                     int ndim) {
    char path[4096], err[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    npy_header_t h;
    if (npy_read_header(path, &h, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    size_t count = 1;
    int ok = strcmp(h.descr, descr) == 0 && !h.fortran_order && h.ndim == ndim;
    for (int i = 0; ok && i < ndim; i++) {
        ok = h.shape[i] == shape[i];
        count *= shape[i];
    }
    struct stat st;
    if (!ok || stat(path, &st) != 0 || (size_t)st.st_size != h.data_offset + count * esize) {
        fprintf(stderr, "%s: dtype %s, rank %d or size %lld does not match %s with %zu elements\n", path,
                h.descr, h.ndim, (long long)st.st_size, descr, count);
        return -1;
    }
    return 0;
}

static int check_meta(const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/meta.json", dir);
    char *text = file_read_all(path, NULL);
    cJSON *m = text ? cJSON_Parse(text) : NULL;
    free(text);
    static const char *const keys[] = {"variant", "codec", "dist",   "softmax_scale",
                                       "shape",   "seed",  "backend"};
    int rc = m ? 0 : -1;
    for (size_t i = 0; m && i < sizeof keys / sizeof keys[0]; i++)
        if (!cJSON_GetObjectItemCaseSensitive(m, keys[i])) rc = -1;
    if (rc) fprintf(stderr, "%s: missing, unreadable or incomplete\n", path);
    cJSON_Delete(m);
    return rc;
}

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: check_dump DIR B H S D\n");
        return 2;
    }
    const char *dir = argv[1];
    const size_t t4[4] = {strtoul(argv[2], NULL, 10), strtoul(argv[3], NULL, 10), strtoul(argv[4], NULL, 10),
                          strtoul(argv[5], NULL, 10)};
    const size_t h1[1] = {t4[1]};
    static const char *const codes[] = {"q.npy", "k.npy", "v.npy"};
    static const char *const scales[] = {"q_scale.npy", "k_scale.npy", "v_scale.npy"};
    static const char *const floats[] = {"x_q.npy", "x_k.npy", "x_v.npy"};
    int rc = 0;
    for (int i = 0; i < 3; i++) {
        rc |= check_npy(dir, codes[i], NPY_U1, 1, t4, 4);
        rc |= check_npy(dir, scales[i], NPY_F4, 4, h1, 1);
        rc |= check_npy(dir, floats[i], NPY_F4, 4, t4, 4);
    }
    rc |= check_npy(dir, "o.npy", NPY_F2, 2, t4, 4);
    rc |= check_meta(dir);
    return rc ? 1 : 0;
}
