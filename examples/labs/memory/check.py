#!/usr/bin/env python3
"""Recomputes the output of every memory lab (and the bench kernels but mandelbrot) from its source.

    check.py DIR

DIR holds the output files of the runs.txt lines (the names after OUT/). Every value is an
integer or a float that is exact in f32 or f64, so the comparison is bit for bit.
"""
import os
import struct
import sys

M = 0xffffffff


def neighbour(t, b):
    """What the bank labs store for thread t of block b and load for its neighbour t ^ 1."""
    return ((t ^ 1) * 7 + b) & M


def banks():
    out = {}
    per = [neighbour(t, b) for b in range(2) for t in range(128)]
    for name in ("bank_s1", "bank_s2", "bank_s32"):
        out[name + ".bin"] = ("I", per)
    for name in ("bank_f64_s1", "bank_f64_s2", "bank_f64_halves"):
        out[name + ".bin"] = ("d", [float(v) for v in per])
    for name in ("bank_f4_s1", "bank_f4_s2", "bank_f4_quarters"):
        out[name + ".bin"] = ("f", [float(v + d) for v in per for d in range(4)])
    # pick64_*, pick128_*: lane l of the warp that starts at thread base loads the word of thread
    # base + IDX(l) when COND(l), and keeps -1 otherwise
    picks = {"all_same": (lambda l: 0, lambda l: True), "halves_same": (lambda l: l % 16, lambda l: True),
             "pairs": (lambda l: l // 2, lambda l: True), "half_active": (lambda l: l, lambda l: l < 16),
             "two_lanes": (lambda l: l, lambda l: l in (0, 31)), "halves_bcast": (lambda l: l // 16, lambda l: True),
             "quarters_bcast": (lambda l: l // 8, lambda l: True),
             "q01_same": (lambda l: l % 8 + 8 * (l // 16), lambda l: True),
             "q02_same": (lambda l: l % 8 + 8 * (l // 8 % 2), lambda l: True),
             "quarter_active": (lambda l: l, lambda l: l < 8)}
    for width, cases in ((64, ["all_same", "halves_same", "pairs", "half_active", "two_lanes"]),
                         (128, ["all_same", "halves_bcast", "quarters_bcast", "q01_same", "q02_same",
                                "quarter_active", "two_lanes"])):
        for case in cases:
            idx, cond = picks[case]
            vals = []
            for b in range(2):
                for t in range(128):
                    l = t % 32
                    v = float((t - l + idx(l)) * 7 + b) if cond(l) else None
                    vals += ([v] if width == 64 else [v, v + 1, v + 2, v + 3]) if v is not None else \
                        [-1.0] * (1 if width == 64 else 4)
            out["pick%d_%s.bin" % (width, case)] = ("d" if width == 64 else "f", vals)
    n = 64          # out[r][c] = in[c][r], in = iota
    for name in ("transpose_32", "transpose_33"):
        out[name + ".bin"] = ("f", [float(c * n + r) for r in range(n) for c in range(n)])
    return out


def coalesce():
    i = range(256)
    return {"ld_aligned.bin": ("f", [2.0 * x for x in i]), "ld_offset1.bin": ("f", [2.0 * (x + 1) for x in i]),
            "ld_stride2.bin": ("f", [4.0 * x for x in i]), "ld_stride32.bin": ("f", [64.0 * x for x in i]),
            "aos3.bin": ("f", [3 * x + 2 * (3 * x + 1) + 3 * (3 * x + 2.0) for x in i]),
            "soa3.bin": ("f", [6.0 * x for x in i]),
            "aos4.bin": ("f", [40.0 * x + 20 for x in i]), "aos4_vec.bin": ("f", [40.0 * x + 20 for x in i])}


def occ_registers(i, rounds=4, live=64):
    v = [(i * (2 * k + 1) + k) & M for k in range(live)]
    for r in range(rounds):
        for k in range(live):
            v[k] = (((v[k] ^ (v[(k + 1) % live] >> 3)) * 0x9e3779b1) + r) & M
    acc = 0
    for k in range(live):
        acc = (acc * 31 + v[k]) & M
    return acc


def occupancy():
    shared = []
    for b in range(2):
        for t in range(128):
            shared.append(sum(3 * k + b for k in range((t + 1) % 128, 10240, 128)) & M)
    return {"occ_registers.bin": ("I", [occ_registers(i) for i in range(256)]), "occ_shared.bin": ("I", shared),
            "occ_blocks.bin": ("I", [(i * i + 1) & M for i in range(128)])}


def bench():
    return {"saxpy.bin": ("f", [2.5 * x for x in range(4096)]), "reduce_sum.bin": ("i", [4095 * 4096 // 2]),
            "matmul.bin": ("f", [64.0] * 4096), "histogram.bin": ("I", [16] * 256),
            "collatz.bin": ("I", [111] * 1024)}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip())
    bad = checked = 0
    for lab in (banks, coalesce, occupancy, bench):
        for fname, (fmt, want) in sorted(lab().items()):
            path = os.path.join(sys.argv[1], fname)
            if not os.path.exists(path):
                print("%s: %s missing" % (lab.__name__, path))
                bad += 1
                continue
            data = open(path, "rb").read()
            got = list(struct.unpack("<%d%s" % (len(data) // struct.calcsize(fmt), fmt), data))
            wrong = [i for i in range(len(want)) if i >= len(got) or got[i] != want[i]]
            checked += 1
            if wrong or len(got) != len(want):
                i = wrong[0] if wrong else len(want)
                print("%s: %d wrong, first at %d: got %s, want %s" % (fname, len(wrong), i,
                      got[i] if i < len(got) else None, want[i] if i < len(want) else None))
                bad += 1
    print("%d files checked, %d differ or are missing" % (checked, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
