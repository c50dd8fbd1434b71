#!/usr/bin/env python3
"""PyTorch's scaled_dot_product_attention as a peer of the FP8 SDPA kernels, on the inputs of
`sdpa-bench --dump DIR` (tools/peers/README.md; data/SCHEMA.md, "Peer runs").

  torch_sdpa.py --dump DIR --out FILE.json [--backend flash|efficient|cudnn|math|fp8]...
                [--warmup N] [--iters N] [--min-time S] [--max-time S] [--l2 cold|warm] [--force]
                [--shape-name NAME] [--git-sha SHA]
  torch_sdpa.py --selftest ...      test only: stand-in backends, no torch (written as backend
                                    "selftest", which make ingest refuses)

--out may hold "{backend}": one file per backend (the backends are still timed interleaved, in
one process). Per backend, in this order:
  1 inputs: the codes decoded per head as sdpa-bench does; Q K^T's per-head scale
    (q_step * k_step * softmax_scale) folded into Q, which is rounded to fp16 once; K and V as
    their unscaled codec values (exact in fp16); V's step applied to the output in fp32, which is
    then rounded to fp16 like the kernels' output. SDPA runs with scale = 1.
  2 check: the output against both fp64 references (peerlib.References: the same metrics, bars
    and per-(b,h) atol as sdpa-bench); a backend that fails the kernel-only bar is not timed
    (--force: timed anyway), as sdpa-bench does with variants.
  3 time (peertiming.py): CUDA events around the SDPA call alone, after a memset of 2 x L2 (--l2
    cold), with the stream held by torch.cuda._sleep before the start event and the backend's
    sdpa_kernel entered outside the interval (without torch.cuda._sleep: k back-to-back calls
    averaged; timing[].timing_method says which), the backends interleaved in rounds (A B C ...); warm-up rounds first; stop once >= --iters
    samples and >= --min-time seconds, no new round after --max-time; every sample kept; median
    and the order-statistic 95 % CI as host/lib/stats.c (peerlib.summarize).
A backend the device or this PyTorch lacks is recorded in not_supported with the exception's
message, never dropped. fp8 is torchao's FP8 attention (core PyTorch has none): without torchao,
"not available" with the reason. Metrics: the Python loop of peerlib (--metrics python), fp64 reductions
on the device (torch), or both on the first output and the device's thereafter if they agree to
rounding (validate, the default with torch). Exit: 0; 1 when a checked backend failed the bar;
2 on bad input; 3 when torch or CUDA is unusable (the message says which); 4 when validate found
the device metrics differing (nothing written: run again with --metrics python).
"""

import argparse
import contextlib
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peerlib  # noqa: E402
from peertiming import Clock, no_context, time_interleaved  # noqa: E402

TORCH_BACKENDS = ("flash", "efficient", "cudnn", "math", "fp8")
SELFTEST_BACKENDS = ("selftest-dump", "selftest-fp64")
INPUT_NOTE = ("Q pre-multiplied per head by q_step*k_step*softmax_scale and rounded to fp16 once; K, V as "
              "unscaled codec values (exact in fp16); SDPA with scale=1; the output times v_step in fp32, "
              "rounded to fp16. Timed: the SDPA call alone (CUDA events; timing[].timing_method). fp8: torchao's "
              "FP8 attention on the same fp16 inputs, which it quantises to e4m3 per head itself.")
# Core PyTorch has no FP8 SDPA (scaled_dot_product_attention refuses float8 inputs); torchao's
# prototype FP8 attention (FlashAttention-3 underneath: sm_90, PyTorch 2.11+) is the one at hand.
NO_FP8 = "core PyTorch has no FP8 SDPA, and torchao's FP8 attention is not importable"


