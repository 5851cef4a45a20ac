#!/bin/sh
# run-bad.sh -- golden diagnostics: `loom check` on each tests/ptx/bad/NAME.ptx must exit 1
# and print exactly NAME.expected. A NAME.sh there is a generator: its standard output,
# written to NAME.ptx in a scratch directory, is checked the same way (inputs too big to
# commit). With --update, rewrites the .expected files instead.
here=$(cd "$(dirname "$0")" && pwd)
loom=${LOOM:-$PWD/loom}
if [ ! -x "$loom" ]; then
    echo "run-bad.sh: no loom binary at $loom (set LOOM=...)" >&2
    exit 99
fi
update=no
[ "$1" = "--update" ] && update=yes
cd "$here/bad" || exit 99
tmp=$(mktemp -d "${TMPDIR:-/tmp}/loom-run-bad.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0 n=0
for input in *.ptx *.sh; do
    [ -f "$input" ] || continue
    name=${input%.*}
    n=$((n + 1))
    if [ "$input" = "$name.sh" ]; then
        if ! sh "./$input" > "$tmp/$name.ptx"; then
            echo "FAIL $name: generator $input failed"
            fail=$((fail + 1))
            continue
        fi
        out=$(cd "$tmp" && "$loom" check "$name.ptx" 2>&1)
        rc=$?
    else
        out=$("$loom" check "$input" 2>&1)
        rc=$?
    fi
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
