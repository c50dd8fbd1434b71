#!/usr/bin/env python3
"""The PyTorch peer is timed as the kernels are (tools/peers/peertiming.py), shown without a GPU:
a stand-in torch whose stream is a timeline in host time (a kernel starts when the host has
enqueued it and the stream is free; an event fires when the stream reaches it), host time being a
virtual clock that the stand-ins' sleeps advance (peertiming reads it too), so that no sample
depends on how busy this machine is; and a stand-in backend whose Python side is slow (its context,
the sdpa_kernel of a real backend, and its call sleep on the host) while its GPU work is short.
Timed through torch_sdpa's own Clock and time_interleaved, the samples must hold the GPU work alone.
Also: the fp8 backend says why it is not available where torchao is not installed. TAP on stdout.
Usage: tests/campaign/torch_timing.py"""

import contextlib
import os
import sys
import types

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "peers"))
import peertiming  # noqa: E402
import torch_sdpa  # noqa: E402

CLOCK_HZ = 1.5e9  # the stand-in GPU's clock, for torch.cuda._sleep's cycles


class VirtualTime:
    """Host time that passes only when something sleeps: a stand-in's 50 us is 50 us however
    loaded the machine (real time made a 50 us sleep take milliseconds there)."""

    def __init__(self):
        self.now = 0.0

    def perf_counter(self):
        return self.now

    def sleep(self, seconds):
        self.now += max(0.0, seconds)


# One clock for the stand-ins below and for peertiming, which reads time.perf_counter() through its
# module's `time` (torch_sdpa's Clock and time_interleaved are peertiming's).
time = peertiming.time = VirtualTime()
assert torch_sdpa.Clock is peertiming.Clock and torch_sdpa.time_interleaved is peertiming.time_interleaved


class Stream:
    def __init__(self):
        self.free = 0.0  # host time at which the stream has run everything enqueued

    def enqueue(self, seconds):
        self.free = max(time.perf_counter(), self.free) + seconds


def fake_torch(stream, with_sleep=True):
    class Event:
        def __init__(self, enable_timing=True):
            self.t = None

        def record(self, stream_=None):
            self.t = max(time.perf_counter(), stream.free)  # fires when the stream reaches it

        def query(self):
            return self.t is not None and time.perf_counter() >= self.t

        def elapsed_time(self, other):
            return (other.t - self.t) * 1e3

    class Flush:
        def __init__(self, n):
            self.n = n

        def zero_(self):
            stream.enqueue(self.n / 3e12)

    def synchronize():
        time.sleep(max(0.0, stream.free - time.perf_counter()))

    cuda = types.SimpleNamespace(Event=Event, synchronize=synchronize)
    if with_sleep:
        cuda._sleep = lambda cycles: stream.enqueue(cycles / CLOCK_HZ)
    return types.SimpleNamespace(cuda=cuda, uint8="uint8", empty=lambda n, dtype=None, device=None: Flush(n))


class SlowHostBackend:
    """GPU work of gpu_s behind host_s of Python dispatch, in a context that takes ctx_s to enter:
    the dispatch of a slow framework, and its backend selection. slow_after: calls after which
    the dispatch becomes slow_s (a host that slows down once the hold is sized)."""

    def __init__(self, stream, name, gpu_s, host_s, ctx_s, slow_after=None, slow_s=None):
        self.stream, self.id = stream, "peer-" + name
        self.gpu_s, self.host_s, self.ctx_s = gpu_s, host_s, ctx_s
        self.slow_after, self.slow_s, self.calls = slow_after, slow_s, 0

    @contextlib.contextmanager
    def context(self):
        time.sleep(self.ctx_s)
        yield

    def call(self):
        self.calls += 1
        slow = self.slow_after is not None and self.calls > self.slow_after
        time.sleep(self.slow_s if slow else self.host_s)
        self.stream.enqueue(self.gpu_s)

    def run(self):  # the interface before the stream was held
        with self.context():
            self.call()


n_tap, failed = 0, False


def tap(ok, name, diag=""):
    global n_tap, failed
    n_tap += 1
    failed |= not ok
    print(f"{'ok' if ok else 'not ok'} {n_tap} - {name}")
    if not ok and diag:
        print(f"# {diag}")


args = types.SimpleNamespace(warmup=1, iters=5, min_time=0.0, max_time=20.0)

