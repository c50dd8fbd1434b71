"""The plumbing of the peer scripts (tools/peers/README.md), Python stdlib only so that it runs,
and is tested, where neither torch nor numpy is installed.

It mirrors the host library where the numbers must agree with sdpa-bench's:
  - e4m3 / seed-linear decoding and per-head scales: host/lib/fp8.c (codec_decode);
  - the fp64 reference and its per-slice bounds (largest |logit|, largest |v|): host/lib/reference.c;
  - the kernel-only tolerance atol_bh = 2u (2 Smax + 1) Vmax, rtol = 2u: host/lib/metrics.h;
  - every metric and its degenerate cases: host/lib/metrics.c (metrics_compute);
  - quantiles (type 7) and the order-statistic 95 % CI of the median: host/lib/stats.c.
"""

import ast
import json
import math
import os
import platform
import socket
import struct
import sys
import time

TOL_U = 1.0 / 2048.0
TOL_RTOL = 2.0 * TOL_U
TOL_KERNEL_REL_L2 = 1e-3
TOL_E2E_REL_L2 = 6e-2
TOL_E2E_COSINE = 0.998
LEGACY_MAX_ABS, LEGACY_MEAN_ABS, LEGACY_PCT_BAD, LEGACY_ATOL = 0.06, 0.02, 1.0, 0.06


def _schema_version():
    """The schema version the build writes, never typed here: the bundle ships it beside this file
    (peers/schema-version, written by make bundle from `sdpa-report schema-version`); in the
    checkout it is read from its one definition, RESULTS_SCHEMA_VERSION in host/lib/json_file.h."""
    here = os.path.dirname(os.path.abspath(__file__))
    shipped = os.path.join(here, "schema-version")
    header = os.path.join(here, "..", "..", "host", "lib", "json_file.h")
    try:
        if os.path.exists(shipped):
            with open(shipped, encoding="ascii") as f:
                version = f.read().strip()
        else:
            with open(header, encoding="utf-8") as f:
                version = next(line.split('"')[1] for line in f
                               if line.startswith("#define RESULTS_SCHEMA_VERSION "))
    except (OSError, StopIteration, IndexError, UnicodeDecodeError):
        version = ""
    if not version or not all(p.isdigit() for p in version.split(".")) or version.count(".") != 2:
        raise SystemExit(f"peerlib: no schema version in {shipped} or {header}: use the bundle (make bundle) "
                         "or the checkout")
    return version


SCHEMA_VERSION = _schema_version()


class InputError(Exception):
    """A bad input file or flag: the message names it; the scripts exit 2."""


# ---- .npy (what sdpa-bench --dump writes: host/lib/npy.c) -----------------------------------
_NPY_TYPES = {"|u1": ("B", 1), "<f4": ("f", 4), "<f2": ("e", 2)}


