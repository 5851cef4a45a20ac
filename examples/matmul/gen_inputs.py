#!/usr/bin/env python3
"""Writes a.bin (50 x 40) and b.bin (40 x 70), row-major f32 with small integer values, so every
product sum is exact in f32 whatever the order of additions."""
import os
import struct

M, K, N = 50, 40, 70
here = os.path.dirname(os.path.abspath(__file__))


def a(i, k):
    return float((i * 3 + k * 5) % 7 - 3)


def b(k, j):
    return float((k * 2 + j * 7) % 9 - 4)


if __name__ == '__main__':
    with open(os.path.join(here, 'a.bin'), 'wb') as f:
        f.write(struct.pack('<%df' % (M * K), *[a(i, k) for i in range(M) for k in range(K)]))
    with open(os.path.join(here, 'b.bin'), 'wb') as f:
        f.write(struct.pack('<%df' % (K * N), *[b(k, j) for k in range(K) for j in range(N)]))
