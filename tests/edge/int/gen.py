#!/usr/bin/env python3
# gen.py -- generates the integer / bit / comparison edge tests: input arrays
# (inputs/*.bin), one PTX kernel per instruction group (*.ptx), runs.txt, the
# Python model's own results (expected-model/*.bin) and forms.txt, the list of
# forms that harness.c runs through Loom's handlers directly.
#
# Every kernel reads three u64 input arrays a, b, c (thread i reads element i),
# derives narrower views of them (%a32 = low word, %ah32 = high word, %a16 =
# low half-word; predicates %pa %pb %pc = bits 0, 1, 2 of c) and runs each
# instruction form of its group, writing one output array per form: u64 for
# 64-bit results, u16 for 16-bit ones, u32 otherwise (predicates as 0/1).
# Output files are named KERNEL.FORM.bin; expected/ holds what an H100
# computed (recorded with tests/record-gpu.sh), expected-model/ what the model
# below predicts. Where the two differ the GPU is right and the model (and the
# handlers, which follow it) must change. Run: python3 gen.py
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
N = 1024                     # vectors per kernel: 32 x 32 grid of edge pairs
BLOCK = 128
MAXFORMS = 40
rng = random.Random(20261122)

M16, M32, M64 = 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFFFFFFFFFF


def u(v, w):
    return v & ((1 << w) - 1)


def sx(v, w):
    v = u(v, w)
    return v - (1 << w) if v >> (w - 1) else v


TYPES = {"u16": (16, False), "s16": (16, True), "u32": (32, False), "s32": (32, True),
         "u64": (64, False), "s64": (64, True), "b16": (16, False), "b32": (32, False),
         "b64": (64, False)}


def val(x, t):
    w, s = TYPES[t]
    return sx(x, w) if s else u(x, w)


def clamp(v, lo, hi):
    return max(lo, min(hi, v))


# ------------------------------------------------------------------ input sets
EDGE = [0, 1, 2, 3, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x10000, 0x7FFFFF, 0x800000,
        0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFE, 0xFFFFFFFF, 0x100000000,
        0x7FFFFFFFFFFFFFFF, 0x8000000000000000, 0xFFFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFE,
        0xFFFFFFFF80000000, 0xFFFFFFFFFFFF8000, 0x123456789ABCDEF0, 31, 32]
SMALL = [0, 1, 2, 7, 8, 15, 16, 17, 0x10001, 24, 31, 32, 33, 63, 64, 65, 127, 128, 255, 256, 257,
         0x10040, 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFE0, 0xFFFFFFDF, 0x80000000, 0x7FFFFFFF]


def rand64():
    k = rng.randrange(4)
    if k == 0:
        return rng.getrandbits(64)
    if k == 1:
        return u(sx(rng.getrandbits(32), 32), 64)       # sign-extended 32-bit
    if k == 2:
        return u(sx(rng.getrandbits(16), 16), 64)       # sign-extended 16-bit
    return rng.getrandbits(rng.randrange(1, 64))


