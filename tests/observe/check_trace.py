#!/usr/bin/env python3
# check_trace.py -- validates a Chrome trace written by --trace (tests/observe/trace.sh):
#
#   check_trace.py FILE [--kernel NAME GRID BLOCK NARGS]... [--streams N] [--capped CAP]
#                       [--shape OTHER_FILE]
#
# Always: the file is one JSON object with traceEvents; the process is "Loom device"; every
# track that has events is named; the "host API" track holds cudaLaunchKernel; X events on
# each track nest (a slice inside another ends before it); every flow's end has its start.
# --kernel: a kernel slice of that short name with args grid/block ("X,Y,Z") and args count
# on a stream track, and CTA slices that end "done" on worker tracks, one per CTA of the
# grid (as many as the kernel slices' ctas add up to, every ctaid once per launch).
# --streams N: tracks "stream 0 (default)" .. "stream N-1" are named.
# --capped CAP: the trace stopped at CAP events and says so (instant event and otherData).
# --shape OTHER: OTHER has the same events in the same order, times aside (determinism).
# Prints "FAIL: ..." lines and exits 1 on any failure.
import json
import sys
from collections import Counter, defaultdict

fails = []


def fail(msg):
    fails.append(msg)


def ns(v):
    return round(float(v) * 1000)


def load(path):
    with open(path) as f:
        doc = json.load(f)
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        raise SystemExit(f"FAIL: {path}: not a JSON object with a traceEvents list")
    return doc


def shape(doc):
    return [{k: v for k, v in e.items() if k not in ("ts", "dur")} for e in doc["traceEvents"]]


def check_nesting(events):
    by_track = defaultdict(list)
    for e in events:
        if e["ph"] == "X":
            by_track[e["tid"]].append((ns(e["ts"]), ns(e["dur"]), e["name"]))
    for tid, slices in by_track.items():
        slices.sort(key=lambda s: (s[0], -s[1]))
        stack = []
        for start, dur, name in slices:
            while stack and stack[-1][0] <= start:
                stack.pop()
            if stack and start + dur > stack[-1][0]:
                fail(f"track {tid}: '{name}' at {start} ns (for {dur}) overlaps the end of '{stack[-1][1]}' "
                     f"at {stack[-1][0]} ns without nesting")
            stack.append((start + dur, name))


def main(argv):
    path = argv[1]
    kernels, streams, capped, other = [], 0, None, None
    i = 2
    while i < len(argv):
        if argv[i] == "--kernel":
            kernels.append((argv[i + 1], [int(x) for x in argv[i + 2].split(",")],
                            [int(x) for x in argv[i + 3].split(",")], int(argv[i + 4])))
            i += 5
        elif argv[i] == "--streams":
            streams = int(argv[i + 1])
            i += 2
        elif argv[i] == "--capped":
            capped = int(argv[i + 1])
            i += 2
        elif argv[i] == "--shape":
            other = argv[i + 1]
            i += 2
        else:
            raise SystemExit(f"check_trace.py: unknown argument {argv[i]}")
    doc = load(path)
    events = doc["traceEvents"]
    meta = [e for e in events if e["ph"] == "M"]
    names = {e["tid"]: e["args"]["name"] for e in meta if e["name"] == "thread_name"}
    if not any(e["name"] == "process_name" and e["args"]["name"] == "Loom device" for e in meta):
        fail("no process_name 'Loom device'")
    real = [e for e in events if e["ph"] != "M"]
    for tid in sorted({e["tid"] for e in real}):
        if tid not in names:
            fail(f"track {tid} has events but no thread_name")
    host = [t for t, n in names.items() if n == "host API"]
    if len(host) != 1:
        fail(f"want one 'host API' track, have {len(host)}")
    elif not any(e["tid"] == host[0] and e["name"] == "cudaLaunchKernel" for e in real) and capped is None:
        fail("no cudaLaunchKernel slice on the host API track")
    workers = {t for t, n in names.items() if n.startswith("worker ")}
    stream_tracks = {t for t, n in names.items() if n.startswith("stream ")}
    for k in range(streams):
        want = "stream 0 (default)" if k == 0 else f"stream {k}"
        if not any(n == want or n.startswith(want + " (") for n in names.values()):
            fail(f"no track named '{want}'")
    check_nesting(real)
    starts = {e["id"] for e in real if e["ph"] == "s"}
    for e in real:
        if e["ph"] == "f" and e["id"] not in starts:
            fail(f"flow {e['id']} ('{e['name']}') ends on track {e['tid']} but never starts")
    for name, grid, block, nargs in kernels:
        launches = [e for e in real if e["ph"] == "X" and e["tid"] in stream_tracks and e["name"] == name]
        if not launches:
            fail(f"no kernel slice '{name}' on a stream track")
            continue
        ids = set()
        for e in launches:
            a = e.get("args", {})
            if a.get("grid") != grid or a.get("block") != block or a.get("args") != nargs:
                fail(f"kernel '{name}': args {a}, want grid {grid}, block {block}, {nargs} args")
            if a.get("ctas") != grid[0] * grid[1] * grid[2]:
                fail(f"kernel '{name}': ctas {a.get('ctas')}, want {grid[0] * grid[1] * grid[2]}")
            ids.add(a.get("gridid"))
        ctas = [e for e in real if e.get("cat") == "cta" and e["name"] == name and e["args"]["gridid"] in ids]
        if any(e["tid"] not in workers for e in ctas):
            fail(f"kernel '{name}': CTA slices off the worker tracks")
        done = [e for e in ctas if e["args"]["end"] == "done"]
        want = sum(e["args"]["ctas"] for e in launches)
        if len(done) != want:
            fail(f"kernel '{name}': {len(done)} CTA slices end 'done' on the workers, want {want}")
        per = Counter((e["args"]["gridid"], tuple(e["args"]["ctaid"])) for e in done)
        if per and max(per.values()) != 1:
            fail(f"kernel '{name}': a CTA finished twice: {per.most_common(1)}")
        if any(not (0 <= c[0] < grid[0] and 0 <= c[1] < grid[1] and 0 <= c[2] < grid[2])
               for _, c in per):
            fail(f"kernel '{name}': a ctaid outside the grid")
    other_data = doc.get("otherData", {})
    if capped is not None:
        notes = [e for e in real if e["ph"] == "i" and e["name"] == f"trace capped at {capped} events"]
        if len(notes) != 1:
            fail(f"want one 'trace capped at {capped} events' instant, have {len(notes)}")
        if not other_data.get("capped") or other_data.get("cap") != capped or other_data.get("events") != capped:
            fail(f"otherData {other_data}, want capped at {capped} with {capped} events")
        if len(real) != capped + 1:
            fail(f"{len(real)} events besides metadata, want {capped} and the note")
    elif other_data.get("capped") is not False:
        fail(f"otherData {other_data}: capped without a cap")
    if other is not None and shape(doc) != shape(load(other)):
        fail(f"{path} and {other} differ in more than their times")
    for f in fails:
        print(f"FAIL: {path}: {f}")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
