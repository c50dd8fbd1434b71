/* --dump DIR: the inputs and output of one checked launch as .npy files, plus meta.json, so that
 * a failure can be examined outside the harness (e.g. with numpy). Never overwrites: every file
 * is checked before the run (dump_check_new) and written with link(2) semantics (fileio.h).
 *
 *   q.npy k.npy v.npy                uint8 codes, |u1, [B,H,S,D]
 *   q_scale.npy k_scale.npy v_scale.npy  float32 per-head scales, <f4, [H]
 *   x_q.npy x_k.npy x_v.npy          float32 inputs before quantisation, <f4, [B,H,S,D]
 *   o.npy                            the kernel's float16 output, <f2, [B,H,S,D]
 *   meta.json                        variant, codec, dist, softmax_scale, shape, seed, backend,
 *                                    inputs_checksum (inputs_checksum, hex)
 * --dump-failed DIR: o.npy and meta.json only, of a variant's first failing check, in
 * DIR/<variant>-<shape>-s<seed>/ (dump_write_output): what a GPU brings home of a wrong result is
 * its output; the same shape, seed, codec and dist regenerate the inputs bit for bit anywhere
 * (meta.json's inputs_checksum says whether they did), and sdpa-report dump-diff compares it with
 * another dump (the emulator's of the same variant). */
#ifndef DUMP_H
#define DUMP_H

#include <stddef.h>
#include <stdint.h>

#include "inputs.h"

extern const char *const dump_files[];
extern const size_t dump_files_count;

typedef struct {
    const char *variant, *shape_name, *backend;
    double softmax_scale;
} dump_meta_t;

/* 0 when none of the dump files exists in dir (dir itself may not exist yet); else -1 naming the
 * first existing one. */
int dump_check_new(const char *dir, char *err, size_t errlen);
/* Creates dir (mkdir -p) and writes every file. 0 or -1 with err. */
int dump_write(const char *dir, const sdpa_inputs_t *in, const uint16_t *o, const dump_meta_t *m, char *err,
               size_t errlen);
/* o.npy and meta.json only, in dir (created), never overwriting either. 0 or -1 with err. */
int dump_write_output(const char *dir, const sdpa_inputs_t *in, const uint16_t *o, const dump_meta_t *m,
                      char *err, size_t errlen);

#endif