def cross(va, vb, vc, rnd_a, rnd_b, rnd_c):
    """32 x 32 vectors: edge pairs (a, b) in the first len(va) * len(vb) slots,
    random ones after; c cycles through vc with a stride unrelated to a and b."""
    a, b, c = [], [], []
    for i in range(N):
        if i < len(va) * len(vb):
            a.append(va[i % len(va)])
            b.append(vb[i // len(va)])
            c.append(vc[(i * 7 + i // len(va)) % len(vc)])
        else:
            a.append(rnd_a())
            b.append(rnd_b())
            c.append(rnd_c())
    return a, b, c


F32S = [0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00800000,
        0x80800000, 0x3F800000, 0xBF800000, 0x3F800001, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000,
        0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0x7FBFFFFF, 0x40000000, 0xC0000000,
        0x3F000000, 0x00400000, 0x80400000, 0x4B000000, 0xCB000000, 0x3EAAAAAB, 0x7FFFFFFF]
F64S = [0x0, 0x8000000000000000, 0x1, 0x8000000000000001, 0x000FFFFFFFFFFFFF, 0x800FFFFFFFFFFFFF,
        0x0010000000000000, 0x8010000000000000, 0x3FF0000000000000, 0xBFF0000000000000,
        0x3FF0000000000001, 0x7FEFFFFFFFFFFFFF, 0xFFEFFFFFFFFFFFFF, 0x7FF0000000000000,
        0xFFF0000000000000, 0x7FF8000000000000, 0xFFF8000000000000, 0x7FF0000000000001,
        0x4000000000000000, 0xC000000000000000, 0x3FE0000000000000, 0x3810000000000000,
        0x36A0000000000000, 0xB6A0000000000000, 0x47EFFFFFE0000000, 0x3FF0000000000002,
        0x7FF4000000000000, 0x4330000000000000]
H16S = [0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x83FF, 0x0400, 0x8400, 0x3C00, 0xBC00,
        0x3C01, 0x7BFF, 0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0xFE00, 0x7C01, 0x007F, 0x0080,
        0x3F80, 0xBF80, 0x7F80, 0xFF80, 0x7FC0, 0x7F81, 0x4000, 0x3555]


def rand_f32():
    return rng.choice(F32S) if rng.random() < 0.3 else rng.getrandbits(32)


def rand_f64():
    return rng.choice(F64S) if rng.random() < 0.3 else rng.getrandbits(64)


def rand_h2():
    return (rng.choice(H16S) if rng.random() < 0.4 else rng.getrandbits(16)) | \
        (rng.choice(H16S) if rng.random() < 0.4 else rng.getrandbits(16)) << 16


def sets():
    s = {}
    s["gen"] = cross(EDGE[:28], EDGE[:28], EDGE, rand64, rand64, rand64)
    s["sh"] = cross(EDGE[:28], SMALL, SMALL, rand64,
                    lambda: rng.choice(SMALL) if rng.random() < 0.5 else rng.randrange(300),
                    lambda: rng.choice(SMALL) if rng.random() < 0.5 else rng.randrange(300))
    s["f32"] = cross(F32S, F32S, F32S + [0x1, 0x2, 0x3, 0x4], rand_f32, rand_f32, rand_f32)
    s["f64"] = cross(F64S, F64S, [rng.getrandbits(64) for _ in range(29)], rand_f64, rand_f64,
                     lambda: rng.getrandbits(64))
    # f16/bf16 pairs: the low halves of a and b form the 28 x 28 cross, the
    # high halves another pairing of the same values.
    a, b, c = [], [], []
    n = len(H16S)
    for i in range(N):
        if i < n * n:
            lo_a, lo_b = H16S[i % n], H16S[i // n]
            hi_a, hi_b = H16S[(i // n + 3 * i) % n], H16S[(5 * i + 1) % n]
            a.append(lo_a | hi_a << 16 | rng.getrandbits(32) << 32)
            b.append(lo_b | hi_b << 16 | rng.getrandbits(32) << 32)
        else:
            a.append(rand_h2())
            b.append(rand_h2() if rng.random() < 0.7 else a[-1])
        c.append(rng.getrandbits(64))
    s["h16"] = (a, b, c)
    return s


# ------------------------------------------------------------------ float helpers
def f32v(bits, ftz=False):
    bits = u(bits, 32)
    if ftz and not bits & 0x7F800000:
        bits &= 0x80000000
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def f64v(bits):
    return struct.unpack("<d", struct.pack("<Q", u(bits, 64)))[0]


def f16v(bits, ftz=False):
    bits = u(bits, 16)
    if ftz and not bits & 0x7C00:
        bits &= 0x8000
    return struct.unpack("<e", struct.pack("<H", bits))[0]


def bf16v(bits):
    return f32v(u(bits, 16) << 16)


FCMP = {
    "eq": lambda x, y: x == y, "ne": lambda x, y: x < y or x > y,
    "lt": lambda x, y: x < y, "le": lambda x, y: x <= y,
    "gt": lambda x, y: x > y, "ge": lambda x, y: x >= y,
    "equ": lambda x, y: not (x < y or x > y), "neu": lambda x, y: not x == y,
    "ltu": lambda x, y: not x >= y, "leu": lambda x, y: not x > y,
    "gtu": lambda x, y: not x <= y, "geu": lambda x, y: not x < y,
    "num": lambda x, y: x == x and y == y, "nan": lambda x, y: x != x or y != y,
}
ICMP = {
    "eq": lambda x, y: x == y, "ne": lambda x, y: x != y, "lt": lambda x, y: x < y,
    "le": lambda x, y: x <= y, "gt": lambda x, y: x > y, "ge": lambda x, y: x >= y,
    "lo": lambda x, y: x < y, "ls": lambda x, y: x <= y, "hi": lambda x, y: x > y,
    "hs": lambda x, y: x >= y,
}


# ------------------------------------------------------------------ kernels
class Kernel:
    def __init__(self, name, inset):
        self.name, self.inset, self.forms = name, inset, []

    def form(self, fname, lines, res, kind, model):
        """kind: r16 r32 r64 pred. model(a, b, c) -> the output element."""
        assert all(ch.isalnum() or ch in "._-" for ch in fname), fname
        self.forms.append((fname, lines, res, kind, model))


A = {16: "%a16", 32: "%a32", 64: "%a64"}
B = {16: "%b16", 32: "%b32", 64: "%b64"}
C = {16: "%c16", 32: "%c32", 64: "%c64"}
D = {16: "%h0", 32: "%t0", 64: "%w0"}
KIND = {16: "r16", 32: "r32", 64: "r64"}
PA = lambda c: c & 1
PB = lambda c: (c >> 1) & 1
PC = lambda c: (c >> 2) & 1


def width(t):
    return TYPES[t][0]


def k_int_basic():
    k = Kernel("int_basic", "gen")
    for t in ("u16", "s16", "u32", "s32"):
        w = width(t)
        k.form("add." + t, ["add.%s %s, %s, %s;" % (t, D[w], A[w], B[w])], D[w], KIND[w],
               lambda a, b, c, t=t, w=w: u(val(a, t) + val(b, t), w))
        k.form("sub." + t, ["sub.%s %s, %s, %s;" % (t, D[w], A[w], B[w])], D[w], KIND[w],
               lambda a, b, c, t=t, w=w: u(val(a, t) - val(b, t), w))
    k.form("add.s16.imm", ["add.s16 %h0, %a16, -1;"], "%h0", "r16", lambda a, b, c: u(a - 1, 16))
    k.form("sub.u16.imm", ["sub.u16 %h0, %a16, 0xFFFF;"], "%h0", "r16", lambda a, b, c: u(a + 1, 16))
    sat = lambda v: u(clamp(v, -2 ** 31, 2 ** 31 - 1), 32)
    k.form("add.sat.s32", ["add.sat.s32 %t0, %a32, %b32;"], "%t0", "r32",
           lambda a, b, c: sat(sx(a, 32) + sx(b, 32)))
    k.form("sub.sat.s32", ["sub.sat.s32 %t0, %a32, %b32;"], "%t0", "r32",
           lambda a, b, c: sat(sx(a, 32) - sx(b, 32)))
    for t in ("u16", "s16", "u32", "s32"):
        w = width(t)
        k.form("abs." + t if t[0] == "s" else "min." + t,
               ["abs.%s %s, %s;" % (t, D[w], A[w])] if t[0] == "s" else
               ["min.%s %s, %s, %s;" % (t, D[w], A[w], B[w])], D[w], KIND[w],
               (lambda a, b, c, t=t, w=w: u(abs(val(a, t)), w)) if t[0] == "s" else
               (lambda a, b, c, t=t, w=w: u(min(val(a, t), val(b, t)), w)))
        k.form("neg." + t if t[0] == "s" else "max." + t,
               ["neg.%s %s, %s;" % (t, D[w], A[w])] if t[0] == "s" else
               ["max.%s %s, %s, %s;" % (t, D[w], A[w], B[w])], D[w], KIND[w],
               (lambda a, b, c, t=t, w=w: u(-val(a, t), w)) if t[0] == "s" else
               (lambda a, b, c, t=t, w=w: u(max(val(a, t), val(b, t)), w)))
        if t[0] == "s":
            k.form("min." + t, ["min.%s %s, %s, %s;" % (t, D[w], A[w], B[w])], D[w], KIND[w],
                   lambda a, b, c, t=t, w=w: u(min(val(a, t), val(b, t)), w))
            k.form("max." + t, ["max.%s %s, %s, %s;" % (t, D[w], A[w], B[w])], D[w], KIND[w],
                   lambda a, b, c, t=t, w=w: u(max(val(a, t), val(b, t)), w))
        k.form("sad." + t, ["sad.%s %s, %s, %s, %s;" % (t, D[w], A[w], B[w], C[w])], D[w], KIND[w],
               lambda a, b, c, t=t, w=w: u(val(c, t) + abs(val(a, t) - val(b, t)), w))
    k.form("min.relu.s32", ["min.relu.s32 %t0, %a32, %b32;"], "%t0", "r32",
           lambda a, b, c: u(max(0, min(sx(a, 32), sx(b, 32))), 32))
    k.form("max.relu.s32", ["max.relu.s32 %t0, %a32, %b32;"], "%t0", "r32",
           lambda a, b, c: u(max(0, max(sx(a, 32), sx(b, 32))), 32))

    def packed(op, sgn, relu=False):
        def f(a, b, c):
            r = 0
            for h in (0, 1):
                x, y = (a >> 16 * h) & M16, (b >> 16 * h) & M16
                if sgn:
                    x, y = sx(x, 16), sx(y, 16)
                v = {"add": x + y, "min": min(x, y), "max": max(x, y)}[op]
                if relu:
                    v = max(v, 0)
                r |= u(v, 16) << 16 * h
            return r
        return f
    for op in ("add", "min", "max"):
        for t in ("u16x2", "s16x2"):
            k.form("%s.%s" % (op, t), ["%s.%s %%t0, %%a32, %%b32;" % (op, t)], "%t0", "r32",
                   packed(op, t[0] == "s"))
    for op in ("min", "max"):
        k.form("%s.relu.s16x2" % op, ["%s.relu.s16x2 %%t0, %%a32, %%b32;" % op], "%t0", "r32",
               packed(op, True, True))
    return k


def k_int_mul():
    k = Kernel("int_mul", "gen")
    for t in ("u16", "s16", "u32", "s32"):
        w = width(t)
        k.form("mul.lo." + t, ["mul.lo.%s %s, %s, %s;" % (t, D[w], A[w], B[w])], D[w], KIND[w],
               lambda a, b, c, t=t, w=w: u(val(a, t) * val(b, t), w))
        k.form("mul.hi." + t, ["mul.hi.%s %s, %s, %s;" % (t, D[w], A[w], B[w])], D[w], KIND[w],
               lambda a, b, c, t=t, w=w: u((val(a, t) * val(b, t)) >> w, w))
        k.form("mul.wide." + t, ["mul.wide.%s %s, %s, %s;" % (t, D[2 * w], A[w], B[w])], D[2 * w],
               KIND[2 * w], lambda a, b, c, t=t, w=w: u(val(a, t) * val(b, t), 2 * w))
        k.form("mad.lo." + t, ["mad.lo.%s %s, %s, %s, %s;" % (t, D[w], A[w], B[w], C[w])], D[w], KIND[w],
               lambda a, b, c, t=t, w=w: u(val(a, t) * val(b, t) + val(c, t), w))
        k.form("mad.hi." + t, ["mad.hi.%s %s, %s, %s, %s;" % (t, D[w], A[w], B[w], C[w])], D[w], KIND[w],
               lambda a, b, c, t=t, w=w: u(((val(a, t) * val(b, t)) >> w) + val(c, t), w))
        k.form("mad.wide." + t, ["mad.wide.%s %s, %s, %s, %s;" % (t, D[2 * w], A[w], B[w], C[2 * w])],
               D[2 * w], KIND[2 * w], lambda a, b, c, t=t, w=w: u(val(a, t) * val(b, t) + c, 2 * w))
    k.form("mad.hi.sat.s32", ["mad.hi.sat.s32 %t0, %a32, %b32, %c32;"], "%t0", "r32",
           lambda a, b, c: u(clamp(((sx(a, 32) * sx(b, 32)) >> 32) + sx(c, 32), -2 ** 31, 2 ** 31 - 1), 32))
    for t in ("u32", "s32"):
        v24 = (lambda x: sx(x, 24)) if t == "s32" else (lambda x: u(x, 24))
        k.form("mul24.lo." + t, ["mul24.lo.%s %%t0, %%a32, %%b32;" % t], "%t0", "r32",
               lambda a, b, c, v24=v24: u(v24(a) * v24(b), 32))
        k.form("mul24.hi." + t, ["mul24.hi.%s %%t0, %%a32, %%b32;" % t], "%t0", "r32",
               lambda a, b, c, v24=v24: u((v24(a) * v24(b)) >> 16, 32))
        k.form("mad24.lo." + t, ["mad24.lo.%s %%t0, %%a32, %%b32, %%c32;" % t], "%t0", "r32",
               lambda a, b, c, v24=v24: u(v24(a) * v24(b) + c, 32))
        k.form("mad24.hi." + t, ["mad24.hi.%s %%t0, %%a32, %%b32, %%c32;" % t], "%t0", "r32",
               lambda a, b, c, v24=v24: u(((v24(a) * v24(b)) >> 16) + c, 32))
    k.form("mad24.hi.sat.s32", ["mad24.hi.sat.s32 %t0, %a32, %b32, %c32;"], "%t0", "r32",
           lambda a, b, c: u(clamp(sx((sx(a, 24) * sx(b, 24)) >> 16, 32) + sx(c, 32), -2 ** 31, 2 ** 31 - 1), 32))
    for t in ("u64", "s64"):
        k.form("mul.lo." + t, ["mul.lo.%s %%w0, %%a64, %%b64;" % t], "%w0", "r64",
               lambda a, b, c, t=t: u(val(a, t) * val(b, t), 64))
        k.form("mul.hi." + t, ["mul.hi.%s %%w0, %%a64, %%b64;" % t], "%w0", "r64",
               lambda a, b, c, t=t: u((val(a, t) * val(b, t)) >> 64, 64))
        k.form("mad.lo." + t, ["mad.lo.%s %%w0, %%a64, %%b64, %%c64;" % t], "%w0", "r64",
               lambda a, b, c, t=t: u(val(a, t) * val(b, t) + c, 64))
        k.form("mad.hi." + t, ["mad.hi.%s %%w0, %%a64, %%b64, %%c64;" % t], "%w0", "r64",
               lambda a, b, c, t=t: u(((val(a, t) * val(b, t)) >> 64) + c, 64))
    return k


def tdiv(x, y):
    q = abs(x) // abs(y)
    return q if (x < 0) == (y < 0) else -q


def k_int_div():
    """Division and remainder, by zero and MIN / -1 included. As an H100 does:
    x / 0 and x % 0 are all ones (signed and unsigned); MIN / -1 = MIN and
    MIN % -1 = 0."""
    k = Kernel("int_div", "gen")
    for t in ("u16", "s16", "u32", "s32", "u64", "s64"):
        w, s = TYPES[t]

        def dv(a, b, c, t=t, w=w, s=s):
            x, y = val(a, t), val(b, t)
            if y == 0:
                return u(-1, w)
            return u(tdiv(x, y), w)

        def rm(a, b, c, t=t, w=w):
            x, y = val(a, t), val(b, t)
            if y == 0:
                return u(-1, w)
            return u(x - tdiv(x, y) * y, w)
        k.form("div." + t, ["div.%s %s, %s, %s;" % (t, D[w], A[w], B[w])], D[w], KIND[w], dv)
        k.form("rem." + t, ["rem.%s %s, %s, %s;" % (t, D[w], A[w], B[w])], D[w], KIND[w], rm)
    for t in ("u64", "s64"):
        k.form("sad." + t, ["sad.%s %%w0, %%a64, %%b64, %%c64;" % t], "%w0", "r64",
               lambda a, b, c, t=t: u(c + abs(val(a, t) - val(b, t)), 64))
        k.form("min." + t, ["min.%s %%w0, %%a64, %%b64;" % t], "%w0", "r64",
               lambda a, b, c, t=t: u(min(val(a, t), val(b, t)), 64))
        k.form("max." + t, ["max.%s %%w0, %%a64, %%b64;" % t], "%w0", "r64",
               lambda a, b, c, t=t: u(max(val(a, t), val(b, t)), 64))
        k.form("add." + t, ["add.%s %%w0, %%a64, %%b64;" % t], "%w0", "r64", lambda a, b, c: u(a + b, 64))
        k.form("sub." + t, ["sub.%s %%w0, %%a64, %%b64;" % t], "%w0", "r64", lambda a, b, c: u(a - b, 64))
    k.form("abs.s64", ["abs.s64 %w0, %a64;"], "%w0", "r64", lambda a, b, c: u(abs(sx(a, 64)), 64))
    k.form("neg.s64", ["neg.s64 %w0, %a64;"], "%w0", "r64", lambda a, b, c: u(-a, 64))
    return k


def k_int_carry():
    """The carry chain. CC.CF is one flag, the carry-out of an addition:
    add.cc/addc/mad.cc/madc add it, sub.cc computes a + ~b + 1 and subc
    a + ~b + CF, so after a subtraction the flag is NOT borrow (subc reads as
    d = a - (b + borrow)). The mix forms show each reader with the other
    kind's flag, as an H100 does."""
    k = Kernel("int_carry", "gen")
    for w in (32, 64):
        a_, b_, c_, d_, e_ = A[w], B[w], C[w], D[w], ("%t1" if w == 32 else "%w1")
        t = "u%d" % w
        mw = (1 << w) - 1
        k.form("add.cc.%s" % t, ["add.cc.%s %s, %s, %s;" % (t, d_, a_, b_)], d_, KIND[w],
               lambda a, b, c, w=w: u(a + b, w))
        k.form("add.cc.%s.cf" % t, ["add.cc.%s %s, %s, %s;" % (t, d_, a_, b_), "addc.u32 %t2, 0, 0;"],
               "%t2", "r32", lambda a, b, c, w=w: (u(a, w) + u(b, w)) >> w)
        # two-word chain: (c:a) + (b:b) with carry through
        k.form("addc.cc.%s" % t, ["add.cc.%s %s, %s, %s;" % (t, d_, a_, b_),
                                   "addc.cc.%s %s, %s, %s;" % (t, e_, c_, b_), "addc.u32 %t2, 0, 0;"],
               "%t2", "r32", lambda a, b, c, w=w: (u(c, w) + u(b, w) + ((u(a, w) + u(b, w)) >> w)) >> w)
        k.form("addc.%s" % t, ["add.cc.%s %s, %s, %s;" % (t, d_, a_, b_), "addc.%s %s, %s, %s;" % (t, e_, c_, b_)],
               e_, KIND[w], lambda a, b, c, w=w: u(c + b + ((u(a, w) + u(b, w)) >> w), w))
        k.form("sub.cc.%s" % t, ["sub.cc.%s %s, %s, %s;" % (t, d_, a_, b_)], d_, KIND[w],
               lambda a, b, c, w=w: u(a - b, w))
        k.form("sub.cc.%s.bf" % t, ["sub.cc.%s %s, %s, %s;" % (t, d_, a_, b_), "subc.u32 %t2, 0, 0;"],
               "%t2", "r32", lambda a, b, c, w=w: u(-int(u(a, w) < u(b, w)), 32))
        k.form("subc.%s" % t, ["sub.cc.%s %s, %s, %s;" % (t, d_, a_, b_), "subc.%s %s, %s, %s;" % (t, e_, c_, b_)],
               e_, KIND[w], lambda a, b, c, w=w: u(c - b - int(u(a, w) < u(b, w)), w))
        k.form("subc.cc.%s" % t, ["sub.cc.%s %s, %s, %s;" % (t, d_, a_, b_),
                                   "subc.cc.%s %s, %s, %s;" % (t, e_, c_, b_), "subc.u32 %t2, 0, 0;"],
               "%t2", "r32",
               lambda a, b, c, w=w: u(-int(u(c, w) < u(b, w) + int(u(a, w) < u(b, w))), 32))
        # mixing: the flag of sub.cc read by addc, that of add.cc read by subc
        k.form("mix.sub.addc.%s" % t, ["sub.cc.%s %s, %s, %s;" % (t, d_, a_, b_), "addc.u32 %t2, 0, 0;"],
               "%t2", "r32", lambda a, b, c, w=w: int(u(a, w) >= u(b, w)))
        k.form("mix.add.subc.%s" % t, ["add.cc.%s %s, %s, %s;" % (t, d_, a_, b_), "subc.u32 %t2, 0, 0;"],
               "%t2", "r32", lambda a, b, c, w=w: u(((u(a, w) + u(b, w)) >> w) - 1, 32))
        for sgn in ("u", "s"):
            tt = "%s%d" % (sgn, w)
            vv = (lambda x, w=w: sx(x, w)) if sgn == "s" else (lambda x, w=w: u(x, w))
            k.form("mad.lo.cc.%s" % tt, ["mad.lo.cc.%s %s, %s, %s, %s;" % (tt, d_, a_, b_, c_),
                                         "addc.u32 %t2, 0, 0;"], "%t2", "r32",
                   lambda a, b, c, w=w: (u(a * b, w) + u(c, w)) >> w)
            k.form("mad.hi.cc.%s" % tt, ["mad.hi.cc.%s %s, %s, %s, %s;" % (tt, d_, a_, b_, c_)], d_, KIND[w],
                   lambda a, b, c, w=w, vv=vv: u((vv(a) * vv(b) >> w) + c, w))
            k.form("madc.hi.cc.%s" % tt, ["add.cc.%s %s, %s, %s;" % (t, d_, c_, b_),
                                          "madc.hi.cc.%s %s, %s, %s, %s;" % (tt, e_, a_, b_, c_),
                                          "addc.u32 %t2, 0, 0;"], "%t2", "r32",
                   lambda a, b, c, w=w, vv=vv: (u(vv(a) * vv(b) >> w, w) + u(c, w)
                                               + ((u(c, w) + u(b, w)) >> w)) >> w)
            k.form("madc.lo.%s" % tt, ["add.cc.%s %s, %s, %s;" % (t, d_, c_, b_),
                                       "madc.lo.%s %s, %s, %s, %s;" % (tt, e_, a_, b_, c_)], e_, KIND[w],
                   lambda a, b, c, w=w: u(a * b + c + ((u(c, w) + u(b, w)) >> w), w))
    return k


def k_bits():
    k = Kernel("bits", "gen")
    for w, t in ((16, "b16"), (32, "b32"), (64, "b64")):
        for op, f in (("and", lambda x, y: x & y), ("or", lambda x, y: x | y), ("xor", lambda x, y: x ^ y)):
            k.form("%s.%s" % (op, t), ["%s.%s %s, %s, %s;" % (op, t, D[w], A[w], B[w])], D[w], KIND[w],
                   lambda a, b, c, w=w, f=f: u(f(a, b), w))
        k.form("not." + t, ["not.%s %s, %s;" % (t, D[w], A[w])], D[w], KIND[w], lambda a, b, c, w=w: u(~a, w))
        k.form("cnot." + t, ["cnot.%s %s, %s;" % (t, D[w], A[w])], D[w], KIND[w],
               lambda a, b, c, w=w: int(u(a, w) == 0))
    k.form("or.b16.imm", ["or.b16 %h0, %a16, -1;"], "%h0", "r16", lambda a, b, c: 0xFFFF)
    k.form("xor.b16.imm", ["xor.b16 %h0, %a16, 0x8000;"], "%h0", "r16", lambda a, b, c: u(a ^ 0x8000, 16))
    for w, t in ((32, "b32"), (64, "b64")):
        k.form("popc." + t, ["popc.%s %%t0, %s;" % (t, A[w])], "%t0", "r32", lambda a, b, c, w=w: bin(u(a, w)).count("1"))
        k.form("clz." + t, ["clz.%s %%t0, %s;" % (t, A[w])], "%t0", "r32", lambda a, b, c, w=w: w - u(a, w).bit_length())
        k.form("brev." + t, ["brev.%s %s, %s;" % (t, D[w], A[w])], D[w], KIND[w],
               lambda a, b, c, w=w: int(format(u(a, w), "0%db" % w)[::-1], 2))
    for t in ("u32", "s32", "u64", "s64"):
        w, s = TYPES[t]

        def bf(a, b, c, w=w, s=s, sh=False):
            x = u(a, w)
            if s and x >> (w - 1):
                x = u(~x, w)
            d = x.bit_length() - 1 if x else M32
            return (w - 1 - d) if sh and d != M32 else d
        k.form("bfind." + t, ["bfind.%s %%t0, %s;" % (t, A[w])], "%t0", "r32", bf)
        k.form("bfind.shiftamt." + t, ["bfind.shiftamt.%s %%t0, %s;" % (t, A[w])], "%t0", "r32",
               lambda a, b, c, bf=bf: bf(a, b, c, sh=True))

    def lop3(lut):
        def f(a, b, c):
            r = 0
            for i in range(32):
                idx = ((a >> i) & 1) << 2 | ((b >> i) & 1) << 1 | ((c >> i) & 1)
                r |= ((lut >> idx) & 1) << i
            return r
        return f
    for lut in (0x00, 0xFF, 0x80, 0xFE, 0x96, 0xE8, 0x1A, 0xCA, 0xF0, 0xCC, 0xAA, 0x6A, 0x01, 0x7F):
        k.form("lop3.0x%02X" % lut, ["lop3.b32 %%t0, %%a32, %%b32, %%c32, 0x%02X;" % lut], "%t0", "r32", lop3(lut))
    # predicate logic on %pa %pb (bits 0, 1 of c)
    k.form("and.pred", ["and.pred %p0, %pa, %pb;"], "%p0", "pred", lambda a, b, c: PA(c) & PB(c))
    k.form("or.pred.neg", ["or.pred %p0, !%pa, %pb;"], "%p0", "pred", lambda a, b, c: (1 - PA(c)) | PB(c))
    k.form("xor.pred", ["xor.pred %p0, %pa, !%pb;"], "%p0", "pred", lambda a, b, c: PA(c) ^ (1 - PB(c)))
    k.form("not.pred", ["not.pred %p0, %pc;"], "%p0", "pred", lambda a, b, c: 1 - PC(c))
    return k


def k_dot():
    k = Kernel("dot", "gen")
    for ta in ("u32", "s32"):
        for tb in ("u32", "s32"):
            def ext(v, i, n, t):
                x = (v >> (n * i)) & ((1 << n) - 1)
                return sx(x, n) if t == "s32" else x
            k.form("dp4a.%s.%s" % (ta, tb), ["dp4a.%s.%s %%t0, %%a32, %%b32, %%c32;" % (ta, tb)], "%t0", "r32",
                   lambda a, b, c, ta=ta, tb=tb, ext=ext: u(c + sum(ext(a, i, 8, ta) * ext(b, i, 8, tb)
                                                                 for i in range(4)), 32))
            for md in ("lo", "hi"):
                sel = 0 if md == "lo" else 2
                k.form("dp2a.%s.%s.%s" % (md, ta, tb), ["dp2a.%s.%s.%s %%t0, %%a32, %%b32, %%c32;" % (md, ta, tb)],
                       "%t0", "r32", lambda a, b, c, ta=ta, tb=tb, ext=ext, sel=sel:
                       u(c + sum(ext(a, i, 16, ta) * ext(b, sel + i, 8, tb) for i in range(2)), 32))
    return k


PRMT_TABLE = {  # result byte i (0..3) for selector c & 3, from the ISA's mode table
    "f4e": [[0, 1, 2, 3], [1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]],
    "b4e": [[0, 7, 6, 5], [1, 0, 7, 6], [2, 1, 0, 7], [3, 2, 1, 0]],
    "rc8": [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]],
    "ecl": [[0, 1, 2, 3], [1, 1, 2, 3], [2, 2, 2, 3], [3, 3, 3, 3]],
    "ecr": [[0, 0, 0, 0], [0, 1, 1, 1], [0, 1, 2, 2], [0, 1, 2, 3]],
    "rc16": [[0, 1, 0, 1], [2, 3, 2, 3], [0, 1, 0, 1], [2, 3, 2, 3]],
}


def prmt_model(mode, imm=None):
    def f(a, b, c):
        v = u(a, 32) | u(b, 32) << 32
        sel = u(c, 32) if imm is None else imm
        r = 0
        for i in range(4):
            if mode is None:
                s = (sel >> (4 * i)) & 0xF
                byte = (v >> (8 * (s & 7))) & 0xFF
                if s & 8:
                    byte = 0xFF if byte & 0x80 else 0
            else:
                byte = (v >> (8 * PRMT_TABLE[mode][sel & 3][i])) & 0xFF
            r |= byte << (8 * i)
        return r
    return f


def k_shift():
    k = Kernel("shift", "sh")
    for w, t in ((16, "b16"), (32, "b32"), (64, "b64")):
        k.form("shl." + t, ["shl.%s %s, %s, %%b32;" % (t, D[w], A[w])], D[w], KIND[w],
               lambda a, b, c, w=w: u(u(a, w) << min(u(b, 32), w), w))
        for tt in ("u%d" % w, "s%d" % w, "b%d" % w):
            k.form("shr." + tt, ["shr.%s %s, %s, %%b32;" % (tt, D[w], A[w])], D[w], KIND[w],
                   lambda a, b, c, w=w, tt=tt: u(val(a, tt) >> min(u(b, 32), w), w))
    k.form("shl.b32.imm", ["shl.b32 %t0, %a32, 33;"], "%t0", "r32", lambda a, b, c: 0)
    k.form("shr.s16.imm", ["shr.s16 %h0, %a16, 20;"], "%h0", "r16", lambda a, b, c: u(sx(a, 16) >> 16, 16))
    for lr in ("l", "r"):
        for md in ("clamp", "wrap"):
            def shf(a, b, c, lr=lr, md=md):
                n = min(u(c, 32), 32) if md == "clamp" else u(c, 5)
                v = u(a, 32) | u(b >> 32, 32) << 32      # b operand: high word of a64 (%ah32)
                return u((v << n) >> 32, 32) if lr == "l" else u(v >> n, 32)
            k.form("shf.%s.%s" % (lr, md), ["shf.%s.%s.b32 %%t0, %%a32, %%ah32, %%c32;" % (lr, md)], "%t0", "r32",
                   lambda a, b, c, f=shf: f(a, a, c))
    for t in ("u32", "s32", "u64", "s64"):
        w, s = TYPES[t]

        def bfe(a, b, c, w=w, s=s):
            # 8-bit position and length for .32 types; the 64-bit forms use the
            # whole 32-bit values on an H100
            pos, ln = (u(b, 8), u(c, 8)) if w == 32 else (u(b, 32), u(c, 32))
            sbit = 0 if (not s or ln == 0) else (u(a, w) >> min(pos + ln - 1, w - 1)) & 1
            d = 0
            for i in range(w):
                bit = (u(a, w) >> (pos + i)) & 1 if (i < ln and pos + i <= w - 1) else sbit
                d |= bit << i
            return d
        k.form("bfe." + t, ["bfe.%s %s, %s, %%b32, %%c32;" % (t, D[w], A[w])], D[w], KIND[w], bfe)
    for w, t in ((32, "b32"), (64, "b64")):
        base = "%ah32" if w == 32 else "%c64"

        def bfi(a, b, c, w=w):
            ins, f = u(a, w), (u(a >> 32, 32) if w == 32 else u(c, 64))
            pos, ln = (u(b, 8), u(c, 8)) if w == 32 else (u(b, 32), u(c, 32))
            i = 0
            while i < ln and pos + i <= w - 1:
                f = (f & ~(1 << (pos + i))) | (((ins >> i) & 1) << (pos + i))
                i += 1
            return f
        k.form("bfi." + t, ["bfi.%s %s, %s, %s, %%b32, %%c32;" % (t, D[w], A[w], base)], D[w], KIND[w], bfi)
    for md in ("clamp", "wrap"):
        def bmsk(a, b, c, md=md):
            pa, wb = u(b, 32), u(c, 32)            # position from b, width from c
            a1, b1 = pa & 31, wb & 31
            mask0 = u(M32 << a1, 32)
            s = a1 + b1
            mask1 = u(M32 << s, 32) if s < 32 else 0
            posovf = widovf = False
            if md == "clamp":
                if pa >= 32:
                    posovf, mask0 = True, 0
                if wb >= 32:
                    widovf = True
            if s >= 32 or posovf or widovf:
                mask1 = 0
            elif b1 == 0:
                mask1 = M32
            return mask0 & ~mask1 & M32
        k.form("bmsk.%s" % md, ["bmsk.%s.b32 %%t0, %%b32, %%c32;" % md], "%t0", "r32", bmsk)
        for t in ("u32", "s32"):
            def szext(a, b, c, md=md, t=t):
                x, n = u(a, 32), u(b, 32)
                b1 = n & 31
                big = n >= 32 and md == "clamp"
                mask = 0 if big else u(M32 << b1, 32)
                sbit = 0 if (b1 == 0 or big or t == "u32") else (x >> ((b1 - 1) & 31)) & 1
                return (x & ~mask & M32) | (mask if sbit else 0)
            k.form("szext.%s.%s" % (md, t), ["szext.%s.%s %%t0, %%a32, %%b32;" % (md, t)], "%t0", "r32", szext)

    def fns(a, b, c):
        mask, base, off = u(a, 32), u(b, 32) & 31, sx(c, 32)
        if off == -2 ** 31:     # an H100 gives 0 whatever the mask
            return 0
        if off == 0:
            return base if (mask >> base) & 1 else M32
        pos, cnt, inc = base, abs(off) - 1, 1 if off > 0 else -1
        while 0 <= pos < 32:
            if (mask >> pos) & 1:
                if cnt == 0:
                    return pos
                cnt -= 1
            pos += inc
        return M32
    k.form("fns.b32", ["and.b32 %t1, %b32, 31;", "sub.s32 %t2, 24, %c32;", "fns.b32 %t0, %a32, %t1, %t2;"],
           "%t0", "r32", lambda a, b, c: fns(a, b, u(24 - u(c, 32), 32)))
    k.form("fns.b32.c", ["and.b32 %t1, %b32, 31;", "fns.b32 %t0, %a32, %t1, %c32;"], "%t0", "r32",
           lambda a, b, c: fns(a, b, c))
    # prmt: selectors from the (random / small) c, from immediates, and the modes
    k.form("prmt", ["prmt.b32 %t0, %a32, %ah32, %c32;"], "%t0", "r32",
           lambda a, b, c: prmt_model(None)(a, a >> 32, c))
    k.form("prmt.b", ["prmt.b32 %t0, %a32, %ah32, %b32;"], "%t0", "r32",
           lambda a, b, c: prmt_model(None)(a, a >> 32, b))
    for imm in (0x3210, 0x7654, 0x5140, 0x8888, 0xFEDC, 0x0123, 0xB9A8):
        k.form("prmt.0x%04X" % imm, ["prmt.b32 %%t0, %%a32, %%ah32, 0x%04X;" % imm], "%t0", "r32",
               lambda a, b, c, imm=imm: prmt_model(None, imm)(a, a >> 32, 0))
    for md in ("f4e", "b4e", "rc8", "ecl", "ecr", "rc16"):
        k.form("prmt." + md, ["prmt.b32.%s %%t0, %%a32, %%ah32, %%b32;" % md], "%t0", "r32",
               lambda a, b, c, md=md: prmt_model(md)(a, a >> 32, b))
    return k


def setp_forms(k, t, cmps, vf, ftz=False):
    """setp.cmp[.ftz].t %p0, a, b for each comparison, vf(bits) -> value."""
    w = {"f32": 32, "f64": 64, "f16": 16, "bf16": 16}.get(t) or width(t)
    fz = ".ftz" if ftz else ""
    for cm in cmps:
        f = FCMP[cm] if t[0] in "fb" and t not in ("b16", "b32", "b64") else ICMP[cm]
        k.form("setp.%s%s.%s" % (cm, fz, t), ["setp.%s%s.%s %%p0, %s, %s;" % (cm, fz, t, A[w], B[w])], "%p0", "pred",
               lambda a, b, c, f=f: int(f(vf(a), vf(b))))


def k_cmp_int():
    k = Kernel("cmp_int", "gen")
    for t in ("u16", "s16", "u32", "s32", "u64", "s64"):
        cm = ["eq", "ne", "lt", "le", "gt", "ge"] + (["lo", "ls", "hi", "hs"] if t[0] == "u" else [])
        setp_forms(k, t, cm, lambda x, t=t: val(x, t))
    for t in ("b16", "b32", "b64"):
        setp_forms(k, t, ["eq", "ne"], lambda x, t=t: val(x, t))
    # combining and the second destination
    for bo, f in (("and", lambda x, y: x & y), ("or", lambda x, y: x | y), ("xor", lambda x, y: x ^ y)):
        k.form("setp.lt.%s.s32.p" % bo, ["setp.lt.%s.s32 %%p0|%%p1, %%a32, %%b32, %%pc;" % bo], "%p0", "pred",
               lambda a, b, c, f=f: f(int(sx(a, 32) < sx(b, 32)), PC(c)))
        k.form("setp.lt.%s.s32.q" % bo, ["setp.lt.%s.s32 %%p0|%%p1, %%a32, %%b32, !%%pc;" % bo], "%p1", "pred",
               lambda a, b, c, f=f: f(int(not sx(a, 32) < sx(b, 32)), 1 - PC(c)))
    k.form("setp.hi.u64.q", ["setp.hi.u64 %p0|%p1, %a64, %b64;"], "%p1", "pred", lambda a, b, c: int(not a > b))
    for dt, tv in (("u32", M32), ("s32", M32), ("f32", 0x3F800000)):
        k.form("set.lt.%s.s32" % dt, ["set.lt.%s.s32 %%t0, %%a32, %%b32;" % dt], "%t0", "r32",
               lambda a, b, c, tv=tv: tv if sx(a, 32) < sx(b, 32) else 0)
    k.form("set.lo.f16.u32", ["set.lo.f16.u32 %h0, %a32, %b32;"], "%h0", "r16",
           lambda a, b, c: 0x3C00 if u(a, 32) < u(b, 32) else 0)
    k.form("set.hs.u32.u64", ["set.hs.u32.u64 %t0, %a64, %b64;"], "%t0", "r32", lambda a, b, c: M32 if a >= b else 0)
    k.form("set.ne.or.f32.b16", ["set.ne.or.f32.b16 %t0, %a16, %b16, !%pa;"], "%t0", "r32",
           lambda a, b, c: 0x3F800000 if (u(a, 16) != u(b, 16)) or not PA(c) else 0)
    k.form("set.eq.xor.u32.s64", ["set.eq.xor.u32.s64 %t0, %a64, %b64, %pb;"], "%t0", "r32",
           lambda a, b, c: M32 if (a == b) ^ PB(c) else 0)
    for w, t in ((16, "b16"), (32, "b32"), (64, "b64")):
        k.form("selp." + t, ["selp.%s %s, %s, %s, %%pa;" % (t, D[w], A[w], B[w])], D[w], KIND[w],
               lambda a, b, c, w=w: u(a if PA(c) else b, w))
    k.form("selp.b32.neg", ["selp.b32 %t0, %a32, %b32, !%pb;"], "%t0", "r32", lambda a, b, c: u(b if PB(c) else a, 32))
    k.form("selp.s16.imm", ["selp.s16 %h0, -1, %a16, %pa;"], "%h0", "r16", lambda a, b, c: 0xFFFF if PA(c) else u(a, 16))
    k.form("slct.s32.s32", ["slct.s32.s32 %t0, %a32, %b32, %c32;"], "%t0", "r32",
           lambda a, b, c: u(a if sx(c, 32) >= 0 else b, 32))
    k.form("slct.u16.s32", ["slct.u16.s32 %h0, %a16, %b16, %c32;"], "%h0", "r16",
           lambda a, b, c: u(a if sx(c, 32) >= 0 else b, 16))
    k.form("slct.b64.s32", ["slct.b64.s32 %w0, %a64, %b64, %c32;"], "%w0", "r64",
           lambda a, b, c: a if sx(c, 32) >= 0 else b)
    return k


ALLF = ["eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"]


def k_cmp_f32():
    k = Kernel("cmp_f32", "f32")
    setp_forms(k, "f32", ALLF, lambda x: f32v(x))
    setp_forms(k, "f32", ALLF, lambda x: f32v(x, True), ftz=True)
    k.form("setp.gtu.or.ftz.f32.q", ["setp.gtu.or.ftz.f32 %p0|%p1, %a32, %b32, %pa;"], "%p1", "pred",
           lambda a, b, c: int(f32v(a, True) <= f32v(b, True)) | PA(c))
    k.form("set.le.u32.f32", ["set.le.u32.f32 %t0, %a32, %b32;"], "%t0", "r32",
           lambda a, b, c: M32 if f32v(a) <= f32v(b) else 0)
    k.form("set.nan.f32.f32", ["set.nan.f32.f32 %t0, %a32, %b32;"], "%t0", "r32",
           lambda a, b, c: 0x3F800000 if f32v(a) != f32v(a) or f32v(b) != f32v(b) else 0)
    k.form("set.eq.ftz.s32.f32", ["set.eq.ftz.s32.f32 %t0, %a32, %b32;"], "%t0", "r32",
           lambda a, b, c: M32 if f32v(a, True) == f32v(b, True) else 0)
    for dt, tv in (("f16", 0x3C00), ("bf16", 0x3F80)):
        k.form("set.le.%s.f32" % dt, ["set.le.%s.f32 %%h0, %%a32, %%b32;" % dt], "%h0", "r16",
               lambda a, b, c, tv=tv: tv if f32v(a) <= f32v(b) else 0)
    k.form("selp.f32", ["selp.f32 %t0, %a32, %b32, %pc;"], "%t0", "r32", lambda a, b, c: u(a if PC(c) else b, 32))
    k.form("slct.f32.f32", ["slct.f32.f32 %t0, %a32, %b32, %c32;"], "%t0", "r32",
           lambda a, b, c: u(a if f32v(c) >= 0 else b, 32))
    k.form("slct.ftz.f32.f32", ["slct.ftz.f32.f32 %t0, %a32, %b32, %c32;"], "%t0", "r32",
           lambda a, b, c: u(a if f32v(c, True) >= 0 else b, 32))
    k.form("slct.s32.f32.b", ["slct.s32.f32 %t0, %a32, %c32, %b32;"], "%t0", "r32",
           lambda a, b, c: u(a if f32v(b) >= 0 else c, 32))
    return k


def k_cmp_f64():
    k = Kernel("cmp_f64", "f64")
    setp_forms(k, "f64", ALLF, lambda x: f64v(x))
    k.form("set.lt.u32.f64", ["set.lt.u32.f64 %t0, %a64, %b64;"], "%t0", "r32",
           lambda a, b, c: M32 if f64v(a) < f64v(b) else 0)
    k.form("set.geu.and.f32.f64", ["set.geu.and.f32.f64 %t0, %a64, %b64, %pa;"], "%t0", "r32",
           lambda a, b, c: 0x3F800000 if (not f64v(a) < f64v(b)) and PA(c) else 0)
    k.form("selp.f64", ["selp.f64 %w0, %a64, %b64, %pb;"], "%w0", "r64", lambda a, b, c: a if PB(c) else b)
    k.form("slct.f64.s32", ["slct.f64.s32 %w0, %a64, %b64, %c32;"], "%w0", "r64",
           lambda a, b, c: a if sx(c, 32) >= 0 else b)
    return k


def k_cmp_h16():
    k = Kernel("cmp_h16", "h16")
    setp_forms(k, "f16", ALLF, lambda x: f16v(x))
    setp_forms(k, "f16", ["eq", "lt", "geu", "num"], lambda x: f16v(x, True), ftz=True)
    setp_forms(k, "bf16", ALLF, lambda x: bf16v(x))
    for t, vf in (("f16x2", f16v), ("bf16x2", bf16v)):
        for cm in ("eq", "ne", "lt", "geu", "nan"):
            f = FCMP[cm]
            k.form("setp.%s.%s.lo" % (cm, t), ["setp.%s.%s %%p0|%%p1, %%a32, %%b32;" % (cm, t)], "%p0", "pred",
                   lambda a, b, c, f=f, vf=vf: int(f(vf(a), vf(b))))
            k.form("setp.%s.%s.hi" % (cm, t), ["setp.%s.%s %%p0|%%p1, %%a32, %%b32;" % (cm, t)], "%p1", "pred",
                   lambda a, b, c, f=f, vf=vf: int(f(vf(a >> 16), vf(b >> 16))))
    # a single destination: the ISA defines only p|q; what ptxas accepts is recorded here
    k.form("setp.lt.f16x2.single", ["setp.lt.f16x2 %p0, %a32, %b32;"], "%p0", "pred",
           lambda a, b, c: int(f16v(a) < f16v(b)))
    k.form("setp.lt.bf16x2.single", ["setp.lt.bf16x2 %p0, %a32, %b32;"], "%p0", "pred",
           lambda a, b, c: int(bf16v(a) < bf16v(b)))
    k.form("setp.le.ftz.f16x2.hi", ["setp.le.ftz.f16x2 %p0|%p1, %a32, %b32;"], "%p1", "pred",
           lambda a, b, c: int(f16v(a >> 16, True) <= f16v(b >> 16, True)))
    k.form("setp.lt.and.f16x2.lo", ["setp.lt.and.f16x2 %p0|%p1, %a32, %b32, !%pa;"], "%p0", "pred",
           lambda a, b, c: int(f16v(a) < f16v(b)) & (1 - PA(c)))
    k.form("setp.lt.and.f16x2.hi", ["setp.lt.and.f16x2 %p0|%p1, %a32, %b32, !%pa;"], "%p1", "pred",
           lambda a, b, c: int(f16v(a >> 16) < f16v(b >> 16)) & (1 - PA(c)))
    for dt, tv in (("u32", 0xFFFF), ("f16x2", 0x3C00)):
        k.form("set.lt.%s.f16x2" % dt, ["set.lt.%s.f16x2 %%t0, %%a32, %%b32;" % dt], "%t0", "r32",
               lambda a, b, c, tv=tv: (tv if f16v(a) < f16v(b) else 0) | (tv << 16 if f16v(a >> 16) < f16v(b >> 16) else 0))
    k.form("set.ne.bf16x2.bf16x2", ["set.ne.bf16x2.bf16x2 %t0, %a32, %b32;"], "%t0", "r32",
           lambda a, b, c: (0x3F80 if FCMP["ne"](bf16v(a), bf16v(b)) else 0)
           | (0x3F800000 if FCMP["ne"](bf16v(a >> 16), bf16v(b >> 16)) else 0))
    for dt, tv in (("f16", 0x3C00), ("u16", 0xFFFF), ("s16", 0xFFFF), ("u32", M32)):
        r, kd = ("%h0", "r16") if dt in ("f16", "u16", "s16") else ("%t0", "r32")
        k.form("set.gtu.%s.f16" % dt, ["set.gtu.%s.f16 %s, %%a16, %%b16;" % (dt, r)], r, kd,
               lambda a, b, c, tv=tv: tv if not f16v(a) <= f16v(b) else 0)
    k.form("set.le.bf16.bf16", ["set.le.bf16.bf16 %h0, %a16, %b16;"], "%h0", "r16",
           lambda a, b, c: 0x3F80 if bf16v(a) <= bf16v(b) else 0)
    k.form("selp.b16.h", ["selp.b16 %h0, %a16, %b16, %pc;"], "%h0", "r16", lambda a, b, c: u(a if PC(c) else b, 16))
    return k


KERNELS = [k_int_basic, k_int_mul, k_int_div, k_int_carry, k_bits, k_dot, k_shift, k_cmp_int, k_cmp_f32,
           k_cmp_f64, k_cmp_h16]


# ------------------------------------------------------------------ PTX text
def ptx(k):
    L = [".version 8.0", ".target sm_90", ".address_size 64", ""]
    params = ["    .param .u64 in_a", "    .param .u64 in_b", "    .param .u64 in_c"]
    params += ["    .param .u64 out_%d" % i for i in range(len(k.forms))]
    L.append(".visible .entry %s(\n%s\n)" % (k.name, ",\n".join(params)))
    L += ["{",
          "    .reg .pred %pa, %pb, %pc, %pz, %p<4>;",
          "    .reg .b16 %a16, %b16, %c16, %ah16, %bh16, %ch16, %h<4>;",
          "    .reg .b32 %a32, %b32, %c32, %ah32, %bh32, %ch32, %t<4>, %i, %r<4>;",
          "    .reg .b64 %a64, %b64, %c64, %w<4>, %base, %addr, %off2, %off4, %off8;",
          "    mov.u32 %r0, %ctaid.x;",
          "    mov.u32 %r1, %ntid.x;",
          "    mov.u32 %r2, %tid.x;",
          "    mad.lo.s32 %i, %r0, %r1, %r2;",
          "    setp.ge.u32 %%pz, %%i, %d;" % N,
          "    @%pz ret;",
          "    mul.wide.u32 %off2, %i, 2;",
          "    mul.wide.u32 %off4, %i, 4;",
          "    mul.wide.u32 %off8, %i, 8;"]
    for x in "abc":
        L += ["    ld.param.u64 %%base, [in_%s];" % x,
              "    cvta.to.global.u64 %base, %base;",
              "    add.s64 %addr, %base, %off8;",
              "    ld.global.u64 %%%s64, [%%addr];" % x,
              "    mov.b64 {%%%s32, %%%sh32}, %%%s64;" % (x, x, x),
              "    mov.b32 {%%%s16, %%%sh16}, %%%s32;" % (x, x, x)]
    for n, p in ((1, "%pa"), (2, "%pb"), (4, "%pc")):
        L += ["    and.b32 %%r3, %%c32, %d;" % n, "    setp.ne.b32 %s, %%r3, 0;" % p]
    for idx, (fname, lines, res, kind, _) in enumerate(k.forms):
        L.append("    // %s" % fname)
        L += ["    " + x for x in lines]
        L += ["    ld.param.u64 %%base, [out_%d];" % idx, "    cvta.to.global.u64 %base, %base;"]
        if kind == "r64":
            L += ["    add.s64 %addr, %base, %off8;", "    st.global.u64 [%%addr], %s;" % res]
        elif kind == "r16":
            L += ["    add.s64 %addr, %base, %off2;", "    st.global.u16 [%%addr], %s;" % res]
        else:
            L.append("    add.s64 %addr, %base, %off4;")
            if kind == "pred":
                L += ["    selp.u32 %%r3, 1, 0, %s;" % res, "    st.global.u32 [%addr], %r3;"]
            else:
                L.append("    st.global.u32 [%%addr], %s;" % res)
    L += ["    ret;", "}", ""]
    return "\n".join(L)


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def main():
    for f in os.listdir(HERE):
        if f.endswith(".ptx"):
            os.remove(os.path.join(HERE, f))
    if os.path.isdir(os.path.join(HERE, "expected-model")):
        for f in os.listdir(os.path.join(HERE, "expected-model")):
            os.remove(os.path.join(HERE, "expected-model", f))
    ins = sets()
    for name, arrs in ins.items():
        for x, arr in zip("abc", arrs):
            write(os.path.join(HERE, "inputs", "%s_%s.bin" % (name, x)), struct.pack("<%dQ" % N, *arr))
    runs = ["# runs.txt -- integer, bit and comparison edge kernels (generated by gen.py; see its header)."]
    spec = ["# forms.txt -- generated by gen.py: the forms harness.c runs through Loom's handlers."]
    grid = N // BLOCK
    kernels = []
    for make in KERNELS:      # at most MAXFORMS forms (output parameters) a kernel
        k = make()
        parts = (len(k.forms) + MAXFORMS - 1) // MAXFORMS
        for p in range(parts):
            kp = Kernel(k.name if parts == 1 else "%s_%d" % (k.name, p + 1), k.inset)
            kp.forms = k.forms[p * MAXFORMS:(p + 1) * MAXFORMS]
            kernels.append(kp)
    for k in kernels:
        with open(os.path.join(HERE, k.name + ".ptx"), "w") as f:
            f.write(ptx(k))
        a, b, c = ins[k.inset]
        args = ["in:u64:%d=@inputs/%s_%s.bin" % (N, k.inset, x) for x in "abc"]
        spec.append("kernel %s %s %d" % (k.name, k.inset, len(k.forms)))
        for fname, lines, res, kind, model in k.forms:
            ot = {"r64": "u64", "r16": "u16"}.get(kind, "u32")
            args.append("out:%s:%d>OUT/%s.%s.bin" % (ot, N, k.name, fname))
            vals = [model(a[i], b[i], c[i]) for i in range(N)]
            bits = int(ot[1:])
            assert all(0 <= v < (1 << bits) for v in vals), (k.name, fname)
            write(os.path.join(HERE, "expected-model", "%s.%s.bin" % (k.name, fname)),
                  struct.pack("<%d%s" % (N, {"u64": "Q", "u16": "H"}.get(ot, "I")), *vals))
            spec.append("form %s %s %s %d" % (fname, kind, res, len(lines)))
            spec += ["  " + x for x in lines]
        runs.append("%s: %s.ptx --kernel %s --grid %d --block %d %s" % (k.name, k.name, k.name, grid, BLOCK,
                                                                        " ".join(args)))
    with open(os.path.join(HERE, "runs.txt"), "w") as f:
        f.write("\n".join(runs) + "\n")
    with open(os.path.join(HERE, "forms.txt"), "w") as f:
        f.write("\n".join(spec) + "\n")


if __name__ == "__main__":
    main()