def parse_args(argv):
    p = argparse.ArgumentParser(prog="torch_sdpa.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--dump", required=True, help="a directory written by sdpa-bench --dump")
    p.add_argument("--out", required=True, help="result JSON; '{backend}' in it: one file per backend")
    p.add_argument("--backend", action="append", default=None)
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--iters", type=int, default=10)
    p.add_argument("--min-time", type=float, default=0.5)
    p.add_argument("--max-time", type=float, default=15.0)
    p.add_argument("--l2", choices=("cold", "warm"), default="cold")
    p.add_argument("--force", action="store_true")
    p.add_argument("--shape-name", default="custom")
    p.add_argument("--git-sha", default="unknown")
    p.add_argument("--metrics", choices=("python", "torch", "validate"), default=None,
                   help="how the metrics are accumulated (torch: default validate)")
    p.add_argument("--selftest", action="store_true", help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    allowed = SELFTEST_BACKENDS if a.selftest else TORCH_BACKENDS
    a.backend = a.backend or list(allowed)
    a.metrics = a.metrics or ("python" if a.selftest else "validate")
    if a.selftest and a.metrics != "python":
        p.error("--metrics torch|validate needs torch (not with --selftest)")
    for b in a.backend:
        if b not in allowed:
            p.error(f"--backend {b}: accepted: {', '.join(allowed)}")
    if a.warmup < 0 or a.iters < 1 or a.min_time < 0 or a.max_time <= 0:
        p.error("--warmup >= 0, --iters >= 1, --min-time >= 0 and --max-time > 0")
    return a


# ---- backends -------------------------------------------------------------------------------
class Backend:
    """prepare() -> None or the reason it is unavailable; context() the context entered around a
    call, outside the timed interval (peertiming.py); call() enqueues the work (timed); output()
    the flat output as floats (fp16 values); library: versions for the result."""

    def __init__(self, name):
        self.name, self.id = name, ("peer-" if name.startswith("selftest") else "peer-torch-") + name

    def context(self):
        return no_context()


class SelftestBackend(Backend):
    """Stand-ins without torch. selftest-dump returns the dumped kernel output (o.npy), so its
    metrics must equal sdpa-bench's for that variant; selftest-fp64 is an ideal kernel (the fp64
    reference rounded to fp16). run() copies the precomputed list: its time means nothing."""

    library = {"torch": None, "cuda": None, "cudnn": None}

    def __init__(self, name, dump, refs):
        super().__init__(name)
        self.dump, self.refs = dump, refs

    def prepare(self):
        if self.name == "selftest-dump":
            shape, self.out, _ = peerlib.read_npy(os.path.join(self.dump, "o.npy"))
            if shape != tuple(self.refs.shape):
                raise peerlib.InputError(f"{self.dump}/o.npy: shape {shape}, the inputs are {self.refs.shape}")
        else:
            self.out = peerlib.round_fp16(self.refs.kernel)
        return None

    def call(self):
        self.last = list(self.out)

    def output(self):
        return list(self.out)


class TorchBackend(Backend):
    def __init__(self, name, torch, inputs):
        super().__init__(name)
        self.torch, self.inp = torch, inputs

    def prepare(self):
        torch = self.torch
        try:
            from torch.nn.attention import SDPBackend, sdpa_kernel
            import torch.nn.functional as F
        except ImportError as e:
            return f"torch.nn.attention unavailable in torch {torch.__version__}: {e}"
        which = {"flash": "FLASH_ATTENTION", "efficient": "EFFICIENT_ATTENTION", "cudnn": "CUDNN_ATTENTION",
                 "math": "MATH", "fp8": "FLASH_ATTENTION"}[self.name]
        be = getattr(SDPBackend, which, None)
        if be is None:
            return f"SDPBackend.{which} does not exist in torch {torch.__version__}"
        q, k, v = self.inp["q16"], self.inp["k16"], self.inp["v16"]
        if self.name == "fp8":
            why = self.prepare_fp8(torch)
            if why:
                return why
        else:
            self.ctx = lambda: sdpa_kernel([be])
            self.fn = lambda: F.scaled_dot_product_attention(q, k, v, scale=1.0)
        try:
            with self.ctx():
                self.result = self.fn()
            torch.cuda.synchronize()
        except Exception as e:  # the backend's own refusal: recorded, with its message
            return f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}".strip()
        return None

    def prepare_fp8(self, torch):
        """torchao's FP8 attention (NO_FP8 above) with FlashAttention-3 activated around each call,
        as torchao requires, outside the timed interval; None, or why it is not available."""
        try:
            from torchao.prototype.attention.fp8_fa3.attention import fp8_fa3_sdpa
            from torch.nn.attention import activate_flash_attention_impl, restore_flash_attention_impl
            import torchao
        except Exception as e:  # ImportError, or a torchao that fails to load with this torch
            return f"not available: {NO_FP8} ({type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''})"
        self.library = {**self.library, "torchao": getattr(torchao, "__version__", "unknown")}

        @contextlib.contextmanager
        def fa3():
            activate_flash_attention_impl("FA3")
            try:
                yield
            finally:
                restore_flash_attention_impl()

        q, k, v = self.inp["q16"], self.inp["k16"], self.inp["v16"]
        self.ctx = fa3
        self.fn = lambda: fp8_fa3_sdpa(q, k, v, scale=1.0)
        return None

    def context(self):
        return self.ctx()

    def call(self):
        self.result = self.fn()

    def output(self):
        o = self.result.float() * self.inp["v_step"].view(1, -1, 1, 1)
        return [float(x) for x in o.half().flatten().tolist()]