def read_npy(path):
    """Returns (shape, flat list of values, descr). Little-endian, C order, the descrs above."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror}") from None
    if raw[:6] != b"\x93NUMPY" or len(raw) < 10:
        raise InputError(f"{path}: not a .npy file (no \\x93NUMPY magic)")
    major = raw[6]
    if major == 1:
        hlen, start = struct.unpack_from("<H", raw, 8)[0], 10
    elif major in (2, 3):
        hlen, start = struct.unpack_from("<I", raw, 8)[0], 12
    else:
        raise InputError(f"{path}: .npy version {major} is not supported")
    try:
        header = ast.literal_eval(raw[start:start + hlen].decode("latin1"))
        descr, fortran, shape = header["descr"], header["fortran_order"], tuple(header["shape"])
    except (ValueError, SyntaxError, KeyError, TypeError):
        raise InputError(f"{path}: malformed .npy header") from None
    if descr not in _NPY_TYPES or fortran:
        raise InputError(f"{path}: dtype {descr!r}{' (Fortran order)' if fortran else ''} is not one sdpa-bench writes")
    code, size = _NPY_TYPES[descr]
    n = 1
    for d in shape:
        n *= d
    data = raw[start + hlen:]
    if len(data) != n * size:
        raise InputError(f"{path}: {len(data)} data bytes, the header says {n * size} (truncated?)")
    return shape, list(struct.unpack(f"<{n}{code}", data)), descr


def read_dump(d):
    """The inputs of sdpa-bench --dump DIR: codes, scales, original floats, meta.json."""
    try:
        with open(os.path.join(d, "meta.json")) as f:
            meta = json.load(f)
    except OSError as e:
        raise InputError(f"{d}/meta.json: cannot read: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise InputError(f"{d}/meta.json: not valid JSON ({e})") from None
    x = {}
    for name in ("q", "k", "v", "q_scale", "k_scale", "v_scale", "x_q", "x_k", "x_v"):
        x[name] = read_npy(os.path.join(d, name + ".npy"))
    shape = x["q"][0]
    if len(shape) != 4 or x["k"][0] != shape or x["v"][0] != shape:
        raise InputError(f"{d}: q, k and v must share one [B,H,S,D] shape")
    if any(x[s][0] != (shape[1],) for s in ("q_scale", "k_scale", "v_scale")):
        raise InputError(f"{d}: the scales must have shape [H] = [{shape[1]}]")
    codec = meta.get("codec")
    if codec not in ("e4m3", "seed-linear"):
        raise InputError(f"{d}/meta.json: codec {codec!r}: expected e4m3 or seed-linear")
    return meta, shape, x


# ---- codecs (host/lib/fp8.c) ------------------------------------------------------------------
def e4m3_value(code):
    """OCP E4M3 (bias 7, no infinities; S.1111.111 is NaN)."""
    s = -1.0 if code & 0x80 else 1.0
    e, m = (code >> 3) & 0xF, code & 7
    if e == 0xF and m == 7:
        return math.nan
    if e == 0:
        return s * math.ldexp(m / 8.0, -6)
    return s * math.ldexp(1.0 + m / 8.0, e - 7)


def codec_unit(codec, code):
    return float(code) - 128.0 if codec == "seed-linear" else e4m3_value(code)


def codec_step(codec, scale):
    # The float32 scale as a double, then (seed-linear) * 448 / 127: codec_step's order.
    return scale * 448.0 / 127.0 if codec == "seed-linear" else scale


def dequantise(codes, scales, shape, codec):
    """Per head h: unit(code) * step(scale[h]), as inputs_dequantised."""
    B, H, S, D = shape
    out, slice_ = [0.0] * len(codes), S * D
    for base in range(0, len(codes), slice_):
        h = (base // slice_) % H
        step = codec_step(codec, scales[h])
        table = [codec_unit(codec, c) * step for c in range(256)]
        for i in range(base, base + slice_):
            out[i] = table[codes[i]]
    return out


# ---- the fp64 reference (host/lib/reference.c) ------------------------------------------------
def _dot(x, xo, y, yo, n):
    # Four partial sums added as (a0 + a1) + (a2 + a3): the reference's fixed order.
    a = [0.0, 0.0, 0.0, 0.0]
    d = 0
    while d + 4 <= n:
        a[0] += x[xo + d] * y[yo + d]
        a[1] += x[xo + d + 1] * y[yo + d + 1]
        a[2] += x[xo + d + 2] * y[yo + d + 2]
        a[3] += x[xo + d + 3] * y[yo + d + 3]
        d += 4
    while d < n:
        a[0] += x[xo + d] * y[yo + d]
        d += 1
    return (a[0] + a[1]) + (a[2] + a[3])


def reference_attention(q, k, v, shape, softmax_scale):
    """o = softmax(scale q K^T) V per (b,h) slice in fp64; returns (o, smax[bh], vmax[bh])."""
    B, H, S, D = shape
    if not (softmax_scale > 0.0) or not math.isfinite(softmax_scale):
        softmax_scale = 1.0 / math.sqrt(D)
    out, smaxs, vmaxs, sl = [0.0] * len(q), [], [], S * D
    for bh in range(B * H):
        base = bh * sl
        vmax = max((abs(v[base + i]) for i in range(sl)), default=0.0)
        smax = 0.0
        for i in range(S):
            qo = base + i * D
            row = [softmax_scale * _dot(q, qo, k, base + j * D, D) for j in range(S)]
            m = max(row)
            smax = max(smax, max(abs(s) for s in row))
            p = [math.exp(s - m) for s in row]
            l = 0.0
            for pj in p:
                l += pj
            o = [0.0] * D
            for j in range(S):
                vo = base + j * D
                for d in range(D):
                    o[d] += p[j] * v[vo + d]
            for d in range(D):
                out[qo + d] = o[d] / l
        smaxs.append(smax)
        vmaxs.append(vmax)
    return out, smaxs, vmaxs


def kernel_atol(smax, vmax):
    return 2.0 * TOL_U * (2.0 * smax + 1.0) * vmax


# ---- metrics (host/lib/metrics.c) -------------------------------------------------------------
def metrics(out, ref, atol, block_len, atol_all, rtol):
    """metrics_compute: atol is per block of block_len elements (None: atol_all everywhere)."""
    n = len(out)
    finite = 0
    sum_abs = sum_e2 = sum_r2 = sum_o2 = sum_or = sum_rabs = 0.0
    max_abs = max_rel = 0.0
    worst_ratio, worst_index = -math.inf, 0
    amin = math.inf if atol is not None else atol_all
    amax = -math.inf if atol is not None else atol_all
    nonfinite = n_bad = 0
    for i in range(n):
        a = atol[i // block_len if block_len else 0] if atol is not None else atol_all
        if a < amin:
            amin = a
        if a > amax:
            amax = a
        o, r = out[i], ref[i]
        if not math.isfinite(o) or not math.isfinite(r):
            nonfinite += 1
            n_bad += 1
            ratio = math.inf
        else:
            err = abs(o - r)
            tol = a + rtol * abs(r)
            ratio = 0.0 if err == 0.0 else (err / tol if tol > 0.0 else math.inf)
            if err > tol:
                n_bad += 1
            if err > max_abs:
                max_abs = err
            rel = err / (abs(r) + 1e-6)
            if rel > max_rel:
                max_rel = rel
            finite += 1
            sum_abs += err
            sum_e2 += err * err
            sum_r2 += r * r
            sum_rabs += abs(r)
            sum_o2 += o * o
            sum_or += o * r
        if ratio > worst_ratio:
            worst_ratio, worst_index = ratio, i
    return finish_metrics(n, nonfinite, n_bad, finite, (sum_abs, sum_e2, sum_r2, sum_o2, sum_or, sum_rabs),
                          max_abs, max_rel, worst_ratio, worst_index, amin, amax, atol_all, rtol)


METRIC_KEYS = ("n", "nonfinite", "n_bad", "pct_bad", "max_abs", "mean_abs", "max_rel", "rel_l2", "cosine",
               "rel_l1", "rmse", "worst_ratio", "worst_index", "atol_min", "atol_max", "rtol")


def finish_metrics(n, nonfinite, n_bad, finite, sums, max_abs, max_rel, worst_ratio, worst_index, amin, amax,
                   atol_all, rtol):
    """The metrics from the accumulated sums (shared by every way of accumulating them), with
    metrics_compute's degenerate cases; keys in json_err_metrics' order."""
    sum_abs, sum_e2, sum_r2, sum_o2, sum_or, sum_rabs = sums
    m = {"n": n, "nonfinite": nonfinite, "n_bad": n_bad}
    if n == 0:
        m.update(pct_bad=0.0, max_abs=0.0, mean_abs=0.0, max_rel=0.0, rel_l2=0.0, cosine=1.0, rel_l1=0.0,
                 rmse=0.0, worst_ratio=0.0, worst_index=0, atol_min=atol_all, atol_max=atol_all, rtol=rtol)
        return {k: m[k] for k in METRIC_KEYS}
    m["pct_bad"] = 100.0 * n_bad / n
    if finite == 0:
        nan = math.nan
        m.update(max_abs=nan, mean_abs=nan, max_rel=nan, rel_l2=nan, cosine=nan, rel_l1=nan, rmse=nan)
    else:
        m["max_abs"], m["mean_abs"], m["max_rel"] = max_abs, sum_abs / finite, max_rel
        m["rel_l2"] = (math.sqrt(sum_e2) / math.sqrt(sum_r2) if sum_r2 > 0.0
                       else (math.inf if sum_e2 > 0.0 else 0.0))
        if sum_o2 > 0.0 and sum_r2 > 0.0:
            m["cosine"] = sum_or / (math.sqrt(sum_o2) * math.sqrt(sum_r2))
        else:
            m["cosine"] = 1.0 if (sum_o2 == 0.0 and sum_r2 == 0.0) else 0.0
        m["rel_l1"] = (sum_abs / sum_rabs if sum_rabs > 0.0 else (math.inf if sum_abs > 0.0 else 0.0))
        m["rmse"] = math.sqrt(sum_e2 / finite)
    m.update(worst_ratio=worst_ratio, worst_index=worst_index, atol_min=amin, atol_max=amax, rtol=rtol)
    return {k: m[k] for k in METRIC_KEYS}


def metrics_differ(a, b, rel=1e-9):
    """The keys where two metric sets differ by more than rounding (sums in another order)."""
    out = []
    for k in METRIC_KEYS:
        x, y = a[k], b[k]
        if isinstance(x, float) or isinstance(y, float):
            if math.isnan(x) and math.isnan(y):
                continue
            if x == y or abs(x - y) <= rel * max(abs(x), abs(y)):
                continue
        elif x == y:
            continue
        out.append(k)
    return out


def gates(ko, e2e, legacy):
    return {
        "kernel_only": ko["nonfinite"] == 0 and ko["n_bad"] == 0 and ko["rel_l2"] <= TOL_KERNEL_REL_L2,
        "end_to_end": e2e["nonfinite"] == 0 and e2e["rel_l2"] <= TOL_E2E_REL_L2 and e2e["cosine"] >= TOL_E2E_COSINE,
        "legacy": (legacy["nonfinite"] == 0 and legacy["max_abs"] <= LEGACY_MAX_ABS
                   and legacy["mean_abs"] <= LEGACY_MEAN_ABS and legacy["pct_bad"] <= LEGACY_PCT_BAD),
    }


class References:
    """Both fp64 references of a dump, as problem_init builds them (host/bench/check.c): kernel-only
    on the dequantised inputs (with the per-slice atol), end-to-end on the original floats."""

    def __init__(self, meta, shape, x, attention=reference_attention, metrics_fn=None):
        codec, scale = meta["codec"], float(meta.get("softmax_scale") or 0.0)
        deq = {t: dequantise(x[t][1], x[t + "_scale"][1], shape, codec) for t in ("q", "k", "v")}
        self.shape, self.codec, self.deq = shape, codec, deq
        self.kernel, smax, vmax = attention(deq["q"], deq["k"], deq["v"], shape, scale)
        self.atol = [kernel_atol(s, v) for s, v in zip(smax, vmax)]
        self.e2e, _, _ = attention(x["x_q"][1], x["x_k"][1], x["x_v"][1], shape, scale)
        self.block = shape[2] * shape[3]
        self.metrics = metrics_fn or metrics

    def check(self, out):
        """The CORRECTNESS metrics and gates of one output (a flat list, fp16 values as floats)."""
        ko = self.metrics(out, self.kernel, self.atol, self.block, 0.0, TOL_RTOL)
        e2e = self.metrics(out, self.e2e, self.atol, self.block, 0.0, TOL_RTOL)
        legacy = self.metrics(out, self.e2e, None, self.block, LEGACY_ATOL, 0.0)
        g = gates(ko, e2e, legacy)
        return {"kernel_only": ko, "end_to_end": e2e, "legacy": legacy, "gates": g,
                "all_written": all(math.isfinite(o) for o in out), "pass": g["kernel_only"]}


def round_fp16(values):
    """Round to binary16 (nearest, ties to even; struct's 'e' format), back to floats."""
    packed = struct.pack(f"<{len(values)}e", *values)
    return list(struct.unpack(f"<{len(values)}e", packed))


# ---- statistics (host/lib/stats.c) ------------------------------------------------------------
def quantile_sorted(s, p):
    n = len(s)
    if n == 0:
        return math.nan
    if p <= 0.0:
        return s[0]
    if p >= 1.0:
        return s[-1]
    h = (n - 1) * p
    lo = int(h)
    if lo >= n - 1:
        return s[-1]
    frac = h - lo
    return s[lo] if frac == 0.0 else s[lo] + frac * (s[lo + 1] - s[lo])


def median_ci_ranks(n, level=0.95):
    """Largest j with P[Bin(n, 1/2) <= j - 1] <= (1 - level)/2, k = n + 1 - j (1-based ranks) and the
    coverage 1 - 2 P[Bin <= j - 1]; None for n < 6. Exact integer arithmetic here; stats.c keeps
    a scaled float sum whose error is far below any gap that could move a rank."""
    if n < 6 or not (0.0 < level < 1.0):
        return None
    tail = (1.0 - level) / 2.0
    term, total, best, best_cdf = 1, 1, 0, 0.0
    for t in range(n // 2):
        cdf = total / 2 ** n
        if cdf > tail:
            break
        best, best_cdf = t + 1, cdf
        term = term * (n - t) // (t + 1)
        total += term
    if best == 0:
        return None
    return best, n + 1 - best, 1.0 - 2.0 * best_cdf


def summarize(x):
    """STATS of data/SCHEMA.md, as stats_summarize."""
    n = len(x)
    if n == 0 or any(not math.isfinite(v) for v in x):
        return None
    s = sorted(x)
    q1, med, q3 = quantile_sorted(s, 0.25), quantile_sorted(s, 0.5), quantile_sorted(s, 0.75)
    mean = sum(x) / n
    std = math.sqrt(sum((v - mean) ** 2 for v in x) / (n - 1)) if n > 1 else math.nan
    out = {"n": n, "min": s[0], "q1": q1, "median": med, "q3": q3, "max": s[-1], "mean": mean, "std": std,
           "p90": quantile_sorted(s, 0.90), "p99": quantile_sorted(s, 0.99), "iqr": q3 - q1,
           "rel_iqr": (q3 - q1) / med if med != 0.0 else math.nan}
    r = median_ci_ranks(n)
    if r:
        j, k, cov = r
        out.update(ci_available=True, ci_lo=s[j - 1], ci_hi=s[k - 1], ci_coverage=cov)
    else:
        out.update(ci_available=False, ci_lo=math.nan, ci_hi=math.nan, ci_coverage=math.nan)
    return out


# ---- JSON (data/SCHEMA.md conventions) ----------------------------------------------------------
def nulls(o):
    """Non-finite numbers are null, as cJSON writes them."""
    if isinstance(o, float) and not math.isfinite(o):
        return None
    if isinstance(o, dict):
        return {k: nulls(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        return [nulls(v) for v in o]
    return o


def meta_block(tool, backend, timing, argv, git_sha="unknown"):
    """The common meta of every result file (META_RULES of host/lib/json_file.c)."""
    now = time.time_ns()
    return {
        "tool": tool, "tool_version": "0.1.0", "git_sha": git_sha, "git_dirty": None,
        "cc": f"Python {platform.python_version()}", "nvcc": None, "cflags": "", "nvcc_flags": "",
        "host": {"hostname": socket.gethostname(), "os": " ".join(platform.uname()[i] for i in (0, 2, 4)),
                 "cpu": platform.processor() or platform.machine(), "cpus": os.cpu_count() or 1},
        "utc_time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now / 1e9)), "unix_time_ns": str(now),
        "command_line": list(argv), "backend": backend, "timing": timing,
    }


def write_new(path, doc):
    """Atomically (a temporary beside it, fsync, link(2)), never over an existing file."""
    text = json.dumps(nulls(doc), indent=2, allow_nan=False) + "\n"
    tmp = f"{path}.tmp.{os.getpid()}"
    with open(tmp, "w") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise InputError(f"--out {path}: exists; results are never overwritten") from None
    finally:
        os.unlink(tmp)


def eprint(*a):
    print(*a, file=sys.stderr)
