/* The C interface of the unfused peer's softmax kernel (softmax.cu): plain C, like sdpa_api.h, so
 * that host C11 code, nvcc and the emulator build all include it.
 *
 * Row-wise softmax of an fp16 score matrix: for every row r < rows,
 *   p[r][j] = exp(scale*s[r][j] - m_r) / sum_j' exp(scale*s[r][j'] - m_r),  m_r = max_j scale*s[r][j],
 * over j < cols, with fp32 arithmetic (expf, fp32 sums) and one rounding of each p to fp16.
 * Rows are ld elements apart. p may equal s (in place: each element is read before it is
 * written, by the same thread). */
#ifndef PEER_SOFTMAX_H
#define PEER_SOFTMAX_H

#include <stdint.h>

#include "sdpa_api.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const uint16_t *s; /* fp16 bits, device memory of the backend */
    uint16_t *p;
    int64_t rows;
    int32_t cols, ld;
    float scale;
    void *stream; /* cudaStream_t on the CUDA backend; ignored by the emulator */
} peer_softmax_args_t;

/* SDPA_OK; SDPA_ERR_NULL, SDPA_ERR_EMPTY (rows or cols < 1, ld < cols); SDPA_ERR_LAUNCH (CUDA) or
 * SDPA_ERR_FAULT (emulator) when the launch failed. The nvcc build defines peer_softmax, the
 * emulator build emu_peer_softmax (prims.cuh, SDPA_BACKEND_SYM). */
sdpa_status_t peer_softmax(const peer_softmax_args_t *a);
sdpa_status_t emu_peer_softmax(const peer_softmax_args_t *a);

#ifdef __cplusplus
}
#endif

#endif
