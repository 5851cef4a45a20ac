#!/usr/bin/env bash
# run.sh -- CTAs that wait for other CTAs (a flag set by a later CTA, a work
# queue, a software grid barrier, a cooperative grid sync) complete with 1, 2
# and 16 workers and give the right results; deterministic mode repeats printf
# output exactly whatever the worker count; --stats shows residency over time; the
# default worker count follows the CPU affinity mask.
set -u
here=$(cd "$(dirname "$0")" && pwd)
loom=${LOOM:-$here/../../loom}
ptx=$here/sched.ptx
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
check() {   # name python-expression-over-numpy-free-lists
    python3 - "$@" <<'PY' || return 1
import struct, sys
name, path, typ, n, expr = sys.argv[1:6]
n = int(n)
v = list(struct.unpack("<%d%s" % (n, typ), open(path, "rb").read()))
want = eval(expr, {"n": n})
if v != want:
    bad = [i for i in range(n) if v[i] != want[i]][:5]
    print("%s: wrong at %s: got %s want %s" % (name, bad, [v[i] for i in bad], [want[i] for i in bad]))
    sys.exit(1)
PY
}
for w in 1 2 16; do
    export LOOM_WORKERS=$w
    run() { timeout 120 "$loom" run "$ptx" "$@" 2>"$tmp/err" || { echo "workers=$w: loom run $* failed: $(cat "$tmp/err")"; return 1; }; }
    n=64
    run --kernel producer_consumer --grid $n --block 32 in:s32:$n=zero "out:s32:$n>$tmp/pc.bin" s32:$n &&
        check "producer_consumer w=$w" "$tmp/pc.bin" i $n "[((b + n//2 + 1) * 2) if b < n//2 else b for b in range(n)]" || fail=1
    run --kernel work_queue --grid 4 --block 64 in:u32:1=zero in:s32:500=iota "out:s32:500>$tmp/wq.bin" s32:500 &&
        check "work_queue w=$w" "$tmp/wq.bin" i 500 "[v*(v-1)//2 for v in range(500)]" || fail=1
    m=4000
    run --kernel soft_grid_barrier --grid 32 --block 128 in:u32:2=zero "out:s32:$m>$tmp/gb.bin" s32:$m &&
        check "soft_grid_barrier w=$w" "$tmp/gb.bin" i $m "[((i+1)%n) + ((i+2)%n) for i in range(n)]" || fail=1
    run --kernel coop_grid_sync --cooperative --grid 32 --block 128 "out:s32:$m>$tmp/cg.bin" s32:$m &&
        check "coop_grid_sync w=$w" "$tmp/cg.bin" i $m "[((i+1)%n) + ((i+2)%n) for i in range(n)]" || fail=1
done
# A grid sync without a cooperative launch traps, as on the GPU.
LOOM_WORKERS=2 "$loom" run "$ptx" --kernel coop_grid_sync --grid 4 --block 32 "out:s32:128>$tmp/x.bin" s32:128 \
    >/dev/null 2>"$tmp/err" && { echo "grid sync without a cooperative launch did not fail"; fail=1; }
grep -q "trap" "$tmp/err" || { echo "expected a trap report, got: $(cat "$tmp/err")"; fail=1; }
# --stats: residency over time, parks and wake-ups (16 workers sample while CTAs wait on
# later CTAs, so the timeline shows more CTAs resident than workers running).
LOOM_WORKERS=16 "$loom" run "$ptx" --stats --kernel producer_consumer --grid 64 --block 32 in:s32:64=zero \
    "out:s32:64>$tmp/pc.bin" s32:64 2>"$tmp/err" || { echo "producer_consumer --stats failed"; fail=1; }
for want in "CTAs on 16 workers" " parks (CTAs set aside unfinished)" "worker wake-up" "residency over time" \
        "  CTAs resident " "  workers running " "workers ran CTAs"; do
    grep -q -- "$want" "$tmp/err" || { echo "--stats output lacks '$want': $(cat "$tmp/err")"; fail=1; }
done
# Workers default to one per core the process may run on: taskset to one CPU gives one.
if command -v taskset >/dev/null; then
    cpu=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')
    env -u LOOM_WORKERS taskset -c "$cpu" "$loom" info >"$tmp/info" 2>&1
    grep -q "Workers: *1, one per core, on PU $cpu " "$tmp/info" ||
        { echo "loom info under taskset -c $cpu: $(grep Workers "$tmp/info")"; fail=1; }
    env -u LOOM_WORKERS taskset -c "$cpu" "$loom" run "$ptx" --stats --kernel producer_consumer --grid 8 \
        --block 32 in:s32:8=zero "out:s32:8>$tmp/pc.bin" s32:8 2>"$tmp/err"
    grep -q "CTAs on 1 worker " "$tmp/err" || { echo "taskset -c $cpu: $(grep 'CTAs on' "$tmp/err")"; fail=1; }
fi
# Deterministic mode: printf order identical with 1 and 16 workers, run after run.
for w in 1 16 16; do
    LOOM_WORKERS=$w "$loom" run "$ptx" --deterministic --kernel print_order --grid 40 --block 128 s32:40 > "$tmp/p$w.txt" || fail=1
done
cmp -s "$tmp/p1.txt" "$tmp/p16.txt" || { echo "deterministic printf order differs between 1 and 16 workers"; fail=1; }
[ "$(wc -l < "$tmp/p1.txt")" -eq 160 ] || { echo "print_order printed $(wc -l < "$tmp/p1.txt") lines, want 160"; fail=1; }
exit $fail
