#!/usr/bin/env python3
"""The CTA-order model of stage 7m (paper/methods.md#prereg-stage7m): how long a causal grid takes
when the block scheduler hands out CTAs in a given order, one resident CTA per SM.

A causal CTA of query tile i (TM rows) computes cta_tiles = ceil(min(S, (i+1) TM) / TN) key tiles
(kernels/softmax_regs.cuh); its time is that count plus a fixed overhead of OVH tile-times (its
prologue, Q's load and the pipeline's fill, and its epilogue). The scheduler starts the next CTA of
the order on the first SM to fall free (list scheduling). Orders: "natural", the launch's own
(blockIdx.x the query tile, fastest: each (b, h) in turn, its tiles shortest first), "lpt"
(longest first over the whole grid: the last query tile of every (b, h), then the one before, ...)
"sections", FlashAttention-3's: longest first within sections of G (b, h) whose K and V fit 32 MB of
L2, one section after the other (section_heads), and "batch", stage 7m's as built (its launch grid
(H, nq, B)): the same with a section one batch entry's H heads. The
makespans are in tile-times, against the ideal (all work spread evenly); their ratio is the
speedup the model predicts. busy_natural and busy_batch are the SMs' mean busy share of the makespan
(ideal / makespan), what ncu's sm__cycles_active.avg.pct_of_peak_sustained_elapsed reads on a GPU
(the campaign's profile at stage 7m's gate shape), less the launch's own cycles. Nothing here is measured: it is the prediction's arithmetic, written
down so that anyone can rerun it.

Usage: cta_order.py [B H S D ...]   (default: the shapes of paper/methods.md#prereg-stage7m), with --sms N (132: H100 and H200 SXM), --tm/--tn (128), --ovh X,... (0.5,2)
"""
import argparse
import heapq


def tiles(i, S, TM, TN):
    return (min(S, (i + 1) * TM) + TN - 1) // TN


def makespan(works, sms):
    free = [0.0] * sms
    for w in works:
        t = heapq.heappop(free)
        heapq.heappush(free, t + w)
    return max(free)


def section_heads(S, D, nbh):
    """The (b, h) per section: the largest power of two whose K and V (2 S D bytes each, FP8) fit 32 MB,
    at least 1, at most the grid's."""
    g = 1
    while 2 * g * 2 * S * D <= 32 << 20:
        g *= 2
    return min(g, nbh)


def model(B, H, S, D, sms, TM, TN, ovh):
    nq, nbh = (S + TM - 1) // TM, B * H
    work = lambda i: tiles(i, S, TM, TN) + ovh
    natural = [work(i) for _ in range(nbh) for i in range(nq)]
    lpt = [work(i) for i in reversed(range(nq)) for _ in range(nbh)]
    g = section_heads(S, D, nbh)
    sections = [work(i) for s0 in range(0, nbh, g) for i in reversed(range(nq)) for _ in range(min(g, nbh - s0))]
    batch = [work(i) for _ in range(B) for i in reversed(range(nq)) for _ in range(H)]
    ideal = sum(natural) / sms
    return g, ideal, makespan(natural, sms), makespan(lpt, sms), makespan(sections, sms), makespan(batch, sms)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("shape", nargs="*", type=int, help="B H S D, repeated")
    ap.add_argument("--sms", type=int, default=132)
    ap.add_argument("--tm", type=int, default=128)
    ap.add_argument("--tn", type=int, default=128)
    ap.add_argument("--ovh", default="0.5,2")
    a = ap.parse_args()
    shapes = a.shape or [2, 16, 8192, 128, 2, 32, 8192, 64, 2, 16, 4096, 128, 2, 16, 16384, 128]
    if len(shapes) % 4:
        ap.error("shape: B H S D, four integers each")
    print("B\tH\tS\tD\tovh\tsection\tideal\tnatural/ideal\tlpt/ideal\tsections/ideal\tbatch/ideal\tspeedup\tspeedup_batch\tbusy_natural\tbusy_batch")
    for k in range(0, len(shapes), 4):
        B, H, S, D = shapes[k : k + 4]
        for ovh in (float(x) for x in a.ovh.split(",")):
            g, ideal, nat, lpt, sec, bat = model(B, H, S, D, a.sms, a.tm, a.tn, ovh)
            print(f"{B}\t{H}\t{S}\t{D}\t{ovh:g}\t{g}\t{ideal:.1f}\t{nat / ideal:.3f}\t{lpt / ideal:.3f}\t{sec / ideal:.3f}"
                  f"\t{bat / ideal:.3f}\t{nat / sec:.3f}\t{nat / bat:.3f}\t{ideal / nat:.3f}\t{ideal / bat:.3f}")


if __name__ == "__main__":
    main()
