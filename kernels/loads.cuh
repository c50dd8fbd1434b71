// loads.cuh: getting K and V (and Q) into shared memory, and the K/V pipeline. Which thread moves
// which 16-byte chunk (ChunkMap, LoaderChunks), the direct synchronous load (stage 0), the
// cp.async copy into uint8 staging and its decode into fp16 tiles (stage 1), the ring that keeps
// kKvStages - 1 tiles in flight and waits for exactly the groups it needs, with a drained tail
// (stages 1 and 4), and stage 6's operand preparation (Q codes, K codes, V transposed into the key
// order of the P fragment). A loader always decodes the chunks it copied itself, so its own
// cp.async wait orders them; publishing to other warps is the caller's barrier.
#pragma once

#include "codec.cuh"

namespace sdpa {

// ---- [stage 0] who moves which chunk ------------------------------------------------------------
// A tile of ROWS rows of D codes is ROWS * D / 16 chunks of 16 bytes: chunk c is row c / kRowChunks,
// codes 16 (c % kRowChunks). Every thread of the CTA takes chunks tid, tid + kThreads, ... (the
// original's 32x64 tile over 128 threads: one each).
template <class Cfg, int ROWS> struct TileChunks {
    static constexpr int kCount = ROWS * Cfg::kRowChunks;
    static constexpr int kPerThread = (kCount + Cfg::kThreads - 1) / Cfg::kThreads;
    static __device__ __forceinline__ int chunk(int i) { return (int)threadIdx.x + i * Cfg::kThreads; }
    static __device__ __forceinline__ int row(int c) { return c / Cfg::kRowChunks; }
    static __device__ __forceinline__ int col(int c) { return (c % Cfg::kRowChunks) * CHUNK; }
};

// ---- [stage 0] direct tile loads; [stage 1] cp.async staging ------------------------------------
// Synchronous: global codes -> half tile; rows >= valid are zero (partial tiles, zero-padded so
// that WMMA never multiplies stale or poisoned values).
template <class Cfg, sdpa_codec_t C, int ROWS>
__device__ __forceinline__ void load_tile_direct(const uint8_t *__restrict__ g, int valid,
                                                 __half (*tile)[Cfg::LD]) {
    using M = TileChunks<Cfg, ROWS>;
#pragma unroll
    for (int i = 0; i < M::kPerThread; ++i) {
        const int c = M::chunk(i), r = M::row(c), col = M::col(c);
        if (M::kCount % Cfg::kThreads != 0 && c >= M::kCount) break;
        if (r < valid)
            decode_chunk<C>(*reinterpret_cast<const uint4 *>(g + r * Cfg::kD + col), &tile[r][col]);
        else
            store_zero_chunk(&tile[r][col]);
    }
}

// Loader thread -> 16-byte chunks of a K (or V) tile, numbered as TileChunks; loader i of n takes
// chunks i, i+n, ... (the original's 128 threads on a 32x64 tile: one each; WARP_SPEC's 64
// producers: two). The thread that copies a chunk is the thread that decodes it, so its own wait
// suffices.
template <class Cfg> struct LoaderChunks {
    static constexpr int kPerThread = Cfg::kKvChunks / Cfg::kLoaders;
    int first;
    __device__ __forceinline__ explicit LoaderChunks(int tid) : first(tid - Cfg::kLoader0) {}
    __device__ __forceinline__ int row(int i) const { return (first + i * Cfg::kLoaders) / Cfg::kRowChunks; }
    __device__ __forceinline__ int col(int i) const {
        return ((first + i * Cfg::kLoaders) % Cfg::kRowChunks) * CHUNK;
    }
};

// Asynchronous: issue this thread's 16-byte copies of one K and one V tile into staging slot
// `slot`, then commit one group (also when rows are out of range: every loader commits every
// tile, so group counting is uniform across loaders).
template <class Cfg>
__device__ __forceinline__ void issue_kv_copy(Smem<Cfg> &sm, int slot, const uint8_t *__restrict__ gk,
                                              const uint8_t *__restrict__ gv, int valid) {
    const LoaderChunks<Cfg> m(threadIdx.x);
#pragma unroll
    for (int i = 0; i < m.kPerThread; ++i) {
        const int r = m.row(i), c = m.col(i);
        if (r < valid) {
            prims::cp_async_16(&sm.k8[slot][r][c], gk + r * Cfg::kD + c);
            prims::cp_async_16(&sm.v8[slot][r][c], gv + r * Cfg::kD + c);
        }
    }
    prims::cp_async_commit();
}

// Staging slot (uint8, landed) -> half tiles `buf`. Rows >= valid are zero; their staging bytes
// are stale.
template <class Cfg, sdpa_codec_t C>
__device__ __forceinline__ void dequant_kv_staged(Smem<Cfg> &sm, int slot, int buf, int valid) {
    const LoaderChunks<Cfg> m(threadIdx.x);
#pragma unroll
    for (int i = 0; i < m.kPerThread; ++i) {
        const int r = m.row(i), c = m.col(i);
        if (r < valid) {
            decode_chunk<C>(*reinterpret_cast<const uint4 *>(&sm.k8[slot][r][c]), &sm.k[buf][r][c]);
            decode_chunk<C>(*reinterpret_cast<const uint4 *>(&sm.v8[slot][r][c]), &sm.v[buf][r][c]);
        } else {
            store_zero_chunk(&sm.k[buf][r][c]);
            store_zero_chunk(&sm.v[buf][r][c]);
        }
    }
}

// ---- [stage 1] the K/V pipeline: which tile is where, and when it may be read -------------------
// Stage 0 loads tile t directly (synchronous). Stage 1+ keeps kKvStages - 1 tiles in flight in a
// ring of kKvStages staging slots (stage 1: 2, double buffering; stage 4: 3): tiles 0..R-2 are
// issued before the loop, and tile t's step prefetches tile t+R-1 into slot (t+R-1) % R, which
// tile t-1 used and this thread alone has read (each loader decodes its own chunks), then waits
// for tile t. Either way the half tiles hold tile t once the caller's barrier has passed.
template <class Cfg>
__device__ __forceinline__ void kv_pipeline_start(Smem<Cfg> &sm, const uint8_t *__restrict__ gk,
                                                  const uint8_t *__restrict__ gv, int S) {
    constexpr int TN = Cfg::kTN, D = Cfg::kD;
    if constexpr (Cfg::kCpAsync) {
#pragma unroll
        for (int t = 0; t < Cfg::kKvStages - 1; ++t)
            if (t * TN < S)
                issue_kv_copy(sm, t, gk + (size_t)t * TN * D, gv + (size_t)t * TN * D, imin(TN, S - t * TN));
    }
}

template <class Cfg>
__device__ __forceinline__ void kv_prefetch(Smem<Cfg> &sm, int t, int n_tiles, const uint8_t *__restrict__ gk,
                                            const uint8_t *__restrict__ gv, int S) {
    constexpr int R = Cfg::kKvStages, TN = Cfg::kTN, D = Cfg::kD;
    const int nt = t + R - 1;
    if (nt < n_tiles) {
        const int nx = nt * TN;
        issue_kv_copy(sm, nt % R, gk + (size_t)nx * D, gv + (size_t)nx * D, imin(TN, S - nx));
    }
}

// Waits until tile t's group has landed. `newer` groups were committed after it (no empty groups
// are committed): min(R-1, n_tiles-1-t), fewer on the last R-2 tiles. wait_group N needs a
// constant N, so the count selects one; the last tile drains (waiting with a fixed N there leaves
// tile t itself in flight: the original's tail race, f686304:cudadent42/bench/kernels/
// sdpa_fp8_stage_c_wmma.cu:271). Waiting deeper than needed is correct but serialises the copies
// (the original's 2-stage control arm of Stage-4 waited with 0 on every tile, 0e7e52b); the
// static gates require every depth 0..R-1 in the PTX.
template <int MAX> __device__ __forceinline__ void cp_async_wait_newer(int newer) {
    if constexpr (MAX == 0) {
        prims::cp_async_wait<0>();
    } else {
        if (newer >= MAX)
            prims::cp_async_wait<MAX>();
        else
            cp_async_wait_newer<MAX - 1>(newer);
    }
}
template <class Cfg> __device__ __forceinline__ void kv_wait_tile(int t, int n_tiles) {
    constexpr int R = Cfg::kKvStages;
    cp_async_wait_newer<R - 1>(imin(R - 1, n_tiles - 1 - t));
}

template <class Cfg, sdpa_codec_t C>
__device__ __forceinline__ void kv_tile_load(Smem<Cfg> &sm, int t, int n_tiles,
                                             const uint8_t *__restrict__ gk, const uint8_t *__restrict__ gv,
                                             int S) {
    constexpr int TN = Cfg::kTN, D = Cfg::kD;
    const int kv0 = t * TN, kv_valid = imin(TN, S - kv0);
    if constexpr (Cfg::kCpAsync) {
        kv_prefetch(sm, t, n_tiles, gk, gv, S);
        kv_wait_tile<Cfg>(t, n_tiles);
        // No barrier here: each thread dequantises exactly the chunks it copied itself (the
        // same LoaderChunks), and the wait makes a thread's own copies visible to it. The
        // caller's barrier publishes the half tiles. (A different mapping would need one here.)
        dequant_kv_staged<Cfg, C>(sm, t % Cfg::kKvStages, 0, kv_valid);
    } else {
        load_tile_direct<Cfg, C, TN>(gk + (size_t)kv0 * D, kv_valid, sm.k[0]);
        load_tile_direct<Cfg, C, TN>(gv + (size_t)kv0 * D, kv_valid, sm.v[0]);
    }
}

// ---- [stage 6] operands as codes: Q and K copied, V transposed ----------------------------------
// V is transposed in-kernel, by the producer warps (as FlashAttention-3; SageAttention instead
// stores V transposed in global memory): every variant then reads the same [B,H,S,D] codes, so
// stage 6 is compared with its parent on the same inputs, and its time includes the transpose. A
// host-side transpose would be another input format and move work out of the timed region.

// Inverse of prims::k32_col within the 32 keys of an m16n8k32 step: the position that holds key k.
__host__ __device__ constexpr int k32_pos(int k) {
    return 16 * (k / 16) + 4 * ((k % 8) / 2) + 2 * ((k % 16) / 8) + k % 2;
}
constexpr bool k32_pos_inverts_k32_col() {
    for (int k = 0; k < 32; ++k)
        if (prims::k32_col(k32_pos(k)) != k || k32_pos(k) < 0 || k32_pos(k) >= 32) return false;
    return true;
}
static_assert(k32_pos_inverts_k32_col(), "k32_pos must be the inverse permutation of prims::k32_col");

// V^T's rows are stored rotated within each group of 16: output column d lives in row vt_row(d) =
// 16 j + (d + j) mod 16, j = d / 16. A warp's byte store of the transpose writes the same d of the
// chunks of its lanes, whose columns are 16 apart (c = 16 j: 4 groups at D = 64, 8 at D = 128); in
// plain rows of LDVT = 48 bytes (12 words) rows 16 apart are 192 words apart, 0 mod 32, so every
// group would land in the same banks (4-way at D = 64). Row e starts at word 12 e, i.e. at the
// 4-word group 3 e mod 8: rotating group j by j rows puts its start 3 j groups further, distinct for
// j = 0..7, and a store touches at most 4 words of a group (8 keys' positions). An ldmatrix phase
// reads 8 consecutive d of one group, still 8 distinct rows of it, which the odd number of 16-byte
// units per row (3) spreads over all 32 banks. tests/kernels/test_bank_model.cpp models both.
__host__ __device__ constexpr int vt_row(int d) { return 16 * (d / 16) + (d + d / 16) % 16; }
constexpr bool vt_row_permutes_each_group() {
    for (int d = 0; d < 256; ++d) {
        int hits = 0;
        for (int e = 0; e < 256; ++e) hits += vt_row(e) == d;
        if (hits != 1 || vt_row(d) / 16 != d / 16) return false;
    }
    return true;
}
static_assert(vt_row_permutes_each_group(), "vt_row must permute the rows of each group of 16");

// Q codes -> the code tile, 16-byte chunks as TileChunks; rows >= valid are zero (shared memory is
// not zeroed, and 0xff is an e4m3 NaN). [stage 7b] For wgmma, chunk (r, col) goes to its 16-byte
// unit of the swizzled K-major tile: the tile starts on the swizzle's repeat, so the XOR of the
// shared address's bits [7, ..) into [4, ..) (wg_swizzle) is the same on the tile's offset, and
// rows are D bytes: where TMA's swizzle would put it. wgmma reads Q through the async proxy: each
// thread's ordinary stores are made visible to it (fence.proxy.async) before the block barrier
// that publishes them (mainloop_warp_spec). (Both stores are written out where they are used: a
// pointer returned from a helper loses its shared address space for nvcc, see SDPA_CTA_ON_SMEM.)
template <class Cfg>
__device__ __forceinline__ void load_q_codes(Smem<Cfg> &sm, const uint8_t *__restrict__ g, int valid) {
    using M = TileChunks<Cfg, Cfg::kTM>;
#pragma unroll
    for (int i = 0; i < M::kPerThread; ++i) {
        const int c = M::chunk(i), r = M::row(c), col = M::col(c);
        if (M::kCount % Cfg::kThreads != 0 && c >= M::kCount) break;
        const uint4 x =
            r < valid ? *reinterpret_cast<const uint4 *>(g + r * Cfg::kD + col) : make_uint4(0, 0, 0, 0);
        if constexpr (Cfg::kWgmmaQk)
            *reinterpret_cast<uint4 *>(&sm.q[0][0] +
                                       wg_swizzle((uint32_t)(r * Cfg::kD + col), Cfg::kSwizzle)) = x;
        else
            *reinterpret_cast<uint4 *>(&sm.q[r][col]) = x;
    }
    if constexpr (Cfg::kWgmmaQk) prims::fence_proxy_async();
}

// The producers' step of stage 6 (instead of dequant_kv_staged): staging slot -> K codes (copied
// into padded rows) and V^T codes (transposed) of buffer `buf`; keys >= valid are zero in both
// (a P code of 0 times a stale NaN code would still be NaN). Each loader writes the 16 bytes of
// its own V chunk (one key, 16 d) as 16 single-byte stores down a column of vt (rows vt_row(d), so
// that no store of a warp has two words in one bank), and reads only
// staging bytes it copied itself, so, as in dequant_kv_staged, its own cp.async wait suffices. 16
// byte stores per chunk is the simplest correct transpose; the next step would be an in-register
// 4x4 byte transpose among 4 lanes holding 4 keys (FlashAttention-3's), giving 32-bit stores.
// [stage 7b] With WGMMA_QK the consumers' wgmma reads K in the staging slot itself: V^T only.
// [stage 7e] KEYS128: V^T of 128 key positions per row in the 128-byte swizzle (config.cuh, VtTile).
// Byte (row e, position p) lives at wg_swizzle(128 e + p): bits [4, 7) of the offset XOR e % 8. A
// loader's chunks are one key column block (16 d from c) of keys r0 + 32 i (LoaderChunks with 128
// loaders of 4 chunks per key), so p = 32 i + q with q = k32_pos(r0) the same for all four, and
//   offset(c + d, 32 i + q) = 128 (c + d) + 16 ((2 i) ^ (d & 6)) + (d odd ? q ^ 16 : q):
// per store an immediate plus one of two registers. At D = 128 (8 chunks per key) the keys are
// r0 + 16 i, r0 < 16: key r0 + 16 i sits at 32 (i / 2) + q + 16 (i % 2) (k32_pos adds 16 to a key
// of the upper half of its 32), the same formula with i / 2 and q + 16 (i % 2). Computing
// wg_swizzle per byte kept 32 addresses live across the tile loop, which spilled 220 bytes in the
// producers' 40 registers (ptxas, sm_90a).
__host__ __device__ constexpr int vt128_offset(int c, int d, int i, int q) {
    return 128 * (c + d) + 16 * ((2 * i) ^ (d & 6)) + ((d & 1) ? q ^ 16 : q);
}
constexpr bool vt128_offset_is_the_swizzle() {
    for (int c = 0; c < 128; c += 16)
        for (int d = 0; d < 16; ++d)
            for (int i = 0; i < 4; ++i)
                for (int q = 0; q < 32; ++q)
                    if ((uint32_t)vt128_offset(c, d, i, q) !=
                        wg_swizzle((uint32_t)(128 * (c + d) + 32 * i + q), 128))
                        return false;
    return true;
}
static_assert(vt128_offset_is_the_swizzle(), "vt128_offset must be the 128-byte swizzle of (row, position)");

template <class Cfg>
__device__ __forceinline__ void repack_vt128(Smem<Cfg> &sm, int slot, int buf, int valid) {
    constexpr int kStep = Cfg::kLoaders / Cfg::kRowChunks; // keys between a loader's chunks
    static_assert(
        Cfg::kTN == 128 && Cfg::kLoaders % Cfg::kRowChunks == 0 && (kStep == 32 || kStep == 16),
        "repack_vt128: loader f's chunks are keys f / kRowChunks + kStep i, columns 16 (f % kRowChunks)");
    const LoaderChunks<Cfg> m(threadIdx.x);
    const int r0 = m.row(0), c = m.col(0), q = k32_pos(r0);
    uint8_t *const vt = &sm.vt[buf][0][0];
#pragma unroll
    for (int i = 0; i < m.kPerThread; ++i) {
        const int r = r0 + kStep * i;
        const uint4 v =
            r < valid ? *reinterpret_cast<const uint4 *>(&sm.v8[slot][r][c]) : make_uint4(0, 0, 0, 0);
        const uint32_t w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
        for (int d = 0; d < CHUNK; ++d)
            vt[vt128_offset(c, d, kStep * i / 32, q + kStep * i % 32)] = (uint8_t)(w[d / 4] >> (8 * (d % 4)));
    }
    prims::fence_proxy_async(); // as stage 7c's: the consumers' wgmma reads V^T through the async proxy
}

// [stage 7k] VT_LDSM: the same V^T bytes (vt128_offset's places) by ldmatrix and stmatrix, as
// FlashAttention-3 transposes FP8 V. V landed in K's swizzle (config.cuh, kVSwizzle). A warp moves
// blocks of 16 keys (16 g ..) by 32 columns (32 j ..): one ldmatrix.x4.trans reads them as four 8x8
// matrices of 16-bit pairs (keys +0..7 and +8..15, columns +0..15 and +16..31), which leaves lane l
// (row group c = l / 4, m = l % 4) keys 2m, 2m + 1 of columns 2c, 2c + 1 in r[0] and keys 8 + 2m,
// 9 + 2m in r[1]. Those four keys are V^T positions 16 g + 4m .. 4m + 3 (k32_pos), so one byte
// permute per column makes the four consecutive bytes of row d = 2c or 2c + 1 that stmatrix stores
// for row c of a matrix: no shuffle. Which column a lane's first register takes flips at c = 4, so
// that a stored matrix's rows (d = 2i or 2i + 1) cover d mod 8 = 0..7: eight 16-byte bank groups of
// the 128-byte swizzle; the eight keys of an ldmatrix phase are eight in K's swizzle. Keys past S
// arrive from TMA as zeros: V^T's columns >= valid are zero without a test, as the repack's were.
template <class Cfg> __device__ __forceinline__ void repack_vt_ldsm(Smem<Cfg> &sm, int slot, int buf) {
    constexpr int D = Cfg::kD, kJ = D / 32, kStep = 4 / kJ, kIters = (Cfg::kTN / 16) / kStep;
    static_assert(
        Cfg::kTN == 128 && Cfg::kLoaders == 128 && (D == 64 || D == 128) && Cfg::kVSwizzle == (unsigned)D,
        "repack_vt_ldsm: 4 producer warps over 128 keys x D in blocks of 16 x 32, V in K's swizzle");
    const int t = (int)threadIdx.x - Cfg::kLoader0, w = t / 32, lane = t % 32, mat = lane / 8, i = lane % 8;
    const int j = w % kJ, g0 = w / kJ; // the warp's column block; its key blocks g0, g0 + kStep, ...
    const uint8_t *const ld =
        &sm.v8[slot][0][0] +
        wg_swizzle((uint32_t)((i + 8 * (mat & 1)) * D + 32 * j + 16 * (mat >> 1)), Cfg::kVSwizzle);
    const int d = 32 * j + 16 * (mat >> 1) + 2 * i + ((mat & 1) ^ (i >> 2)); // row i of matrix mat
    uint8_t *const st = &sm.vt[buf][0][0] + 128 * d;
    const bool odd_first = lane / 4 >= 4;
    const uint32_t s0 = odd_first ? 0x7531u : 0x6420u, s1 = odd_first ? 0x6420u : 0x7531u;
#pragma unroll
    for (int it = 0; it < kIters; ++it) {
        const int g = g0 + kStep * it;
        uint32_t r[4], o[4];
        prims::ldmatrix<4, true>(r, ld + 16 * D * g); // 16 D g: a multiple of the swizzle's repeat
        o[0] = __byte_perm(r[0], r[1], s0);
        o[1] = __byte_perm(r[0], r[1], s1);
        o[2] = __byte_perm(r[2], r[3], s0);
        o[3] = __byte_perm(r[2], r[3], s1);
        prims::stmatrix<4>(st + 16 * (g ^ (d & 7)), o); // the 128-byte swizzle of (d, 16 g)
    }
    prims::fence_proxy_async(); // [stage 7k] stmatrix's stores too, before the FULL barrier hands V^T over
}

template <class Cfg>
__device__ __forceinline__ void repack_kv_staged(Smem<Cfg> &sm, int slot, int buf, int valid) {
    if constexpr (Cfg::kVtLdsm) {
        repack_vt_ldsm(sm, slot, buf);
    } else if constexpr (Cfg::kKeys128) {
        repack_vt128(sm, slot, buf, valid);
    } else {
        const LoaderChunks<Cfg> m(threadIdx.x);
#pragma unroll
        for (int i = 0; i < m.kPerThread; ++i) {
            const int r = m.row(i), c = m.col(i), p = k32_pos(r);
            const bool in = r < valid;
            if constexpr (!Cfg::kWgmmaQk)
                *reinterpret_cast<uint4 *>(&sm.k[buf][r][c]) =
                    in ? *reinterpret_cast<const uint4 *>(&sm.k8[slot][r][c]) : make_uint4(0, 0, 0, 0);
            const uint4 v =
                in ? *reinterpret_cast<const uint4 *>(&sm.v8[slot][r][c]) : make_uint4(0, 0, 0, 0);
            const uint32_t w[4] = {v.x, v.y, v.z, v.w};
            if constexpr (Cfg::kWgmmaPv) {
                // [stage 7c] wgmma's core matrices (config.cuh, VtTile): c is a multiple of 16, so column
                // c + d is row d % 8 of row group c / 8 + d / 8, an immediate offset from the chunk's
                // first byte (indexing each store by (c + d) / 8 and % 8 kept 64 addresses live and spilled).
                uint8_t *const col = &sm.vt[buf][c / 8][p / 16][0][p % 16];
#pragma unroll
                for (int d = 0; d < CHUNK; ++d)
                    col[(d / 8) * sizeof(sm.vt[0][0]) + (d % 8) * 16] = (uint8_t)(w[d / 4] >> (8 * (d % 4)));
            } else {
#pragma unroll
                for (int d = 0; d < CHUNK; ++d)
                    sm.vt[buf][vt_row(c + d)][p] = (uint8_t)(w[d / 4] >> (8 * (d % 4)));
            }
        }
        // [stage 7c] The consumers' wgmma reads V^T through the async proxy: this thread's stores are made
        // visible to it before the FULL barrier hands the buffer over (ws_producer_tma).
        if constexpr (Cfg::kWgmmaPv) prims::fence_proxy_async();
    }
}

} // namespace sdpa

