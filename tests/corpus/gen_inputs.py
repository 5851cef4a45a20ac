#!/usr/bin/env python3
"""Writes the corpus inputs, tests/corpus/inputs/*.bin: raw little-endian arrays, edge values first
(signed zeros, denormals, infinities, NaNs, integer limits, rounding ties), then pseudo-random ones.

Deterministic (own LCG, no random module) and stdlib only; rerunning rewrites identical files.
Usage: python3 gen_inputs.py [OUTDIR]      (default: inputs/ beside this script)
"""
import os
import struct
import sys

N = 1024  # elements per array, the corpus's default problem size


class Lcg:
    """64-bit LCG (Knuth's MMIX constants); the top 32 bits are the output."""

    def __init__(self, seed):
        self.s = (seed * 0x9E3779B97F4A7C15 + 1) & 0xFFFFFFFFFFFFFFFF

    def u32(self):
        self.s = (self.s * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        return self.s >> 32

    def u64(self):
        return (self.u32() << 32) | self.u32()

    def below(self, n):
        return self.u32() % n


def f32_bits(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def f32_from_bits(b):
    return struct.unpack('<f', struct.pack('<I', b & 0xFFFFFFFF))[0]


def f64_bits(x):
    return struct.unpack('<Q', struct.pack('<d', x))[0]


# ---- edge values, as bit patterns so NaN payloads and signed zeros survive ----

F32_EDGE = [
    0x00000000, 0x80000000,              # +0, -0
    0x00000001, 0x80000001,              # smallest denormal
    0x007FFFFF, 0x807FFFFF,              # largest denormal
    0x00400000, 0x00000003,              # mid denormals
    0x00800000, 0x80800000,              # FLT_MIN
    0x7F7FFFFF, 0xFF7FFFFF,              # FLT_MAX
    0x7F800000, 0xFF800000,              # +-inf
    0x7FC00000, 0xFFC00000,              # quiet NaN, negative quiet NaN
    0x7FA00001, 0x7F800001,              # signalling NaNs with payloads
    0x7FFFFFFF,                          # the NaN a GPU returns
] + [f32_bits(v) for v in [
    1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.5, 0.49999997, -0.49999997,
    1.0 / 3.0, 2.0 / 3.0, 0.1, -0.1, 3.14159265, 2.71828183, 1e-38, -1e-38, 1e38, -1e38,
    8388608.0, 8388609.0, 16777216.0, 16777218.0, 2147483520.0, 2147483648.0, -2147483648.0,
    -2147483904.0, 4294967040.0, 4294967296.0, 9.2233720e18, -9.2233720e18, 1.8446744e19,
    127.5, -128.5, 255.5, 256.0, -129.0, 32767.5, -32768.5, 65535.5, 65504.0, 65520.0,
    6.1035156e-05, 5.9604645e-08, 2.9802322e-08, 1e10, -1e10, 100.5, -100.5, 7.0, -7.0,
    1.00000012, 0.99999994, 1e-5, 12345.678, -0.75, 0.25, 1.1754942e-38,
]]

F64_EDGE = [
    0x0000000000000000, 0x8000000000000000,
    0x0000000000000001, 0x8000000000000001,
    0x000FFFFFFFFFFFFF, 0x800FFFFFFFFFFFFF,
    0x0010000000000000, 0x8010000000000000,
    0x7FEFFFFFFFFFFFFF, 0xFFEFFFFFFFFFFFFF,
    0x7FF0000000000000, 0xFFF0000000000000,
    0x7FF8000000000000, 0xFFF8000000000000,
    0x7FF4000000000001, 0x7FF0000000000001,
    0x7FFFFFFFFFFFFFFF,
] + [f64_bits(v) for v in [
    1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.5, 0.49999999999999994,
    1.0 / 3.0, 2.0 / 3.0, 0.1, -0.1, 3.141592653589793, 2.718281828459045,
    2147483647.0, 2147483647.5, 2147483648.0, -2147483648.0, -2147483648.5, -2147483649.0,
    4294967295.0, 4294967295.5, 4294967296.0, 9007199254740992.0, 9007199254740993.0,
    9.223372036854775e18, -9.223372036854775e18, 1.8446744073709552e19, 3.5e38, 3.4028235e38,
    3.4028235677973366e38, 1e-45, 1.4e-45, 7e-46, 1.1754943508222875e-38, 1e-310,
    1.0000000596046448, 1.0000000596046449, 1.0000001788139343, 0.9999999701976776,
    65504.0, 65520.0, 1e300, -1e300, 1e-300, 123456789.123, -0.75, 0.25, 7.0, -7.0,
]]

I32_EDGE = [0, 1, -1, 2, -2, 3, 7, -7, 31, 32, 33, 63, 64, 127, 128, 255, 256, 0x7FFF, 0x8000,
            -0x8000, 0xFFFF, 0x10000, 0x7FFFFF, 0x800000, -0x800000, 0xFFFFFF, 0x1000000,
            0x7FFFFFFF, -0x80000000, -0x7FFFFFFF, 0x55555555, -0x55555556, 0x12345678,
            -0x12345678, 1000000007, -1000000007, 46341, -46341, 65536 * 3 + 5, 0x0F0F0F0F,
            -0x0F0F0F10, 0x00FF00FF, 0x7F7F7F7F, -0x7F7F7F80, 0x01020304, -0x01020305]

I64_EDGE = [0, 1, -1, 2, -2, 3, 7, -7, 63, 64, 65, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF,
            0x100000000, -0x80000000, -0x80000001, -0x100000000, 0x7FFFFFFFFFFFFFFF,
            -0x8000000000000000, -0x7FFFFFFFFFFFFFFF, 0x5555555555555555, -0x5555555555555556,
            0x123456789ABCDEF0, -0x123456789ABCDEF0, 1000000000000000003, 3037000499,
            3037000500, -3037000500, 0x00FF00FF00FF00FF, 0x0001000000000001]

F16_EDGE = [0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x83FF, 0x0200, 0x0400, 0x8400,
            0x7BFF, 0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0xFE00, 0x7C01, 0x7FFF,
            0x3C00, 0xBC00, 0x3800, 0xB800, 0x3E00, 0xBE00, 0x4100, 0xC100, 0x4300,
            0x3555, 0x3955, 0x3BFF, 0x3C01, 0x6400, 0x6800, 0x6801, 0x67FF, 0x7800,
            0x1400, 0x0C00, 0x5640, 0xD640, 0x57F8, 0x5800, 0x2E66, 0xAE66, 0x4248]

BF16_EDGE = [0x0000, 0x8000, 0x0001, 0x8001, 0x007F, 0x807F, 0x0040, 0x0080, 0x8080,
             0x7F7F, 0xFF7F, 0x7F80, 0xFF80, 0x7FC0, 0xFFC0, 0x7F81, 0x7FFF,
             0x3F80, 0xBF80, 0x3F00, 0xBF00, 0x3FC0, 0xBFC0, 0x4020, 0xC020, 0x4060,
             0x3EAB, 0x3F2B, 0x3F7F, 0x3F81, 0x4B00, 0x4B01, 0x4B80, 0x4F00, 0xCF00,
             0x42FF, 0x4300, 0x4780, 0xC700, 0x3DCD, 0xBDCD, 0x4049]


def edge_mix(edge, rng, n, random_value, stride):
    """n values: edge[] in the first len(edge) slots (as a permutation by stride for the second
    and third operands), then random_value(rng)."""
    out = []
    m = len(edge)
    for i in range(n):
        if i < 2 * m:
            out.append(edge[(i * stride + i // m) % m])
        else:
            out.append(random_value(rng))
    return out


def rand_f32(rng):
    kind = rng.below(8)
    if kind < 3:          # any bit pattern
        return rng.u32()
    if kind < 6:          # moderate magnitudes, full mantissa
        exp = 127 - 24 + rng.below(48)
        return (rng.below(2) << 31) | (exp << 23) | rng.below(1 << 23)
    if kind == 6:         # small integers, exact halves
        return f32_bits((rng.below(2001) - 1000) / 2.0)
    return (rng.below(2) << 31) | rng.below(1 << 23)   # denormal


def rand_f64(rng):
    kind = rng.below(8)
    if kind < 3:
        return rng.u64()
    if kind < 6:
        exp = 1023 - 40 + rng.below(80)
        return (rng.below(2) << 63) | (exp << 52) | (rng.u64() & ((1 << 52) - 1))
    if kind == 6:
        return f64_bits((rng.below(200001) - 100000) / 4.0)
    return (rng.below(2) << 63) | (rng.u64() & ((1 << 52) - 1))


def rand_i32(rng):
    kind = rng.below(4)
    if kind == 0:
        return rng.below(2001) - 1000
    v = rng.u32() >> rng.below(32)
    return v - (1 << 32) if v >= (1 << 31) else v


def rand_i64(rng):
    kind = rng.below(4)
    if kind == 0:
        return rng.below(200001) - 100000
    v = rng.u64() >> rng.below(64)
    return v - (1 << 64) if v >= (1 << 63) else v


def rand_f16(rng):
    kind = rng.below(3)
    if kind == 0:
        return rng.u32() & 0xFFFF
    return (rng.below(2) << 15) | ((8 + rng.below(16)) << 10) | rng.below(1024)


def rand_bf16(rng):
    kind = rng.below(3)
    if kind == 0:
        return rng.u32() & 0xFFFF
    return (rng.below(2) << 15) | ((110 + rng.below(36)) << 7) | rng.below(128)


def rand_range_f32(rng):
    """For the approximate functions: mostly [-20, 20], some magnitudes from 2^-20 to 2^8."""
    if rng.below(4) == 0:
        exp = 127 - 20 + rng.below(28)
        return (rng.below(2) << 31) | (exp << 23) | rng.below(1 << 23)
    return f32_bits((rng.u32() / 2**32) * 40.0 - 20.0)


def write(outdir, name, fmt, values):
    path = os.path.join(outdir, name)
    with open(path, 'wb') as f:
        f.write(struct.pack('<%d%s' % (len(values), fmt), *values))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, 'inputs')
    os.makedirs(outdir, exist_ok=True)

    for idx, (stride, seed) in enumerate([(1, 11), (7, 12), (13, 13)]):
        tag = 'abc'[idx]
        write(outdir, 'f32_%s.bin' % tag, 'I',
              edge_mix(F32_EDGE, Lcg(seed), N, rand_f32, stride))
        write(outdir, 'f64_%s.bin' % tag, 'Q',
              edge_mix(F64_EDGE, Lcg(seed + 100), N, rand_f64, stride))
        write(outdir, 'f16_%s.bin' % tag, 'H',
              edge_mix(F16_EDGE, Lcg(seed + 200), N, rand_f16, stride))
        write(outdir, 'bf16_%s.bin' % tag, 'H',
              edge_mix(BF16_EDGE, Lcg(seed + 300), N, rand_bf16, stride))
        write(outdir, 'i32_%s.bin' % tag, 'i',
              edge_mix(I32_EDGE, Lcg(seed + 400), N, rand_i32, stride))
        write(outdir, 'i64_%s.bin' % tag, 'q',
              edge_mix(I64_EDGE, Lcg(seed + 500), N, rand_i64, stride))

    # Moderate-range floats for the approximate (.approx) functions, edge values first.
    rng = Lcg(77)
    special = [0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x00000001,
               0x3F800000, 0xBF800000, 0x40000000, 0x3F000000, 0x40490FDB, 0xC0490FDB]
    write(outdir, 'f32_range.bin', 'I',
          special + [rand_range_f32(rng) for _ in range(N - len(special))])
    rng = Lcg(78)
    write(outdir, 'f32_range2.bin', 'I',
          special[::-1] + [rand_range_f32(rng) for _ in range(N - len(special))])

    # Plain finite floats in [-1, 1) with full mantissas, for sums whose rounding matters.
    rng = Lcg(55)
    write(outdir, 'f32_small.bin', 'I',
          [f32_bits(f32_from_bits(f32_bits((rng.u32() / 2**31) - 1.0))) for _ in range(N)])

    # Small non-negative integers: loop trip counts, switch selectors, keys (0..255).
    rng = Lcg(99)
    write(outdir, 'u32_small.bin', 'I', [rng.below(256) for _ in range(N)])

    # Initial values for the atomic result slots (32 and 64 bit), see atomics.cu.
    atom32 = [0, 0, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0, 0xFFFFFFFF, 0, 0x0F0F0F0F,
              5, 7, 0, 123, 0, 0, 0]
    write(outdir, 'atom32_init.bin', 'I', atom32)
    atom64 = [0, 0x7FFFFFFFFFFFFFFF, 0x8000000000000000, 0xFFFFFFFFFFFFFFFF, 0,
              0xFFFFFFFFFFFFFFFF, 0, 0x00FF00FF00FF00FF, 0x1000, 0]
    write(outdir, 'atom64_init.bin', 'Q', atom64)


if __name__ == '__main__':
    main()