def torch_inputs(torch, meta, shape, x):
    """The device tensors of step 1 (module docstring)."""
    B, H, S, D = shape
    dev = torch.device("cuda")
    codec = meta["codec"]
    units = torch.tensor([peerlib.codec_unit(codec, c) for c in range(256)], dtype=torch.float32, device=dev)
    sm = float(meta.get("softmax_scale") or 1.0 / math.sqrt(D))
    steps = {t: torch.tensor([peerlib.codec_step(codec, s) for s in x[t + "_scale"][1]], dtype=torch.float64,
                             device=dev) for t in "qkv"}
    codes = {t: torch.tensor(x[t][1], dtype=torch.uint8, device=dev).view(B, H, S, D) for t in "qkv"}
    qk = steps["q"] * steps["k"] * sm
    vals = {t: units[codes[t].long()] for t in "qkv"}
    return {"codec": codec, "q_codes": codes["q"], "k_codes": codes["k"], "v_codes": codes["v"],
            "q16": (vals["q"].double() * qk.view(1, H, 1, 1)).half(), "k16": vals["k"].half(),
            "v16": vals["v"].half(), "qk_scale": qk.tolist(), "v_step": steps["v"].float()}


def torch_attention(torch):
    """peerlib.reference_attention's contract, computed in fp64 on the device, slice by slice."""

    def attention(q, k, v, shape, scale):
        B, H, S, D = shape
        if not (scale > 0.0) or not math.isfinite(scale):
            scale = 1.0 / math.sqrt(D)
        Q, K, V = (torch.tensor(t, dtype=torch.float64, device="cuda").view(B * H, S, D) for t in (q, k, v))
        out, smax, vmax = [], [], []
        for bh in range(B * H):
            s = scale * (Q[bh] @ K[bh].T)
            smax.append(float(s.abs().max()))
            vmax.append(float(V[bh].abs().max()))
            out.append(torch.softmax(s, dim=-1) @ V[bh])
        return torch.stack(out).flatten().tolist(), smax, vmax

    return attention


def torch_metrics(torch):
    """peerlib.metrics accumulated with fp64 tensor reductions on the device (the Python loop takes
    seconds per million elements); the final formulas are peerlib's (finish_metrics). Sums run in
    another order than the C loop's, so values agree to rounding; --metrics validate checks that
    on the first output before trusting it."""

    def metrics(out, ref, atol, block_len, atol_all, rtol):
        n = len(out)
        if n == 0:
            return peerlib.metrics(out, ref, atol, block_len, atol_all, rtol)
        dev = {"dtype": torch.float64, "device": "cuda"}
        o, r = torch.tensor(out, **dev), torch.tensor(ref, **dev)
        if atol is None:
            a = torch.full((n,), atol_all, **dev)
        elif block_len:
            a = torch.tensor(atol, **dev).repeat_interleave(block_len)[:n]
        else:
            a = torch.full((n,), atol[0], **dev)
        fin = torch.isfinite(o) & torch.isfinite(r)
        z = torch.zeros_like(o)
        of, rf = torch.where(fin, o, z), torch.where(fin, r, z)
        err, ra = (of - rf).abs(), rf.abs()
        tol = a + rtol * ra
        inf = torch.full_like(o, math.inf)
        ratio = torch.where(fin, torch.where(err == 0, z, torch.where(tol > 0, err / tol, inf)), inf)
        wi = int(torch.argmax(ratio))  # the first maximum, as the C loop's strict '>'
        nonfinite = int((~fin).sum())
        n_bad = nonfinite + int((fin & (err > tol)).sum())
        sums = tuple(float(t.sum()) for t in (err, err * err, rf * rf, of * of, of * rf, ra))
        max_abs = max(0.0, float(err.max()))
        max_rel = max(0.0, float((err / (ra + 1e-6)).max()))
        return peerlib.finish_metrics(n, nonfinite, n_bad, n - nonfinite, sums, max_abs, max_rel, float(ratio[wi]),
                                      wi, float(a.min()), float(a.max()), atol_all, rtol)

    return metrics


