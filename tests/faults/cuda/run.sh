#!/bin/sh
# run.sh -- `make check` test: the CUDA programs of tests/faults/cuda, built with nvcc
# --cudart shared and run under `loom exec`. A program passes when it exits 0 with PASS as
# its last line of stdout and its stderr (Loom's report), with host addresses and the source
# folder normalised, equals expected/NAME.err. A line "// ... env: VAR=VALUE" in the source
# sets the environment of its run; a line "// exit-status: N" makes exit status N (and no
# PASS line) its expected end.   REGEN=1 tests/faults/cuda/run.sh  rewrites the golden
# files; run.sh NAME... runs some. Exits 77 (skipped) when nvcc is not installed. A program
# marked "// golden-stdout" is compared case by case with expected/NAME.out instead (XFAIL).
# A program marked "// sorted-stderr" prints lines in an order that varies from run to run:
# its stderr is compared sorted, without the block and thread of Loom's report (which failing
# thread comes first varies too). Where expected/NAME.h100.err holds what the H100 printed on
# stderr, the lines Loom prints in the GPU's own format (not its "loom:" report) must equal
# those, in any order, each without its leading FILE:LINE.
set -u
top_builddir=$(cd "${top_builddir:-.}" && pwd)
srcdir=$(cd "${top_srcdir:-${srcdir:-.}}" && pwd)
LOOM=${LOOM:-$top_builddir/loom}
[ -x "$LOOM" ] || { echo "run.sh: $LOOM not built" >&2; exit 99; }
if [ -z "${NVCC:-}" ]; then
    NVCC=$(command -v nvcc 2>/dev/null || true)
    [ -n "$NVCC" ] || [ ! -x /usr/local/cuda/bin/nvcc ] || NVCC=/usr/local/cuda/bin/nvcc
fi
[ -n "$NVCC" ] || { echo "run.sh: nvcc not found; CUDA fault programs skipped"; exit 77; }
here=$srcdir/tests/faults/cuda
bin=$top_builddir/tests/faults/cuda/bin
mkdir -p "$bin" || exit 99
tmp=$(mktemp -d "${TMPDIR:-/tmp}/loom-faults-cuda.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
count=0

fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}

# check_cases NAME: a "golden-stdout" program prints blocks (a line naming a case, then its
# indented lines); each block must equal the one in expected/NAME.out, except for cases
# listed in XFAIL ("NAME CASE # reason"), which must differ: a listed case that passes fails.
# A case the program prints that expected/NAME.out lacks fails too.
check_cases() {
    rm -rf "$tmp/want.d" "$tmp/got.d"
    mkdir "$tmp/want.d" "$tmp/got.d"
    awk -v d="$tmp/want.d" '/^[^ ]/ { f = d "/" $1 } { print > f }' "$here/expected/$1.out"
    awk -v d="$tmp/got.d" '/^[^ ]/ { f = d "/" $1 } { print > f }' "$tmp/out"
    for want in "$tmp/want.d"/*; do
        case_name=$(basename "$want")
        reason=$(sed -n "s/^$1 $case_name[ 	]*#[ 	]*//p" "$here/XFAIL" 2>/dev/null | head -n 1)
        if cmp -s "$want" "$tmp/got.d/$case_name"; then
            [ -n "$reason" ] && fail "$1 $case_name: passes but is listed in XFAIL ($reason)"
        elif [ -n "$reason" ]; then
            echo "XFAIL: $1 $case_name ($reason)"
        else
            fail "$1 $case_name differs"
            diff "$want" "$tmp/got.d/$case_name" | sed 's/^/    /'
        fi
    done
    for got in "$tmp/got.d"/*; do
        [ -e "$tmp/want.d/$(basename "$got")" ] || fail "$1 $(basename "$got"): no expectation in expected/$1.out"
    done
}

if [ $# -eq 0 ]; then
    for f in "$here"/*.cu; do
        set -- "$@" "$(basename "$f" .cu)"
    done
fi
for name in "$@"; do
    src=$here/$name.cu exe=$bin/$name
    count=$((count + 1))
    if [ ! -x "$exe" ] || [ "$src" -nt "$exe" ] || [ "$here/fault_check.h" -nt "$exe" ]; then
        if ! "$NVCC" --cudart shared -gencode arch=compute_75,code=compute_75 -lineinfo -I"$here" \
                "$src" -o "$exe" 2>"$tmp/build"; then
            fail "$name: does not build"
            cat "$tmp/build"
            continue
        fi
    fi
    envs=$(sed -n 's/^\/\/.*env: *//p' "$src")
    want_rc=$(sed -n 's/^\/\/ exit-status: *//p' "$src")
    env $envs "$LOOM" exec --workers 2 "$exe" >"$tmp/out" 2>"$tmp/raw"
    rc=$?
    sed -E -e 's/0x[0-9a-f]{9,}/ADDR/g' -e "s|$srcdir/||g" -e 's/interrupted after [0-9.e+-]+ s/interrupted after N s/' \
        "$tmp/raw" >"$tmp/err"
    if grep -q '^// sorted-stderr' "$src"; then
        sed 's/^  block ([0-9,]*), thread ([0-9,]*)$/  block (B), thread (T)/' "$tmp/err" | sort >"$tmp/err.sorted"
        mv "$tmp/err.sorted" "$tmp/err"
    fi
    [ "${REGEN:-}" = 1 ] && ! grep -q '^// golden-stdout' "$src" && cp "$tmp/err" "$here/expected/$name.err"
    if grep -q '^// golden-stdout' "$src"; then
        check_cases "$name"
    elif [ -n "$want_rc" ]; then
        [ "$rc" = "$want_rc" ] || fail "$name: exit status $rc, not $want_rc"
    elif [ "$rc" != 0 ] || [ "$(tail -n 1 "$tmp/out")" != PASS ]; then
        fail "$name: exit status $rc"
        sed 's/^/    /' "$tmp/out"
    fi
    if ! grep -q '^// golden-stdout' "$src" && ! cmp -s "$tmp/err" "$here/expected/$name.err"; then
        fail "$name: stderr differs"
        diff "$here/expected/$name.err" "$tmp/err" | sed 's/^/    /'
    fi
    if [ -f "$here/expected/$name.h100.err" ]; then
        sed 's/^[^ ]*:[0-9]*: //' "$here/expected/$name.h100.err" | sort >"$tmp/gpu.want"
        grep -v -e '^loom:' -e '^  ' "$tmp/err" | sed 's/^[^ ]*:[0-9]*: //' | sort >"$tmp/gpu.got"
        if ! cmp -s "$tmp/gpu.want" "$tmp/gpu.got"; then
            fail "$name: the lines in the GPU's format differ from the H100's"
            diff "$tmp/gpu.want" "$tmp/gpu.got" | sed 's/^/    /'
        fi
    fi
done
echo "$count CUDA fault programs, $fails failure(s)"
[ "$fails" -eq 0 ]
