#!/bin/sh
# input-limit.sh -- PTX input over the 256 MiB limit is refused quickly with one line, for
# every kind of file: /dev/zero (endless), a pipe, standard input, a large (sparse) regular
# file; through loom check and loom run. Memory is capped (ulimit -v) where the build
# allows it, so that a reader without the limit fails instead of taking the machine's memory.
set -u
top_builddir=$(cd "${top_builddir:-.}" && pwd)
LOOM=${LOOM:-$top_builddir/loom}
[ -x "$LOOM" ] || { echo "input-limit.sh: $LOOM not built" >&2; exit 99; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/loom-input-limit.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
count=0
fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}

# A sanitizer build reserves terabytes of address space and cannot start under a cap.
printf '.version 8.7\n.target sm_80\n.address_size 64\n' >"$tmp/ok.ptx"
cap=
if (ulimit -v 2000000 && "$LOOM" check "$tmp/ok.ptx") >/dev/null 2>&1; then
    cap="ulimit -v 2000000"
else
    echo "input-limit.sh: no memory cap (the build cannot start under ulimit -v)"
fi

# limited NAME STATUS WANT STDIN CMD...: CMD, reading STDIN, exits with STATUS within 60 s
# and prints exactly the line WANT on stderr.
limited() {
    name=$1 want_rc=$2 want=$3 input=$4
    shift 4
    count=$((count + 1))
    (${cap:-:} && exec timeout 60 "$@") >"$tmp/out" 2>"$tmp/err" <"$input"
    rc=$?
    [ "$rc" = "$want_rc" ] || fail "$name: exit status $rc, want $want_rc"
    printf '%s\n' "$want" >"$tmp/want"
    cmp -s "$tmp/want" "$tmp/err" || fail "$name: stderr: $(head -c 300 "$tmp/err")"
}

msg="larger than the 256 MiB limit on PTX input"
limited check-dev-zero 1 "loom check: /dev/zero: $msg" /dev/null "$LOOM" check /dev/zero
limited check-stdin 1 "loom check: -: $msg" /dev/zero "$LOOM" check -
truncate -s 300M "$tmp/big.ptx" || exit 99
limited check-regular 1 "loom check: $tmp/big.ptx: $msg" /dev/null "$LOOM" check "$tmp/big.ptx"
limited run-dev-zero 2 "loom run: /dev/zero: $msg" /dev/null "$LOOM" run /dev/zero --grid 1 --block 1
if mkfifo "$tmp/fifo"; then
    (timeout 60 sh -c 'exec cat /dev/zero >"$1"' sh "$tmp/fifo" 2>/dev/null &)
    limited check-fifo 1 "loom check: $tmp/fifo: $msg" /dev/null "$LOOM" check "$tmp/fifo"
fi
# A smaller file is read and parsed.
count=$((count + 1))
truncate -s 1M "$tmp/small.ptx"
"$LOOM" check "$tmp/small.ptx" >"$tmp/out" 2>&1
grep -q "limit on PTX input" "$tmp/out" && fail "small: refused: $(cat "$tmp/out")"

echo "input-limit.sh: $count cases, $fails failed"
[ "$fails" = 0 ]