# ---- the result file -------------------------------------------------------------------------
def timing_entry(be, a, seed, shape, samples, stop, wall, timing, clock):
    B, H, S, D = shape
    flops, nbytes = 4 * B * H * S * S * D, 5 * B * H * S * D
    st = peerlib.summarize(samples)
    med = st["median"] if st else math.nan
    return {"variant": be.id, "peer": True, "library": be.library, "shape": a.shape_name, "seed": seed,
            # What was done: only a GPU run flushes L2 (the selftest has none to flush), and only a held
            # stream times the call right after the flush (back to back, the later calls find it warm).
            "timing": timing, "l2": "cold" if timing == "gpu" and a.l2 == "cold" and clock.held else "warm",
            "samples_us": samples, "sm_clock_mhz": None, "discarded_throttled": 0, "clock_unmeasured": None,
            "stop_reason": stop, "wall_s": wall, "timing_method": clock.method(),
            "discarded_unheld": clock.discarded_unheld if clock.held else None,
            "summary": st, "flops": str(flops), "bytes_min": str(nbytes),
            "tflops": flops / (med * 1e6) if med > 0 else math.nan,
            "bandwidth_gbs": nbytes / (med * 1e3) if med > 0 else math.nan, "roofline_floor_us": None,
            # The speed-of-light model is sdpa-bench's (host/bench/roofline.h): not repeated here.
            "roofline_bound": None, "roofline_terms_us": None, "tensor_formats": None}


def document(a, argv, meta, shape, backend_kind, timing, device, library, entries):
    B, H, S, D = shape
    seed = str(meta.get("seed", "0"))
    return {
        "schema_version": peerlib.SCHEMA_VERSION, "kind": "sdpa-bench-run",
        "meta": {**peerlib.meta_block("torch_sdpa.py", backend_kind, timing, argv, a.git_sha), "device": device,
                 "emulator": None},
        "peer_tool": "tools/peers/torch_sdpa.py", "library": library,
        "config": {"variants": [e["id"] for e in entries["backends"]], "baseline": None,
                   "shapes": [{"name": a.shape_name, "B": B, "H": H, "S": S, "D": D}], "seeds": [seed],
                   "codec": meta.get("codec"), "dist": meta.get("dist"), "softmax_scale": meta.get("softmax_scale"),
                   "l2": a.l2, "arm_order": "rotated", "warmup": a.warmup, "iters": a.iters, "min_time_s": a.min_time,
                   "max_time_s": a.max_time, "force": a.force, "input_dump": os.path.abspath(a.dump),
                   "input_preparation": INPUT_NOTE,
                   "metrics": {"python": "peerlib (a Python loop, as host/lib/metrics.c)",
                               "torch": "fp64 reductions on the device" + (", checked against peerlib on this run's "
                                        "first output" if getattr(a, "metrics_checked", False) else ""),
                               "validate": "none computed (no backend produced an output)"}[a.metrics]},
        "correctness": entries["correctness"], "cross_variant": [], "timing": entries["timing"], "comparisons": [],
        "not_timed": entries["not_timed"], "not_supported": entries["not_supported"], "ptxas": None,
        "ptxas_source": "none: a peer (no kernel of this artifact)",
    }


