#!/usr/bin/env python3
"""check_warps.py TRACE.json STATS.json POLICY -- the warp slices and events of --trace-warps
against the statistics of the same run (tests/observe/trace.sh): every warp of every CTA has
slices, nested in its CTA's span on the same worker, whose instructions add up to the
kernel's warp instructions; one exit per warp; as many diverge, reconverge and barrier
events as the statistics count divergent branches, reconvergences and barrier waits."""
import json
import sys

trace, stats, policy = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
k = stats["runs"][0]["kernels"][0]
ev = trace["traceEvents"]
fails = []
ctas = [e for e in ev if e.get("cat") == "cta"] or [e for e in ev if e.get("name", "").startswith(k["name"]) and e.get("ph") == "X" and e.get("tid", 0) >= 1000000]
warps = [e for e in ev if e.get("cat") == "warp" and e.get("ph") == "X"]
events = [e for e in ev if e.get("cat") == "warp" and e.get("ph") == "i"]
nctas = k["ctas"]
wpc = (k["block"][0] * k["block"][1] * k["block"][2] + 31) // 32
seen = {(e["args"]["cta"], e["args"]["warp"]) for e in warps}
if len(seen) != nctas * wpc:
    fails.append(f"slices for {len(seen)} warps, want {nctas * wpc}")
total = sum(e["args"]["instructions"] for e in warps)
if total != k["warp_instructions"]:
    fails.append(f"warp slices hold {total} instructions, the statistics {k['warp_instructions']}")
for e in warps:
    spans = [c for c in ctas if c["tid"] == e["tid"] and c["ts"] - 1 <= e["ts"] and e["ts"] + e["dur"] <= c["ts"] + c["dur"] + 1]
    if not spans:
        fails.append(f"warp slice {e} outside every CTA span of its worker")
        break
count = lambda name: sum(1 for e in events if e["name"] == name)
want = {"exit": nctas * wpc, "diverge": k["divergent_branches"], "barrier arrive": k["barrier_waits"]}
if policy == "pdom":
    want["reconverge"] = k["reconvergences"]
for name, n in want.items():
    if count(name) != n:
        fails.append(f"{count(name)} '{name}' events, want {n}")
lines = {l["line"] for l in k["lines"]}
if any(e["args"]["line"] not in lines for e in events if e["name"] != "exit"):
    fails.append("an event names a line that is not the kernel's")
for f in fails:
    print(f"check_warps ({policy}): {f}")
sys.exit(1 if fails else 0)
