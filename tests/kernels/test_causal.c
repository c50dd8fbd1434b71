/* Causality of every causal kernel (emulator build): a query row's output depends only on the keys at
 * or before its position. For each variant with a causal instance, each head dimension it has and
 * several cut positions p, the keys and values after p are replaced by other codes, and every row
 * <= p of every (b, h) must keep its output bit for bit, while some row after p must change (the
 * replacement reached the kernel). The non-causal instance of the same variant on the same inputs
 * is the control: it must change some row <= p, or the test could not fail
 * (paper/methods.md, "Head dimension 128 and causal masking"). Shapes no bar was tuned on: S = 77
 * (not a multiple of 32 or 64), B * H = 6. */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "sdpa_api.h"

enum { B = 2, H = 3, S = 77, DMAX = 128, N = B * H * S * DMAX };

typedef struct {
    uint8_t *q, *k, *v, *k2, *v2;
    float scale[H];
    uint16_t *o_ref, *o;
} bufs_t;

/* A finite E4M3 code of magnitude below 2 (exponent field <= 7), either sign: no NaN (0x7f, 0xff). */
static uint8_t code(uint32_t *x) {
    *x = *x * 1664525u + 1013904223u;
    return (uint8_t)(((*x >> 24) & 0x80u) | ((*x >> 8) % 0x40u));
}

static int setup(void **state) {
    bufs_t *b = calloc(1, sizeof *b);
    uint8_t **codes[] = {&b->q, &b->k, &b->v, &b->k2, &b->v2};
    uint32_t x = 12345;
    for (size_t t = 0; t < 5; t++) {
        *codes[t] = aligned_alloc(256, N);
        for (int i = 0; i < N; i++) (*codes[t])[i] = code(&x);
    }
    b->o_ref = aligned_alloc(256, 2 * N);
    b->o = aligned_alloc(256, 2 * N);
    for (int h = 0; h < H; h++) b->scale[h] = 0.25f;
    *state = b;
    return 0;
}

static int teardown(void **state) {
    bufs_t *b = *state;
    free(b->q), free(b->k), free(b->v), free(b->k2), free(b->v2), free(b->o_ref), free(b->o), free(b);
    return 0;
}

static sdpa_args_t args(const bufs_t *b, const uint8_t *k, const uint8_t *v, uint16_t *o, int D, int causal) {
    sdpa_args_t a = {b->q, k, v, b->scale, b->scale,        b->scale, o,     B,
                     H,    S, D, 0.125f,   SDPA_CODEC_E4M3, NULL,     causal};
    return a;
}

/* K and V with every key after p of every (b, h) replaced by the other codes. */
static void perturb_after(const bufs_t *b, int D, int p, uint8_t *k, uint8_t *v) {
    for (int bh = 0; bh < B * H; bh++)
        for (int j = 0; j < S; j++) {
            const size_t at = ((size_t)bh * S + (size_t)j) * (size_t)D;
            memcpy(k + at, (j > p ? b->k2 : b->k) + at, (size_t)D);
            memcpy(v + at, (j > p ? b->v2 : b->v) + at, (size_t)D);
        }
}

/* How many rows <= p (before) and > p (after) of every (b, h) differ between o_ref and o. */
static void count_changed(const bufs_t *b, int D, int p, int *before, int *after) {
    *before = *after = 0;
    for (int bh = 0; bh < B * H; bh++)
        for (int i = 0; i < S; i++) {
            const size_t at = ((size_t)bh * S + (size_t)i) * (size_t)D;
            if (memcmp(b->o_ref + at, b->o + at, 2 * (size_t)D) != 0) ++*(i <= p ? before : after);
        }
}

static void run(const sdpa_kernel_entry_t *e, sdpa_args_t a) {
    const sdpa_status_t st = e->launch(&a);
    if (st != SDPA_OK) fail_msg("%s D = %d causal %d: %s", e->id, a.D, a.causal, sdpa_status_str(st));
}

static void future_keys_do_not_matter(void **state) {
    bufs_t *b = *state;
    static const int cuts[] = {0, 31, 40, 64, 75};
    uint8_t *k = aligned_alloc(256, N), *v = aligned_alloc(256, N);
    int checked = 0;
    for (const sdpa_kernel_entry_t *e = sdpa_kernels_emu; e->id; ++e)
        for (int32_t g = 0; g < e->n_geometry; g++) {
            if (!e->geometry[g].causal) continue;
            const int D = e->geometry[g].head_dim;
            for (size_t c = 0; c < sizeof cuts / sizeof cuts[0]; c++) {
                const int p = cuts[c];
                perturb_after(b, D, p, k, v);
                for (int causal = 1; causal >= 0; causal--) {
                    int before, after;
                    run(e, args(b, b->k, b->v, b->o_ref, D, causal));
                    run(e, args(b, k, v, b->o, D, causal));
                    count_changed(b, D, p, &before, &after);
                    if (causal && before)
                        fail_msg("%s D = %d: %d rows <= %d changed when only keys > %d did", e->id, D, before,
                                 p, p);
                    if (causal && !after)
                        fail_msg("%s D = %d: no row > %d changed (perturbation lost)", e->id, D, p);
                    if (!causal && !before)
                        fail_msg("%s D = %d non-causal: rows <= %d unchanged (the control cannot fail)",
                                 e->id, D, p);
                }
                checked++;
            }
        }
    free(k), free(v);
    /* 6 register-resident variants and the Hopper line's 12 (stages 7a-7f, 7h-7m), each at D 64 and 128; 5 cuts */
    assert_int_equal(checked, (6 + 12) * 2 * 5);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(future_keys_do_not_matter, setup, teardown),
    };
    return cmocka_run_group_tests_name("causal kernels ignore future keys", tests, NULL, NULL);
}
