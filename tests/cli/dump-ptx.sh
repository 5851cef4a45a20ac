#!/bin/sh
# dump-ptx.sh -- `make check` test: `loom exec --dump-ptx DIR` writes the PTX a program
# embeds to DIR under the name its fault report cites, and the line the report cites is the
# faulting load; without it the report says how to get the file. Exits 77 without nvcc.
set -u
top_builddir=$(cd "${top_builddir:-.}" && pwd)
srcdir=$(cd "${srcdir:-.}" && pwd)
LOOM=${LOOM:-$top_builddir/loom}
[ -x "$LOOM" ] || { echo "dump-ptx.sh: $LOOM not built" >&2; exit 99; }
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$NVCC" ] || { echo "dump-ptx.sh: nvcc not found; skipped"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/loom-dump-ptx.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
here=$srcdir/tests/faults/cuda
"$NVCC" --cudart shared -gencode arch=compute_75,code=compute_75 -lineinfo -I"$here" \
    "$here/oob_global_read.cu" -o "$tmp/oob" 2>"$tmp/build" || { cat "$tmp/build"; exit 99; }

"$LOOM" exec "$tmp/oob" >/dev/null 2>"$tmp/err1"
grep -q "^loom: (the .ptx named is the program's embedded PTX: loom exec --dump-ptx DIR writes it out)$" "$tmp/err1" ||
    fail "no hint without --dump-ptx: $(cat "$tmp/err1")"

"$LOOM" exec --dump-ptx "$tmp/ptx" "$tmp/oob" >/dev/null 2>"$tmp/err2"
cited=$(sed -n "s/.* at \(.*\.ptx\):\([0-9]*\) (.*/\1 \2/p" "$tmp/err2" | head -n 1)
file=${cited% *} line=${cited#* }
case $file in
"$tmp/ptx/oob#"*.ptx) ;;
*) fail "the report cites '$file', not a file in $tmp/ptx: $(cat "$tmp/err2")" ;;
esac
[ -f "$file" ] || fail "$file was not written"
sed -n "${line}p" "$file" 2>/dev/null | grep -q 'ld\.global' || fail "line $line of $file is not the faulting load"
grep -q "dump-ptx DIR writes" "$tmp/err2" && fail "the hint is printed although the PTX was written"
"$LOOM" exec --dump-ptx "$tmp/oob" >/dev/null 2>"$tmp/err3"
[ $? = 2 ] || fail "--dump-ptx without a folder does not exit 2"
echo "dump-ptx.sh: $fails failure(s)"
[ "$fails" -eq 0 ]
