#!/bin/sh
# tests/occupancy/run.sh -- Loom's occupancy against the H100's for every kernel of the repository
# (tests/occupancy/h100.txt): the rules exactly; the register estimate on at least 95.5% of the
# (kernel, block size) pairs of optimised kernels (95.8% measured) and 93.5% of all (93.9%);
# no launch called impossible that the H100 runs. OCC_VERBOSE=1 prints every kernel.
top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
exec "$top_builddir/tests/occupancy/occ_compare" ${OCC_VERBOSE:+-v} --min 93.5 --min-optimised 95.5 \
    "$top_srcdir/tests/occupancy/h100.txt" "$top_srcdir"
