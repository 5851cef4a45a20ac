#!/usr/bin/env python3
"""Writes a 512 x 512 CSR matrix (row_ptr.bin s32[513], cols.bin s32[nnz], vals.bin f32[nnz]) and
x.bin (f32[512]). Rows hold 0 to 40 entries (some empty, a few longer than a warp); values are
multiples of 1/2 and x holds multiples of 1/4, so every row sum is exact in f32."""
import os
import struct

ROWS = COLS = 512
here = os.path.dirname(os.path.abspath(__file__))


def matrix():
    s = 2024
    row_ptr, cols, vals = [0], [], []
    for r in range(ROWS):
        s = (s * 1103515245 + 12345) & 0x7FFFFFFF
        count = (s >> 12) % 41 if r % 17 else 0
        picked = set()
        while len(picked) < count:
            s = (s * 1103515245 + 12345) & 0x7FFFFFFF
            picked.add((s >> 8) % COLS)
        for c in sorted(picked):
            s = (s * 1103515245 + 12345) & 0x7FFFFFFF
            cols.append(c)
            vals.append(((s >> 10) % 17 - 8) / 2.0)
        row_ptr.append(len(cols))
    x = [((c * 37) % 21 - 10) / 4.0 for c in range(COLS)]
    return row_ptr, cols, vals, x


if __name__ == '__main__':
    row_ptr, cols, vals, x = matrix()
    for name, fmt, values in (('row_ptr.bin', 'i', row_ptr), ('cols.bin', 'i', cols),
                              ('vals.bin', 'f', vals), ('x.bin', 'f', x)):
        with open(os.path.join(here, name), 'wb') as f:
            f.write(struct.pack('<%d%s' % (len(values), fmt), *values))
    print('nnz = %d' % len(cols))
