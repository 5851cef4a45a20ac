#!/bin/sh
# hints.sh -- a CUDA program's exact ranges (loom_launch_access, include/loom/hints.h) reach the
# dag policy: kernels that read through loaded pointers overlap with them (virtual time:
# overlapped=6) and wait for each other without (overlapped=0); the results are the same
# under fifo, dag with and without hints. Exits 77 (skipped) without nvcc.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
loom=${LOOM:-${top_builddir:-$top}/loom}
NVCC=${NVCC:-$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)}
[ -x "$NVCC" ] || { echo "hints.sh: nvcc not found; skipped"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$NVCC" --cudart shared -arch=sm_90 -I"$top/include" -o "$tmp/hints" "$here/hints.cu" || exit 99
fail=0
want=$("$loom" exec "$tmp/hints") || { echo "FAIL: fifo run: $want"; exit 1; }
for mode in hints nohints; do
    arg=; [ $mode = nohints ] && arg=nohints
    out=$(LOOM_SCHED=dag "$loom" exec --timing model "$tmp/hints" $arg 2>"$tmp/err") || { echo "FAIL: dag $mode: $(cat "$tmp/err")"; fail=1; continue; }
    [ "$out" = "$want" ] || { echo "FAIL: dag $mode printed '$out', fifo '$want'"; fail=1; }
    line=$(grep 'loom: schedule:' "$tmp/err")
    case $mode in
    hints) expect="overlapped=6 " ;;
    nohints) expect="overlapped=0 " ;;
    esac
    case "$line" in
    *"$expect"*) echo "ok: dag $mode: $expect($line)" ;;
    *) echo "FAIL: dag $mode: '$line' lacks '$expect'"; fail=1 ;;
    esac
done
exit $fail