# The stream held: 3 ms of Python per call and 2 ms to enter the context, 200 us on the GPU.
stream = Stream()
torch = fake_torch(stream)
be = SlowHostBackend(stream, "slow", 200e-6, 3e-3, 2e-3)
clock = torch_sdpa.Clock(torch, 1 << 20, True)
samples, stop, _ = torch_sdpa.time_interleaved([be], clock, args)
s = samples[be.id]
tap(len(s) >= 5 and all(150 <= x <= 300 for x in s),
    "stream held by torch.cuda._sleep: every sample is the 200 us of GPU work, not the 5 ms of host dispatch "
    "and context", f"samples {['%.0f' % x for x in s]} us")
tap(all(repr(x) == repr(round(x * 1e3) / 1e3) and len(repr(x).partition(".")[2]) <= 3 for x in s),
    "  ... each kept to the nanosecond, as sdpa-bench keeps its samples (schema 1.4.0)", f"samples {s[:3]}")
method = clock.method() if hasattr(clock, "method") else ""
tap("torch.cuda._sleep" in method and "sdpa_kernel" in method, "  ... and the method says so (timing_method)",
    method)

# A host that turns slow once the hold is sized: the samples whose start event fired before the
# stop event was enqueued are discarded and the hold doubled, until one holds.
stream = Stream()
torch = fake_torch(stream)
# 50 ms: far beyond the hold, 4 x the warm-up's 50 us dispatch, until the hold has doubled past it.
be = SlowHostBackend(stream, "slower", 200e-6, 50e-6, 0.0, slow_after=3, slow_s=50e-3)
clock = torch_sdpa.Clock(torch, 1 << 20, True)
samples, _, _ = torch_sdpa.time_interleaved([be], clock, args)
s = samples[be.id]
unheld = getattr(clock, "discarded_unheld", 0)
tap(unheld >= 1 and len(s) >= 5 and all(150 <= x <= 300 for x in s),
    "a host slower than the hold: its samples discarded (discarded_unheld), the hold grown, the kept ones "
    "the GPU work alone", f"unheld {unheld}, samples {['%.0f' % x for x in s]} us")

# Without torch.cuda._sleep: k back-to-back calls averaged, said in the method.
stream = Stream()
torch = fake_torch(stream, with_sleep=False)
be = SlowHostBackend(stream, "plain", 2e-3, 100e-6, 1e-3)
clock = torch_sdpa.Clock(torch, 1 << 20, True)
calls_before = be.calls
samples, _, _ = torch_sdpa.time_interleaved([be], clock, args)
s = samples[be.id]
k = getattr(clock, "k", 0)
method = clock.method() if hasattr(clock, "method") else ""
tap(k > 1 and "back-to-back" in method and str(k) in method,
    "without torch.cuda._sleep: k back-to-back calls averaged, and the method says so", method)
tap(k > 1 and (be.calls - calls_before - args.warmup) == k * len(s) and all(1990 <= x <= 2300 for x in s),
    "  ... k calls per sample, each sample the average (the GPU-bound case: 2 ms of GPU work per call, the "
    "first call's 100 us of dispatch amortised)",
    f"k {k}, calls {be.calls}, samples {['%.0f' % x for x in s]} us")
# The L2 state a peer's entry records: cold only where each timed call followed a flush (a held
# stream); back to back, only the first of k calls did, so the entry says warm.
a = types.SimpleNamespace(shape_name="small", l2="cold")
be.library = {}
held = torch_sdpa.Clock(fake_torch(Stream()), 1 << 20, True)
cold = torch_sdpa.timing_entry(be, a, 0, (1, 1, 32, 64), [1.0] * 6, "iters", 0.1, "gpu", held)["l2"]
warm = torch_sdpa.timing_entry(be, a, 0, (1, 1, 32, 64), [1.0] * 6, "iters", 0.1, "gpu", clock)["l2"]
tap(cold == "cold" and warm == "warm",
    "--l2 cold: the entry says cold with a held stream, warm for back-to-back calls (only the first cold)",
    f"held {cold}, back to back {warm}")
# FP8: core PyTorch has none; torchao's, when importable (it is not here), else "not available".
try:
    import torchao  # noqa: F401
    have_torchao = True
except ImportError:
    have_torchao = False
if have_torchao:
    print(f"ok {n_tap + 1} - the fp8 backend without torchao: not available # SKIP torchao is installed here")
    n_tap += 1
else:
    be = torch_sdpa.TorchBackend("fp8", None, {})
    be.library = {}
    why = be.prepare_fp8(None) if hasattr(be, "prepare_fp8") else None
    tap(bool(why) and why.startswith("not available: core PyTorch has no FP8 SDPA") and "torchao" in why,
        "the fp8 backend without torchao: not available, with the reason (core PyTorch has no FP8 SDPA)", str(why))
print(f"1..{n_tap}")
sys.exit(1 if failed else 0)
