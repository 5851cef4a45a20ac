#!/bin/sh
# run.sh -- `make check` test: the debugger's scripted scenarios. Each scenarios/NAME.gdb is a
# batch file whose first line says what to debug:
#     # loom debug ARGS          loom debug ARGS --batch NAME.gdb   (ARGS as a shell would split them)
#     # loom exec PROGRAM ARGS   loom exec --debug --batch NAME.gdb PROGRAM ARGS, PROGRAM built from
#                              tests/debug/PROGRAM.cu with nvcc (these run under exec.sh)
# and more lines may say how:
#     # ex: COMMAND              passed as -ex COMMAND (in order, before the batch file's)
#     # stdin                    the file is typed on standard input instead of --batch
#     # same-as-run              the files the kernel wrote equal those of a plain loom run ARGS
# @OUT@ in ARGS is a fresh folder for the kernel's output files. The transcript -- standard
# output and error together, then "[exit status N]" -- must equal expected/NAME.out exactly,
# once host addresses (hexadecimal numbers of more than 8 digits, which vary run to run) read
# ADDR. Runs from the source tree, so that the fixtures' CUDA lines are found.
#     REGEN=1 tests/debug/run.sh [NAME...]   rewrites the expected transcripts (check them!)
# DEBUG_SCENARIOS=exec runs the loom exec ones (exits 77 without nvcc), else the loom debug ones.
set -u
top_builddir=$(cd "${top_builddir:-.}" && pwd)
srcdir=$(cd "${top_srcdir:-${srcdir:-.}}" && pwd)
LOOM=${LOOM:-$top_builddir/loom}
[ -x "$LOOM" ] || { echo "run.sh: $LOOM not built" >&2; exit 99; }
cd "$srcdir" || exit 99
here=tests/debug
mode=${DEBUG_SCENARIOS:-debug}
if [ "$mode" = exec ]; then
    if [ -z "${NVCC:-}" ]; then
        NVCC=$(command -v nvcc 2>/dev/null || true)
        [ -n "$NVCC" ] || [ ! -x /usr/local/cuda/bin/nvcc ] || NVCC=/usr/local/cuda/bin/nvcc
    fi
    [ -n "$NVCC" ] || { echo "run.sh: nvcc not found; the loom exec --debug scenarios are skipped"; exit 77; }
    bin=$top_builddir/tests/debug/bin
    mkdir -p "$bin" || exit 99
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/loom-debug.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
count=0

fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}

# build PROGRAM: bin/PROGRAM from tests/debug/PROGRAM.cu, when older than its source.
build() {
    if [ ! -x "$bin/$1" ] || [ "$here/$1.cu" -nt "$bin/$1" ]; then
        "$NVCC" --cudart shared -gencode arch=compute_90,code=compute_90 -lineinfo "$here/$1.cu" \
            -o "$bin/$1" 2>"$tmp/build" || { cat "$tmp/build"; return 1; }
    fi
}

