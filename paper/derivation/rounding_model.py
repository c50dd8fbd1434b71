#!/usr/bin/env python3
"""A model of the kernels' roundings, used to check the tolerances of paper/methods.md before any
kernel existed. It is arithmetic, not a kernel: per-head E4M3 quantisation, Q.K^T in fp32, scores
rounded to fp16, online softmax over 32-key tiles in fp32, P rounded to fp16 (stage 2+) with the row
sum kept in fp32, output rounded to fp16; compared with a float64 reference on the same
dequantised inputs. It prints the rel-L2 and the worst element's error relative to its bar.

Not part of the build (it needs numpy and ml_dtypes: pip install numpy ml_dtypes). Its random
inputs are numpy's, not the artifact's: the point is the order of magnitude of the error.
"""
import numpy as np
import ml_dtypes

U = 2.0 ** -11


def quantise(x):
    scale = np.abs(x).max(axis=(0, 2, 3), keepdims=True) / 448.0
    return (x / scale).astype(ml_dtypes.float8_e4m3fn).astype(np.float64) * scale


def model(q, k, v, fp16_p):
    b_, h_, s_, d_ = q.shape
    out = np.zeros_like(q)
    for b in range(b_):
        for h in range(h_):
            qq, kk, vv = (t[b, h].astype(np.float32) for t in (q, k, v))
            s = ((qq @ kk.T).astype(np.float32) * np.float32(1 / np.sqrt(d_))).astype(np.float16).astype(np.float32)
            m = np.full(s_, -np.inf, np.float32)
            l = np.zeros(s_, np.float32)
            acc = np.zeros((s_, d_), np.float32)
            for t in range(0, s_, 32):
                st = s[:, t:t + 32]
                m_new = np.maximum(m, st.max(1))
                alpha = np.exp(m - m_new).astype(np.float32)
                p = np.exp(st - m_new[:, None]).astype(np.float32)
                l = l * alpha + p.sum(1)
                pp = p.astype(np.float16).astype(np.float32) if fp16_p else p
                acc = acc * alpha[:, None] + pp @ vv[t:t + 32]
                m = m_new
            out[b, h] = (acc / l[:, None]).astype(np.float16).astype(np.float64)
    return out


def reference(q, k, v):
    d = q.shape[-1]
    logits = np.einsum('bhid,bhjd->bhij', q, k) / np.sqrt(d)
    smax = np.abs(logits).max(axis=(2, 3))
    w = np.exp(logits - logits.max(-1, keepdims=True))
    w /= w.sum(-1, keepdims=True)
    return np.einsum('bhij,bhjd->bhid', w, v), smax


def main():
    rng = np.random.default_rng(0)
    for dist in ('normal', 'uniform', 'outliers'):
        for shape in ((1, 1, 32, 64), (1, 8, 512, 64), (2, 3, 33, 64)):
            def draw():
                if dist == 'uniform':
                    return rng.uniform(-1, 1, shape)
                x = rng.standard_normal(shape)
                if dist == 'outliers':
                    x[rng.random(shape) < 1e-3] *= 10
                return x
            q, k, v = (quantise(draw()) for _ in range(3))
            ref, smax = reference(q, k, v)
            vmax = np.abs(v).max(axis=(2, 3))
            atol = 2 * U * (2 * smax + 1) * vmax
            for fp16_p in (False, True):
                err = model(q, k, v, fp16_p) - ref
                rel = np.linalg.norm(err) / np.linalg.norm(ref)
                worst = (np.abs(err) / (atol[:, :, None, None] + 2 * U * np.abs(ref))).max()
                print(f"{dist:8s} {str(shape):16s} fp16 P {int(fp16_p)}  rel-L2 {rel:.2e}  worst err/bar {worst:.3f}")


if __name__ == '__main__':
    main()
