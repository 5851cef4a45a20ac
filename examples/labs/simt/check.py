#!/usr/bin/env python3
"""Recomputes every SIMT lab's output from its source and compares it with a run's files.

    check.py [DIR]

DIR holds one folder per lab with its output files, named as in its runs.txt, directly or in
an expected/ folder (default: this folder, whose labs' expected/ hold the H100's outputs). f32 arithmetic is done in doubles rounded to
f32 once per PTX instruction (exact for one +, -, * or /), and the one fma of loopcount with
exact fractions, so every value is compared bit for bit.
"""
import os
import struct
import sys
from fractions import Fraction

here = os.path.dirname(os.path.abspath(__file__))
M = 0xffffffff


def f32(x):
    """x (a float or a Fraction) rounded to the nearest f32, ties to even."""
    if isinstance(x, Fraction):
        if x == 0:
            return 0.0
        sign, x = (-1.0 if x < 0 else 1.0), abs(x)
        e = x.numerator.bit_length() - x.denominator.bit_length()
        while Fraction(2) ** e > x:
            e -= 1
        while Fraction(2) ** (e + 1) <= x:
            e += 1
        scaled = x / Fraction(2) ** (max(e, -126) - 23)      # 24 significant bits above the point
        q, r = divmod(scaled.numerator, scaled.denominator)
        if 2 * r > scaled.denominator or (2 * r == scaled.denominator and q & 1):
            q += 1
        x = sign * q * 2.0 ** (max(e, -126) - 23)
    return struct.unpack("<f", struct.pack("<f", x))[0]


def rotl5(x):
    return ((x << 5) | (x >> 27)) & M


def ifelse(n=256):
    out = []
    for x in range(n):
        if x % 2 == 0:
            x = (x * x + 7) & M
            x ^= x >> 11
            x = (x * 0x9e3779b1) & M
            x = (x + (x >> 3)) & M
        else:
            x = (rotl5(x) + 0x7f4a7c15) & M
            x ^= (x * x) & M
            x = (x - (x >> 9)) & M
        out.append(x)
    return {"out.bin": ("I", out)}


def lane8(n=256, rounds=64):
    out = []
    for x in range(n):
        if x % 32 < 8:
            for r in range(rounds):
                x = ((x ^ (x >> 7)) * 2654435761 + r) & M
        out.append(x)
    return {"out.bin": ("I", out)}


def loopcount(width=80, height=32, max_iter=64):
    out = []
    for py in range(height):
        for px in range(width):
            cr, ci = f32(-2.0 + px * 0.03125), f32(-1.0 + py * 0.0625)
            zr = zi = 0.0
            it = 0
            while it < max_iter and f32(f32(zr * zr) + f32(zi * zi)) <= 4.0:
                t = f32(cr + f32(f32(zr * zr) - f32(zi * zi)))
                zi = f32(Fraction(f32(zr + zr)) * Fraction(zi) + Fraction(ci))    # fma.rn.f32
                zr = t
                it += 1
            out.append(it)
    return {"iters.bin": ("I", out)}


def evenodd(n=256, iters=16):
    out = []
    for v in range(n):
        acc = 0
        for i in range(iters):
            if (v + v // 32 + i) & 1:
                acc = (acc * acc + v) & M
                acc ^= acc >> 11
                acc = (acc * 0x9e3779b1) & M
                acc = (acc + (acc >> 3)) & M
            else:
                acc = (rotl5(acc) + (v ^ 0x7f4a7c15)) & M
                acc ^= (acc * acc) & M
                acc = (acc - (acc >> 9)) & M
        out.append(acc)
    return {"out.bin": ("I", out)}


def rarebranch(n=512, terms=200):
    out = []
    for seed in range(n):
        s = (seed * 2654435761) & M
        x = f32((s >> 16) / 65536.0)
        p = f32(0.5 + 0.25 * x)                  # fma, exact here: 0.25 * x needs no rounding
        if s >> 27 == 0:
            term, p = 1.0, 0.0
            for k in range(1, terms + 1):
                term = f32(term * x)
                p = f32(p + f32(term / k))
        out.append(p)
    return {"price.bin": ("f", out)}


def unstructured(n=256, steps=12):
    out = []
    for tid in range(n):
        p, q, r3 = tid, n + tid, 2 * n + tid     # in = iota
        x = (tid * 2654435761) & M
        if (p % 3 == 0 and q % 5 < 2) or r3 % 4 == 1:
            r = ((x ^ (x >> 13)) * 0x85ebca6b) & M
        else:
            r = ((x << 7) + 0x27d4eb2f) & M
        found = False
        for _ in range(steps):
            x = (x * 1664525 + 1013904223) & M
            if x >> 28 == 3:
                found = True
                break
            if x >> 28 == 9:
                break
            r = (r + (x >> 20)) & M
        if not found:
            r = (r * 31 + 7) & M
        out.append(r ^ x)
    return {"out.bin": ("I", out)}


def warplock(threads=64):
    counts = ("I", [threads, threads * (threads + 1) // 2])
    return {"counts.bin": counts, "got.bin": ("I", [1] * threads),
            "naive_counts.bin": counts, "naive_got.bin": ("I", [1] * threads)}


LABS = [ifelse, lane8, loopcount, evenodd, rarebranch, unstructured, warplock]


def main():
    bad = checked = 0
    for lab in LABS:
        name = lab.__name__
        folder = os.path.join(sys.argv[1] if len(sys.argv) > 1 else here, name)
        if os.path.isdir(os.path.join(folder, "expected")):
            folder = os.path.join(folder, "expected")
        for fname, (fmt, want) in lab().items():
            path = os.path.join(folder, fname)
            if not os.path.exists(path):
                print("%s: %s missing" % (name, path))
                bad += 1
                continue
            data = open(path, "rb").read()
            got = list(struct.unpack("<%d%s" % (len(data) // 4, fmt), data))
            wrong = [i for i in range(len(want)) if i >= len(got) or got[i] != want[i]]
            checked += 1
            if wrong or len(got) != len(want):
                i = wrong[0] if wrong else len(want)
                print("%s/%s: %d wrong, first at %d: got %s, want %s" % (name, fname, len(wrong), i,
                      got[i] if i < len(got) else None, want[i] if i < len(want) else None))
                bad += 1
    print("%d files checked, %d differ or are missing" % (checked, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
