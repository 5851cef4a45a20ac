#!/usr/bin/env python3
"""Checks C.bin (50 x 70 f32) against A * B computed here: check.py OUT.bin"""
import struct
import sys

from gen_inputs import K, M, N, a, b


def main():
    with open(sys.argv[1], 'rb') as f:
        got = struct.unpack('<%df' % (M * N), f.read())
    bad = 0
    for i in range(M):
        for j in range(N):
            want = sum(a(i, k) * b(k, j) for k in range(K))
            if got[i * N + j] != want:
                if not bad:
                    print('C[%d][%d] = %g, want %g' % (i, j, got[i * N + j], want))
                bad += 1
    print('matmul: %s (%d x %d)' % ('ok' if not bad else '%d wrong' % bad, M, N))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