namespace sdpa {

// ---- [stage 7a] K/V by TMA into the same staging ring -------------------------------------------
// One thread (the first producer) copies a whole K and V tile with two cp.async.bulk.tensor loads
// instead of 64 producer threads issuing 16-byte cp.async copies; the tile lands in the staging
// slot stage 6 uses, and the producers' repack (repack_kv_staged) reads it unchanged. The copies
// complete on the slot's full mbarrier; every producer's read of the slot is released on its empty
// mbarrier before the slot is loaded again (the copies' order against those reads is not program
// order any more: TMA writes the slot, not the reading thread).
//
// The tensor maps: K and V as 3-D uint8 tensors (D, S, B*H), innermost first, a box of (D, kTN, 1)
// (one tile of one head); keys past S are outside the tensor and arrive as zeros, so a tail tile
// needs no bounds (repack still zeroes rows >= valid: the same bytes either way). The innermost
// coordinate is always 0 (a multiple of 16 bytes, which TMA requires: an H100 stops otherwise).
struct KvMaps {
    const CUtensorMap *k = nullptr, *v = nullptr;
};

// Host: the tensor map of K (or V) codes at `codes`; 0, or -1 with the reason in err.
// [stage 7b] swizzle: 0, or the bytes of the swizzle the tile is read with (K for wgmma: 64 at D = 64).
inline int encode_kv_map(CUtensorMap *map, const void *codes, int B, int H, int S, int D, int tile_n,
                         unsigned swizzle, char *err, size_t errlen) {
    const cuuint64_t dims[3] = {(cuuint64_t)D, (cuuint64_t)S, (cuuint64_t)B * (cuuint64_t)H};
    const cuuint64_t strides[2] = {(cuuint64_t)D, (cuuint64_t)S * (cuuint64_t)D}; // bytes, dims 1..2
    const cuuint32_t box[3] = {(cuuint32_t)D, (cuuint32_t)tile_n, 1};
    const CUtensorMapSwizzle sw = swizzle == 128  ? CU_TENSOR_MAP_SWIZZLE_128B
                                  : swizzle == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                                  : swizzle == 32 ? CU_TENSOR_MAP_SWIZZLE_32B
                                                  : CU_TENSOR_MAP_SWIZZLE_NONE;
    return prims::tma_encode_tiled(map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 3, codes, dims, strides, box, sw, err,
                                   errlen);
}

// The first producer thread owns the barriers and issues every copy.
template <class Cfg> __device__ __forceinline__ bool tma_issuer() { return threadIdx.x == Cfg::kLoader0; }

// Before the block barrier that publishes them (mainloop_warp_spec): full[s] takes the issuer's one
// arrival (with the slot's bytes), empty[s] every reader's (kSlotArrivals: a thread's or a warp's).
template <class Cfg> __device__ __forceinline__ void kv_barriers_init(Smem<Cfg> &sm) {
    if (tma_issuer<Cfg>()) {
#pragma unroll
        for (int s = 0; s < Cfg::kKvStages; ++s) {
            prims::mbar_init(&sm.full[s], 1);
            prims::mbar_init(&sm.empty[s], Cfg::kSlotArrivals);
        }
        prims::fence_mbarrier_init();
    }
}

// The issuer loads tile t (of the CTA's head bh) into slot t % R, once the producers have released
// the slot's previous tile t - R: that release completed phase (t / R - 1) of empty[slot], whose
// parity is (t / R + 1) & 1; a fresh barrier passes parity 1 at once (tiles 0..R-1, first use).
template <class Cfg>
__device__ __forceinline__ void tma_kv_issue(Smem<Cfg> &sm, const KvMaps &maps, int t, int bh) {
    constexpr int R = Cfg::kKvStages, TN = Cfg::kTN;
    constexpr uint32_t kTxBytes = 2u * TN * Cfg::kD; // one K and one V box, out-of-bounds zeros included
    const int slot = t % R;
    prims::mbar_wait(&sm.empty[slot], ((t / R) & 1) ^ 1);
    prims::mbar_arrive_expect_tx(&sm.full[slot], kTxBytes);
    prims::tma_load_3d(&sm.k8[slot][0][0], maps.k, 0, t * TN, bh, &sm.full[slot]);
    prims::tma_load_3d(&sm.v8[slot][0][0], maps.v, 0, t * TN, bh, &sm.full[slot]);
}

// Every producer: tile t's boxes have landed in slot t % R (phase t / R of full[slot]).
template <class Cfg> __device__ __forceinline__ void tma_kv_wait(Smem<Cfg> &sm, int t) {
    constexpr int R = Cfg::kKvStages;
    const unsigned phase = (t / R) & 1; // flips each time the ring wraps
    prims::mbar_wait(&sm.full[t % R], phase);
}

// Every reader of tile t's slot (kSlotReaders: the producers; with WGMMA_QK also the consumers, once
// their wgmma on K has completed), after its last read of it; whole warps, converged.
// [stage 7l] WARP_RELEASE: one arrival per warp instead of 32 (7k's SASS: one SYNCS.ARRIVE a warp
// with every lane active, 384 arrivals a tile at the mbarrier; FlashAttention-3 reports per-thread
// arrivals as a forward-pass regression). __syncwarp orders every lane's reads of the slot (the
// producers' ldmatrix, which orders nothing between lanes) before lane 0's release; a consumer
// lane's wgmma.wait_group has retired its warp's reads of K. A warp vouches for its own reads only:
// no warp's wait is taken to cover another's share of a warpgroup's wgmma (Methods, Stage 7l).
template <class Cfg> __device__ __forceinline__ void tma_kv_release(Smem<Cfg> &sm, int t) {
    if constexpr (Cfg::kWarpRelease) {
        __syncwarp(); // [stage 7l] every lane's reads of the slot, then
        if (threadIdx.x % 32 == 0) prims::mbar_arrive(&sm.empty[t % Cfg::kKvStages]); // one arrival
    } else {
        prims::mbar_arrive(&sm.empty[t % Cfg::kKvStages]);
    }
}

} // namespace sdpa
