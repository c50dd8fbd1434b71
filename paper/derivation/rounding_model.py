#!/usr/bin/env python3
"""A model of the kernels' roundings, used to check the tolerances of paper/methods.md before any
kernel existed. It is arithmetic, not a kernel: per-head E4M3 quantisation, Q.K^T in fp32, online
softmax over 32-key tiles in fp32, output rounded to fp16; compared with a float64 reference on the
same dequantised inputs (kernel-only) and on the original inputs (end-to-end). The rows:

  stage0/1  scores rounded to fp16, P fp32
  stage2/3a scores rounded to fp16, P rounded to fp16, row sum l of the fp32 p
  stage3b   scores stay fp32 (mma.sync accumulators feed the softmax), P rounded to fp16, l fp32 p
            (stages 4 and 5 do the same arithmetic)
  stage6    Q.K^T on the e4m3 codes (exact products, fp32 sum, per-head scales after), P quantised
            to e4m3 as code = e4m3(448 p), P.V on the codes, l = sum of the fp32 p ("l=p") or of
            the quantised p ("l=p8", the recommended choice); optionally the FP8 MMA's truncating
            accumulator (13 fraction bits, "fp22"), per tile ("tile") or running across tiles
            ("run"): the hardware behaviour the CPU emulator does not model.
  stage7e   stage 6's arithmetic on tiles of 128 keys (one running maximum per 128 keys; with fp22
            the tile's four k = 32 steps chained in the truncating accumulator, as one wgmma
            accumulator per tile)

It prints rel-L2, the worst element's error relative to its bar (the fp16 family for stages 0-3b,
the FP8-P family for stage 6), cosine similarity and relative L1 (SageAttention's metrics), RMSE
(FlashAttention-3's), the end-to-end rel-L2, and for stage 6 the fraction of weights p below e4m3's
normal range (subnormal or flushed to zero) and the largest sum|q_i k_i|/sqrt(D) over Smax of a
slice (how far the score-accumulation allowance of the bar stretches).

Options: --no-long (skip the long shape), --d 128 (every shape with head dimension 128 instead of
64), --causal (query row i attends to keys j <= i: masked scores, tiles wholly above the diagonal
contribute nothing; the reference masks the same keys, and Smax is over the unmasked logits).

Not part of the build (it needs numpy and ml_dtypes: pip install numpy ml_dtypes). Its random
inputs are numpy's, not the artifact's: the point is the order of magnitude of the error.
"""
import sys

import numpy as np
import ml_dtypes

U = 2.0 ** -11  # fp16 unit roundoff
U8 = 2.0 ** -4  # e4m3 unit roundoff (3 fraction bits), normal range
P_SCALE = 448.0  # largest finite e4m3: P = 1 maps to the top of the range
SUB = 2.0 ** -10 / P_SCALE  # half the smallest e4m3 subnormal (2^-9), in units of p
E4M3 = ml_dtypes.float8_e4m3fn


def quantise(x):
    """Per-head E4M3 codes (as their exact float values) and the per-head scale."""
    scale = np.abs(x).max(axis=(0, 2, 3), keepdims=True) / 448.0
    return (x / scale).astype(E4M3).astype(np.float64), scale


def trunc22(x):
    """Round an fp32 array toward zero to 13 fraction bits: the FP8 MMA's accumulator."""
    b = np.asarray(x, np.float32).view(np.uint32) & np.uint32(0xFFFFFC00)
    return b.view(np.float32)


def fp16(x):
    return x.astype(np.float16).astype(np.float32)


