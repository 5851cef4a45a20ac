#!/usr/bin/env python3
"""bench_simt.py -- `make bench-simt`: each SIMT policy against PDOM (issue 16).

For the lab kernels (examples/labs/simt) and every kernel of the PTX corpus and the examples
whose PDOM run has a divergent branch, runs `loom run --simt POLICY --stats --workers 1` and
prints, per kernel, each policy's issue slots relative to PDOM's and its SIMD efficiency
(active lanes / 32 per slot); then each policy's host cost per issue slot (the kernel's time
over its slots; median over the kernels), and the claims the issue makes of the policies,
checked on these counts. Slot counts do not depend on the machine; times do.

  bench_simt.py [--loom PATH] [--policies "its frontier ..."] [--kernels NAME,...] [--runs N]
"""
import argparse
import glob
import importlib.util
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
POLICIES = ["frontier", "its", "dwf", "dwf:las=off", "dwf:swizzle=on", "dwf:policy=pdom-priority",
            "sbi", "swi", "sbi+swi"]
SIMT = re.compile(r"SIMT \(([^)]*)\): (\d+) issue slots, SIMD efficiency ([0-9.]+)%, (\d+) divergent")
TIME = re.compile(r"stats: kernel '[^']*': (\d+) launch\w*, ([0-9.]+) s")


