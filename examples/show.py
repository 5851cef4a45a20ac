#!/usr/bin/env python3
"""Prints a raw output file of `loom run` as numbers.

    python3 examples/show.py TYPE FILE [N] [--skip S] [--width W] [--ascii W]

TYPE is one of u8 s8 u16 s16 u32 s32 u64 s64 f32 f64 (little-endian, as loom run writes them).
N limits how many elements are printed (default: all), --skip starts at element S,
--width W prints W numbers per line (default 8), and --ascii W draws the values as a W-column
picture of characters from dark to bright on a logarithmic scale (for example mandelbrot's
iteration counts).
"""
import math
import struct
import sys

FORMATS = {'u8': 'B', 's8': 'b', 'u16': 'H', 's16': 'h', 'u32': 'I', 's32': 'i',
           'u64': 'Q', 's64': 'q', 'f32': 'f', 'f64': 'd'}


def usage():
    sys.stderr.write(__doc__)
    sys.exit(2)


def main(argv):
    pos, opts = [], {}
    i = 0
    while i < len(argv):
        if argv[i] in ('--skip', '--width', '--ascii') and i + 1 < len(argv):
            opts[argv[i]] = int(argv[i + 1])
            i += 2
        else:
            pos.append(argv[i])
            i += 1
    if len(pos) < 2 or pos[0] not in FORMATS:
        usage()
    fmt = FORMATS[pos[0]]
    size = struct.calcsize(fmt)
    with open(pos[1], 'rb') as f:
        data = f.read()
    count = len(data) // size
    values = struct.unpack('<%d%s' % (count, fmt), data[:count * size])
    skip = opts.get('--skip', 0)
    values = values[skip:]
    if len(pos) > 2:
        values = values[:int(pos[2])]

    if '--ascii' in opts:
        cols = opts['--ascii']
        ramp = ' .:-=+*#%@'
        low, top = min(values), max(values)
        span = math.log1p(top - low) if top > low else 1.0
        for r in range(0, len(values), cols):
            row = values[r:r + cols]
            sys.stdout.write(''.join(ramp[int(math.log1p(v - low) / span * (len(ramp) - 1))]
                                     for v in row) + '\n')
        return

    width = opts.get('--width', 8)
    for r in range(0, len(values), width):
        row = values[r:r + width]
        if fmt in 'fd':
            cells = ['%.9g' % v for v in row]
        else:
            cells = ['%d' % v for v in row]
        sys.stdout.write('%6d: %s\n' % (skip + r, ' '.join(cells)))


if __name__ == '__main__':
    main(sys.argv[1:])
