#!/usr/bin/env python3
"""counters.py -- counting changes nothing (issue 17).

With --stats (every instruction observed, docs/OBSERVE.md) a kernel must compute what it
computes without counters and report the same totals: warp and thread instructions,
divergent branches, barrier waits and the SIMT issue model's counts. This runs every row
of the examples' and the SIMT labs' runs.txt under four policies with --stats=brief and
with --stats, and compares the totals and the output files; then checks the JSON document
of one run: well-formed, the schema's keys, per-line counts that add up.
"""
import glob
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LOOM = os.environ.get("LOOM", os.path.join(TOP, "loom"))
POLICIES = ["pdom", "frontier", "dwf", "its"]
KEEP = re.compile(r"warp instructions|SIMT \(|slots by active|dynamic warps formed|co-issued")


def rows():
    for rt in sorted(glob.glob(os.path.join(TOP, "examples", "*", "runs.txt")) +
                     glob.glob(os.path.join(TOP, "examples", "labs", "simt", "*", "runs.txt"))):
        for line in open(rt):
            line = line.strip()
            if line and not line.startswith("#"):
                yield os.path.dirname(rt), line.split(": ", 1)[1]


def run(folder, args, out, extra):
    argv = [LOOM, "run"] + shlex.split(args.replace("OUT", out)) + ["--workers", "1"] + extra
    r = subprocess.run(argv, cwd=folder, capture_output=True, text=True)
    totals = [re.sub(r"[0-9.]+ s,", "", l) for l in r.stderr.splitlines() if KEEP.search(l)]
    outputs = {}
    for f in sorted(os.listdir(out)):
        with open(os.path.join(out, f), "rb") as fh:
            outputs[f] = fh.read()
        os.remove(os.path.join(out, f))
    return r.returncode, totals, outputs


def main():
    failures = 0
    n = 0
    with tempfile.TemporaryDirectory() as tmp:
        for folder, args in rows():
            for pol in POLICIES:
                a = run(folder, args, tmp, ["--simt", pol, "--stats=brief"])
                b = run(folder, args, tmp, ["--simt", pol, "--stats"])
                n += 1
                if a != b or not a[1]:
                    failures += 1
                    print(f"FAIL {os.path.relpath(folder, TOP)} --simt {pol}: {args}")
                    print("  without counters:", a[0], a[1])
                    print("  with counters:   ", b[0], b[1])
        print(f"{n} runs: the same results and totals with counters: {n - failures}")
        # The JSON of one run: matmul_tiled (shared memory, barriers, a loop).
        folder = os.path.join(TOP, "examples", "matmul")
        args = [l for l in open(os.path.join(folder, "runs.txt")) if l.startswith("matmul_tiled:")][0].split(": ", 1)[1]
        path = os.path.join(tmp, "s.json")
        argv = [LOOM, "run"] + shlex.split(args.strip().replace("OUT", tmp)) + ["--stats=json", path]
        r = subprocess.run(argv, cwd=folder, capture_output=True, text=True)
        doc = json.load(open(path))
        k = doc["runs"][0]["kernels"][0]
        checks = [
            (doc["schema"] == "loom-stats/1", "schema"),
            (r.returncode == 0 and r.stderr == "", "a quiet run (the statistics go to the file)"),
            (k["name"] == "matmul_tiled", "kernel name"),
            (sum(l["barrier_waits"] for l in k["lines"]) == k["barrier_waits"], "barrier waits add up"),
            (sum(l["divergent"] for l in k["lines"]) == k["divergent_branches"], "divergent branches add up"),
            (sum(l.get("wavefronts", 0) for l in k["lines"] if l.get("mem") == "shared.ld") ==
             k["shared"]["ld_wavefronts"], "shared wavefronts add up"),
            (k["shared"]["ld_requests"] > 0 and k["global"]["ld_requests"] > 0, "memory requests counted"),
            (k["occupancy"]["limiter"] in ("threads", "registers", "shared", "cta_slots", "barriers"), "limiter"),
            (k["ptx_text"][0].lstrip().startswith(".visible .entry matmul_tiled") or
             ".entry" in k["ptx_text"][0], "the listing starts at the entry"),
            (all(k["ptx_text"][l["line"] - k["ptx_first"]].strip() == l["text"] for l in k["lines"]),
             "line texts match the listing"),
            (len(k["warps"]) == 8 and all(s[0] in {l["line"] for l in k["lines"]} for s in k["warps"][0]["slots"]),
             "lane activity of 8 warps, on the kernel's lines"),
            (len(k["cfg"]["blocks"]) > 1 and k["cfg"]["branches"], "the CFG"),
        ]
        for ok, what in checks:
            if not ok:
                failures += 1
                print("FAIL json:", what)
        # An unwritable path: one line, exit 2, nothing run (no output file written).
        for f in os.listdir(tmp):
            if f != "s.json":
                os.remove(os.path.join(tmp, f))
        r = subprocess.run([LOOM, "run"] + shlex.split(args.strip().replace("OUT", tmp)) +
                           ["--stats=json", os.path.join(tmp, "no", "such", "dir.json")],
                           cwd=folder, capture_output=True, text=True)
        if r.returncode != 2 or len(r.stderr.splitlines()) != 1 or os.listdir(tmp) != ["s.json"]:
            failures += 1
            print("FAIL unwritable path:", r.returncode, r.stderr, os.listdir(tmp))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
