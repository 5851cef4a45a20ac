#!/usr/bin/env python3
"""Writes data.bin: 49152 bytes of text-like data (words from a small vocabulary, so a few bins --
space, 'e', 't' -- are very popular and most of the 256 are empty), plus a run of every byte."""
import os

here = os.path.dirname(os.path.abspath(__file__))
N = 49152
WORDS = ('the warp executes one instruction for all of its threads while divergent '
         'branches serialise and shared memory atomics privatise the histogram').split()


def data():
    s = 7
    out = bytearray(range(256))
    while len(out) < N:
        s = (s * 1103515245 + 12345) & 0x7FFFFFFF
        out += WORDS[(s >> 16) % len(WORDS)].encode() + (b'. ' if (s >> 8) % 11 == 0 else b' ')
    return bytes(out[:N])


if __name__ == '__main__':
    with open(os.path.join(here, 'data.bin'), 'wb') as f:
        f.write(data())
