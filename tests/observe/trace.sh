#!/bin/sh
# trace.sh -- `make check` test of --trace (observe/trace.c): loom run and loom exec write a
# Chrome trace that check_trace.py validates (tracks, the kernel's slice and arguments, one
# CTA slice per CTA on the workers, nesting, flows; parked spans); --deterministic gives the
# same events in the same order; a cap stops recording with a note; an unwritable path is
# one line, exit 2, nothing run; --trace-warps gives each warp's slices and events, which
# add up to the statistics of the same run (check_warps.py).
# The loom exec part needs nvcc (tests/cuda/build.sh): without it the rest runs and the
# test says skipped (77).
set -u
top_builddir=$(cd "${top_builddir:-.}" && pwd)
top_srcdir=$(cd "${top_srcdir:-${srcdir:-.}}" && pwd)
LOOM=${LOOM:-$top_builddir/loom}
[ -x "$LOOM" ] || { echo "trace.sh: $LOOM not built" >&2; exit 99; }
command -v python3 >/dev/null || { echo "trace.sh: python3 not found" >&2; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/loom-trace.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
check="python3 $top_srcdir/tests/observe/check_trace.py"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# expect STATUS LINE -- COMMAND...: exit status and the whole of stderr
expect() {
    want_rc=$1 want=$2
    shift 3
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ "$rc" = "$want_rc" ] || fail "$*: exit $rc, want $want_rc"
    [ "$(cat "$tmp/err")" = "$want" ] || fail "$*: stderr is '$(cat "$tmp/err")', want '$want'"
}

# ---- loom run: 37 x 2 CTAs of tests/cli/one.ptx's scale kernel on 3 workers
scale() { echo "$top_srcdir/tests/cli/one.ptx --grid 37,2 --block 64 in:f32:4736=iota out:f32:4736>$1 f32:2 u32:4736"; }
"$LOOM" run -q --workers 3 $(scale "$tmp/plain.bin") || fail "loom run without --trace"
"$LOOM" run -q --workers 3 --trace "$tmp/run.json" $(scale "$tmp/traced.bin") || fail "loom run --trace"
cmp -s "$tmp/plain.bin" "$tmp/traced.bin" || fail "loom run --trace: the kernel's output differs"
$check "$tmp/run.json" --kernel scale 37,2,1 64,1,1 4 --streams 1 || fail "loom run's trace"

# --deterministic: the same events in the same order, run after run
for i in 1 2; do
    "$LOOM" run -q --deterministic --trace "$tmp/det$i.json" $(scale "$tmp/det.bin") || fail "deterministic run $i"
done
$check "$tmp/det2.json" --kernel scale 37,2,1 64,1,1 4 --shape "$tmp/det1.json" || fail "deterministic traces"

# CTAs that wait for later CTAs park: each run span is a slice of its own ("parked"), and
# still one span per CTA ends "done" (tests/sched/sched.ptx's producer_consumer, one worker)
"$LOOM" run -q --workers 1 --trace "$tmp/park.json" "$top_srcdir/tests/sched/sched.ptx" --kernel producer_consumer \
    --grid 64 --block 32 in:s32:64=zero "out:s32:64>$tmp/pc.bin" s32:64 || fail "loom run producer_consumer --trace"
$check "$tmp/park.json" --kernel producer_consumer 64,1,1 32,1,1 3 || fail "producer_consumer's trace"
grep -q '"end":"parked"' "$tmp/park.json" || fail "producer_consumer's trace has no parked CTA span"

# a cap of 5 events
"$LOOM" run -q --trace "$tmp/cap.json" --trace-cap 5 $(scale "$tmp/cap.bin") || fail "loom run --trace-cap 5"
$check "$tmp/cap.json" --capped 5 || fail "the capped trace"
cmp -s "$tmp/plain.bin" "$tmp/cap.bin" || fail "loom run --trace-cap: the kernel's output differs"

# unwritable paths: one line, exit 2, the kernel never runs (its output is not written)
expect 2 "loom run: cannot write the trace file '$tmp/none/t.json': No such file or directory" -- \
    "$LOOM" run --trace "$tmp/none/t.json" $(scale "$tmp/never.bin")
expect 2 "loom run: cannot write the trace file '$tmp': Is a directory" -- \
    "$LOOM" run --trace "$tmp" $(scale "$tmp/never.bin")
[ ! -e "$tmp/never.bin" ] || fail "loom run with an unwritable trace ran the kernel"
expect 2 "loom run: --trace-cap needs --trace FILE.json" -- "$LOOM" run --trace-cap 5 $(scale "$tmp/never.bin")
expect 2 "loom run: --trace-cap '0' must be a whole number of events above 0" -- \
    "$LOOM" run --trace "$tmp/z.json" --trace-cap 0 $(scale "$tmp/never.bin")
expect 2 "loom run: --trace given twice" -- "$LOOM" run --trace a.json --trace b.json $(scale "$tmp/never.bin")

