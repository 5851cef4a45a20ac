#!/bin/sh
# Regenerates examples/<name>/<name>.ptx and the SIMT labs' examples/labs/simt/<name>/<name>.ptx
# (compute_75, no debug info), and the memory labs' examples/labs/memory/<name>/<name>.ptx
# (sm_90: their counts are an H100's), from the <name>.cu beside them
# with nvcc. Exits 77 when nvcc is absent. Like tests/corpus/gen_ptx.sh it compiles in a fixed
# folder, so the output does not depend on where the checkout lives.
#
#   examples/gen_ptx.sh [NVCC]

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

work=/tmp/loom-examples-ptx
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT

for src in "$here"/*/*.cu "$here"/labs/simt/*/*.cu "$here"/labs/memory/*/*.cu; do
    dir=$(dirname "$src")
    name=$(basename "$src" .cu)
    arch=compute_75
    case $dir in */labs/memory/*) arch=sm_90 ;; esac
    cp "$src" "$work/$name.cu"
    (cd "$work" && "$nvcc" -arch=$arch -ptx "$name.cu" -o "$name.ptx")
    cp "$work/$name.ptx" "$dir/$name.ptx"
    echo "  $(basename "$dir")/$name.ptx"
done
