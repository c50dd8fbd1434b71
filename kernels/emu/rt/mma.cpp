// mma.cpp: mma.sync (m16n8k16 f16, m16n8k32 e4m3/e5m2, f32 accumulators), ldmatrix and movmatrix,
// with the fragment layouts of the PTX ISA ("Matrix Fragments for mma.m16n8k16 with floating point
// type", "... for mma.m16n8k32", "Warp-level matrix load instruction: ldmatrix", movmatrix).
//
// Each is a warp collective of all 32 lanes (.sync.aligned): the lane that arrives last gathers
// every lane's registers into whole matrices by the documented layout, computes, and scatters the
// result back by the same layout. A kernel that puts an element in the wrong register therefore
// multiplies the wrong matrix. Lane l = 4 g + t (g = groupID, t = threadID_in_group).
//
// Numerics: products of f16, e4m3 or e5m2 values are exact in float (at most 22 significant bits),
// and D = C + sum over k in ascending order, rounded to float after every addition. A tensor core
// adds in its own order and width (not modelled): compare GPU results within a bound.
#include <math.h>
#include <string.h>

#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include "internal.h"
#include "san.h"

namespace simt::rt {

namespace {

struct MmaArg {
    uint32_t a[4], b[2];
    float c[4], d[4];
};

// Decoded values of every 8-bit code, from the toolkit's own (exact) fp8 -> half conversion.
struct Fp8Table {
    float e4m3[256], e5m2[256];
    Fp8Table() {
        for (int i = 0; i < 256; i++) {
            e4m3[i] = __half2float(__half(__nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)i, __NV_E4M3)));
            e5m2[i] = __half2float(__half(__nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)i, __NV_E5M2)));
        }
    }
};
const Fp8Table fp8;

float half_bits(uint32_t reg, int which) {
    uint16_t h = (uint16_t)(reg >> (16 * which));
    __half_raw r;
    r.x = h;
    return __half2float(__half(r));
}

template <MmaKind KIND> void mma_complete(const Gather &g) {
    constexpr int K = KIND == MMA_F16_K16 ? 16 : 32;
    float A[16][32], B[32][8], C[16][8];
    for (int l = 0; l < 32; l++) {
        const MmaArg *p = static_cast<const MmaArg *>(g.arg[l]);
        const int gr = l >> 2, t = l & 3;
        for (int i = 0; i < 4; i++) C[gr + 8 * (i >> 1)][2 * t + (i & 1)] = p->c[i];
        if constexpr (KIND == MMA_F16_K16) {
            // A: a0..a7 in 4 registers; row g (+8 for a2,a3,a6,a7), col 2t + (i&1) (+8 for i >= 4).
            for (int i = 0; i < 8; i++)
                A[gr + 8 * ((i >> 1) & 1)][2 * t + (i & 1) + 8 * (i >> 2)] = half_bits(p->a[i >> 1], i & 1);
            // B: b0..b3 in 2 registers; row (k) 2t + (i&1) (+8 for i >= 2), col g.
            for (int i = 0; i < 4; i++)
                B[2 * t + (i & 1) + 8 * (i >> 1)][gr] = half_bits(p->b[i >> 1], i & 1);
        } else {
            const float *dec = KIND == MMA_E4M3_K32 ? fp8.e4m3 : fp8.e5m2;
            // A: a0..a15, 4 per register (low byte first); row g for a0-3 and a8-11, else g+8;
            // col 4t + (i&3) (+16 for i >= 8).
            for (int i = 0; i < 16; i++)
                A[gr + 8 * ((i >> 2) & 1)][4 * t + (i & 3) + 16 * (i >> 3)] =
                    dec[(p->a[i >> 2] >> (8 * (i & 3))) & 0xff];
            // B: b0..b7; row (k) 4t + (i&3) (+16 for i >= 4), col g.
            for (int i = 0; i < 8; i++)
                B[4 * t + (i & 3) + 16 * (i >> 2)][gr] = dec[(p->b[i >> 2] >> (8 * (i & 3))) & 0xff];
        }
    }
    for (int l = 0; l < 32; l++) {
        MmaArg *p = static_cast<MmaArg *>(g.arg[l]);
        const int gr = l >> 2, t = l & 3;
        for (int i = 0; i < 4; i++) {
            const int r = gr + 8 * (i >> 1), n = 2 * t + (i & 1);
            float acc = C[r][n];
            for (int k = 0; k < K; k++) acc += A[r][k] * B[k][n];
            p->d[i] = acc;
        }
    }
}

} // namespace

const float *e4m3_values() { return fp8.e4m3; }

void mma_tile(Site at, MmaKind kind, float d[4], const uint32_t a[4], const uint32_t b[2], const float c[4]) {
    static const CollOp ops[3] = {{"mma.sync.m16n8k16.f32.f16.f16.f32", mma_complete<MMA_F16_K16>, true},
                                  {"mma.sync.m16n8k32.f32.e4m3.e4m3.f32", mma_complete<MMA_E4M3_K32>, true},
                                  {"mma.sync.m16n8k32.f32.e5m2.e5m2.f32", mma_complete<MMA_E5M2_K32>, true}};
    MmaArg arg;
    memcpy(arg.a, a, sizeof arg.a);
    memcpy(arg.b, b, sizeof arg.b);
    memcpy(arg.c, c, sizeof arg.c);
    warp_collective(ops[kind], at, 0xffffffffu, &arg, kind);
    memcpy(d, arg.d, sizeof arg.d); // after the rendezvous: d may alias c
}

