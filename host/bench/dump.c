/* --dump DIR and --dump-failed DIR (dump.h). */
#include "dump.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "run_json.h"
#include "fileio.h"
#include "fp8.h"
#include "npy.h"
#include "json_file.h"

const char *const dump_files[] = {"q.npy",       "k.npy",       "v.npy",    "q_scale.npy",
                                  "k_scale.npy", "v_scale.npy", "x_q.npy",  "x_k.npy",
                                  "x_v.npy",     "o.npy",       "meta.json"};
const size_t dump_files_count = sizeof dump_files / sizeof dump_files[0];

static void join(char *out, size_t outlen, const char *dir, const char *file) {
    snprintf(out, outlen, "%s/%s", dir, file);
}

int dump_check_new(const char *dir, char *err, size_t errlen) {
    char path[4096];
    struct stat st;
    for (size_t i = 0; i < dump_files_count; i++) {
        join(path, sizeof path, dir, dump_files[i]);
        if (lstat(path, &st) == 0) {
            snprintf(err, errlen,
                     "--dump %s: %s already exists; sdpa-bench never overwrites (choose a new "
                     "directory)",
                     dir, path);
            return -1;
        }
    }
    return 0;
}

static int write_meta(const char *path, const sdpa_inputs_t *in, const dump_meta_t *m, bool inputs, char *err,
                      size_t errlen) {
    cJSON *o = cJSON_CreateObject();
    if (!o) return -1;
    cJSON_AddStringToObject(o, "variant", m->variant);
    cJSON_AddStringToObject(o, "codec", codec_name(in->codec));
    cJSON_AddStringToObject(o, "dist", dist_name(in->dist));
    json_add_num(o, "softmax_scale", m->softmax_scale);
    cJSON_AddItemToObject(o, "shape", bj_shape(m->shape_name, in->shape));
    json_add_u64(o, "seed", in->seed);
    cJSON_AddStringToObject(o, "backend", m->backend);
    char sum[24];
    snprintf(sum, sizeof sum, "%016" PRIx64, inputs_checksum(in));
    cJSON_AddStringToObject(o, "inputs_checksum", sum);
    if (!inputs)
        cJSON_AddStringToObject(
            o, "inputs",
            "not written: the same shape, seed, codec and dist regenerate them (sdpa-bench "
            "--dump), with this inputs_checksum");
    cJSON_AddStringToObject(o, "layout", "row-major [B,H,S,D]; scales per head [H]");
    char *text = cJSON_Print(o);
    cJSON_Delete(o);
    if (!text) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    const int rc = file_write_new(path, text, strlen(text), err, errlen);
    free(text);
    return rc;
}

/* Every file, or (inputs false) o.npy and meta.json only. */
static int write_dump(const char *dir, const sdpa_inputs_t *in, const uint16_t *o, const dump_meta_t *m,
                      bool inputs, const char *flag, char *err, size_t errlen) {
    if (mkdir_p(dir) != 0) {
        snprintf(err, errlen, "%s %s: cannot create the directory: %s", flag, dir, strerror(errno));
        return -1;
    }
    const size_t t4[4] = {(size_t)in->shape.B, (size_t)in->shape.H, (size_t)in->shape.S, (size_t)in->shape.D};
    const size_t h1[1] = {(size_t)in->shape.H};
    const struct {
        const char *descr;
        const size_t *shape;
        int ndim;
        const void *data;
    } arrays[] = {
        {NPY_U1, t4, 4, in->q},       {NPY_U1, t4, 4, in->k},       {NPY_U1, t4, 4, in->v},
        {NPY_F4, h1, 1, in->q_scale}, {NPY_F4, h1, 1, in->k_scale}, {NPY_F4, h1, 1, in->v_scale},
        {NPY_F4, t4, 4, in->x_q},     {NPY_F4, t4, 4, in->x_k},     {NPY_F4, t4, 4, in->x_v},
        {NPY_F2, t4, 4, o},
    };
    char path[4096];
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) {
        if (!inputs && strcmp(dump_files[i], "o.npy") != 0) continue;
        join(path, sizeof path, dir, dump_files[i]);
        if (npy_write(path, arrays[i].descr, arrays[i].shape, arrays[i].ndim, arrays[i].data, err, errlen) !=
            0)
            return -1;
    }
    join(path, sizeof path, dir, "meta.json");
    return write_meta(path, in, m, inputs, err, errlen);
}

int dump_write(const char *dir, const sdpa_inputs_t *in, const uint16_t *o, const dump_meta_t *m, char *err,
               size_t errlen) {
    return write_dump(dir, in, o, m, true, "--dump", err, errlen);
}

int dump_write_output(const char *dir, const sdpa_inputs_t *in, const uint16_t *o, const dump_meta_t *m,
                      char *err, size_t errlen) {
    return write_dump(dir, in, o, m, false, "--dump-failed", err, errlen);
}
