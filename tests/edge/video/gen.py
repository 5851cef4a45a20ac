#!/usr/bin/env python3
# gen.py -- generates the video-instruction edge tests: input arrays (inputs/*.bin),
# hand-written PTX kernels (one per instruction group), runs.txt, and the Python
# model's own results (expected-model/*.bin).
#
# Every kernel reads three u32 input arrays a, b, c (thread i reads element i) and runs
# each instruction form of its group on them, writing one u32 output array per form,
# named KERNEL.N.bin (N = the form's index; gen.py's FORMS list and the comment above
# each instruction in the .ptx say which form it is). Before each form the destination
# register is set to 0x5A5A5A5A, so that a merge that kept the old destination shows.
# expected/ holds what an H100 computed (tests/record-gpu.sh), expected-model/ what the
# model below predicts (written from the PTX ISA, then corrected where the recordings
# disagreed: see the comment above `finish`); where they differ the GPU is right. The kernel `intrin` (from
# intrin.cu, compiled with nvcc -ptx -arch=compute_75) runs CUDA's __v* SIMD intrinsics.
# Run: python3 gen.py
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
N = 1024
BLOCK = 128
rng = random.Random(20260311)
M32 = 0xFFFFFFFF

BYTE_EDGE = [0x00, 0x01, 0x02, 0x3F, 0x40, 0x7E, 0x7F, 0x80, 0x81, 0xC0, 0xFE, 0xFF]
WORD_EDGE = [0, 1, 2, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000,
             0x80000001, 0xFFFFFFFE, 0xFFFFFFFF, 0x7F7F7F7F, 0x80808080, 0xFF00FF00, 0x7FFF8000,
             0x80007FFF, 0x01FF807F, 0xFE017F80, 0x12345678, 0xFFFEFFFE]
SHIFTS = [0, 1, 2, 7, 8, 15, 16, 17, 24, 30, 31, 32, 33, 34, 40, 63, 64, 255, 256, 0x1001F,
          0x80000000, 0xFFFFFFFF, 0x120, 0x21]


def rword():
    v = 0
    for k in range(4):
        byte = rng.choice(BYTE_EDGE) if rng.random() < 0.5 else rng.getrandbits(8)
        v |= byte << (8 * k)
    return v


