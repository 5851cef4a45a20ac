#!/bin/sh
# hints.sh -- a CUDA program's exact ranges (loom_launch_access, include/loom/hints.h) reach the
# dag policy: kernels that read through loaded pointers overlap with them (virtual time:
# overlapped=6) and wait for each other without (overlapped=0); the results are the same
# under fifo, dag with and without hints; --trace draws the virtual schedule. Exits 77
# (skipped) without nvcc.
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
# --trace draws the virtual schedule: each CTA on a "virtual SM" track, each kernel on a
# lane of its stream's "virtual stream" track; no two slices of a track overlap
LOOM_SCHED=dag "$loom" exec --timing model --trace "$tmp/t.json" "$tmp/hints" >/dev/null 2>&1 || { echo "FAIL: --trace run"; fail=1; }
python3 - "$tmp/t.json" <<'PY' || fail=1
import json, sys
ev = json.load(open(sys.argv[1]))
ev = ev["traceEvents"] if isinstance(ev, dict) else ev
names = {e["tid"]: e["args"]["name"] for e in ev if e.get("ph") == "M" and e.get("name") == "thread_name"}
sm = [e for e in ev if e.get("ph") == "X" and names.get(e["tid"], "").startswith("virtual SM")]
ops = [e for e in ev if e.get("ph") == "X" and names.get(e["tid"], "").startswith("virtual stream")]
bad = []
for tid in {e["tid"] for e in ops}:
    s = sorted((e["ts"], e["ts"] + e["dur"]) for e in ops if e["tid"] == tid)
    bad += [(tid, a, b) for a, b in zip(s, s[1:]) if b[0] < a[1] - 1e-6]
kernels = [e for e in ops if e["name"] == "gather"]
if len(sm) != 6 * 16 or len(kernels) != 6 or bad or len({e["tid"] for e in kernels}) < 2:
    print("FAIL: virtual tracks: %d CTA slices (want 96), %d kernels (want 6) on %d lanes, overlaps %s"
          % (len(sm), len(kernels), len({e["tid"] for e in kernels}), bad[:3]))
    sys.exit(1)
print("ok: the trace draws 96 virtual CTAs and 6 kernels on %d lanes" % len({e["tid"] for e in kernels}))
PY
exit $fail
