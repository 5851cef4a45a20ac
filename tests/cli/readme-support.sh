#!/bin/sh
# readme-support.sh -- `make check` test: the README's table of the CUDA runtime's entry
# points that Loom does not provide is what docs/support-table.sh makes of
# runtime/rt_unsupported.def and the built libcudart.
srcdir=$(cd "${srcdir:-.}" && pwd)
export srcdir
exec "$srcdir/docs/support-table.sh" --check
