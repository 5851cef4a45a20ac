#!/usr/bin/env python3
# gen.py -- generates the floating-point edge tests: input bit patterns
# (inputs/*.bin), one PTX kernel per instruction group (*.ptx) and runs.txt.
#
# Every kernel reads its input arrays (raw little-endian bit patterns), runs
# each instruction form of its group on them and writes one output array per
# form. Rows of runs.txt whose forms are approximate carry a trailing
# "# approx ..." comment with the tolerance that tests/unit/edge_runner.c (for
# check_emu_float.c) applies between Loom's result and the recorded GPU result:
#   ulp=N       |loom - gpu| <= N units in the last place of the output format
#   abs=E       |loom - gpu| <= E
#   rel=R       |loom - gpu| <= R * |gpu|
# (several may be given: any one suffices), fmt=F names the output format
# (f32 f64 f16 bf16 f16x2 bf16x2). NaN, infinite and zero GPU results must
# still match bit for bit. Run: python3 gen.py (rewrites everything but expected/).
import math
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = os.path.join(HERE, "inputs")
rng = random.Random(20240611)

# ---------------------------------------------------------------- bit helpers
def f2b(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def d2b(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def b2f(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def f16bits(x):
    return struct.unpack("<H", struct.pack("<e", x))[0]


# ---------------------------------------------------------------- value sets
F32_SPECIAL = [
    0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x3F000000, 0xBF000000,
    0x40000000, 0x3FC00000, 0x40400000, 0x40200000, 0xC0200000,
    0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00400000, 0x80400001,
    0x00800000, 0x80800000, 0x00800001, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F000000,
    0x7F800000, 0xFF800000, 0x7FC00000, 0x7FC12345, 0xFFC00001, 0x7F800001,
    0x7FA00000, 0xFF800005, 0x7FFFFFFF, 0xFFFFFFFF,
    0x3F800001, 0x3F7FFFFF, 0x40490FDB, 0x501502F9, 0x2EDBE6FF,
    0x4B800000, 0x4B800001, 0x4B000001, 0x477FE000, 0x477FF000, 0x33800000,
    0x387FC000, 0x3EFFFFFF, 0x5F000000, 0x4F000000, 0x4F800000, 0xCF000000,
    0xCF000001, 0x4F7FFFFF, 0x3F000001, 0x4EFFFFFF, 0xDF000000, 0x5F800000,
    0x43800000, 0x437F0000, 0xC3000000, 0xC3010000, 0x46FFFE00, 0x47000000,
    0xC7000100, 0x3F7FFFFE,
]

F64_SPECIAL = [
    0x0000000000000000, 0x8000000000000000, 0x3FF0000000000000, 0xBFF0000000000000,
    0x3FE0000000000000, 0xBFE0000000000000, 0x4000000000000000, 0x3FF8000000000000,
    0x4004000000000000, 0xC004000000000000,
    0x0000000000000001, 0x8000000000000001, 0x000FFFFFFFFFFFFF, 0x800FFFFFFFFFFFFF,
    0x0008000000000000, 0x0010000000000000, 0x8010000000000000, 0x0010000000000001,
    0x7FEFFFFFFFFFFFFF, 0xFFEFFFFFFFFFFFFF, 0x7FE0000000000000,
    0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 0x7FF8000000012345,
    0xFFF8000000000001, 0x7FF0000000000001, 0x7FF4000000000000, 0xFFF0000000000005,
    0x7FFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFF,
    0x3FF0000000000001, 0x3FEFFFFFFFFFFFFF, 0x400921FB54442D18,
    0x4340000000000000, 0x4340000000000001, 0x4330000000000001, 0x43E0000000000000,
    0xC3E0000000000000, 0xC3E0000000000001, 0x43F0000000000000, 0x43EFFFFFFFFFFFFF,
    0x41E0000000000000, 0xC1E0000000000000, 0x41EFFFFFFFE00000, 0x41F0000000000000,
    0x47EFFFFFE0000000, 0x47EFFFFFF0000000, 0x47F0000000000000, 0x36A0000000000000,
    0x3690000000000000, 0x3810000000000000, 0x380FFFFFF0000000, 0x36A8000000000000,
    0x3FE0000000000001, 0x3FDFFFFFFFFFFFFF, 0x40F0000000000000, 0x40EFFFC000000000,
    0x40EFFE0000000000, 0x3E70000000000000, 0xC1E0000000200000, 0x41DFFFFFFFC00000,
]

F16_SPECIAL = [
    0x0000, 0x8000, 0x3C00, 0xBC00, 0x3800, 0xB800, 0x4000, 0x3E00, 0x4100, 0xC100,
    0x0001, 0x8001, 0x03FF, 0x83FF, 0x0200, 0x0400, 0x8400, 0x0401, 0x7BFF, 0xFBFF,
    0x7800, 0x7C00, 0xFC00, 0x7E00, 0x7E01, 0xFE00, 0x7C01, 0x7D00, 0xFC05, 0x7FFF,
    0xFFFF, 0x3C01, 0x3BFF, 0x4248, 0x6800, 0x6801, 0x5BFF, 0x7BFE, 0x3555, 0x2E66,
]

BF16_SPECIAL = [
    0x0000, 0x8000, 0x3F80, 0xBF80, 0x3F00, 0xBF00, 0x4000, 0x3FC0, 0x4020, 0xC020,
    0x0001, 0x8001, 0x007F, 0x807F, 0x0040, 0x0080, 0x8080, 0x0081, 0x7F7F, 0xFF7F,
    0x7F00, 0x7F80, 0xFF80, 0x7FC0, 0x7FC1, 0xFFC0, 0x7F81, 0x7FA0, 0xFF85, 0x7FFF,
    0xFFFF, 0x3F81, 0x3F7F, 0x4049, 0x4B80, 0x4B81, 0x477F, 0x7F7E, 0x3EAA, 0x3DCC,
]


def rand_f32_bits(kind):
    """Random f32 bit patterns of a few kinds."""
    if kind == 0:                                   # anything
        return rng.getrandbits(32)
    if kind == 1:                                   # moderate exponents
        e = rng.randint(127 - 20, 127 + 20)
        return (rng.getrandbits(1) << 31) | (e << 23) | rng.getrandbits(23)
    if kind == 2:                                   # near the subnormal range
        e = rng.randint(0, 24)
        return (rng.getrandbits(1) << 31) | (e << 23) | rng.getrandbits(23)
    if kind == 3:                                   # near overflow
        e = rng.randint(230, 254)
        return (rng.getrandbits(1) << 31) | (e << 23) | rng.getrandbits(23)
    e = rng.randint(1, 254)                         # any finite
    return (rng.getrandbits(1) << 31) | (e << 23) | rng.getrandbits(23)


def rand_f64_bits(kind):
    if kind == 0:
        return rng.getrandbits(64)
    if kind == 1:
        e = rng.randint(1023 - 40, 1023 + 40)
        return (rng.getrandbits(1) << 63) | (e << 52) | rng.getrandbits(52)
    if kind == 2:
        e = rng.randint(0, 54)
        return (rng.getrandbits(1) << 63) | (e << 52) | rng.getrandbits(52)
    if kind == 3:
        e = rng.randint(2000, 2046)
        return (rng.getrandbits(1) << 63) | (e << 52) | rng.getrandbits(52)
    if kind == 5:                                   # f32-range values (for f64->f32)
        e = rng.randint(1023 - 160, 1023 + 130)
        return (rng.getrandbits(1) << 63) | (e << 52) | rng.getrandbits(52)
    e = rng.randint(1, 2046)
    return (rng.getrandbits(1) << 63) | (e << 52) | rng.getrandbits(52)


def sign32(b):
    return b | (rng.getrandbits(1) << 31)


def f32_ties_add():
    """Pairs whose exact sum lies halfway between two floats (or just beside)."""
    out = []
    for _ in range(96):
        e = rng.randint(2, 240)
        a = (e << 23) | rng.getrandbits(23)
        kind = rng.randint(0, 3)
        if kind == 0:
            b = (e - 24) << 23 if e > 24 else 1              # half an ulp of a
        elif kind == 1:
            b = ((e - 24) << 23) | 1 if e > 24 else 3        # a bit more than half
        elif kind == 2:
            b = ((e - 25) << 23) | 0x400000 if e > 25 else 2  # three quarters of... less
        else:
            b = ((e - 23) << 23) | 0x400000 if e > 23 else 5  # 1.5 ulp
        sa, sb = rng.getrandbits(1), rng.getrandbits(1)
        out.append((a | (sa << 31), b | (sb << 31)))
    return out


def f32_ties_mul():
    """Pairs of short-mantissa values whose exact product needs 25 or 26 bits."""
    out = []
    for _ in range(160):
        m1 = rng.randrange(1 << 12, 1 << 13) | 1
        m2 = rng.randrange(1 << 11, 1 << 13) | 1
        e1 = rng.randint(-40, 40)
        e2 = rng.randint(-40, 40)
        if rng.random() < 0.25:                   # products in the subnormal range
            e1, e2 = rng.randint(-80, -60), rng.randint(-80, -60)
        x = math.ldexp(m1, e1 - 12)
        y = math.ldexp(m2, e2 - 12)
        a, b = f2b(x), f2b(y)
        out.append((sign32(a), sign32(b)))
    return out


def f32_unary_set(n):
    vals = list(F32_SPECIAL)
    # integers, halves and ties for rounding to integral values
    for v in [0.5, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5, 0.49999997, -0.49999997, 1.0000001,
              4194303.5, 4194304.5, 8388607.5, 8388608.0, -8388607.5, 100.5, -100.5,
              2147483520.0, 2147483648.0, -2147483648.0, -2147483904.0, 4294967040.0,
              4294967296.0, 127.5, 128.0, -128.5, -129.0, 255.5, 256.0, 32767.5, 32768.0,
              -32768.5, -32769.0, 65535.5, 65536.0, 9.2233715e18, 1.8446743e19, -9.223373e18,
              0.75, -0.75, 1e-3, 65504.0, 65519.99, 65520.0, -65520.0, 6.1035156e-05,
              5.9604645e-08, 2.9802322e-08, 2.9802326e-08, 3.3895314e+38, 3.3961776e+38,
              448.0, 464.0, 480.0, 57344.0, 61440.0, 0.001953125, 0.0009765625]:
        vals.append(f2b(v))
    for v in list(vals):
        vals.append(v ^ 0x80000000)
    while len(vals) < n:
        r = rng.random()
        if r < 0.15:
            vals.append(rand_f32_bits(0))
        elif r < 0.45:
            vals.append(rand_f32_bits(1))
        elif r < 0.55:
            vals.append(rand_f32_bits(2))
        elif r < 0.62:
            vals.append(rand_f32_bits(3))
        elif r < 0.80:
            vals.append(rand_f32_bits(4))
        else:                                          # values around integer boundaries
            k = rng.randint(-70000, 70000)
            vals.append(f2b(k + rng.choice([0.5, 0.25, 0.75, 0.0, 0.4999999, 0.5000001])))
    return vals[:n]


def f32_binary_set(n):
    sp = F32_SPECIAL[:58]
    pairs = [(a, b) for a in sp for b in sp]
    pairs += f32_ties_add() + f32_ties_mul()
    while len(pairs) < n:
        r = rng.random()
        if r < 0.1:
            pairs.append((rand_f32_bits(0), rand_f32_bits(0)))
        elif r < 0.4:
            pairs.append((rand_f32_bits(1), rand_f32_bits(1)))
        elif r < 0.5:                                  # cancellation
            a = rand_f32_bits(1)
            b = (a ^ 0x80000000) + rng.randint(-3, 3)
            pairs.append((a, b & 0xFFFFFFFF))
        elif r < 0.6:
            pairs.append((rand_f32_bits(2), rand_f32_bits(rng.choice([1, 2]))))
        elif r < 0.7:
            pairs.append((rand_f32_bits(3), rand_f32_bits(rng.choice([1, 3]))))
        elif r < 0.8:                                  # small divisor / huge quotient
            pairs.append((rand_f32_bits(3), rand_f32_bits(2)))
        else:
            pairs.append((rand_f32_bits(4), rand_f32_bits(4)))
    pairs = pairs[:n]
    return [p[0] for p in pairs], [p[1] for p in pairs]


def f32_ternary_set(n):
    sp = [0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x00000001, 0x807FFFFF,
          0x00800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000,
          0x7F800001, 0x3F800001, 0x40490FDB, 0x1F800000]
    tr = [(a, b, c) for a in sp for b in sp for c in sp]
    while len(tr) < n:
        r = rng.random()
        if r < 0.3:
            a, b = rand_f32_bits(1), rand_f32_bits(1)
            p = b2f(a) * b2f(b)
            if rng.random() < 0.5:                      # c cancels the rounded product
                c = f2b(-p) if math.isfinite(p) and abs(p) < 3e38 else rand_f32_bits(1)
            else:                                       # c near half an ulp of the product
                c = sign32(rand_f32_bits(1) & 0x807FFFFF | (max(1, ((f2b(p) >> 23) & 0xFF) - rng.randint(23, 26)) << 23)) if math.isfinite(p) and p != 0 else rand_f32_bits(1)
            tr.append((a, b, c & 0xFFFFFFFF))
        elif r < 0.45:
            tr.append((rand_f32_bits(2), rand_f32_bits(1), rand_f32_bits(2)))
        elif r < 0.55:
            tr.append((rand_f32_bits(3), rand_f32_bits(1), rand_f32_bits(3)))
        elif r < 0.65:
            tr.append((rand_f32_bits(0), rand_f32_bits(0), rand_f32_bits(0)))
        elif r < 0.8:                                   # results near [0, 1] for .sat
            a = f2b(rng.uniform(-2, 2))
            b = f2b(rng.uniform(-2, 2))
            c = f2b(rng.uniform(-1, 1.5))
            tr.append((a, b, c))
        else:
            tr.append((rand_f32_bits(4), rand_f32_bits(4), rand_f32_bits(4)))
    tr = tr[:n]
    return [t[0] for t in tr], [t[1] for t in tr], [t[2] for t in tr]


def f64_unary_set(n):
    vals = list(F64_SPECIAL)
    for v in [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999999999999994, 4503599627370495.5,
              4503599627370496.5, -4503599627370495.5, 100.5, 2147483647.5, 2147483648.0,
              -2147483648.5, -2147483649.0, 4294967295.5, 4294967296.0, 9.223372036854775e18,
              9.223372036854776e18, -9.223372036854776e18, -9.223372036854778e18,
              1.8446744073709550e19, 1.8446744073709552e19, 127.5, 128.0, -128.5, -129.0,
              255.5, 256.0, 32767.5, 32768.0, -32768.5, 65535.5, 65536.0, 65504.0, 65520.0,
              65519.999, 3.4028234663852886e38, 3.4028235677973366e38, 3.402823567797337e38,
              1.1754943508222875e-38, 1.1754942807573643e-38, 1.401298464324817e-45,
              7.006492321624085e-46, 7.006492321624087e-46, 1e300, 1e-300, 3.4e38, 1.0e-40]:
        vals.append(d2b(v))
    for v in list(vals):
        vals.append(v ^ (1 << 63))
    while len(vals) < n:
        r = rng.random()
        if r < 0.1:
            vals.append(rand_f64_bits(0))
        elif r < 0.35:
            vals.append(rand_f64_bits(1))
        elif r < 0.45:
            vals.append(rand_f64_bits(2))
        elif r < 0.5:
            vals.append(rand_f64_bits(3))
        elif r < 0.7:
            vals.append(rand_f64_bits(5))
        elif r < 0.85:
            vals.append(rand_f64_bits(4))
        else:
            k = rng.randint(-70000, 70000)
            vals.append(d2b(k + rng.choice([0.5, 0.25, 0.75, 0.0, 0.49999999999, 0.5000000001])))
    return vals[:n]


def f64_binary_set(n):
    sp = F64_SPECIAL[:52]
    pairs = [(a, b) for a in sp for b in sp]
    for _ in range(200):                               # ties for add and mul
        e = rng.randint(60, 1900)
        a = (e << 52) | rng.getrandbits(52)
        b = (e - 53) << 52
        pairs.append((a | (rng.getrandbits(1) << 63), b | (rng.getrandbits(1) << 63)))
        m1 = rng.randrange(1 << 26, 1 << 27) | 1
        m2 = rng.randrange(1 << 26, 1 << 27) | 1
        ex = rng.randint(-520, -505) if rng.random() < 0.3 else rng.randint(-300, 300)
        pairs.append((d2b(math.ldexp(m1, ex - 26)), d2b(math.ldexp(m2, ex - 26))))
    while len(pairs) < n:
        r = rng.random()
        if r < 0.1:
            pairs.append((rand_f64_bits(0), rand_f64_bits(0)))
        elif r < 0.4:
            pairs.append((rand_f64_bits(1), rand_f64_bits(1)))
        elif r < 0.5:
            a = rand_f64_bits(1)
            b = ((a ^ (1 << 63)) + rng.randint(-3, 3)) & (2**64 - 1)
            pairs.append((a, b))
        elif r < 0.6:
            pairs.append((rand_f64_bits(2), rand_f64_bits(rng.choice([1, 2]))))
        elif r < 0.7:
            pairs.append((rand_f64_bits(3), rand_f64_bits(rng.choice([1, 3]))))
        elif r < 0.8:
            pairs.append((rand_f64_bits(3), rand_f64_bits(2)))
        else:
            pairs.append((rand_f64_bits(4), rand_f64_bits(4)))
    pairs = pairs[:n]
    return [p[0] for p in pairs], [p[1] for p in pairs]


def f64_ternary_set(n):
    sp = [0x0, 1 << 63, 0x3FF0000000000000, 0xBFF0000000000000, 0x1, 0x800FFFFFFFFFFFFF,
          0x0010000000000000, 0x7FEFFFFFFFFFFFFF, 0xFFEFFFFFFFFFFFFF, 0x7FF0000000000000,
          0xFFF0000000000000, 0x7FF8000000000000, 0x7FF0000000000001, 0x3FF0000000000001,
          0x400921FB54442D18, 0x1FF0000000000000]
    tr = [(a, b, c) for a in sp for b in sp for c in sp]
    while len(tr) < n:
        r = rng.random()
        if r < 0.3:
            a, b = rand_f64_bits(1), rand_f64_bits(1)
            x, y = struct.unpack("<d", struct.pack("<Q", a))[0], struct.unpack("<d", struct.pack("<Q", b))[0]
            p = x * y
            if rng.random() < 0.5:
                c = d2b(-p)
            else:
                pe = (d2b(p) >> 52) & 0x7FF
                c = (rng.getrandbits(1) << 63) | (max(1, pe - rng.randint(52, 55)) << 52) | rng.getrandbits(52)
            tr.append((a, b, c))
        elif r < 0.45:
            tr.append((rand_f64_bits(2), rand_f64_bits(1), rand_f64_bits(2)))
        elif r < 0.55:
            tr.append((rand_f64_bits(3), rand_f64_bits(1), rand_f64_bits(3)))
        elif r < 0.65:
            tr.append((rand_f64_bits(0), rand_f64_bits(0), rand_f64_bits(0)))
        else:
            tr.append((rand_f64_bits(4), rand_f64_bits(4), rand_f64_bits(4)))
    tr = tr[:n]
    return [t[0] for t in tr], [t[1] for t in tr], [t[2] for t in tr]


def h16_unary_set(n, special, bf):
    vals = list(special)
    for v in list(vals):
        vals.append(v ^ 0x8000)
    while len(vals) < n:
        vals.append(rng.getrandbits(16))
    return vals[:n]


def h16_binary_set(n, special, bf):
    pairs = [(a, b) for a in special for b in special]
    while len(pairs) < n:
        r = rng.random()
        if r < 0.5:
            pairs.append((rng.getrandbits(16), rng.getrandbits(16)))
        elif r < 0.8:                                  # moderate exponents
            def mod():
                if bf:
                    e = rng.randint(127 - 10, 127 + 10)
                    return (rng.getrandbits(1) << 15) | (e << 7) | rng.getrandbits(7)
                e = rng.randint(8, 22)
                return (rng.getrandbits(1) << 15) | (e << 10) | rng.getrandbits(10)
            pairs.append((mod(), mod()))
        else:                                          # small magnitudes
            def small():
                if bf:
                    return (rng.getrandbits(1) << 15) | (rng.randint(0, 12) << 7) | rng.getrandbits(7)
                return (rng.getrandbits(1) << 15) | (rng.randint(0, 4) << 10) | rng.getrandbits(10)
            pairs.append((small(), rng.getrandbits(16)))
    pairs = pairs[:n]
    return [p[0] for p in pairs], [p[1] for p in pairs]


def h16_ternary_set(n, special, bf):
    sp = special[:16]
    tr = [(a, b, c) for a in sp for b in sp for c in sp]
    while len(tr) < n:
        tr.append((rng.getrandbits(16), rng.getrandbits(16), rng.getrandbits(16)))
    tr = tr[:n]
    return [t[0] for t in tr], [t[1] for t in tr], [t[2] for t in tr]


def pack2(lo, hi):
    return [(h << 16) | l for l, h in zip(lo, hi)]


def int_set(bits, signed, n):
    lo = -(1 << (bits - 1)) if signed else 0
    hi = (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1
    vals = [0, 1, 2, 3, lo, hi, lo + 1, hi - 1, 127, 128, 255, 256, 32767, 32768, 65535,
            65536, 2049, 2051, 4097, 16777216, 16777217, 16777219, 33554434, 33554438,
            2147483647, 2147483648, 4294967295, 4294967296, (1 << 53) + 1, (1 << 54) + 2,
            (1 << 63) - 1, (1 << 63), (1 << 64) - 1, 65504, 65519, 65520, 65536 + 16,
            0x7F7FFFFF, 0x80000080, 0x40000040, 0xFFFFFF80, 0xFFFFFFFFFFFFF400]
    if signed:
        vals += [-v for v in vals]
    for k in range(2, bits):
        vals += [1 << k, (1 << k) + 1, (1 << k) - 1, (1 << k) + (1 << max(0, k - 9))]
        if signed:
            vals += [-(1 << k), -(1 << k) - 1]
    out = []
    for v in vals:
        if lo <= v <= hi:
            out.append(v & ((1 << bits) - 1))
    while len(out) < n:
        r = rng.random()
        if r < 0.6:
            out.append(rng.getrandbits(bits))
        else:
            k = rng.randint(1, bits)
            out.append(rng.getrandbits(k) if not signed else (rng.getrandbits(k) * rng.choice([1, -1])) & ((1 << bits) - 1))
    return out[:n]


# ---------------------------------------------------------------- writing
SIZES = {"u8": 1, "u16": 2, "u32": 4, "u64": 8}
written = {}


def put_input(name, elem, vals):
    """Writes inputs/NAME.bin with elements of gpurun type elem; returns its count."""
    path = os.path.join(INPUTS, name + ".bin")
    fmt = {"u8": "B", "u16": "H", "u32": "I", "u64": "Q"}[elem]
    with open(path, "wb") as f:
        f.write(struct.pack("<%d%s" % (len(vals), fmt), *vals))
    written[name] = (elem, len(vals))
    return len(vals)


# PTX register/ld/st type for each operand type used below, and its gpurun element type.
REG = {
    "f32": (".f32", "f32", "u32"), "f64": (".f64", "f64", "u64"),
    "f16": (".b16", "b16", "u16"), "bf16": (".b16", "b16", "u16"),
    "b16": (".b16", "b16", "u16"), "b32": (".b32", "b32", "u32"),
    "f16x2": (".b32", "b32", "u32"), "bf16x2": (".b32", "b32", "u32"),
    "u8": (".u8", "u8", "u8"), "s8": (".s8", "s8", "u8"),
    "u16": (".u16", "u16", "u16"), "s16": (".s16", "s16", "u16"),
    "u32": (".u32", "u32", "u32"), "s32": (".s32", "s32", "u32"),
    "u64": (".u64", "u64", "u64"), "s64": (".s64", "s64", "u64"),
    "pred": (None, "u32", "u32"),
}

KERNELS = []


def kernel(name, srcs, ops, approx=None, n=None):
    """srcs: list of (type, input-name or 'iota'); ops: list of (label, template, dtype).
    Templates use {d} {a} {b} {c}; a 'pred' dtype writes 1/0 through selp."""
    KERNELS.append(dict(name=name, srcs=srcs, ops=ops, approx=approx, n=n))


def emit_ptx(k, n):
    name = k["name"]
    newer = any(".oob" in t or ".satfinite" in t for _, t, _ in k["ops"])
    lines = [".version %s" % ("8.1" if newer else "8.0"), ".target sm_90", ".address_size 64", ""]
    params = ["pa", "pb", "pc"][: len(k["srcs"])] + ["pd%d" % i for i in range(len(k["ops"]))]
    lines.append(".visible .entry %s(" % name)
    lines.append(",\n".join("    .param .u64 %s" % p for p in params))
    lines.append(")")
    lines.append("{")
    lines.append("    .reg .pred %p;")
    lines.append("    .reg .b32 %r<5>;")
    lines.append("    .reg .b64 %%rd<%d>;" % (4 + 2 * len(params)))
    names = "abc"
    for i, (t, _) in enumerate(k["srcs"]):
        lines.append("    .reg %s %%%s;" % (REG[t][0], names[i]))
    dtypes = sorted({t for _, _, t in k["ops"]})
    for t in dtypes:
        if t == "pred":
            continue
        lines.append("    .reg %s %%d_%s;" % (REG[t][0], t))
    if "pred" in dtypes:
        lines.append("    .reg .u32 %d_pred;")
    if any("%k" in t for _, t, _ in k["ops"]):
        lines.append("    .reg .b16 %k16, %z16;")
        lines.append("    .reg .b32 %k32, %z32;")
    lines.append("    mov.u32 %r1, %ctaid.x;")
    lines.append("    mov.u32 %r2, %ntid.x;")
    lines.append("    mov.u32 %r3, %tid.x;")
    lines.append("    mad.lo.s32 %r0, %r1, %r2, %r3;")
    lines.append("    setp.ge.u32 %%p, %%r0, %d;" % n)
    lines.append("    @%p ret;")
    rd = 0
    for i, (t, _) in enumerate(k["srcs"]):
        size = SIZES[REG[t][2]]
        lines.append("    ld.param.u64 %%rd%d, [%s];" % (rd, params[i]))
        lines.append("    mad.wide.u32 %%rd%d, %%r0, %d, %%rd%d;" % (rd + 1, size, rd))
        lines.append("    ld.global.%s %%%s, [%%rd%d];" % (REG[t][1], names[i], rd + 1))
        rd += 2
    for j, (label, tmpl, dt) in enumerate(k["ops"]):
        d = "%d_" + dt
        body = tmpl.format(d=d, a="%a", b="%b", c="%c")
        if dt == "pred":
            body = tmpl.format(d="%p", a="%a", b="%b", c="%c") + "\n    selp.u32 %d_pred, 1, 0, %p;"
        lines.append("    " + body)
        size = SIZES[REG[dt][2]]
        lines.append("    ld.param.u64 %%rd%d, [%s];" % (rd, params[len(k["srcs"]) + j]))
        lines.append("    mad.wide.u32 %%rd%d, %%r0, %d, %%rd%d;" % (rd + 1, size, rd))
        st = "u32" if dt == "pred" else REG[dt][1]
        lines.append("    st.global.%s [%%rd%d], %s;" % (st, rd + 1, d))
    lines.append("    ret;")
    lines.append("}")
    with open(os.path.join(HERE, name + ".ptx"), "w") as f:
        f.write("\n".join(lines) + "\n")


def runs_line(k, n):
    args = []
    for t, src in k["srcs"]:
        elem = REG[t][2]
        if src == "iota":
            args.append("in:%s:%d=iota" % (elem, n))
        else:
            assert written[src] == (elem, n), (k["name"], src, written[src], elem, n)
            args.append("in:%s:%d=@inputs/%s.bin" % (elem, n, src))
    for label, _, dt in k["ops"]:
        args.append("out:%s:%d>OUT/%s.%s.bin" % (REG[dt][2], n, k["name"], label))
    grid = (n + 255) // 256
    line = "%s: %s.ptx --kernel %s --grid %d --block 256 %s" % (
        k["name"], k["name"], k["name"], grid, " ".join(args))
    if k["approx"]:
        line += "  # approx " + k["approx"]
    return line


# ---------------------------------------------------------------- inputs
def make_inputs():
    os.makedirs(INPUTS, exist_ok=True)
    put_input("f32_u", "u32", f32_unary_set(4096))
    a, b = f32_binary_set(4096)
    put_input("f32_a", "u32", a)
    put_input("f32_b", "u32", b)
    a, b, c = f32_ternary_set(8192)
    put_input("f32_fa", "u32", a)
    put_input("f32_fb", "u32", b)
    put_input("f32_fc", "u32", c)
    trig = [0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000,
            0x7F800001, 0x3F800000, 0x40490FDB, 0xC0490FDB, 0x40C90FDB, 0x3FC90FDB]
    while len(trig) < 2048:
        trig.append(f2b(rng.uniform(-2 * math.pi, 2 * math.pi)))
    put_input("f32_trig", "u32", trig)
    trigl = [f2b(rng.uniform(-100 * math.pi, 100 * math.pi)) for _ in range(2048)]
    put_input("f32_trig_large", "u32", trigl)
    e2 = [0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000,
          0x7F800001, 0x3F800000, 0x43000000, 0x42FE0000, 0xC3150000, 0xC3160000, 0xC2FC0000,
          0xC2FE0000, 0xC3000000, 0x42FFFFFF]
    while len(e2) < 2048:
        e2.append(f2b(rng.uniform(-152, 130)) if rng.random() < 0.7 else f2b(rng.uniform(-2, 2)))
    put_input("f32_ex2", "u32", e2)
    put_input("f64_u", "u64", f64_unary_set(4096))
    a, b = f64_binary_set(4096)
    put_input("f64_a", "u64", a)
    put_input("f64_b", "u64", b)
    a, b, c = f64_ternary_set(6144)
    put_input("f64_fa", "u64", a)
    put_input("f64_fb", "u64", b)
    put_input("f64_fc", "u64", c)
    for tag, sp, bf in (("f16", F16_SPECIAL, False), ("bf16", BF16_SPECIAL, True)):
        put_input(tag + "_u", "u16", h16_unary_set(4096, sp, bf))
        a, b = h16_binary_set(4096, sp, bf)
        put_input(tag + "_a", "u16", a)
        put_input(tag + "_b", "u16", b)
        a, b, c = h16_ternary_set(8192, sp, bf)
        put_input(tag + "_fa", "u16", a)
        put_input(tag + "_fb", "u16", b)
        put_input(tag + "_fc", "u16", c)
        # packed pairs: the high halves are the same sets, rotated, so each half sees all values
        ua = h16_unary_set(4096, sp, bf)
        put_input(tag + "x2_u", "u32", pack2(ua, ua[1234:] + ua[:1234]))
        a, b = h16_binary_set(4096, sp, bf)
        put_input(tag + "x2_a", "u32", pack2(a, b[777:] + b[:777]))
        put_input(tag + "x2_b", "u32", pack2(b, a[777:] + a[:777]))
        a, b, c = h16_ternary_set(8192, sp, bf)
        put_input(tag + "x2_fa", "u32", pack2(a, c[999:] + c[:999]))
        put_input(tag + "x2_fb", "u32", pack2(b, a[999:] + a[:999]))
        put_input(tag + "x2_fc", "u32", pack2(c, b[999:] + b[:999]))
    for bits in (8, 16, 32, 64):
        elem = "u%d" % bits
        put_input("u%d" % bits, elem, int_set(bits, False, 1024))
        put_input("s%d" % bits, elem, int_set(bits, True, 1024))
    f8 = list(range(256)) + [((255 - i) << 8) | i for i in range(256)]
    # every NaN pattern of f16 and of bf16 (for fma .oob), with 1.0 and 0 at the end
    put_input("f16_nans", "u16", [v for v in range(0x7C01, 0x8000)] + [v for v in range(0xFC01, 0x10000)]
              + [0x3C00, 0x0000])
    put_input("bf16_nans", "u16", [v for v in range(0x7F81, 0x8000)] + [v for v in range(0xFF81, 0x10000)]
              + [0x3F80, 0x0000])
    # products and sums just below the smallest normal number that round up to it with an
    # unbounded exponent (the .ftz tininess question), next to ones that do not
    def h(x):
        return f16bits(x)
    ta, tb, tc = [], [], []
    for a, b in [(0x3F7FFFFE, 0x00800001), (0x3F7FFFFF, 0x00800000), (0xBF7FFFFE, 0x00800001),
                 (0x3F7FFFFE, 0x80800001), (0x3F7FFFFF, 0x00800001), (0x3F800001, 0x007FFFFF),
                 (0x3F7FFFFE, 0x00800003), (0x3EFFFFFE, 0x01000001), (0x3F000000, 0x00FFFFFF)]:
        for c in (0x00000000, 0x80000000, 0x00000001, 0x80000001):
            ta.append(a); tb.append(b); tc.append(c)
    put_input("tiny_a", "u32", ta)
    put_input("tiny_b", "u32", tb)
    put_input("tiny_c", "u32", tc)
    ha, hb, hc = [], [], []
    for a, b in [(h(1 - 2.0 ** -10), h(2.0 ** -14 * (1 + 2.0 ** -10))), (h(1 - 2.0 ** -11), 0x0400),
                 (h(-(1 - 2.0 ** -10)), h(2.0 ** -14 * (1 + 2.0 ** -10))), (h(1 + 2.0 ** -10), 0x03FF),
                 (h(0.5), 0x07FF), (h(1 - 2.0 ** -10), h(2.0 ** -14 * (1 + 3 * 2.0 ** -10)))]:
        for c in (0x0000, 0x8000, 0x0001, 0x8001):
            ha.append(a); hb.append(b); hc.append(c)
    put_input("tiny16_a", "u16", ha)
    put_input("tiny16_b", "u16", hb)
    put_input("tiny16_c", "u16", hc)
    # per-thread guard bits for the predicated (masked) kernel: irregular, about half set
    put_input("mask_sel", "u32", [(i * 2654435761 >> 7) & 1 if i % 7 else 1 for i in range(4096)])
    put_input("f8x2", "u16", [(v & 0xFF) << 8 | (v >> 8) if i >= 256 else v << 8 | (255 - v) for i, v in enumerate(f8)])


# ---------------------------------------------------------------- kernels
RND = ["rn", "rz", "rm", "rp"]


def int_range(t):
    bits = int(t[1:])
    return (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if t[0] == "s" else (0, (1 << bits) - 1)


def int_range_contains(dt, st):
    """True when every value of type st fits type dt (then .sat is illegal)."""
    dlo, dhi = int_range(dt)
    slo, shi = int_range(st)
    return dlo <= slo and shi <= dhi
IRND = ["rni", "rzi", "rmi", "rpi"]


def bin_ops(op, t, extra):
    ops = [(op + "." + t, "%s.%s {d}, {a}, {b};" % (op, t), t)]
    for r in RND:
        ops.append((op + "." + r, "%s.%s.%s {d}, {a}, {b};" % (op, r, t), t))
    for m in extra:
        ops.append((op + m, "%s%s.%s {d}, {a}, {b};" % (op, m, t), t))
    return ops


def make_kernels():
    F32B = [("f32", "f32_a"), ("f32", "f32_b")]
    F32U = [("f32", "f32_u")]
    F32T = [("f32", "f32_fa"), ("f32", "f32_fb"), ("f32", "f32_fc")]
    F64B = [("f64", "f64_a"), ("f64", "f64_b")]
    F64U = [("f64", "f64_u")]
    F64T = [("f64", "f64_fa"), ("f64", "f64_fb"), ("f64", "f64_fc")]
    MODS32 = [".rn.ftz", ".rz.ftz", ".rm.ftz", ".rp.ftz", ".ftz", ".sat", ".ftz.sat", ".rz.sat",
              ".rm.ftz.sat"]
    # ---- f32 correctly rounded
    for op in ("add", "sub", "mul"):
        kernel("f32_" + op, F32B, bin_ops(op, "f32", MODS32))
        kernel("f64_" + op, F64B, bin_ops(op, "f64", []))
    fma = []
    for r in RND:
        for m in ("", ".ftz"):
            fma.append(("fma.%s%s" % (r, m), "fma.%s%s.f32 {d}, {a}, {b}, {c};" % (r, m), "f32"))
    for m in (".rn.sat", ".rn.ftz.sat", ".rp.sat", ".rm.ftz.sat"):
        fma.append(("fma" + m, "fma%s.f32 {d}, {a}, {b}, {c};" % m, "f32"))
    for m in (".rn", ".rz.ftz", ".rn.sat"):
        fma.append(("mad" + m, "mad%s.f32 {d}, {a}, {b}, {c};" % m, "f32"))
    kernel("f32_fma", F32T, fma)
    kernel("f64_fma", F64T, [("fma.%s" % r, "fma.%s.f64 {d}, {a}, {b}, {c};" % r, "f64") for r in RND]
           + [("mad.rn", "mad.rn.f64 {d}, {a}, {b}, {c};", "f64"), ("mad.rm", "mad.rm.f64 {d}, {a}, {b}, {c};", "f64")])
    div = []
    for r in RND:
        for m in ("", ".ftz"):
            div.append(("div.%s%s" % (r, m), "div.%s%s.f32 {d}, {a}, {b};" % (r, m), "f32"))
    kernel("f32_div", F32B, div)
    kernel("f64_div", F64B, [("div." + r, "div.%s.f64 {d}, {a}, {b};" % r, "f64") for r in RND])
    for op in ("rcp", "sqrt"):
        ops = []
        for r in RND:
            for m in ("", ".ftz"):
                ops.append(("%s.%s%s" % (op, r, m), "%s.%s%s.f32 {d}, {a};" % (op, r, m), "f32"))
        kernel("f32_" + op, F32U, ops)
        kernel("f64_" + op, F64U, [("%s.%s" % (op, r), "%s.%s.f64 {d}, {a};" % (op, r), "f64") for r in RND])
    # ---- f32 bit-level and comparison-like forms
    mm = []
    for op in ("min", "max"):
        for m in ("", ".ftz", ".NaN", ".ftz.NaN", ".xorsign.abs", ".NaN.xorsign.abs", ".ftz.NaN.xorsign.abs"):
            mm.append((op + m, "%s%s.f32 {d}, {a}, {b};" % (op, m), "f32"))
    mm.append(("copysign", "copysign.f32 {d}, {a}, {b};", "f32"))
    kernel("f32_minmax", F32B, mm)
    kernel("f64_minmax", F64B, [("min", "min.f64 {d}, {a}, {b};", "f64"), ("max", "max.f64 {d}, {a}, {b};", "f64"),
                                ("copysign", "copysign.f64 {d}, {a}, {b};", "f64")])
    tp = ["finite", "infinite", "number", "notanumber", "normal", "subnormal"]
    kernel("f32_unary", F32U, [("abs", "abs.f32 {d}, {a};", "f32"), ("abs.ftz", "abs.ftz.f32 {d}, {a};", "f32"),
                               ("neg", "neg.f32 {d}, {a};", "f32"), ("neg.ftz", "neg.ftz.f32 {d}, {a};", "f32")]
           + [("testp." + t, "testp.%s.f32 {d}, {a};" % t, "pred") for t in tp])
    kernel("f64_unary", F64U, [("abs", "abs.f64 {d}, {a};", "f64"), ("neg", "neg.f64 {d}, {a};", "f64")]
           + [("testp." + t, "testp.%s.f64 {d}, {a};" % t, "pred") for t in tp])
    # ---- f32 approximate forms, one tolerance per kernel
    def ap(name, srcs, form, t, tol, ftz=True):
        ops = [(form, "%s.%s {d}, %s;" % (form, t, ", ".join("{%s}" % "abc"[i] for i in range(len(srcs)))), t)]
        if ftz:
            f2 = form.replace(".approx", ".approx.ftz").replace(".full", ".full.ftz")
            ops.append((f2, "%s.%s {d}, %s;" % (f2, t, ", ".join("{%s}" % "abc"[i] for i in range(len(srcs)))), t))
        kernel(name, srcs, ops, approx=tol + " fmt=" + t)
    ap("f32_div_approx", F32B, "div.approx", "f32", "ulp=3")
    ap("f32_div_full", F32B, "div.full", "f32", "ulp=3")
    ap("f32_rcp_approx", F32U, "rcp.approx", "f32", "ulp=2")
    ap("f32_sqrt_approx", F32U, "sqrt.approx", "f32", "ulp=2")
    ap("f32_rsqrt_approx", F32U, "rsqrt.approx", "f32", "ulp=3")
    ap("f32_sin", [("f32", "f32_trig")], "sin.approx", "f32", "abs=1.2e-6")
    ap("f32_cos", [("f32", "f32_trig")], "cos.approx", "f32", "abs=1.2e-6")
    ap("f32_sin_large", [("f32", "f32_trig_large")], "sin.approx", "f32", "abs=8e-5")
    ap("f32_cos_large", [("f32", "f32_trig_large")], "cos.approx", "f32", "abs=8e-5")
    ap("f32_lg2", F32U, "lg2.approx", "f32", "abs=5e-7 rel=5e-7")
    ap("f32_ex2", [("f32", "f32_ex2")], "ex2.approx", "f32", "ulp=3")
    ap("f32_tanh", F32U, "tanh.approx", "f32", "rel=1e-3", ftz=False)
    kernel("f64_rcp_approx", F64U, [("rcp.approx.ftz", "rcp.approx.ftz.f64 {d}, {a};", "f64")],
           approx="rel=1e-5 fmt=f64")
    kernel("f64_rsqrt_approx", F64U, [("rsqrt.approx", "rsqrt.approx.f64 {d}, {a};", "f64"),
                                      ("rsqrt.approx.ftz", "rsqrt.approx.ftz.f64 {d}, {a};", "f64")],
           approx="rel=1e-5 fmt=f64")
    # ---- half precision
    for t, bf in (("f16", False), ("f16x2", False), ("bf16", True), ("bf16x2", True)):
        base = t.replace("x2", "")
        B = [(t, base + ("x2" if "x2" in t else "") + "_a"), (t, base + ("x2" if "x2" in t else "") + "_b")]
        T = [(t, base + ("x2" if "x2" in t else "") + s) for s in ("_fa", "_fb", "_fc")]
        U = [(t, base + ("x2" if "x2" in t else "") + "_u")]
        tag = t
        ar = []
        mods = ["", ".rn"] + ([] if bf else [".ftz", ".sat", ".ftz.sat", ".rn.ftz.sat"])
        for op in ("add", "sub", "mul"):
            for m in mods:
                ar.append((op + m, "%s%s.%s {d}, {a}, {b};" % (op, m, t), t))
        kernel(tag + "_arith", B, ar)
        fm = [".rn", ".rn.relu", ".rn.oob", ".rn.oob.relu"]
        if not bf:
            fm += [".rn.ftz", ".rn.sat", ".rn.ftz.sat", ".rn.ftz.relu"]
        kernel(tag + "_fma", T, [("fma" + m, "fma%s.%s {d}, {a}, {b}, {c};" % (m, t), t) for m in fm])
        mm = []
        mmods = ["", ".NaN", ".xorsign.abs", ".NaN.xorsign.abs"]
        if not bf:
            mmods += [".ftz", ".ftz.NaN", ".ftz.NaN.xorsign.abs"]
        for op in ("min", "max"):
            for m in mmods:
                mm.append((op + m, "%s%s.%s {d}, {a}, {b};" % (op, m, t), t))
        kernel(tag + "_minmax", B, mm)
        un = [("abs", "abs.%s {d}, {a};" % t, t), ("neg", "neg.%s {d}, {a};" % t, t)]
        if not bf:
            un += [("abs.ftz", "abs.ftz.%s {d}, {a};" % t, t), ("neg.ftz", "neg.ftz.%s {d}, {a};" % t, t)]
        kernel(tag + "_unary", U, un)
        usrc = [(t, "iota")] if "x2" not in t else U
        nn = 65536 if "x2" not in t else None
        ex = "ex2.approx.ftz" if bf else "ex2.approx"
        kernel(tag + "_ex2", usrc, [(ex, "%s.%s {d}, {a};" % (ex, t), t)],
               approx=("ulp=2" if not bf else "ulp=2") + " fmt=" + t, n=nn)
        kernel(tag + "_tanh", usrc, [("tanh.approx", "tanh.approx.%s {d}, {a};" % t, t)],
               approx=("abs=1e-3" if not bf else "abs=8e-3") + " fmt=" + t, n=nn)
    # ---- probes: .oob NaN patterns, .ftz tininess, narrow results in wide registers
    for t, one in (("f16", "0x3C00"), ("bf16", "0x3F80")):
        src = [(t, t + "_nans")]
        pre = "mov.b16 %%k16, %s; mov.b16 %%z16, 0x0000; " % one
        kernel(t + "_oob", src, [
            ("oob.a", pre + "fma.rn.oob.%s {d}, {a}, %%k16, %%z16;" % t, t),
            ("oob.b", pre + "fma.rn.oob.%s {d}, %%k16, {a}, %%z16;" % t, t),
            ("oob.c", pre + "fma.rn.oob.%s {d}, %%k16, %%k16, {a};" % t, t),
            ("oob.relu.a", pre + "fma.rn.oob.relu.%s {d}, {a}, %%k16, %%z16;" % t, t),
            ("plain.a", pre + "fma.rn.%s {d}, {a}, %%k16, %%z16;" % t, t)])
    T3 = [("f32", "tiny_a"), ("f32", "tiny_b"), ("f32", "tiny_c")]
    kernel("f32_tiny", T3, [(op + m, "%s%s.f32 {d}, {a}, {b}%s;" % (op, m, ", {c}" if op == "fma" else ""), "f32")
                            for op in ("mul", "fma") for m in (".rn.ftz", ".rz.ftz", ".rp.ftz", ".rm.ftz")]
           + [("div.rn.ftz", "div.rn.ftz.f32 {d}, {a}, {b};", "f32")])
    H3 = [("f16", "tiny16_a"), ("f16", "tiny16_b"), ("f16", "tiny16_c")]
    kernel("f16_tiny", H3, [("mul.ftz", "mul.ftz.f16 {d}, {a}, {b};", "f16"),
                            ("fma.rn.ftz", "fma.rn.ftz.f16 {d}, {a}, {b}, {c};", "f16"),
                            ("add.ftz", "add.ftz.f16 {d}, {a}, {c};", "f16")])
    kernel("cvt_widen_reg", F32U, [
        ("rzi.s8.b32", "cvt.rzi.s8.f32 {d}, {a};", "b32"),
        ("rzi.s16.b32", "cvt.rzi.s16.f32 {d}, {a};", "b32"),
        ("rzi.s8.b16", "cvt.rzi.s8.f32 {d}, {a};", "b16"),
        ("rzi.u8.b32", "cvt.rzi.u8.f32 {d}, {a};", "b32"),
        ("rzi.s32.b64", "cvt.rzi.s32.f32 {d}, {a};", "u64"),
        ("rn.f16.b32", "cvt.rn.f16.f32 {d}, {a};", "b32"),
        ("s8.s32.b32", "mov.b32 %k32, {a}; cvt.s8.s32 {d}, %k32;", "b32"),
        ("s16.u32.b32", "mov.b32 %k32, {a}; cvt.s16.u32 {d}, %k32;", "b32"),
        ("sat.s8.s32.b32", "mov.b32 %k32, {a}; cvt.sat.s8.s32 {d}, %k32;", "b32")])
    # ---- guarded instructions: lanes whose guard is false keep the old value
    G = "setp.ne.u32 %p, {c}, 0; "
    kernel("masked", [("f32", "f32_a"), ("f32", "f32_b"), ("u32", "mask_sel")], [
        ("add.rz", G + "mov.b32 {d}, 0x7F7F7F7F; @%p add.rz.f32 {d}, {a}, {b};", "f32"),
        ("fma.rn.ftz", G + "mov.b32 {d}, 0x7F7F7F7F; @%p fma.rn.ftz.f32 {d}, {a}, {b}, {a};", "f32"),
        ("min.NaN", G + "mov.b32 {d}, 0x7F7F7F7F; @%p min.NaN.f32 {d}, {a}, {b};", "f32"),
        ("sqrt.rp", G + "mov.b32 {d}, 0x7F7F7F7F; @%p sqrt.rp.f32 {d}, {a};", "f32"),
        ("mul.rm.f64", G + "cvt.f64.f32 {d}, {a}; @%p mul.rm.f64 {d}, {d}, {d};", "f64"),
        ("add.rn.f64", G + "cvt.f64.f32 {d}, {a}; @%p add.rn.f64 {d}, {d}, {d};", "f64"),
        ("cvt.rn.f16", G + "mov.b16 {d}, 0x7777; @%p cvt.rn.f16.f32 {d}, {a};", "f16"),
        ("cvt.rzi.s32", G + "mov.b32 {d}, 0x7F7F7F7F; @%p cvt.rzi.s32.f32 {d}, {a};", "s32"),
        ("cvt.s64", G + "mov.b64 {d}, 0x7F7F7F7F7F7F7F7F; cvt.rzi.s32.f32 %k32, {a}; @%p cvt.s64.s32 {d}, %k32;", "s64")])
    # ---- conversions
    ints = ["s8", "u8", "s16", "u16", "s32", "u32", "s64", "u64"]
    for ft, src in (("f32", F32U), ("f64", F64U), ("f16", [("f16", "f16_u")]), ("bf16", [("bf16", "bf16_u")])):
        ops = []
        for it in ints:
            for r in IRND:
                ops.append(("%s.%s" % (r, it), "cvt.%s.%s.%s {d}, {a};" % (r, it, ft), it))
        if ft == "f32":
            ops += [("rzi.ftz.s32", "cvt.rzi.ftz.s32.f32 {d}, {a};", "s32"),
                    ("rni.ftz.u64", "cvt.rni.ftz.u64.f32 {d}, {a};", "u64"),
                    ("rzi.sat.u16", "cvt.rzi.sat.u16.f32 {d}, {a};", "u16")]
        kernel("cvt_%s_int" % ft, src, ops)
    for it in ints:
        src = [(it, "%s%s" % (it[0], it[1:]))]
        ops = []
        for ft in ("f32", "f64", "f16", "bf16"):
            for r in RND:
                ops.append(("%s.%s" % (r, ft), "cvt.%s.%s.%s {d}, {a};" % (r, ft, it), ft))
        kernel("cvt_%s_float" % it, src, ops)
        ops = []
        for dt in ints:
            ops.append((dt, "cvt.%s.%s {d}, {a};" % (dt, it), dt))
            if not int_range_contains(dt, it):
                ops.append(("sat." + dt, "cvt.sat.%s.%s {d}, {a};" % (dt, it), dt))
        kernel("cvt_%s_int" % it, src, ops)
    ops = [("f64", "cvt.f64.f32 {d}, {a};", "f64"), ("ftz.f64", "cvt.ftz.f64.f32 {d}, {a};", "f64"),
           ("f32", "cvt.f32.f32 {d}, {a};", "f32"), ("ftz.f32", "cvt.ftz.f32.f32 {d}, {a};", "f32"),
           ("sat.f32", "cvt.sat.f32.f32 {d}, {a};", "f32"), ("ftz.sat.f32", "cvt.ftz.sat.f32.f32 {d}, {a};", "f32")]
    for r in IRND:
        ops += [("%s.f32" % r, "cvt.%s.f32.f32 {d}, {a};" % r, "f32"),
                ("%s.ftz.f32" % r, "cvt.%s.ftz.f32.f32 {d}, {a};" % r, "f32")]
    for r in RND:
        ops += [("%s.f16" % r, "cvt.%s.f16.f32 {d}, {a};" % r, "f16"),
                ("%s.bf16" % r, "cvt.%s.bf16.f32 {d}, {a};" % r, "bf16")]
    ops += [("rn.ftz.f16", "cvt.rn.ftz.f16.f32 {d}, {a};", "f16"),
            ("rn.sat.f16", "cvt.rn.sat.f16.f32 {d}, {a};", "f16"),
            ("rn.relu.f16", "cvt.rn.relu.f16.f32 {d}, {a};", "f16"),
            ("rz.relu.f16", "cvt.rz.relu.f16.f32 {d}, {a};", "f16"),
            ("rn.satfinite.f16", "cvt.rn.satfinite.f16.f32 {d}, {a};", "f16"),
            ("rz.relu.satfinite.f16", "cvt.rz.relu.satfinite.f16.f32 {d}, {a};", "f16"),
            ("rn.relu.bf16", "cvt.rn.relu.bf16.f32 {d}, {a};", "bf16"),
            ("rn.satfinite.bf16", "cvt.rn.satfinite.bf16.f32 {d}, {a};", "bf16"),
            ("rz.relu.satfinite.bf16", "cvt.rz.relu.satfinite.bf16.f32 {d}, {a};", "bf16"),
            ("rna.tf32", "cvt.rna.tf32.f32 {d}, {a};", "b32"),
            ("rna.satfinite.tf32", "cvt.rna.satfinite.tf32.f32 {d}, {a};", "b32"),
            ("rn.tf32", "cvt.rn.tf32.f32 {d}, {a};", "b32"),
            ("rz.tf32", "cvt.rz.tf32.f32 {d}, {a};", "b32"),
            ("rn.relu.tf32", "cvt.rn.relu.tf32.f32 {d}, {a};", "b32")]
    kernel("cvt_f32_float", F32U, ops)
    ops = [("f64", "cvt.f64.f64 {d}, {a};", "f64"), ("sat.f64", "cvt.sat.f64.f64 {d}, {a};", "f64")]
    for r in RND:
        ops += [("%s.f32" % r, "cvt.%s.f32.f64 {d}, {a};" % r, "f32"),
                ("%s.ftz.f32" % r, "cvt.%s.ftz.f32.f64 {d}, {a};" % r, "f32"),
                ("%s.f16" % r, "cvt.%s.f16.f64 {d}, {a};" % r, "f16"),
                ("%s.bf16" % r, "cvt.%s.bf16.f64 {d}, {a};" % r, "bf16")]
    ops += [("rn.sat.f32", "cvt.rn.sat.f32.f64 {d}, {a};", "f32")]
    for r in IRND:
        ops += [("%s.f64" % r, "cvt.%s.f64.f64 {d}, {a};" % r, "f64")]
    kernel("cvt_f64_float", F64U, ops)
    for ht, other in (("f16", "bf16"), ("bf16", "f16")):
        ops = [("f32", "cvt.f32.%s {d}, {a};" % ht, "f32"), ("f64", "cvt.f64.%s {d}, {a};" % ht, "f64"),
               ("ftz.f32", "cvt.ftz.f32.%s {d}, {a};" % ht, "f32")]
        for r in RND:
            ops.append(("%s.%s" % (r, other), "cvt.%s.%s.%s {d}, {a};" % (r, other, ht), other))
        for r in IRND:
            ops.append(("%s.%s" % (r, ht), "cvt.%s.%s.%s {d}, {a};" % (r, ht, ht), ht))
        kernel("cvt_%s_float" % ht, [(ht, "%s_u" % ht)], ops)
    ops = []
    for ht in ("f16x2", "bf16x2"):
        for m in (".rn", ".rz", ".rn.relu", ".rn.satfinite", ".rz.relu.satfinite"):
            ops.append(("cvt%s.%s" % (m, ht), "cvt%s.%s.f32 {d}, {a}, {b};" % (m, ht), "b32"))
    for ft in ("e4m3x2", "e5m2x2"):
        for m in (".rn.satfinite", ".rn.satfinite.relu"):
            ops.append(("cvt%s.%s" % (m, ft), "cvt%s.%s.f32 {d}, {a}, {b};" % (m, ft), "b16"))
    kernel("cvt_f32_pack", F32B, ops)
    ops = []
    for ft in ("e4m3x2", "e5m2x2"):
        for m in (".rn.satfinite", ".rn.satfinite.relu"):
            ops.append(("cvt%s.%s" % (m, ft), "cvt%s.%s.f16x2 {d}, {a};" % (m, ft), "b16"))
    kernel("cvt_f16x2_f8", [("f16x2", "f16x2_u")], ops)
    ops = []
    for ft in ("e4m3x2", "e5m2x2"):
        for m in (".rn", ".rn.relu"):
            ops.append(("cvt%s.%s" % (m, ft), "cvt%s.f16x2.%s {d}, {a};" % (m, ft), "b32"))
    kernel("cvt_f8_f16x2", [("b16", "f8x2")], ops)
    kernel("cvt_pack", [("s32", "s32"), ("s32", "u32")] + [("b32", "s32")],
           [("u16", "cvt.pack.sat.u16.s32 {d}, {a}, {b};", "b32"),
            ("s16", "cvt.pack.sat.s16.s32 {d}, {a}, {b};", "b32")]
           + [(t, "cvt.pack.sat.%s.s32.b32 {d}, {a}, {b}, {c};" % t, "b32") for t in ("u8", "s8", "u4", "s4")])


def main():
    make_inputs()
    make_kernels()
    with open(os.path.join(HERE, "runs.txt"), "w") as f:
        f.write("# runs.txt -- floating-point edge kernels (generated by gen.py; see its header).\n")
        for k in KERNELS:
            n = k["n"]
            if n is None:
                src = k["srcs"][0][1]
                n = written[src][1]
            emit_ptx(k, n)
            f.write(runs_line(k, n) + "\n")


if __name__ == "__main__":
    main()
