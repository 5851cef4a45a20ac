#!/bin/sh
# gen.sh -- regenerates atom.ptx from atom.cu (needs nvcc) and the initial counter values
# in inputs/ (needs python3). Both results are committed. stress.ptx is hand-written.
set -e
cd "$(dirname "$0")"
nvcc -ptx -arch=compute_90 -O3 -diag-suppress 550 -o atom.ptx atom.cu
mkdir -p inputs
python3 - <<'PY'
import struct
c32 = [0, 0, 0xFFFFFFFF, 0, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0, 0x12345678, 0, 0, 0,
       7, 0, 0, 0, 0x3F800000, 0, 0]
c64 = [0, 0, 0xFFFFFFFFFFFFFFFF, 0, 0x7FFFFFFFFFFFFFFF, 0x8000000000000000,
       0xFFFFFFFFFFFFFFFF, 0, 0x0123456789ABCDEF, 0, 0, 0]
c16 = [0, 0, 0, 0x1000]
open("inputs/c32.bin", "wb").write(struct.pack("<%dI" % len(c32), *c32))
open("inputs/c64.bin", "wb").write(struct.pack("<%dQ" % len(c64), *c64))
open("inputs/c16.bin", "wb").write(struct.pack("<%dH" % len(c16), *c16))
PY
