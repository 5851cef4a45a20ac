#!/bin/sh
# tests/observe/memlab.sh -- the memory lab kit (examples/labs/memory) under loom run --stats=json:
# each kernel's shared-memory, global-memory and occupancy counters against the counts its README
# derives by hand and the H100's Nsight Compute counts (tests/observe/memlab.py). Skips (77)
# while loom run offers no --stats=json.
command -v python3 >/dev/null 2>&1 || exit 77
exec python3 "${top_srcdir:-$(dirname "$0")/../..}/tests/observe/memlab.py" "$@"