def model(qc, kc, vc, qs, ks, vs, stage, l_p8=True, acc22=None, causal=False, tn=32):
    b_, h_, s_, d_ = qc.shape
    out = np.zeros(qc.shape)
    n_low = 0
    for b in range(b_):
        for h in range(h_):
            f = np.float32(qs[0, h, 0, 0] * ks[0, h, 0, 0] / np.sqrt(d_))
            qq, kk, vv = (t[b, h].astype(np.float32) for t in (qc, kc, vc))
            if acc22:  # D/32 k=32 MMAs, each adding its exact partial sum into the truncating acc
                s = np.zeros((s_, s_), np.float32)
                for c in range(0, d_, 32):
                    s = trunc22(s + (qq[:, c:c + 32].astype(np.float64) @ kk[:, c:c + 32].T.astype(np.float64)))
            else:
                s = (qq @ kk.T).astype(np.float32)
            s = s * f
            if causal:  # keys after the query row: -inf (p = 0); the kernels skip whole tiles above
                s = np.where(np.tri(s_, dtype=bool), s, np.float32(-np.inf))
            if stage in ('stage0', 'stage2'):
                s = fp16(s)
            vd = vv  # V's codes; scale_v is applied to the output, as the kernels do
            m = np.full(s_, -np.inf, np.float32)
            l = np.zeros(s_, np.float32)
            acc = np.zeros((s_, d_), np.float32)
            for t in range(0, s_, tn):
                st = s[:, t:t + tn]
                m_new = np.maximum(m, st.max(1))
                alpha = np.exp(m - m_new).astype(np.float32)
                p = np.exp(st - m_new[:, None]).astype(np.float32)
                if stage == 'stage6':
                    code = (p * np.float32(P_SCALE)).astype(E4M3).astype(np.float32)
                    n_low += int((code < 2.0 ** -6).sum())
                    pp = code  # the MMA sees codes; 1/448 is folded into l (l=p8) or applied at the end
                    l = l * alpha + (code.sum(1) if l_p8 else p.sum(1) * np.float32(P_SCALE))
                    tile = pp.astype(np.float64) @ vd[t:t + tn].astype(np.float64)
                    if acc22 == 'tile' and tn > 32:  # k = 32 steps chained in one truncating accumulator
                        tile = np.zeros_like(tile)
                        for c in range(0, st.shape[1], 32):
                            tile = trunc22(tile + pp[:, c:c + 32].astype(np.float64)
                                           @ vd[t + c:t + c + 32].astype(np.float64))
                        acc = acc * alpha[:, None] + tile
                    elif acc22 == 'tile':
                        acc = acc * alpha[:, None] + trunc22(tile)
                    elif acc22 == 'run':
                        acc = trunc22(acc * alpha[:, None] + tile)
                    else:
                        acc = acc * alpha[:, None] + tile.astype(np.float32)
                else:
                    l = l * alpha + p.sum(1)
                    pp = fp16(p) if stage != 'stage0' else p
                    acc = acc * alpha[:, None] + pp @ vd[t:t + tn]
                m = m_new
            o = acc / l[:, None] * np.float32(vs[0, h, 0, 0])
            out[b, h] = o.astype(np.float16).astype(np.float64)
    return out, n_low


def reference(q, k, v, causal=False):
    d, s = q.shape[-1], q.shape[2]
    logits = np.einsum('bhid,bhjd->bhij', q, k) / np.sqrt(d)
    mask = np.tri(s, dtype=bool) if causal else np.ones((s, s), bool)
    smax = np.where(mask, np.abs(logits), 0).max(axis=(2, 3))
    logits = np.where(mask, logits, -np.inf)
    w = np.exp(logits - logits.max(-1, keepdims=True))
    w /= w.sum(-1, keepdims=True)
    return np.einsum('bhij,bhjd->bhid', w, v), smax


def abs_sum_ratio(q, k, smax):
    """max over slices of (largest row-pair sum|q_i k_i| / sqrt(D)) / Smax."""
    d = q.shape[-1]
    a = np.einsum('bhid,bhjd->bhij', np.abs(q), np.abs(k)).max(axis=(2, 3)) / np.sqrt(d)
    return (a / smax).max()