# --trace-warps: each warp's slices and events against the statistics of the same run
# (check_warps.py): a divergent if/else (examples/labs/simt/ifelse) under the default policy
# and under thread frontiers, and a tiled matrix product with barriers
lab=$top_srcdir/examples/labs/simt/ifelse
for p in pdom frontier; do
    "$LOOM" run -q --workers 2 --simt $p --trace "$tmp/w-$p.json" --trace-warps --stats=json "$tmp/w-$p.stats" \
        "$lab/ifelse.ptx" --kernel ifelse --grid 2 --block 128 "out:u32:256>$tmp/w-$p.bin" s32:256 ||
        fail "ifelse --trace-warps --simt $p"
    cmp -s "$tmp/w-$p.bin" "$lab/expected/out.bin" 2>/dev/null || [ ! -e "$lab/expected/out.bin" ] ||
        fail "ifelse --trace-warps --simt $p: the output differs"
    python3 "$top_srcdir/tests/observe/check_warps.py" "$tmp/w-$p.json" "$tmp/w-$p.stats" $p || fail "warps ($p)"
done
mm=$top_srcdir/examples/matmul
"$LOOM" run -q --workers 2 --trace "$tmp/w-mm.json" --trace-warps --stats=json "$tmp/w-mm.stats" "$mm/matmul.ptx" \
    --kernel matmul_tiled --grid 5,4 --block 16,16 "in:f32:2000=@$mm/a.bin" "in:f32:2800=@$mm/b.bin" \
    "out:f32:3500>$tmp/w-mm.bin" s32:50 s32:70 s32:40 || fail "matmul_tiled --trace-warps"
python3 "$top_srcdir/tests/observe/check_warps.py" "$tmp/w-mm.json" "$tmp/w-mm.stats" pdom || fail "warps (matmul_tiled)"

# ---- loom exec: tests/cuda/src/stream_events.cu (two streams, events, the default stream)
expect 2 "loom exec: cannot write the trace file '$tmp/none/t.json': No such file or directory" -- \
    "$LOOM" exec --trace "$tmp/none/t.json" /bin/echo ran
[ ! -s "$tmp/out" ] || fail "loom exec with an unwritable trace ran the program"
bin=$top_builddir/tests/cuda/bin
if ! "$top_srcdir/tests/cuda/build.sh" --variants a "$bin" stream_events >"$tmp/build" 2>&1; then
    cat "$tmp/build"
    [ "$fails" -eq 0 ] || exit 1
    echo "trace.sh: the CUDA program could not be built; loom exec --trace skipped"
    exit 77
fi
prog=$bin/a/stream_events
"$LOOM" exec "$prog" >"$tmp/plain.out" 2>&1 || fail "stream_events without --trace"
"$LOOM" exec --trace "$tmp/exec.json" "$prog" >"$tmp/traced.out" 2>&1 || fail "stream_events with --trace"
grep -v '^info:' "$tmp/plain.out" >"$tmp/plain.cmp"
grep -v '^info:' "$tmp/traced.out" >"$tmp/traced.cmp"
cmp -s "$tmp/plain.cmp" "$tmp/traced.cmp" || fail "loom exec --trace: the program's output differs"
$check "$tmp/exec.json" --kernel produce 256,1,1 256,1,1 3 --kernel consume 256,1,1 256,1,1 3 --streams 3 ||
    fail "loom exec's trace"
grep -q '"name":"stream 2 (non-blocking)"' "$tmp/exec.json" || fail "no track 'stream 2 (non-blocking)'"
for what in '"event record"' '"event wait"' '"cudaStreamWaitEvent"' '"cudaEventElapsedTime"' '"memcpy DtoM"'; do
    grep -q "\"name\":$what" "$tmp/exec.json" || fail "loom exec's trace has no $what event"
done
for i in 1 2; do
    "$LOOM" exec --deterministic --trace "$tmp/xdet$i.json" "$prog" >/dev/null 2>&1 || fail "deterministic exec $i"
done
$check "$tmp/xdet2.json" --shape "$tmp/xdet1.json" || fail "deterministic exec traces"
LOOM_TRACE_CAP=3 "$LOOM" exec --trace "$tmp/xcap.json" "$prog" >"$tmp/cap.out" 2>&1 || fail "LOOM_TRACE_CAP=3"
$check "$tmp/xcap.json" --capped 3 || fail "the capped exec trace"
"$LOOM" exec --trace "$tmp/xcap2.json" --trace-cap 7 "$prog" >/dev/null 2>&1 || fail "--trace-cap 7"
$check "$tmp/xcap2.json" --capped 7 || fail "the exec trace capped by --trace-cap"
# a program that never uses CUDA leaves a valid, empty trace
"$LOOM" exec --trace "$tmp/empty.json" /bin/true 2>/dev/null || fail "loom exec --trace /bin/true"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d != {"traceEvents": []})' "$tmp/empty.json" ||
    fail "the trace of a program without CUDA calls: $(cat "$tmp/empty.json")"

echo "trace.sh: $fails failures"
[ "$fails" -eq 0 ]