def cross(va, vb):
    a, b, c = [], [], []
    for i in range(N):
        if i < len(va) * len(vb):
            a.append(va[i % len(va)])
            b.append(vb[i // len(va)])
        else:
            a.append(rword())
            b.append(rword() if rng.random() < 0.8 else rng.choice(vb))
        c.append(rword() if rng.random() < 0.7 else rng.choice(WORD_EDGE))
    return a, b, c


# ------------------------------------------------------------------ the model
def sx(v, w):
    v &= (1 << w) - 1
    return v - (1 << w) if v >> (w - 1) else v


SEL = {None: (0, 32), "b0": (0, 8), "b1": (8, 8), "b2": (16, 8), "b3": (24, 8), "h0": (0, 16), "h1": (16, 16)}


def part(x, signed, sel):
    sh, w = SEL[sel]
    v = (x >> sh) & ((1 << w) - 1)
    return sx(v, w) if signed else v


def clamp(v, lo, hi):
    return max(lo, min(hi, v))


# What an H100 computes departs from the ISA's pseudocode for the scalar forms
# (seen in this folder's recordings; emu/emu_video.c follows the same rules):
#  - .sat of vadd vsub vabsdiff vmin vmax clamps to the s32 range for a .s32
#    dtype; for .u32 negative results become 0 and results above 2^32-1 wrap.
#    With a merge selector the clamp is to the field, but negative results too
#    become the field's maximum.
#  - .sat of vshl/vshr truncates to .s34, then clamps to dtype's 32-bit range
#    (with or without a merge selector).
#  - .min/.max after vadd/vsub compare the result wrapped to 32 bits: signed
#    against signed c for .s32, sign-extended against zero-extended c unsigned
#    for .u32; after the other operations the exact result against c read as
#    dtype; vset reads c signed.
#  - the merge .h1 writes the result's bits 31..16 (not bits 15..0 shifted).
#  - vmad reads whole-word sources signed whatever their type, c signed, sums in
#    64 bits, shifts arithmetically only when atype or btype is .s32, and
#    clamps to that signedness's 32-bit range; dtype plays no part.
def field_max(signed, dsel):
    w = SEL[dsel][1]
    return (1 << (w - 1)) - 1 if signed else (1 << w) - 1


def finish(op, t, c, signed, sat, op2, dsel):
    """Saturation, secondary operation and merge of a scalar result t."""
    if sat and op in ("vshl", "vshr"):
        t = sx(t, 34)
        t = clamp(t, -(1 << 31), (1 << 31) - 1) if signed else clamp(t, 0, M32)
    elif sat and dsel:
        hi = field_max(signed, dsel)
        t = hi if t < 0 or t > hi else t
    elif sat:
        t = clamp(t, -(1 << 31), (1 << 31) - 1) if signed else max(t, 0)
    if op2 == "add":
        t = t + c
    elif op2:
        pick = min if op2 == "min" else max
        if op in ("vadd", "vsub") and signed:
            t = pick(sx(t, 32), sx(c, 32))
        elif op in ("vadd", "vsub"):
            tw = t & M32
            t = pick(tw | (0xFFFFFFFF << 32 if tw >> 31 else 0), c)
        else:
            t = pick(t, sx(c, 32) if signed or op == "vset" else c)
    if dsel is None:
        return t & M32
    if dsel == "h1":
        return (t & 0xFFFF0000) | (c & 0xFFFF)
    sh, w = SEL[dsel]
    m = ((1 << w) - 1) << sh
    return ((t << sh) & m) | (c & ~m & M32)


PRIM = {
    "vadd": lambda x, y: x + y, "vsub": lambda x, y: x - y, "vabsdiff": lambda x, y: abs(x - y),
    "vmin": min, "vmax": max,
}
CMP = {"eq": lambda x, y: x == y, "ne": lambda x, y: x != y, "lt": lambda x, y: x < y,
       "le": lambda x, y: x <= y, "gt": lambda x, y: x > y, "ge": lambda x, y: x >= y}
S = {"u32": False, "s32": True}


def opnd(reg, sel):
    return reg + ("." + sel if sel else "")


def scalar_form(op, dt, at, bt, sat=False, op2=None, dsel=None, asel=None, bsel=None):
    """vadd vsub vabsdiff vmin vmax (PTX ISA: Scalar Video Instructions)."""
    text = "%s.%s.%s.%s%s%s %s, %s, %s" % (op, dt, at, bt, ".sat" if sat else "", "." + op2 if op2 else "",
                                           opnd("%rd", dsel), opnd("%ra", asel), opnd("%rb", bsel))
    if op2 or dsel:
        text += ", %rc"

    def model(a, b, c):
        t = PRIM[op](part(a, S[at], asel), part(b, S[bt], bsel))
        return finish(op, t, c, S[dt], sat, op2, dsel)
    return text, model


def shift_form(op, dt, at, mode, sat=False, op2=None, dsel=None, asel=None, bsel=None):
    text = "%s.%s.%s.u32%s.%s%s %s, %s, %s" % (op, dt, at, ".sat" if sat else "", mode, "." + op2 if op2 else "",
                                               opnd("%rd", dsel), opnd("%ra", asel), opnd("%rb", bsel))
    if op2 or dsel:
        text += ", %rc"

    def model(a, b, c):
        ta, tb = part(a, S[at], asel), part(b, False, bsel)
        tb = min(tb, 32) if mode == "clamp" else tb & 31
        t = ta << tb if op == "vshl" else ta >> tb
        return finish(op, t, c, S[dt], sat, op2, dsel)
    return text, model


def vmad_form(dt, at, bt, po=False, sat=False, scale=None, asel=None, bsel=None):
    text = "vmad.%s.%s.%s%s%s%s %%rd, %s, %s, %%rc" % (dt, at, bt, ".po" if po else "", ".sat" if sat else "",
                                                    "." + scale if scale else "", opnd("%ra", asel), opnd("%rb", bsel))

    def model(a, b, c):
        signed = S[at] or S[bt]
        ta = part(a, S[at] or asel is None, asel)
        tb = part(b, S[bt] or bsel is None, bsel)
        t = ta * tb + sx(c, 32) + (1 if po else 0)
        if scale:
            sh = 7 if scale == "shr7" else 15
            t = t >> sh if signed else (t & ((1 << 64) - 1)) >> sh
        if sat:
            t = clamp(sx(t, 64), -(1 << 31), (1 << 31) - 1) if signed else clamp(sx(t, 64), 0, M32)
        return t & M32
    return text, model


def vset_form(at, bt, cmp, op2=None, dsel=None, asel=None, bsel=None):
    text = "vset.%s.%s.%s%s %s, %s, %s" % (at, bt, cmp, "." + op2 if op2 else "", opnd("%rd", dsel),
                                         opnd("%ra", asel), opnd("%rb", bsel))
    if op2 or dsel:
        text += ", %rc"

    def model(a, b, c):
        t = 1 if CMP[cmp](part(a, S[at], asel), part(b, S[bt], bsel)) else 0
        return finish("vset", t, c, False, False, op2, dsel)
    return text, model


def avrg(x, y):
    s = x + y
    return (s + 1) >> 1 if s >= 0 else s >> 1


SIMD = {"add": lambda x, y: x + y, "sub": lambda x, y: x - y, "avrg": avrg, "absdiff": lambda x, y: abs(x - y),
        "min": min, "max": max}


def simd_form(op, n, dt, at, bt, sat=False, add=False, mask=None):
    """vop2 / vop4 (PTX ISA: SIMD Video Instructions), default source selectors."""
    name = "v%s%d" % (op, n)
    text = "%s.%s.%s.%s%s%s %s, %%ra, %%rb, %%rc" % (name, dt, at, bt, ".sat" if sat else "", ".add" if add else "",
                                                   opnd("%rd", mask))
    w = 32 // n

    def model(a, b, c):
        t = []
        for i in range(n):
            x, y = part(a >> (w * i), S[at], "b0" if w == 8 else "h0"), part(b >> (w * i), S[bt], "b0" if w == 8 else "h0")
            v = SIMD[op](x, y)
            if sat:
                v = clamp(v, -(1 << (w - 1)), (1 << (w - 1)) - 1) if S[dt] else clamp(v, 0, (1 << w) - 1)
            t.append(v)
        sel = [True] * n if mask is None else [i == int(mask[1]) for i in range(n)]
        if add:
            return (c + sum(t[i] for i in range(n) if sel[i])) & M32
        d = 0
        for i in range(n):
            v = t[i] if sel[i] else c >> (w * i)
            d |= (v & ((1 << w) - 1)) << (w * i)
        return d
    return text, model


def vset_simd_form(n, at, bt, cmp, add=False, mask=None):
    text = "vset%d.%s.%s.%s%s %s, %%ra, %%rb, %%rc" % (n, at, bt, cmp, ".add" if add else "", opnd("%rd", mask))
    w = 32 // n

    def model(a, b, c):
        sel0 = "b0" if w == 8 else "h0"
        t = [1 if CMP[cmp](part(a >> (w * i), S[at], sel0), part(b >> (w * i), S[bt], sel0)) else 0 for i in range(n)]
        sel = [True] * n if mask is None else [i == int(mask[1]) for i in range(n)]
        if add:
            return (c + sum(t[i] for i in range(n) if sel[i])) & M32
        d = 0
        for i in range(n):
            v = t[i] if sel[i] else c >> (w * i)
            d |= (v & ((1 << w) - 1)) << (w * i)
        return d
    return text, model


def simd_pick(x, y, sel, n):
    """Elements selected by an explicit .hxy / .bwxyz selector (PTX ISA: SIMD Video
    Instructions): the digits, high element first, index the elements of the pair
    {y, x} (x's elements first); None is the default selector of x's own elements."""
    w = 32 // n
    pool = [(x >> (w * i)) & ((1 << w) - 1) for i in range(n)] + [(y >> (w * i)) & ((1 << w) - 1) for i in range(n)]
    if sel is None:
        return pool[:n]
    digits = [int(ch) for ch in sel[1:]]
    assert len(digits) == n
    return [pool[digits[n - 1 - i]] for i in range(n)]


def simd_mask(mask, n):
    if mask is None:
        return [True] * n
    return [str(i) in mask[1:] for i in range(n)]


def simd_sel_form(op, n, dt, at, bt, sat=False, add=False, mask=None, asel=None, bsel=None, cmp=None):
    """vop2 / vop4 / vset2 / vset4 with explicit source selectors and multi-element masks."""
    if cmp:
        text = "vset%d.%s.%s.%s%s %s, %s, %s, %%rc" % (n, at, bt, cmp, ".add" if add else "", opnd("%rd", mask),
                                                      opnd("%ra", asel), opnd("%rb", bsel))
    else:
        text = "v%s%d.%s.%s.%s%s%s %s, %s, %s, %%rc" % (op, n, dt, at, bt, ".sat" if sat else "", ".add" if add else "",
                                                       opnd("%rd", mask), opnd("%ra", asel), opnd("%rb", bsel))
    w = 32 // n
    dflt_b = None if bsel is None else bsel

    def model(a, b, c):
        va = simd_pick(a, b, asel, n)
        vb = simd_pick(b, a, dflt_b, n) if bsel is None else simd_pick(a, b, bsel, n)
        t = []
        for i in range(n):
            x, y = sx(va[i], w) if S[at] else va[i], sx(vb[i], w) if S[bt] else vb[i]
            if cmp:
                v = 1 if CMP[cmp](x, y) else 0
            else:
                v = SIMD[op](x, y)
                if sat:
                    v = clamp(v, -(1 << (w - 1)), (1 << (w - 1)) - 1) if S[dt] else clamp(v, 0, (1 << w) - 1)
            t.append(v)
        on = simd_mask(mask, n)
        if add:
            return (c + sum(t[i] for i in range(n) if on[i])) & M32
        d = 0
        for i in range(n):
            v = t[i] if on[i] else c >> (w * i)
            d |= (v & ((1 << w) - 1)) << (w * i)
        return d
    return text, model


def vmad_neg_form(dt, at, bt, na=False, nb=False, nc=False, sat=False, scale=None, asel=None, bsel=None):
    """vmad with negated operands: the product is negated when exactly one of a, b
    is (PTX ISA: vmad), c as written; either makes the operation signed (the
    shift arithmetic, .sat to the s32 range), on an H100 even for .u32 types."""
    text = "vmad.%s.%s.%s%s%s %%rd, %s%s, %s%s, %s%%rc" % (dt, at, bt, ".sat" if sat else "", "." + scale if scale else "",
                                                        "-" if na else "", opnd("%ra", asel), "-" if nb else "",
                                                        opnd("%rb", bsel), "-" if nc else "")

    def model(a, b, c):
        neg = na != nb
        signed = S[at] or S[bt] or neg or nc
        ta = part(a, S[at] or asel is None, asel)
        tb = part(b, S[bt] or bsel is None, bsel)
        p = -(ta * tb) if neg else ta * tb
        t = p + (-sx(c, 32) if nc else sx(c, 32))
        if scale:
            sh = 7 if scale == "shr7" else 15
            t = t >> sh if signed else (t & ((1 << 64) - 1)) >> sh
        if sat:
            t = clamp(sx(t, 64), -(1 << 31), (1 << 31) - 1) if signed else clamp(sx(t, 64), 0, M32)
        return t & M32
    return text, model


# ------------------------------------------------------------------ the forms
def scalar_group(op):
    f = scalar_form
    return [
        f(op, "u32", "u32", "u32"), f(op, "s32", "s32", "s32"), f(op, "s32", "u32", "s32"),
        f(op, "u32", "s32", "u32"), f(op, "u32", "u32", "u32", sat=True), f(op, "s32", "s32", "s32", sat=True),
        f(op, "u32", "s32", "s32", sat=True), f(op, "s32", "u32", "u32", sat=True),
        f(op, "s32", "s32", "u32", asel="b1", bsel="h1"), f(op, "u32", "u32", "s32", asel="b3", bsel="b0"),
        f(op, "s32", "s32", "s32", asel="h0", bsel="b2"), f(op, "u32", "s32", "s32", sat=True, asel="h1", bsel="h0"),
        f(op, "u32", "u32", "u32", op2="add"), f(op, "s32", "s32", "s32", op2="add"),
        f(op, "s32", "s32", "s32", op2="min"), f(op, "u32", "u32", "u32", op2="max"),
        f(op, "u32", "u32", "u32", op2="min"), f(op, "s32", "u32", "s32", op2="max"),
        f(op, "s32", "u32", "u32", sat=True, op2="add"), f(op, "u32", "s32", "s32", sat=True, op2="min"),
        f(op, "s32", "s32", "s32", sat=True, op2="max", asel="b0", bsel="b1"),
        f(op, "u32", "u32", "u32", dsel="b0"), f(op, "s32", "s32", "s32", sat=True, dsel="b1", asel="b2", bsel="b3"),
        f(op, "u32", "u32", "u32", sat=True, dsel="h1", asel="h0", bsel="h1"),
        f(op, "s32", "s32", "s32", sat=True, dsel="h0"), f(op, "u32", "s32", "s32", sat=True, dsel="b3"),
        f(op, "s32", "u32", "u32", dsel="h1"), f(op, "u32", "u32", "s32", sat=True, dsel="b2", bsel="h0"),
    ]


def shift_group(op):
    f = shift_form
    return [
        f(op, "u32", "u32", "clamp"), f(op, "u32", "u32", "wrap"), f(op, "s32", "s32", "clamp"),
        f(op, "s32", "s32", "wrap"), f(op, "u32", "s32", "clamp"), f(op, "s32", "u32", "wrap"),
        f(op, "u32", "u32", "clamp", sat=True), f(op, "s32", "s32", "clamp", sat=True),
        f(op, "s32", "u32", "wrap", sat=True), f(op, "u32", "s32", "wrap", sat=True),
        f(op, "s32", "s32", "clamp", asel="b1", bsel="b0"), f(op, "u32", "u32", "wrap", asel="h1", bsel="h0"),
        f(op, "u32", "u32", "clamp", op2="add"), f(op, "s32", "s32", "wrap", op2="min"),
        f(op, "s32", "s32", "clamp", op2="max"), f(op, "u32", "u32", "clamp", sat=True, dsel="b2"),
        f(op, "s32", "s32", "wrap", sat=True, dsel="h1"), f(op, "u32", "s32", "clamp", dsel="b0", asel="b3"),
    ]


def vmad_group():
    f = vmad_form
    return [
        f("u32", "u32", "u32"), f("s32", "s32", "s32"), f("s32", "u32", "s32"), f("s32", "s32", "u32"),
        f("u32", "s32", "s32"), f("s32", "u32", "u32"), f("u32", "u32", "u32", po=True),
        f("s32", "s32", "s32", po=True), f("u32", "u32", "u32", sat=True), f("s32", "s32", "s32", sat=True),
        f("s32", "u32", "u32", sat=True), f("u32", "s32", "s32", sat=True),
        f("u32", "u32", "u32", scale="shr7"), f("s32", "s32", "s32", scale="shr15"),
        f("u32", "u32", "u32", scale="shr15", asel="h0", bsel="h0"), f("s32", "s32", "s32", sat=True, scale="shr7"),
        f("u32", "u32", "u32", po=True, sat=True, scale="shr15"), f("s32", "s32", "u32", asel="b1", bsel="h1"),
        f("u32", "u32", "s32", sat=True, asel="b3", bsel="b2"), f("s32", "u32", "s32", po=True, sat=True, scale="shr7"),
    ]


def vset_group():
    f = vset_form
    out = []
    for cmp in CMP:
        out += [f("u32", "u32", cmp), f("s32", "s32", cmp), f("s32", "u32", cmp), f("u32", "s32", cmp)]
    out += [f("u32", "u32", "lt", op2="add"), f("s32", "s32", "ge", op2="min"), f("s32", "u32", "ne", op2="max"),
            f("u32", "u32", "eq", dsel="b0"), f("s32", "s32", "lt", dsel="b3", asel="b1", bsel="b2"),
            f("u32", "s32", "gt", dsel="h1", asel="h0", bsel="h1"), f("s32", "s32", "le", op2="add", asel="b0", bsel="b0"),
            f("u32", "u32", "gt", dsel="h0", asel="b3", bsel="h1")]
    return out


def simd_group(n, ops):
    f = simd_form
    out = []
    for op in ops:
        out += [f(op, n, "u32", "u32", "u32"), f(op, n, "s32", "s32", "s32"), f(op, n, "s32", "u32", "s32"),
                f(op, n, "u32", "s32", "u32"), f(op, n, "u32", "u32", "u32", sat=True),
                f(op, n, "s32", "s32", "s32", sat=True), f(op, n, "u32", "s32", "s32", sat=True),
                f(op, n, "s32", "u32", "u32", sat=True), f(op, n, "u32", "u32", "u32", add=True),
                f(op, n, "s32", "s32", "s32", add=True),
                f(op, n, "u32", "u32", "u32", mask="h0" if n == 2 else "b0"),
                f(op, n, "s32", "s32", "s32", sat=True, mask="h1" if n == 2 else "b2"),
                f(op, n, "s32", "u32", "s32", add=True, mask="h1" if n == 2 else "b3")]
    return out


def vset_simd_group(n):
    f = vset_simd_form
    out = []
    for cmp in CMP:
        out += [f(n, "u32", "u32", cmp), f(n, "s32", "s32", cmp)]
    out += [f(n, "s32", "u32", "lt"), f(n, "u32", "s32", "ge"), f(n, "u32", "u32", "ne", add=True),
            f(n, "s32", "s32", "lt", add=True), f(n, "u32", "u32", "gt", mask="h0" if n == 2 else "b0"),
            f(n, "s32", "s32", "le", mask="h1" if n == 2 else "b1"),
            f(n, "u32", "s32", "eq", add=True, mask="h0" if n == 2 else "b3")]
    return out


def simdsel_group(n):
    f = simd_sel_form
    if n == 2:
        sels = [("h10", "h32"), ("h32", "h10"), ("h01", "h23"), ("h00", "h11"), ("h21", "h03"), ("h33", "h22"),
                ("h13", None), (None, "h20")]
        masks = ["h10", "h0", "h1"]
    else:
        sels = [("b3210", "b7654"), ("b7654", "b3210"), ("b0123", "b4567"), ("b0000", "b7777"), ("b6420", "b7531"),
                ("b1357", None), (None, "b2301"), ("b7250", "b0615")]
        masks = ["b3210", "b10", "b32", "b210", "b31", "b320", "b0", "b3"]
    out = []
    ops = ["add", "sub", "avrg", "absdiff", "min", "max"]
    for k, (asel, bsel) in enumerate(sels):
        op = ops[k % len(ops)]
        out += [f(op, n, "u32", "u32", "u32", asel=asel, bsel=bsel),
                f(ops[(k + 1) % 6], n, "s32", "s32", "s32", sat=True, asel=asel, bsel=bsel),
                f(ops[(k + 2) % 6], n, "s32", "u32", "s32", add=True, asel=asel, bsel=bsel)]
    for k, mask in enumerate(masks):
        out += [f(ops[k % 6], n, "u32", "s32", "u32", sat=k % 2 == 1, mask=mask,
                  asel=sels[k % len(sels)][0], bsel=sels[(k + 3) % len(sels)][1]),
                f(ops[(k + 3) % 6], n, "s32", "s32", "u32", add=True, mask=mask)]
    return out


def vsetsel_group():
    f = simd_sel_form
    out = []
    for k, cmp in enumerate(CMP):
        out += [f(None, 2, None, "u32", "s32", cmp=cmp, asel=["h01", "h32", "h23", "h10", "h11", "h30"][k],
                  bsel=["h23", "h00", "h10", "h21", "h32", "h02"][k]),
                f(None, 4, None, "s32", "u32", cmp=cmp, asel=["b0123", "b7654", "b4567", "b1032", "b3333", "b7250"][k],
                  bsel=["b4567", "b3210", "b0000", "b7531", "b6420", "b0615"][k])]
    out += [f(None, 2, None, "s32", "s32", cmp="lt", mask="h10", asel="h32", bsel="h10"),
            f(None, 2, None, "u32", "u32", cmp="ge", add=True, mask="h10", asel="h12"),
            f(None, 4, None, "u32", "u32", cmp="ne", mask="b21", asel="b1111"),
            f(None, 4, None, "s32", "s32", cmp="gt", add=True, mask="b310", bsel="b0246"),
            f(None, 4, None, "u32", "s32", cmp="le", mask="b3210"),
            f(None, 4, None, "s32", "u32", cmp="eq", add=True, mask="b30", asel="b7654", bsel="b3210")]
    return out


def vmadneg_group():
    f = vmad_neg_form
    out = []
    for dt, at, bt in (("u32", "u32", "u32"), ("s32", "s32", "s32"), ("s32", "u32", "s32"), ("u32", "s32", "u32")):
        out += [f(dt, at, bt, na=True), f(dt, at, bt, nb=True), f(dt, at, bt, nc=True),
                f(dt, at, bt, na=True, nb=True), f(dt, at, bt, na=True, nb=True, nc=True)]
    out += [f("u32", "u32", "u32", na=True, sat=True), f("s32", "s32", "s32", nb=True, sat=True),
            f("u32", "u32", "u32", nc=True, sat=True), f("u32", "u32", "u32", na=True, nb=True, sat=True),
            f("u32", "u32", "u32", na=True, scale="shr7"), f("s32", "s32", "s32", nc=True, scale="shr15"),
            f("u32", "u32", "u32", na=True, nb=True, nc=True, sat=True, scale="shr15"),
            f("u32", "u32", "u32", na=True, asel="h1", bsel="b2"), f("s32", "s32", "u32", nb=True, asel="b3", bsel="h0"),
            f("u32", "u32", "u32", nc=True, asel="b0", bsel="b1", sat=True),
            f("u32", "s32", "s32", na=True, nb=True, nc=True, sat=True, scale="shr7"),
            f("s32", "u32", "u32", na=True, asel="h0", bsel="h1", scale="shr15")]
    return out


# (kernel name, input set, forms)
KERNELS = [
    ("vadd", "gen", scalar_group("vadd")), ("vsub", "gen", scalar_group("vsub")),
    ("vabsdiff", "gen", scalar_group("vabsdiff")), ("vmin", "gen", scalar_group("vmin")),
    ("vmax", "gen", scalar_group("vmax")),
    ("vshift", "sh", shift_group("vshl") + shift_group("vshr")),
    ("vmad", "gen", vmad_group()), ("vset", "gen", vset_group()),
    ("simd2_a", "gen", simd_group(2, ["add", "sub", "avrg"])), ("simd2_b", "gen", simd_group(2, ["absdiff", "min", "max"])),
    ("simd4_a", "gen", simd_group(4, ["add", "sub", "avrg"])), ("simd4_b", "gen", simd_group(4, ["absdiff", "min", "max"])),
    ("vset2", "gen", vset_simd_group(2)), ("vset4", "gen", vset_simd_group(4)),
    ("simdsel2", "gen", simdsel_group(2)), ("simdsel4", "gen", simdsel_group(4)),
    ("vsetsel", "gen", vsetsel_group()), ("vmadneg", "gen", vmadneg_group()),
]


def kernel_ptx(name, forms):
    nout = len(forms)
    params = ",\n".join(["    .param .u64 in_a", "    .param .u64 in_b", "    .param .u64 in_c"] +
                        ["    .param .u64 out_%d" % k for k in range(nout)])
    lines = [".version 7.0", ".target sm_75", ".address_size 64", "",
             ".visible .entry %s(\n%s\n)" % (name, params), "{",
             "    .reg .pred %pz;",
             "    .reg .b32 %ra, %rb, %rc, %rd, %i, %r<3>;",
             "    .reg .b64 %base, %addr, %off;",
             "    mov.u32 %r0, %ctaid.x;", "    mov.u32 %r1, %ntid.x;", "    mov.u32 %r2, %tid.x;",
             "    mad.lo.s32 %i, %r0, %r1, %r2;", "    setp.ge.u32 %%pz, %%i, %d;" % N, "    @%pz ret;",
             "    mul.wide.u32 %off, %i, 4;"]
    for reg, p in (("%ra", "in_a"), ("%rb", "in_b"), ("%rc", "in_c")):
        lines += ["    ld.param.u64 %%base, [%s];" % p, "    cvta.to.global.u64 %base, %base;",
                  "    add.s64 %addr, %base, %off;", "    ld.global.u32 %s, [%%addr];" % reg]
    for k, (text, _) in enumerate(forms):
        lines += ["    // form %d" % k, "    mov.b32 %rd, 0x5A5A5A5A;", "    %s;" % text,
                  "    ld.param.u64 %%base, [out_%d];" % k, "    cvta.to.global.u64 %base, %base;",
                  "    add.s64 %addr, %base, %off;", "    st.global.u32 [%addr], %rd;"]
    lines += ["    ret;", "}", ""]
    return "\n".join(lines)


def write_u32(path, vals):
    with open(path, "wb") as f:
        f.write(struct.pack("<%dI" % len(vals), *[v & M32 for v in vals]))


def main():
    os.makedirs(os.path.join(HERE, "inputs"), exist_ok=True)
    os.makedirs(os.path.join(HERE, "expected-model"), exist_ok=True)
    sets = {"gen": cross(WORD_EDGE, WORD_EDGE), "sh": cross(WORD_EDGE, SHIFTS)}
    for s, (a, b, c) in sets.items():
        for nm, v in (("a", a), ("b", b), ("c", c)):
            write_u32(os.path.join(HERE, "inputs", "%s_%s.bin" % (s, nm)), v)
    runs = ["# runs.txt -- video-instruction edge kernels (generated by gen.py; see its header)."]
    forms_txt = ["# forms.txt -- generated by gen.py: kernel, form index, instruction."]
    for name, s, forms in KERNELS:
        assert len(forms) <= 40, name
        with open(os.path.join(HERE, name + ".ptx"), "w") as f:
            f.write(kernel_ptx(name, forms))
        a, b, c = sets[s]
        args = ["in:u32:%d=@inputs/%s_%s.bin" % (N, s, x) for x in "abc"]
        for k, (text, model) in enumerate(forms):
            args.append("out:u32:%d>OUT/%s.%d.bin" % (N, name, k))
            write_u32(os.path.join(HERE, "expected-model", "%s.%d.bin" % (name, k)),
                      [model(a[i], b[i], c[i]) for i in range(N)])
            forms_txt.append("%s %d %s" % (name, k, text))
        runs.append("%s: %s.ptx --kernel %s --grid %d --block %d %s" % (name, name, name, N // BLOCK, BLOCK, " ".join(args)))
    runs.append("intrin_1: intrin.ptx --kernel intrin_1 --grid %d --block %d in:u32:%d=@inputs/gen_a.bin "
                "in:u32:%d=@inputs/gen_b.bin out:u32:%d>OUT/intrin_1.bin s32:%d" % (N // BLOCK, BLOCK, N, N, 40 * N, N))
    runs.append("intrin_2: intrin.ptx --kernel intrin_2 --grid %d --block %d in:u32:%d=@inputs/gen_a.bin "
                "in:u32:%d=@inputs/gen_b.bin out:u32:%d>OUT/intrin_2.bin s32:%d" % (N // BLOCK, BLOCK, N, N, 40 * N, N))
    with open(os.path.join(HERE, "runs.txt"), "w") as f:
        f.write("\n".join(runs) + "\n")
    with open(os.path.join(HERE, "forms.txt"), "w") as f:
        f.write("\n".join(forms_txt) + "\n")


if __name__ == "__main__":
    main()
