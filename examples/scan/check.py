#!/usr/bin/env python3
"""Checks the scan outputs: check.py KIND OUT.bin, KIND one of inclusive exclusive segmented.
Each 256-element segment is scanned on its own."""
import os
import struct
import sys

here = os.path.dirname(os.path.abspath(__file__))
SEG = 256


def load(path):
    with open(path, 'rb') as f:
        b = f.read()
    return list(struct.unpack('<%di' % (len(b) // 4), b))


def expected(kind, data, flags):
    out = []
    for i, v in enumerate(data):
        first = i % SEG == 0
        if kind == 'inclusive':
            out.append(v if first else out[-1] + v)
        elif kind == 'exclusive':
            out.append(0 if first else out[-1] + data[i - 1])
        else:
            out.append(v if first or flags[i] else out[-1] + v)
    return out


def main():
    kind, path = sys.argv[1], sys.argv[2]
    want = expected(kind, load(os.path.join(here, 'data.bin')), load(os.path.join(here, 'flags.bin')))
    got = load(path)
    bad = [i for i in range(len(want)) if i >= len(got) or got[i] != want[i]]
    if bad:
        i = bad[0]
        print('%s: %d wrong, first at %d: got %s want %d' %
              (kind, len(bad), i, got[i] if i < len(got) else None, want[i]))
        return 1
    print('%s: ok (%d values)' % (kind, len(want)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
