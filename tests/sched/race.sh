#!/bin/sh
# race.sh -- --sched-check reports a kernel and a copy of two streams that nothing orders
# and that use the same memory (tests/sched/race.cu), once, naming both; with an event
# between them, or on different halves of the buffer, it reports nothing. The summary line
# counts them (races=N). Exits 77 (skipped) without nvcc.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
loom=${LOOM:-${top_builddir:-$top}/loom}
NVCC=${NVCC:-$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)}
[ -x "$NVCC" ] || { echo "race.sh: nvcc not found; skipped"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$NVCC" --cudart shared -arch=sm_90 -o "$tmp/race" "$here/race.cu" || exit 99
fail=0
# One worker: the race mode's kernel and copy then never run at once (the check reports it
# when the copy is queued, while the kernel is in flight), so ThreadSanitizer builds see no
# race of their own in the emulator.
export LOOM_WORKERS=1
for mode in race event split; do
    for policy in fifo dag; do
        LOOM_SCHED_SUMMARY=1 "$loom" exec --sched $policy --sched-check "$tmp/race" $mode >"$tmp/out" 2>"$tmp/err" ||
            { echo "FAIL: $mode $policy: exit $?: $(cat "$tmp/err")"; fail=1; continue; }
        n=$(grep -c 'loom: sched-check:' "$tmp/err")
        races=$(sed -n 's/.*races=\([0-9]*\).*/\1/p' "$tmp/err")
        want=0; [ $mode = race ] && want=1
        if [ "$n" != $want ] || [ "$races" != $want ]; then
            echo "FAIL: $mode $policy: $n reports, races=$races, want $want:"; cat "$tmp/err"; fail=1
        elif [ $want = 1 ] && ! grep -q "kernel 'fill' (stream 1) and a copy (stream 2) both use the memory at 0x" "$tmp/err"; then
            echo "FAIL: $mode $policy: the report does not name both:"; cat "$tmp/err"; fail=1
        else
            echo "ok: $mode under $policy: $n report(s)"
        fi
    done
done
exit $fail
