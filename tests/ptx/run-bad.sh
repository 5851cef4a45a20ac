#!/bin/sh
# run-bad.sh -- golden diagnostics: `loom check` on each tests/ptx/bad/NAME.ptx must exit 1
# and print exactly NAME.expected. With --update, rewrites the .expected files instead.
here=$(cd "$(dirname "$0")" && pwd)
loom=${LOOM:-$PWD/loom}
if [ ! -x "$loom" ]; then
    echo "run-bad.sh: no loom binary at $loom (set LOOM=...)" >&2
    exit 99
fi
update=no
[ "$1" = "--update" ] && update=yes
cd "$here/bad" || exit 99
fail=0 n=0
for ptx in *.ptx; do
    name=${ptx%.ptx}
    n=$((n + 1))
    out=$("$loom" check "$ptx" 2>&1)
    rc=$?
    if [ $update = yes ]; then
        printf '%s\n' "$out" > "$name.expected"
        continue
    fi
    if [ $rc -ne 1 ]; then
        echo "FAIL $name: exit status $rc, expected 1"
        fail=$((fail + 1))
        continue
    fi
    if ! printf '%s\n' "$out" | diff -u "$name.expected" - > /dev/null; then
        echo "FAIL $name: diagnostics differ"
        printf '%s\n' "$out" | diff -u "$name.expected" -
        fail=$((fail + 1))
        continue
    fi
done
[ $update = yes ] && { echo "updated $n expected files"; exit 0; }
echo "$((n - fail)) of $n malformed inputs diagnosed as expected"
[ $fail -eq 0 ]
