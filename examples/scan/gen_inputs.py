#!/usr/bin/env python3
"""Writes data.bin (1024 s32 values in 0..9) and flags.bin (1024 s32 segment heads, about one in
eight set, plus element 0) for the scan kernels."""
import os
import struct

here = os.path.dirname(os.path.abspath(__file__))
s = 12345
data, flags = [], []
for i in range(1024):
    s = (s * 1103515245 + 12345) & 0x7FFFFFFF
    data.append((s >> 16) % 10)
    flags.append(1 if i == 0 or (s >> 8) % 8 == 0 else 0)
with open(os.path.join(here, 'data.bin'), 'wb') as f:
    f.write(struct.pack('<1024i', *data))
with open(os.path.join(here, 'flags.bin'), 'wb') as f:
    f.write(struct.pack('<1024i', *flags))
