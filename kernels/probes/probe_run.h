/* probe_run.h: the hardware probes as one run recorded in JSON (probe_run.c). */
#ifndef SDPA_PROBE_RUN_H
#define SDPA_PROBE_RUN_H

#include <stddef.h>

#include <cjson/cJSON.h>

/* Runs every probe on the linked backend and adds its raw output to doc: "tma" (per box: swizzle,
 * rank, box, coords, bytes_hex as they lay in shared memory), "wgmma_acc" (values: 128 threads x 128
 * registers), "wgmma_a" (byte, thread_mod_8, thread_div_8: 128 x 16 each), "wgmma_desc" (per
 * descriptor: start, lbo, sbo, swizzle, nibbles: 4 x 64 x 32), "exp2_poly" (stage 7g's exponential on
 * the device against its host twin: inputs, points, bits_fnv1a64, host_twin_mismatches,
 * first_mismatch). Returns doc, or NULL with err (the
 * failing probe and the CUDA error's name); doc then keeps the parts completed before the fault. */
cJSON *probe_run_all(cJSON *doc, char *err, size_t errlen);
/* Decodes a record against the PTX ISA's formulas (kernels/wgmma_layout.h) and the documented TMA box
 * layout, and checks the exponential's bits against the host twin (when the record has them): the number of mismatches (the first in err), or -1 when the record is malformed. */
int probe_check_isa(const cJSON *doc, char *err, size_t errlen);
/* Compares two records' probe data: the number of parts that differ (the first in err); exp2_poly
 * only where both have it. */
int probe_compare(const cJSON *got, const cJSON *want, char *err, size_t errlen);

#endif