def main(argv):
    a = parse_args(argv)
    try:
        meta, shape, x = peerlib.read_dump(a.dump)
    except peerlib.InputError as e:
        peerlib.eprint(f"torch_sdpa.py: {e}")
        return 2
    torch = None
    if a.selftest:
        backend_kind, timing, device = "selftest", "selftest", None
        library = SelftestBackend.library
        refs = peerlib.References(meta, shape, x)
        backends = [SelftestBackend(b, a.dump, refs) for b in a.backend]
    else:
        try:
            import torch
        except ImportError as e:
            peerlib.eprint(f"torch_sdpa.py: torch not installed ({e}); the torch peers are skipped")
            return 3
        if not torch.cuda.is_available():
            peerlib.eprint("torch_sdpa.py: torch.cuda.is_available() is false: no usable GPU for the torch peers")
            return 3
        cudnn = torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None
        library = {"torch": torch.__version__, "cuda": torch.version.cuda, "cudnn": str(cudnn) if cudnn else None}
        p = torch.cuda.get_device_properties(0)
        device = {"name": p.name, "cc": f"{p.major}.{p.minor}", "sm_count": p.multi_processor_count,
                  "l2_bytes": str(getattr(p, "L2_cache_size", 0)), "runtime_version": torch.version.cuda,
                  "total_memory_bytes": str(p.total_memory)}
        backend_kind, timing = "cuda", "gpu"
        refs = peerlib.References(meta, shape, x, attention=torch_attention(torch),
                                  metrics_fn=None if a.metrics == "python" else torch_metrics(torch))
        inputs = torch_inputs(torch, meta, shape, x)
        backends = [TorchBackend(b, torch, inputs) for b in a.backend]
    for be in backends:
        be.library = library
    entries = {"backends": [], "correctness": [], "timing": [], "not_timed": [], "not_supported": []}
    per_backend = {}
    timed, failed = [], False
    seed = str(meta.get("seed", "0"))
    B, H, S, D = shape
    for be in backends:
        e = {"id": be.id, "correctness": [], "timing": [], "not_timed": [], "not_supported": []}
        per_backend[be.id] = e
        try:
            why = be.prepare()
        except peerlib.InputError as err:
            peerlib.eprint(f"torch_sdpa.py: {err}")
            return 2
        if why:
            e["not_supported"].append({"variant": be.id, "peer": True, "reason": why})
            peerlib.eprint(f"peer {be.id}: not available: {why}")
            continue
        out = be.output()
        c = refs.check(out)
        if a.metrics == "validate":
            # Once per run: the device reductions against the Python loop on the same output.
            slow = refs.metrics
            refs.metrics = peerlib.metrics
            ref_c = refs.check(out)
            refs.metrics = slow
            bad = [f"{part}.{k}" for part in ("kernel_only", "end_to_end", "legacy")
                   for k in peerlib.metrics_differ(c[part], ref_c[part])]
            if bad:
                peerlib.eprint(f"torch_sdpa.py: the device metrics differ from peerlib's beyond rounding ({', '.join(bad)}): "
                               "run again with --metrics python")
                return 4
            c, a.metrics = ref_c, "torch"
            a.metrics_checked = True
        entry = {"variant": be.id, "peer": True, "library": be.library, "shape": a.shape_name, "seed": seed,
                 "B": B, "H": H, "S": S, "D": D, "status": "ok", "inputs_unmodified": None,
                 "all_written": c["all_written"], "kernel_only": c["kernel_only"], "end_to_end": c["end_to_end"],
                 "legacy": c["legacy"], "gates": c["gates"], "pass": c["pass"], "input_checksum": None}
        e["correctness"].append(entry)
        ko = c["kernel_only"]
        peerlib.eprint(f"check   {be.id:<22} {a.shape_name:<8} seed {seed}  {'PASS' if c['pass'] else 'FAIL'}  "
                       f"kernel-only rel-L2 {ko['rel_l2']:.2e} max|err| {ko['max_abs']:.2e} ({ko['n_bad']} bad)")
        if c["pass"] or a.force:
            timed.append(be)
        else:
            failed = True
            e["not_timed"].append({"variant": be.id, "peer": True,
                                   "reason": "failed the kernel-only bar (--force times it anyway)"})
    if timed:
        l2 = int(device["l2_bytes"]) if device else 0
        clock = Clock(torch, l2, a.l2 == "cold")
        samples, stop, wall = time_interleaved(timed, clock, a)
        peerlib.eprint(f"torch_sdpa.py: timing: {clock.method()}"
                       + (f"; {clock.discarded_unheld} sample(s) discarded (stream not held)" if clock.held else ""))
        for be in timed:
            per_backend[be.id]["timing"].append(
                timing_entry(be, a, seed, shape, samples[be.id], stop, wall, timing, clock))
    outs = ([(a.out.replace("{backend}", be.name), [be]) for be in backends] if "{backend}" in a.out
            else [(a.out, backends)])
    for path, group in outs:
        ent = {"backends": per_backend_ids(group), "correctness": [], "timing": [], "not_timed": [],
               "not_supported": []}
        for be in group:
            for k in ("correctness", "timing", "not_timed", "not_supported"):
                ent[k] += per_backend[be.id][k]
        try:
            lib = group[0].library if len(group) == 1 else library  # the fp8 one's names torchao
            peerlib.write_new(path, document(a, ["torch_sdpa.py"] + argv, meta, shape, backend_kind, timing, device,
                                             lib, ent))
        except (peerlib.InputError, OSError) as err:
            peerlib.eprint(f"torch_sdpa.py: {err}")
            return 2
    return 1 if failed else 0


def per_backend_ids(group):
    return [{"id": be.id} for be in group]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
