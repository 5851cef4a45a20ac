#!/usr/bin/env python3
"""Checks bins.bin (u32[256]) against the byte counts of data.bin: check.py OUT.bin"""
import os
import struct
import sys

here = os.path.dirname(os.path.abspath(__file__))


def main():
    with open(os.path.join(here, 'data.bin'), 'rb') as f:
        data = f.read()
    want = [0] * 256
    for b in data:
        want[b] += 1
    with open(sys.argv[1], 'rb') as f:
        got = list(struct.unpack('<256I', f.read()))
    if got != want:
        i = next(k for k in range(256) if got[k] != want[k])
        print('histogram: bin %d = %d, want %d' % (i, got[i], want[i]))
        return 1
    print('histogram: ok (%d bytes; space %d, "e" %d)' % (len(data), want[32], want[ord('e')]))
    return 0


if __name__ == '__main__':
    sys.exit(main())