// ---- ldmatrix ---------------------------------------------------------------------------------
namespace {

struct LdmArg {
    const void *row;
    uint32_t r[4];
};

// Element (row, col) of 8x8 matrix m, as the rows' owners addressed it.
uint16_t ldm_elem(const Gather &g, int m, int row, int col) {
    const char *p = static_cast<const char *>(static_cast<const LdmArg *>(g.arg[8 * m + row])->row);
    uint16_t v;
    memcpy(&v, p + 2 * col, 2);
    return v;
}

void ldm_complete(const Gather &g) {
    const int num = (int)g.key[0];
    const bool trans = g.key[1] != 0;
    // Each row is read by the lane that gave its address: what that lane may see is what its own
    // program order and its barriers give it (a row another lane stored needs a __syncwarp).
    for (int m = 0; m < num; m++)
        for (int row = 0; row < 8; row++)
            access_as_lane(8 * m + row, static_cast<const LdmArg *>(g.arg[8 * m + row])->row, 16, false);
    // Lane l receives, of each matrix, row l/4, columns 2(l%4) and 2(l%4)+1 (low half first);
    // .trans delivers the transposed matrix.
    for (int l = 0; l < 32; l++) {
        LdmArg *p = static_cast<LdmArg *>(g.arg[l]);
        const int r = l >> 2, c = 2 * (l & 3);
        for (int m = 0; m < num; m++) {
            const uint16_t lo = trans ? ldm_elem(g, m, c, r) : ldm_elem(g, m, r, c);
            const uint16_t hi = trans ? ldm_elem(g, m, c + 1, r) : ldm_elem(g, m, r, c + 1);
            p->r[m] = (uint32_t)lo | (uint32_t)hi << 16;
        }
    }
}

} // namespace

// Lanes 0-7 address the rows of matrix 0, 8-15 of matrix 1, ...; the others' addresses are unused
// (.x1, .x2) and not checked.
static void check_row(Site at, const char *name, unsigned num, const void *row) {
    if (current()->lane >= 8 * num) return;
    if ((uintptr_t)row & 15) fault(at, "%s: row address %p is not 16-byte aligned", name, row);
    bool known;
    if (!is_shared(row, 16, &known) && known) fault(at, "%s: row address %p is not shared memory", name, row);
}

void ldmatrix(Site at, unsigned num, bool trans, uint32_t *r, const void *row) {
    static const CollOp ops[2] = {{"ldmatrix.sync.aligned.m8n8.b16", ldm_complete, true},
                                  {"ldmatrix.sync.aligned.m8n8.trans.b16", ldm_complete, true}};
    check_row(at, ops[trans].name, num, row);
    LdmArg arg{row, {0, 0, 0, 0}};
    warp_collective(ops[trans], at, 0xffffffffu, &arg, num, trans, 0,
                    __builtin_extract_return_addr(__builtin_return_address(0)));
    memcpy(r, arg.r, 4 * num);
}

// ---- stmatrix (sm_90): the inverse of ldmatrix ---------------------------------------------------------
namespace {

struct StmArg {
    void *row;
    uint32_t r[4];
};

// Element (row, col) of matrix m as the fragment holds it: lane 4 row + col / 2, half col % 2.
uint16_t stm_frag(const Gather &g, int m, int row, int col) {
    return (uint16_t)(static_cast<const StmArg *>(g.arg[4 * row + col / 2])->r[m] >> (16 * (col & 1)));
}

void stm_complete(const Gather &g) {
    const int num = (int)g.key[0];
    const bool trans = g.key[1] != 0;
    for (int m = 0; m < num; m++)
        for (int row = 0; row < 8; row++) {
            char *p = static_cast<char *>(static_cast<const StmArg *>(g.arg[8 * m + row])->row);
            access_as_lane(8 * m + row, p, 16, true); // written by the lane that gave the address
            for (int col = 0; col < 8; col++) {
                const uint16_t v = trans ? stm_frag(g, m, col, row) : stm_frag(g, m, row, col);
                memcpy(p + 2 * col, &v, 2);
            }
        }
}

} // namespace

void stmatrix(Site at, unsigned num, bool trans, const uint32_t *r, void *row) {
    static const CollOp ops[2] = {{"stmatrix.sync.aligned.m8n8.b16", stm_complete, true},
                                  {"stmatrix.sync.aligned.m8n8.trans.b16", stm_complete, true}};
    check_row(at, ops[trans].name, num, row);
    StmArg arg{row, {0, 0, 0, 0}};
    memcpy(arg.r, r, 4 * num);
    warp_collective(ops[trans], at, 0xffffffffu, &arg, num, trans, 0,
                    __builtin_extract_return_addr(__builtin_return_address(0)));
}

// ---- movmatrix ----------------------------------------------------------------------------------
namespace {

struct MovArg {
    uint32_t in, out;
};

// Element (row, col) of the 8x8 matrix held in the ldmatrix/mma fragment layout.
uint16_t frag_elem(const Gather &g, int row, int col) {
    return (uint16_t)(static_cast<const MovArg *>(g.arg[4 * row + col / 2])->in >> (16 * (col & 1)));
}

void mov_complete(const Gather &g) {
    for (int l = 0; l < 32; l++) {
        MovArg *p = static_cast<MovArg *>(g.arg[l]);
        const int r = l >> 2, c = 2 * (l & 3);
        p->out = (uint32_t)frag_elem(g, c, r) | (uint32_t)frag_elem(g, c + 1, r) << 16;
    }
}

} // namespace

uint32_t movmatrix_trans(Site at, uint32_t x) {
    static const CollOp op{"movmatrix.sync.aligned.m8n8.trans.b16", mov_complete, true};
    MovArg arg{x, 0};
    warp_collective(op, at, 0xffffffffu, &arg);
    return arg.out;
}

} // namespace simt::rt
