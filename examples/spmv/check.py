#!/usr/bin/env python3
"""Checks y.bin (f32[512]) against A * x computed here: check.py OUT.bin"""
import struct
import sys

from gen_inputs import ROWS, matrix


def main():
    row_ptr, cols, vals, x = matrix()
    with open(sys.argv[1], 'rb') as f:
        got = struct.unpack('<%df' % ROWS, f.read())
    bad = 0
    for r in range(ROWS):
        want = sum(vals[j] * x[cols[j]] for j in range(row_ptr[r], row_ptr[r + 1]))
        if got[r] != want:
            if not bad:
                print('y[%d] = %g, want %g' % (r, got[r], want))
            bad += 1
    print('spmv: %s (%d rows)' % ('ok' if not bad else '%d wrong' % bad, ROWS))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
