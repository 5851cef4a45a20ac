#!/bin/sh
# sanitizer.sh -- `make check` test of compute-sanitizer's options under `loom exec`: with
# --leak-check full, the leaks of tests/cli/leaks.cu are the ones compute-sanitizer reported
# on an H100 (expected/leaks.h100.out: the same sizes, the same LEAK and ERROR SUMMARY
# lines), --error-exitcode sets the exit status, --print-limit cuts the list as it does, a
# kernel fault counts as an error, and what Loom lacks (synccheck, --log-file) is one line.
# Exits 77 (skipped) without nvcc.
set -u
top_builddir=$(cd "${top_builddir:-.}" && pwd)
srcdir=$(cd "${srcdir:-.}" && pwd)
LOOM=${LOOM:-$top_builddir/loom}
[ -x "$LOOM" ] || { echo "sanitizer.sh: $LOOM not built" >&2; exit 99; }
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$NVCC" ] || { echo "sanitizer.sh: nvcc not found; skipped"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/loom-sanitizer.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
here=$srcdir/tests/cli
build() { "$NVCC" --cudart shared -gencode arch=compute_75,code=compute_75 -I"$srcdir/tests/faults/cuda" "$1" -o "$2"; }
build "$here/leaks.cu" "$tmp/leaks" || exit 99
build "$srcdir/tests/faults/cuda/oob_global_read.cu" "$tmp/oob" || exit 99
want=$here/expected/leaks.h100.out

"$LOOM" exec --leak-check full --error-exitcode 7 "$tmp/leaks" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = "$(sed -n 's/^rc=//p' "$want")" ] || fail "exit status $rc, not the H100's $(sed -n 's/^rc=//p' "$want")"
sizes() { sed -n 's/^========= Leaked \([0-9,]*\) bytes at .*/\1/p' "$1" | sort; }
[ "$(sizes "$tmp/out")" = "$(sizes "$want")" ] ||
    fail "leaked sizes $(sizes "$tmp/out" | tr '\n' ' '), not the H100's $(sizes "$want" | tr '\n' ' ')"
for line in "LEAK SUMMARY" "ERROR SUMMARY"; do
    [ "$(grep "^========= $line" "$tmp/out")" = "$(grep "^========= $line" "$want")" ] ||
        fail "$line: $(grep "^========= $line" "$tmp/out")"
done
grep -q '^done: cudaSuccess$' "$tmp/out" || fail "the program's own output is missing"

"$LOOM" exec --leak-check full --print-limit 1 "$tmp/leaks" >"$tmp/out" 2>&1 || fail "--print-limit 1: exit status $?"
[ "$(grep -c '^========= Leaked' "$tmp/out")" = 1 ] || fail "--print-limit 1 listed $(grep -c '^========= Leaked' "$tmp/out") leaks"
grep -q '^========= ERROR SUMMARY: 4 errors were not printed. Use --print-limit option to adjust the number of printed errors$' \
    "$tmp/out" || fail "--print-limit 1: no line saying 4 were not printed"

"$LOOM" exec --tool memcheck "$tmp/leaks" >"$tmp/out" 2>&1 || fail "--tool memcheck: exit status $?"
grep -q '^========= ERROR SUMMARY: 0 errors$' "$tmp/out" || fail "--tool memcheck without leak check: $(cat "$tmp/out")"

"$LOOM" exec --tool memcheck --error-exitcode 3 "$tmp/oob" >"$tmp/out" 2>"$tmp/err"
[ $? = 3 ] || fail "a kernel fault with --error-exitcode 3 does not exit 3"
grep -q '^========= ERROR SUMMARY: 1 error$' "$tmp/out" || fail "a kernel fault is not 1 error: $(grep SUMMARY "$tmp/out")"

"$LOOM" exec --tool synccheck "$tmp/leaks" >/dev/null 2>"$tmp/err"
[ $? = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q 'synccheck is not supported yet' "$tmp/err" ||
    fail "--tool synccheck: $(cat "$tmp/err")"
"$LOOM" exec --log-file x.log "$tmp/leaks" >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "compute-sanitizer's --log-file is not supported yet" "$tmp/err" || fail "--log-file: $(cat "$tmp/err")"
# (not compute-sanitizer's, but a program of its own is at hand) --stats=launches: a line per launch
"$LOOM" exec --stats=launches "$tmp/leaks" >/dev/null 2>"$tmp/err" || fail "--stats=launches: exit status $?"
grep -q '^loom:      1 touch  *1,1,1  *32,1,1  *0  *[0-9.]*  *1  *[0-9]*  *100.0%$' "$tmp/err" ||
    fail "--stats=launches: no line for the launch of touch: $(tail -3 "$tmp/err")"
"$LOOM" exec --stats=kernels "$tmp/leaks" >/dev/null 2>"$tmp/err"
[ $? = 2 ] || fail "--stats=kernels is not refused"
echo "sanitizer.sh: $fails failure(s)"
[ "$fails" -eq 0 ]