names_given=$*
if [ $# -eq 0 ]; then
    for f in "$here"/scenarios/*.gdb; do
        set -- "$@" "$(basename "$f" .gdb)"
    done
fi
for name in "$@"; do
    script=$here/scenarios/$name.gdb
    [ -f "$script" ] || { fail "$name: no $script"; continue; }
    head=$(head -n 1 "$script")
    case $head in
    "# loom exec "*) [ "$mode" = exec ] || continue ;;
    "# loom debug "*) [ "$mode" = debug ] || continue ;;
    *) fail "$name: the first line must be '# loom debug ARGS' or '# loom exec PROGRAM ARGS'"; continue ;;
    esac
    count=$((count + 1))
    rm -rf "$tmp/out" "$tmp/plain"
    mkdir "$tmp/out" "$tmp/plain"
    args=$(printf '%s\n' "$head" | sed "s/^# loom [a-z]* //; s|@OUT@|$tmp/out|g")
    # -ex commands, in order
    set --
    while IFS= read -r line; do
        case $line in "# ex: "*) set -- "$@" -ex "${line#\# ex: }" ;; esac
    done <"$script"
    stdin=/dev/null
    batch="--batch $script"
    if grep -qx '# stdin' "$script"; then
        stdin=$script
        batch=
    fi
    if [ "$mode" = exec ]; then
        prog=${args%% *}
        build "$prog" || { fail "$name: $prog.cu does not build"; continue; }
        rest=${args#"$prog"}
        eval "\"\$LOOM\" exec --debug $batch \"\$@\" \"\$bin/\$prog\" $rest" <"$stdin" >"$tmp/raw" 2>&1
    else
        eval "\"\$LOOM\" debug $args $batch \"\$@\"" <"$stdin" >"$tmp/raw" 2>&1
    fi
    echo "[exit status $?]" >>"$tmp/raw"
    sed -E 's/0x[0-9a-f]{9,}/ADDR/g' "$tmp/raw" >"$tmp/got"
    want=$here/expected/$name.out
    [ "${REGEN:-}" = 1 ] && cp "$tmp/got" "$want"
    if ! cmp -s "$tmp/got" "$want"; then
        fail "$name: the transcript differs from $want"
        diff "$want" "$tmp/got" | head -n 40 | sed 's/^/    /'
    fi
    if grep -qx '# same-as-run' "$script"; then
        plain=$(printf '%s\n' "$head" | sed "s/^# loom [a-z]* //; s|@OUT@|$tmp/plain|g")
        eval "\"\$LOOM\" run $plain" >/dev/null 2>&1 || fail "$name: the plain loom run failed"
        for f in "$tmp/plain"/*; do
            cmp -s "$f" "$tmp/out/$(basename "$f")" ||
                fail "$name: $(basename "$f") differs from what loom run writes without the debugger"
        done
    fi
done
# usage NAME STATUS WANT COMMAND...: a wrong command line exits with STATUS, printing WANT alone.
usage() {
    uname=$1 ustatus=$2 uwant=$3
    shift 3
    count=$((count + 1))
    "$@" >"$tmp/uout" 2>&1 </dev/null
    urc=$?
    [ "$urc" = "$ustatus" ] || fail "$uname: exit status $urc, want $ustatus"
    [ "$(cat "$tmp/uout")" = "$uwant" ] || fail "$uname: printed '$(cat "$tmp/uout")', want '$uwant'"
}
# (only when all scenarios run: a run of some names checks those alone)
if [ "$mode" = debug ] && [ -z "$names_given" ]; then
    B="$here/basic.ptx --grid 2 --block 64 s32:100 f32:2 in:f32:100=iota"
    usage no_file 2 "loom debug: which PTX file? (see 'loom help debug')" "$LOOM" debug
    usage no_batch 2 "loom debug: cannot read the batch file '$tmp/none': No such file or directory" \
        "$LOOM" debug $B "out:f32:100>$tmp/y.bin" --batch "$tmp/none"
    usage batch_value 2 "loom debug: --batch needs a value (see 'loom help debug')" "$LOOM" debug $B --batch
    usage ex_value 2 "loom debug: -ex needs a value (see 'loom help debug')" "$LOOM" debug $B -ex
    usage run_line 2 "loom debug: --grid is required" "$LOOM" debug "$here/basic.ptx" --block 64 -ex run
    usage exec_batch 2 "loom exec: --batch and -ex need --debug" "$LOOM" exec --batch "$here/run.sh" /bin/true
    usage exec_report 2 "loom exec: --debug runs the program once: not with --report or several --simt policies" \
        "$LOOM" exec --debug --simt pdom,its /bin/true
    usage exec_no_batch 2 "loom exec: cannot read the batch file '$tmp/none': No such file or directory" \
        "$LOOM" exec --debug --batch "$tmp/none" /bin/true
fi
echo "run.sh: $count $mode scenarios and command lines, $fails failed"
[ "$fails" -eq 0 ]
