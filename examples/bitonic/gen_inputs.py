#!/usr/bin/env python3
"""Writes keys.bin: 4096 pseudo-random u32 keys, with some duplicates and the extremes."""
import os
import struct

here = os.path.dirname(os.path.abspath(__file__))


def keys():
    s = 99
    out = []
    for i in range(4096):
        s = (s * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        out.append((s >> 32) if i % 9 else (s >> 60))  # every ninth key is tiny: duplicates
    out[5], out[700], out[2048] = 0, 0xFFFFFFFF, 0xFFFFFFFF
    return out


if __name__ == '__main__':
    with open(os.path.join(here, 'keys.bin'), 'wb') as f:
        f.write(struct.pack('<4096I', *keys()))