def load_specs():
    spec = importlib.util.spec_from_file_location("run_specs", os.path.join(TOP, "tests", "run-specs.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def run(loom, folder, args, policy, outdir):
    cmd = [loom, "run", "--simt", policy, "--stats", "--workers", "1", "-q"] + args
    p = subprocess.run(cmd, cwd=folder, capture_output=True, text=True, timeout=600)
    m = SIMT.search(p.stderr)
    t = TIME.search(p.stderr)
    if p.returncode != 0 or not m:
        return None
    return {"slots": int(m.group(2)), "eff": float(m.group(3)), "div": int(m.group(4)),
            "seconds": float(t.group(2)) if t else 0.0}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--loom", default=os.path.join(TOP, "loom"))
    ap.add_argument("--policies", default=" ".join(POLICIES))
    ap.add_argument("--kernels", default="")
    ap.add_argument("--runs", type=int, default=1, help="runs per kernel and policy (times: median)")
    o = ap.parse_args()
    rs = load_specs()
    policies = o.policies.split()
    labs = sorted(glob.glob(os.path.join(TOP, "examples", "labs", "simt", "*", "runs.txt")))
    corpus = [os.path.join(TOP, "tests", "corpus", "runs.txt")] + sorted(glob.glob(os.path.join(TOP, "examples", "*", "runs.txt")))
    want = set(o.kernels.split(",")) if o.kernels else None
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in labs + corpus:
            folder = os.path.dirname(path)
            lab = path in labs
            for name, args, _, _ in rs.parse(path):
                if want and name not in want:
                    continue
                args = rs.substitute(args, tmp)
                base = run(o.loom, folder, args, "pdom", tmp)
                if not base or (not lab and base["div"] == 0):
                    continue
                res = {}
                for p in policies:
                    got = [run(o.loom, folder, args, p, tmp) for _ in range(o.runs)]
                    if any(g is None for g in got):
                        res[p] = None
                        continue
                    res[p] = dict(got[0], seconds=statistics.median(g["seconds"] for g in got))
                rows.append((name, lab, base, res))
    short = {p: p.replace("dwf:", "dwf ").replace("policy=", "") for p in policies}
    print("Issue slots relative to PDOM (lower is better) and SIMD efficiency, per kernel:")
    print()
    print("| kernel | PDOM slots | PDOM eff | " + " | ".join(short[p] for p in policies) + " |")
    print("|---|---:|---:|" + "---:|" * len(policies))
    for name, lab, base, res in rows:
        cells = []
        for p in policies:
            r = res[p]
            cells.append("fails" if r is None else "%.3f (%.0f%%)" % (r["slots"] / base["slots"], r["eff"]))
        print("| %s%s | %d | %.1f%% | %s |" % (name, " (lab)" if lab else "", base["slots"], base["eff"],
                                              " | ".join(cells)))
    print()
    print("Host cost per issue slot (kernel time / slots, median over the kernels; one worker):")
    print()
    print("| policy | ns per slot | relative to PDOM |")
    print("|---|---:|---:|")
    pd = statistics.median(b["seconds"] * 1e9 / b["slots"] for _, _, b, _ in rows) if rows else 0
    print("| pdom | %.1f | 1.0x |" % pd)
    for p in policies:
        v = [r[p]["seconds"] * 1e9 / r[p]["slots"] for _, _, _, r in rows if r[p]]
        if v:
            m = statistics.median(v)
            print("| %s | %.1f | %.1fx |" % (p, m, m / pd if pd else 0))
    print()
    claims = []

    def total(p, sel):
        return sum(r[p]["slots"] for _, lab, _, r in rows if sel(lab) and r.get(p))

    def each(p, cmp):
        return [n for n, _, b, r in rows if r.get(p) and not cmp(r[p]["slots"], b["slots"])]

    if "dwf" in policies:
        # The labs whose divergence depends on the data; in ifelse, lane8 and the lock every warp
        # diverges in the same lanes, which lane-aware DWF cannot merge (swizzle or las=off can).
        data = ("evenodd", "loopcount", "rarebranch", "unstructured")
        labs_rows = [(n, b, r) for n, lab, b, r in rows if lab and r.get("dwf") and n in data]
        worse = [n for n, b, r in labs_rows if r["dwf"]["slots"] >= b["slots"]]
        claims.append(("DWF (majority, LAS on) issues fewer slots than PDOM on the lab kernels with data-dependent "
                       "divergence (%s)" % ", ".join(data), not worse and len(labs_rows) == len(data), worse))
        lane = [(n, b, r) for n, lab, b, r in rows if lab and r.get("dwf") and n not in data]
        more = [n for n, b, r in lane if r["dwf"]["slots"] > b["slots"]]
        claims.append(("DWF (majority, LAS on) issues no more slots than PDOM on the other labs", not more, more))
        heavy = [(n, b, r) for n, lab, b, r in rows if not lab and b["eff"] < 80 and r.get("dwf")]
        fewer = sum(r["dwf"]["slots"] < b["slots"] for n, b, r in heavy)
        same = sum(r["dwf"]["slots"] == b["slots"] for n, b, r in heavy)
        more = [n for n, b, r in heavy if r["dwf"]["slots"] > b["slots"]]
        print("DWF (majority, LAS on) on the corpus kernels with PDOM SIMD efficiency below 80%%: fewer slots "
              "than PDOM on %d, as many on %d, more on %d (%s)" % (fewer, same, len(more), ", ".join(more)))
    if "frontier" in policies:
        more = each("frontier", lambda a, b: a <= b)
        claims.append(("thread frontiers issue no more slots than PDOM on any kernel", not more, more))
    if "sbi" in policies and "sbi+swi" in policies:
        # Kernels whose work depends on the order of their warps (atomics retried in a loop,
        # spin locks and flags): a second warp's group issued early changes how often they retry.
        racy = ("atom_", "fence_", "warplock")
        more = [n for n, _, _, r in rows if r.get("sbi") and r.get("sbi+swi") and not n.startswith(racy) and
                r["sbi+swi"]["slots"] > r["sbi"]["slots"]]
        claims.append(("SBI+SWI uses no more slots than SBI alone on any kernel whose work does not depend on "
                       "the order of its warps (atom_*, fence_*, warplock_* left out)", not more, more))
    for text, ok, bad in claims:
        print("%s: %s%s" % ("holds" if ok else "DOES NOT HOLD", text, "" if ok else " (" + ", ".join(bad[:8]) + ")"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
