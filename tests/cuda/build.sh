#!/bin/sh
# build.sh -- builds Loom's CUDA test programs with nvcc --cudart shared, in the variants that
# cover how nvcc embeds PTX (compute_75 and compute_90; zstd, LZ4 and raw; with and without -lineinfo).
#
#   build.sh [-j N] [--variants quick|all|LIST] OUTDIR [NAME...]
#
# Each program NAME (src/NAME.cu, or the folder src/NAME/ of an -rdc program) is built as
# OUTDIR/VARIANT/NAME. Extra nvcc flags come from a line "// nvcc-flags: ..." in the source.
# quick (the default): every program in variant a plus one more variant in rotation, and
# vector_add in every variant; all: every program in every variant; or a comma-separated
# list of variants. Builds are incremental. NVCC overrides the compiler. A program that
# needs sm_90 says "// nvcc-arch: 90": its variants leave compute_75 out, and variant d
# (compute_75 alone) skips it.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
src=$here/src
jobs=2
variants=quick
while [ $# -gt 0 ]; do
    case $1 in
    -j) jobs=$2; shift 2 ;;
    -j*) jobs=${1#-j}; shift ;;
    --variants) variants=$2; shift 2 ;;
    --variants=*) variants=${1#--variants=}; shift ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) break ;;
    esac
done
[ $# -ge 1 ] || { echo "usage: build.sh [-j N] [--variants quick|all|LIST] OUTDIR [NAME...]" >&2; exit 2; }
out=$1
shift

if [ -z "${NVCC:-}" ]; then
    NVCC=$(command -v nvcc 2>/dev/null || true)
    [ -n "$NVCC" ] || [ ! -x /usr/local/cuda/bin/nvcc ] || NVCC=/usr/local/cuda/bin/nvcc
fi
[ -n "$NVCC" ] || { echo "build.sh: nvcc not found" >&2; exit 77; }

# One build of OUTDIR at a time (tests/simt/policies.sh builds variant a while run-tests.sh
# may build the same folder): the second waits, then finds the programs up to date.
mkdir -p "$out" || exit 1
if command -v flock >/dev/null 2>&1; then
    exec 9>"$out/.build.lock"
    flock 9
fi

# The variants: how the PTX is embedded.
flags_of() {
    c75='-gencode arch=compute_75,code=compute_75'
    c90='-gencode arch=compute_90,code=compute_90'
    case $1 in
    a) echo "$c75 $c90" ;;
    b) echo "$c75 $c90 --compress-mode=speed -lineinfo" ;;
    c) echo "$c75 $c90 --compress-mode=none" ;;
    d) echo "$c75 -lineinfo" ;;
    e) echo "$c90 --compress-mode=speed" ;;
    f) echo "$c90 --compress-mode=none -lineinfo" ;;
    *) echo "build.sh: unknown variant $1" >&2; return 1 ;;
    esac
}
all_variants="a b c d e f"
rotation="b c d e f"

if [ $# -eq 0 ]; then
    set --
    for f in "$src"/*.cu "$src"/*/; do
        [ -e "$f" ] || continue
        n=$(basename "$f" .cu)
        set -- "$@" "$n"
    done
fi

# nth K WORD...: the K-th word (from 0).
nth() {
    k=$1
    shift
    shift "$k"
    echo "$1"
}

# Writes "VARIANT NAME" lines: what to build.
plan() {
    i=0
    for name in "$@"; do
        case $variants in
        all) vs=$all_variants ;;
        quick)
            if [ "$name" = vector_add ]; then
                vs=$all_variants
            else
                vs="a $(nth $((i % 5)) $rotation)"
            fi ;;
        *) vs=$(echo "$variants" | tr ',' ' ') ;;
        esac
        for v in $vs; do echo "$v $name"; done
        i=$((i + 1))
    done
}

# Builds one program in one variant (skipped when up to date).
build_one() {
    v=$1 name=$2
    if [ -d "$src/$name" ]; then
        files=$(ls "$src/$name"/*.cu)
        rdc=-rdc=true
    else
        files=$src/$name.cu
        rdc=
    fi
    target=$out/$v/$name
    mkdir -p "$out/$v"
    newest=$(ls -t $files "$src"/check.h "$src/$name"/*.h 2>/dev/null | head -n 1)
    if [ -e "$target" ] && [ "$target" -nt "$newest" ] && [ "$target" -nt "$0" ]; then
        return 0
    fi
    extra=$(sed -n 's|^// nvcc-flags: *||p' $files | tr '\n' ' ')
    flags=$(flags_of "$v")
    if grep -q '^// nvcc-arch: 90' $files; then
        flags=$(echo "$flags" | sed 's|-gencode arch=compute_75,code=compute_75||')
        case $flags in *compute_90*) ;; *) return 0 ;; esac
    fi
    # shellcheck disable=SC2046
    if ! "$NVCC" --cudart shared -O2 -std=c++17 $flags $rdc $extra -o "$target.tmp" $files \
            > "$target.log" 2>&1; then
        echo "build.sh: $v/$name failed:" >&2
        cat "$target.log" >&2
        rm -f "$target.tmp"
        return 1
    fi
    mv "$target.tmp" "$target"
    rm -f "$target.log"
}

export out src NVCC
status=0
mkdir -p "$out"
plan "$@" > "$out/.plan"
running=0
pids=
while read -r v name; do
    build_one "$v" "$name" &
    pids="$pids $!"
    running=$((running + 1))
    if [ $running -ge "$jobs" ]; then
        for p in $pids; do wait "$p" || status=1; done
        pids=
        running=0
    fi
done < "$out/.plan"
for p in $pids; do wait "$p" || status=1; done
rm -f "$out/.plan"
exit $status
