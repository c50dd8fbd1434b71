"""How torch_sdpa.py times a peer, as sdpa-bench times a kernel (host/bench/backend_cuda.cu): the
L2 flushed, then CUDA events on the stream around the SDPA call alone, with neither the host's
dispatch of the call nor the backend selection inside the interval. Standard library only: the
torch module is passed in (tests pass a stand-in that models a GPU stream's timeline).

Two methods, chosen by what this PyTorch offers, and recorded with every sample set:

  held          torch.cuda._sleep (a kernel that spins for a number of GPU cycles) holds the stream
                before the start event, while the host enters the backend's context (sdpa_kernel)
                and enqueues the call and the stop event; the start event fires only when the hold
                ends, so the interval holds the GPU work alone. The hold is sized after the
                warm-up: HOLD_FACTOR x the slowest host dispatch measured, at least HOLD_MIN_US, in
                cycles calibrated against the events. After each sample the start event is asked
                whether it had already fired when the stop event was enqueued; if it had, the host
                was slower than the hold, the sample may hold host time, and it is discarded (counted
                in discarded_unheld) and the hold doubled, up to HOLD_MAX_US.
  back-to-back  without torch.cuda._sleep: BACK_TO_BACK_K calls between the events, averaged. The
                first call's dispatch is then inside the interval, amortised over K, and only the
                first call sees a cold L2; a host slower than the GPU still shows in the average.

The selftest (no torch) times the call with perf_counter and says so.
"""

import contextlib
import time

HOLD_FACTOR = 4
HOLD_MIN_US = 50.0
HOLD_MAX_US = 1e6
BACK_TO_BACK_K = 10
CALIBRATION_CYCLES = 1_000_000


class Clock:
    """Samples one backend at a time. A backend offers context() (entered around its call, outside
    the timed interval: sdpa_kernel and the like) and call() (the work, enqueued on the current
    stream)."""

    def __init__(self, torch, l2_bytes, cold, k=BACK_TO_BACK_K):
        self.torch, self.k = torch, k
        self.flush = torch.empty(2 * l2_bytes, dtype=torch.uint8, device="cuda") if (torch and cold) else None
        self.held = torch is not None and hasattr(torch.cuda, "_sleep")
        self.cycles_per_us = None
        self.hold_us = HOLD_MIN_US
        self.dispatch_us = 0.0
        self.discarded_unheld = 0

    def method(self):
        """What a sample is, in words (recorded as TIMING.timing_method of the peer's file)."""
        if self.torch is None:
            return "selftest: host perf_counter around the call (no GPU)"
        if self.held:
            return (f"stream held by torch.cuda._sleep for {self.hold_us:.0f} us ({HOLD_FACTOR} x the slowest host "
                    f"dispatch measured, {self.dispatch_us:.0f} us, at least {HOLD_MIN_US:.0f} us) before the start "
                    "event; the backend context (sdpa_kernel) entered before the hold; CUDA events around the call "
                    "alone; samples whose start event fired before the stop event was enqueued discarded")
        return (f"{self.k} back-to-back calls between CUDA events, averaged (no torch.cuda._sleep in this "
                "PyTorch): the first call's host dispatch is inside the interval, and only the first call sees "
                "a cold L2; the backend context (sdpa_kernel) entered before the start event")

    def sync(self):
        if self.torch is not None:
            self.torch.cuda.synchronize()

    def calibrate(self, backends):
        """After the warm-up: the hold (held method), from the host dispatch of every backend and
        the cycles per microsecond of torch.cuda._sleep."""
        if not self.held:
            return
        cuda = self.torch.cuda
        for be in backends:
            self.sync()
            with be.context():
                t0 = time.perf_counter()
                be.call()
                self.dispatch_us = max(self.dispatch_us, (time.perf_counter() - t0) * 1e6)
        self.sync()
        a, b = cuda.Event(enable_timing=True), cuda.Event(enable_timing=True)
        a.record()
        cuda._sleep(CALIBRATION_CYCLES)
        b.record()
        self.sync()
        self.cycles_per_us = CALIBRATION_CYCLES / max(a.elapsed_time(b) * 1e3, 1e-3)
        self.hold_us = min(HOLD_MAX_US, max(HOLD_MIN_US, HOLD_FACTOR * self.dispatch_us))

    def sample(self, be):
        """Enqueues one sample of be; returns read() (microseconds, after sync()), or None when the
        sample is discarded (held method: the stream ran before everything was enqueued)."""
        if self.torch is None:
            with be.context():
                t0 = time.perf_counter()
                be.call()
                us = keep_us((time.perf_counter() - t0) * 1e6)
            return lambda: us
        cuda = self.torch.cuda
        if self.flush is not None:
            self.flush.zero_()
        a, b = cuda.Event(enable_timing=True), cuda.Event(enable_timing=True)
        with be.context():
            if self.held:
                cuda._sleep(int(self.hold_us * self.cycles_per_us))
            a.record()
            for _ in range(1 if self.held else self.k):
                be.call()
            b.record()
            early = self.held and a.query()
        if early:
            self.discarded_unheld += 1
            self.hold_us = min(HOLD_MAX_US, 2 * self.hold_us)
            return None
        n = 1 if self.held else self.k
        return lambda: keep_us(a.elapsed_time(b) * 1e3 / n)


def keep_us(us):
    """A sample as sdpa-bench keeps one (backend_keep_us, host/bench/backend.h): to the nanosecond."""
    return round(us * 1e3) / 1e3


def time_interleaved(backends, clock, a):
    """Warm-up rounds, then rounds of every backend once, the order rotating from round to round
    (round r starts at backend r mod k: A B C, B C A, ..., as sdpa-bench's --arm-order rotated,
    host/lib/arm_order.h) until every backend has >= a.iters samples and a.min_time s passed, no
    new round after a.max_time s. Returns ({id: samples_us}, stop reason, wall seconds)."""
    for _ in range(a.warmup):
        for be in backends:
            with be.context():
                be.call()
    clock.sync()
    clock.calibrate(backends)
    samples = {be.id: [] for be in backends}
    t0 = time.perf_counter()
    k, r = len(backends), 0
    while True:
        pending = [(be.id, clock.sample(be)) for be in backends[r % k:] + backends[:r % k]]
        r += 1
        clock.sync()
        for bid, read in pending:
            if read is not None:
                samples[bid].append(read())
        el = time.perf_counter() - t0
        n = min(len(s) for s in samples.values())
        if n >= a.iters and el >= a.min_time:
            return samples, "min_samples_and_min_time", el
        if el >= a.max_time:
            return samples, "max_time", el


@contextlib.contextmanager
def no_context():
    yield
