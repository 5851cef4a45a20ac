#!/bin/sh
# run-verbose.sh -- golden output of `loom check --verbose` on tests/ptx/verbose/NAME.ptx
# (must exit 0 and print exactly NAME.expected). With --update, rewrites the .expected files.
here=$(cd "$(dirname "$0")" && pwd)
loom=${LOOM:-$PWD/loom}
if [ ! -x "$loom" ]; then
    echo "run-verbose.sh: no loom binary at $loom (set LOOM=...)" >&2
    exit 99
fi
cd "$here/verbose" || exit 99
fail=0 n=0
for ptx in *.ptx; do
    name=${ptx%.ptx}
    n=$((n + 1))
    out=$("$loom" check --verbose "$ptx" 2>&1)
    rc=$?
    if [ "$1" = "--update" ]; then
        printf '%s\n' "$out" > "$name.expected"
        continue
    fi
    if [ $rc -ne 0 ] || ! printf '%s\n' "$out" | diff -u "$name.expected" - ; then
        echo "FAIL $name (exit status $rc)"
        fail=$((fail + 1))
    fi
done
[ "$1" = "--update" ] && { echo "updated $n expected files"; exit 0; }
echo "$((n - fail)) of $n verbose reports as expected"
[ $fail -eq 0 ]
