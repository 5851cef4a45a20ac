#!/usr/bin/env python3
"""Writes y.bin for saxpy: 1000 floats, y[i] = 1000 - i (so 2 * i + y[i] = i + 1000)."""
import os
import struct

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, 'y.bin'), 'wb') as f:
    f.write(struct.pack('<1000f', *[1000.0 - i for i in range(1000)]))
