#!/usr/bin/env python3
"""Checks keys.out (u32[4096]): every block of 1024 keys sorted, and a permutation of the input
block. check.py OUT.bin"""
import struct
import sys

from gen_inputs import keys


def main():
    src = keys()
    with open(sys.argv[1], 'rb') as f:
        got = list(struct.unpack('<4096I', f.read()))
    for b in range(0, 4096, 1024):
        if got[b:b + 1024] != sorted(src[b:b + 1024]):
            print('bitonic: block %d not sorted correctly' % (b // 1024))
            return 1
    print('bitonic: ok (4 blocks of 1024 keys)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
