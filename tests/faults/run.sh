#!/bin/sh
# run.sh -- `make check` test: each kind of kernel fault, run through `loom run`, gives
# exactly the report in expected/NAME.err and the exit status given here. Host addresses
# vary run to run, so every hexadecimal number of more than 8 digits reads ADDR; offsets,
# sizes and lane masks stay exact.   REGEN=1 tests/faults/run.sh  rewrites the golden files.
# (Use after free needs a cudaFree between launches: cuda/use_after_free.cu covers it.)
set -u
top_builddir=$(cd "${top_builddir:-.}" && pwd)
srcdir=${top_srcdir:-${srcdir:-.}}
LOOM=${LOOM:-$top_builddir/loom}
[ -x "$LOOM" ] || { echo "run.sh: $LOOM not built" >&2; exit 99; }
cd "$srcdir" || exit 99
here=tests/faults
tmp=$(mktemp -d "${TMPDIR:-/tmp}/loom-faults.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
count=0

fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}

normalise() {
    sed -E 's/0x[0-9a-f]{9,}/ADDR/g' "$@"
}

# fault NAME STATUS PTX ARGS...: `loom run PTX ARGS` exits with STATUS, prints nothing on
# stdout and, once addresses are normalised, exactly expected/NAME.err on stderr.
fault() {
    name=$1 want=$2 ptx=$3
    shift 3
    count=$((count + 1))
    "$LOOM" run "$here/$ptx" "$@" >"$tmp/out" 2>"$tmp/raw"
    rc=$?
    normalise "$tmp/raw" >"$tmp/err"
    if [ "${REGEN:-}" = 1 ]; then
        cp "$tmp/err" "$here/expected/$name.err"
    fi
    [ "$rc" = "$want" ] || fail "$name: exit status $rc, want $want"
    [ -s "$tmp/out" ] && fail "$name: printed on stdout: $(head -c 200 "$tmp/out")"
    if ! cmp -s "$tmp/err" "$here/expected/$name.err"; then
        fail "$name: report differs"
        diff "$here/expected/$name.err" "$tmp/err" | sed 's/^/    /'
    fi
}

O="$tmp/o.bin"
fault oob_global_read 1 oob_global.ptx --kernel oob_read --grid 2 --block 64 in:s32:128=iota "out:s32:128>$O" s32:1
fault oob_global_write 1 oob_global.ptx --kernel oob_write --grid 2 --block 64 "out:s32:128>$O" s32:7
fault oob_shared 1 oob_shared.ptx --grid 1 --block 64 "out:s32:64>$O" s32:64
fault oob_local 1 oob_local.ptx --grid 1 --block 64 "out:s32:64>$O" s32:100000
fault misaligned 1 misaligned.ptx --grid 1 --block 64 in:u8:1024=zero "out:s32:64>$O" s32:2
fault readonly 1 readonly.ptx --grid 1 --block 64 s32:9
fault null_ptr 1 null_ptr.ptx --grid 1 --block 64 u64:0 s32:9
fault trap 1 trap.ptx --grid 2 --block 64 "out:s32:128>$O"
fault assert 1 assert.ptx --grid 2 --block 64 in:s32:128=iota s32:128
fault deadlock 1 deadlock.ptx --grid 1 --block 64 "out:s32:64>$O"
fault mbarrier_uninit 1 mbarrier.ptx --kernel mb_uninit --grid 1 --block 64
fault mbarrier_underflow 1 mbarrier.ptx --kernel mb_underflow --grid 1 --block 64
fault mbarrier_wrong_phase 1 mbarrier.ptx --kernel mb_wrong_phase --grid 1 --block 64
fault cluster_wait_alone 1 mbarrier.ptx --kernel cluster_wait_alone --grid 1 --block 64
fault timeout 1 spin.ptx --kernel spin --grid 1 --block 1024 --timeout 0.2 "out:s32:1024>$O"

# clean NAME PTX ARGS...: `loom run PTX ARGS` succeeds silently (checks that find nothing).
clean() {
    name=$1 ptx=$2
    shift 2
    count=$((count + 1))
    "$LOOM" run "$here/$ptx" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ "$rc" = 0 ] || fail "$name: exit status $rc, want 0"
    [ -s "$tmp/out" ] && fail "$name: printed on stdout: $(head -c 200 "$tmp/out")"
    [ -s "$tmp/err" ] && fail "$name: printed on stderr: $(head -c 400 "$tmp/err")"
}

# --initcheck: device memory read before anything wrote it; --racecheck: shared memory
# accessed by two threads with no barrier between them, at least one writing.
fault initcheck 1 initcheck.ptx --kernel heap_uninit --initcheck --grid 1 --block 64 "out:s32:64>$O" s32:64
fault initcheck_atomic 1 initcheck.ptx --kernel heap_atomic --initcheck --grid 1 --block 64 in:s32:64=iota "out:s32:16>$O"
clean initcheck_clean initcheck.ptx --kernel all_written --initcheck --grid 2 --block 64 in:s32:64=iota "out:s32:64>$O"
clean initcheck_off initcheck.ptx --kernel heap_uninit --grid 1 --block 64 "out:s32:64>$O" s32:64
fault race_neighbour 1 race.ptx --kernel neighbour --racecheck --grid 1 --block 64 "out:s32:64>$O"
fault race_warp_scan 1 race.ptx --kernel warp_scan --racecheck --grid 1 --block 32 in:s32:32=iota "out:s32:32>$O"
clean race_warp_scan_off race.ptx --kernel warp_scan --grid 1 --block 32 in:s32:32=iota "out:s32:32>$O"
clean race_syncwarp race.ptx --kernel warp_scan_synced --racecheck --grid 1 --block 32 in:s32:32=iota "out:s32:32>$O"
clean race_reduce race.ptx --kernel reduce --racecheck --grid 2 --block 256 in:s32:256=iota "out:s32:2>$O"
clean race_atomics race.ptx --kernel histogram --racecheck --grid 2 --block 256 in:s32:256=iota "out:s32:16>$O"

# Ctrl-C during a kernel: the report says where every warp is; the exit status is 130.
# The signal must come while the kernel runs: a run that died before it started (no
# report) is tried again with a longer delay. The shell starts background commands with
# SIGINT ignored, so that an early signal would be lost and the kernel spin forever: env
# restores the default action until loom installs its handler.
count=$((count + 1))
for delay in 0.5 1 2 4; do
    env --default-signal=INT "$LOOM" run "$here/spin.ptx" --kernel spin --grid 1 --block 256 "out:s32:256>$O" >"$tmp/out" 2>"$tmp/raw" &
    pid=$!
    sleep "$delay"
    kill -INT "$pid"
    wait "$pid"
    rc=$?
    [ -s "$tmp/raw" ] && break
done
normalise "$tmp/raw" | sed -E 's/interrupted after [0-9.e+-]+ s/interrupted after N s/' >"$tmp/err"
[ "${REGEN:-}" = 1 ] && cp "$tmp/err" "$here/expected/interrupt.err"
[ "$rc" = 130 ] || fail "interrupt: exit status $rc, want 130"
if ! cmp -s "$tmp/err" "$here/expected/interrupt.err"; then
    fail "interrupt: report differs"
    diff "$here/expected/interrupt.err" "$tmp/err" | sed 's/^/    /'
fi

echo "$((count - fails)) of $count fault reports as expected"
[ "$fails" -eq 0 ]
