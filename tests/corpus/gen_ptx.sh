#!/bin/sh
# Regenerates tests/corpus/ptx/<file>.<arch>[.lineinfo|.G].ptx from every tests/corpus/*.cu with
# nvcc: targets compute_75, compute_80, compute_90; plain, -lineinfo and -G. Exits 77 without nvcc.
#
#   tests/corpus/gen_ptx.sh [NVCC]        (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc)
#
# The PTX is committed; rerunning with the same nvcc rewrites identical files: the sources are
# compiled in a fixed folder and .file paths are made relative, so the output does not depend on
# where the checkout lives.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
nvcc=${1:-}
if [ -z "$nvcc" ]; then
    if command -v nvcc >/dev/null 2>&1; then
        nvcc=nvcc
    elif [ -x /usr/local/cuda/bin/nvcc ]; then
        nvcc=/usr/local/cuda/bin/nvcc
    else
        echo "gen_ptx.sh: nvcc not found, skipping" >&2
        exit 77
    fi
fi
command -v "$nvcc" >/dev/null 2>&1 || { echo "gen_ptx.sh: $nvcc not found, skipping" >&2; exit 77; }

# nvcc names internal-linkage functions (e.g. the headers' static min/max under -G) with a hash
# of the source's absolute path, so the sources are compiled from one fixed folder.
work=/tmp/loom-corpus-ptx
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
cp "$here"/*.cu "$work"/
mkdir -p "$here/ptx"
cd "$work"

for src in *.cu; do
    base=${src%.cu}
    for arch in 75 80 90; do
        for variant in plain lineinfo G; do
            case $variant in
            plain) flags=""; suffix="" ;;
            lineinfo) flags="-lineinfo"; suffix=".lineinfo" ;;
            G) flags="-G"; suffix=".G" ;;
            esac
            out="$here/ptx/$base.sm_$arch$suffix.ptx"
            # shellcheck disable=SC2086
            "$nvcc" -arch=compute_$arch -ptx $flags "$src" -o "$work/out.ptx"
            sed -e "s|\"$work/|\"|g" "$work/out.ptx" > "$out"
            echo "  ptx/$base.sm_$arch$suffix.ptx"
        done
    done
done