def main():
    d = int(sys.argv[sys.argv.index('--d') + 1]) if '--d' in sys.argv else 64
    causal = '--causal' in sys.argv
    shapes = [('small', (1, 1, 32, d)), ('mission', (1, 8, 512, d)), ('ragged', (2, 3, 33, d))]
    if '--no-long' not in sys.argv:
        shapes.append(('long', (1, 8, 2048, d)))
    print(f"# head dimension {d}, {'causal' if causal else 'non-causal'}")
    rows = [('stage0', 'stage0', {}), ('stage2', 'stage2', {}), ('stage3b', 'stage3b', {}),
            ('stage6 l=p8', 'stage6', {}), ('stage6 l=p', 'stage6', {'l_p8': False}),
            ('stage6 l=p8 fp22 tile', 'stage6', {'acc22': 'tile'}),
            ('stage6 l=p8 fp22 run', 'stage6', {'acc22': 'run'}),
            ('stage7e l=p8', 'stage6', {'tn': 128}),
            ('stage7e l=p8 fp22 tile', 'stage6', {'tn': 128, 'acc22': 'tile'})]
    rng = np.random.default_rng(0)
    tsv = '--tsv' in sys.argv  # for paper/derivation/rounding-model.tsv, which the paper's tables read
    if tsv:
        print('# paper/derivation/rounding_model.py --tsv: the model\'s kernel-only metrics and end-to-end rel-L2')
        print('\t'.join(('dist', 'shape', 'row', 'rel_l2', 'worst_ratio', 'cosine', 'rel_l1', 'rmse', 'e2e_rel_l2')))
    else:
        print(f"{'dist':8s} {'shape':8s} {'row':22s} {'rel-L2':>8s} {'err/bar':>7s} {'cosine':>10s} "
              f"{'rel-L1':>8s} {'RMSE':>8s} {'e2e L2':>8s}  stage-6 extras")
    for dist in ('normal', 'uniform', 'outliers'):
        for name, shape in shapes:
            def draw():
                if dist == 'uniform':
                    return rng.uniform(-1, 1, shape)
                x = rng.standard_normal(shape)
                if dist == 'outliers':
                    x[rng.random(shape) < 1e-3] *= 10
                return x
            orig = [draw() for _ in range(3)]
            (qc, qs), (kc, ks), (vc, vs) = (quantise(x) for x in orig)
            q, k, v = qc * qs, kc * ks, vc * vs
            ref, smax = reference(q, k, v, causal)
            ref_e2e, _ = reference(*orig, causal=causal)
            vmax = np.abs(v).max(axis=(2, 3))
            ratio = abs_sum_ratio(q, k, smax)
            for label, stage, kw in rows:
                o, n_low = model(qc, kc, vc, qs, ks, vs, stage, causal=causal, **kw)
                if stage == 'stage6':  # the FP8-P family's atol (methods.md)
                    atol = (4 * U * smax + 4 * U8 + 4 * shape[2] * SUB) * vmax
                else:  # the fp16 family's
                    atol = 2 * U * (2 * smax + 1) * vmax
                err = o - ref
                rel = np.linalg.norm(err) / np.linalg.norm(ref)
                worst = (np.abs(err) / (atol[:, :, None, None] + 2 * U * np.abs(ref))).max()
                cos = (o * ref).sum() / (np.linalg.norm(o) * np.linalg.norm(ref))
                rl1 = np.abs(err).sum() / np.abs(ref).sum()
                rmse = np.sqrt((err ** 2).mean())
                e2e = np.linalg.norm(o - ref_e2e) / np.linalg.norm(ref_e2e)
                extra = ''
                if stage == 'stage6':
                    extra = f"p<2^-6/448 {n_low / (np.prod(shape[:3]) * shape[2]):.1e}  sum|qk|/Smax {ratio:.2f}"
                if tsv:
                    print('\t'.join([dist, name, label] + [f'{x:.4g}' for x in (rel, worst)] + [f'{cos:.9f}']
                                     + [f'{x:.4g}' for x in (rl1, rmse, e2e)]), flush=True)
                    continue
                print(f"{dist:8s} {name:8s} {label:22s} {rel:8.2e} {worst:7.3f} {cos:10.7f} "
                      f"{rl1:8.2e} {rmse:8.2e} {e2e:8.2e}  {extra}", flush=True)


if __name__ == '__main__':
    main()
