#!/usr/bin/env python3
# run.py -- make bench-sched (issue 19): the scheduling benchmarks (bench/sched) under each
# policy (LOOM_SCHED) in virtual time (LOOM_TIMING=model) and on the wall clock, with speed-ups
# over serial, and a check that every policy prints what serial prints.
#
#   run.py --loom LOOM --bin DIR [--runs 3] [--quick | --large] [--only vec,bs,...]
#
# Virtual time is the makespan_us of the "loom: schedule:" line on stderr (n/a while Loom does
# not print one); wall time is the program's own timed section (its "sched-bench: ... section_us"
# line: from a drained device to the last kernel's end), the median of --runs runs, all cores.
import argparse
import math
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
WORKLOADS = ["vec", "bs", "img", "ml", "hits", "dl"]
POLICIES = ["serial", "fifo", "acs:window=32", "dag"]
PHYSICS_POLICIES = ["serial", "fifo", "dag"] + ["acs:window=%d" % w for w in (1, 4, 16, 32, 64)]
FORK_WIDTHS = [1, 2, 4, 8, 16, 32]
# GrCUDA's speed-up of its parallel (DAG) scheduler over its serial one, per benchmark, where the
# paper (Parravicini et al., IPDPS 2021, arXiv 2012.09646) gives a number we could read: only the
# abstract's average ("an average of 44% speedup against synchronous execution") was found.
GRCUDA = {name: None for name in WORKLOADS}
GRCUDA_MEAN = 1.44


def read_cases():
    """cases.txt as {id: [program, args...]}."""
    cases = {}
    with open(os.path.join(HERE, "cases.txt")) as f:
        for line in f:
            words = line.split()
            if words and not words[0].startswith("#"):
                cases[words[0]] = words[1:]
    return cases


def parse_schedule(stderr):
    """The key=value pairs of the last 'loom: schedule:' line, or {}."""
    found = {}
    for line in stderr.splitlines():
        if line.startswith("loom: schedule:"):
            found = dict(w.split("=", 1) for w in line.split()[2:] if "=" in w)
    return found


def parse_section(stderr):
    for line in stderr.splitlines():
        if line.startswith("sched-bench:") and "section_us=" in line:
            return float(line.rsplit("section_us=", 1)[1])
    return None


class Runner:
    def __init__(self, loom, bindir, runs):
        self.loom, self.bindir, self.runs = loom, bindir, runs
        self.mismatches = []
        self.failures = []
        self.serial_out = {}

    def run(self, case_id, argv, policy, model):
        """One run: (stdout, stderr). A failed run is recorded and gives None."""
        env = dict(os.environ, LOOM_SCHED=policy)
        env.pop("LOOM_TIMING", None)
        if model:
            env["LOOM_TIMING"] = "model"
        else:
            env["LOOM_SCHED_SUMMARY"] = "1"
        cmd = [self.loom, "exec", os.path.join(self.bindir, argv[0])] + argv[1:]
        try:
            r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
        except subprocess.TimeoutExpired:
            self.failures.append("%s under %s: timed out" % (case_id, policy))
            return None
        if r.returncode != 0:
            self.failures.append("%s under %s%s: exit %d: %s" % (
                case_id, policy, " (model)" if model else "", r.returncode,
                r.stderr.strip().splitlines()[-1:] or ""))
            return None
        self.check_output(case_id, policy, model, r.stdout)
        return r.stdout, r.stderr

    def check_output(self, case_id, policy, model, out):
        """Every policy's stdout must equal serial's (the first serial run's, same case)."""
        if policy == "serial" and case_id not in self.serial_out:
            self.serial_out[case_id] = out
            want = os.path.join(HERE, "expected", case_id + ".out")
            if os.path.exists(want) and open(want).read() != out:
                self.mismatches.append("%s under serial differs from the H100 (expected/%s.out)"
                                       % (case_id, case_id))
        elif case_id in self.serial_out and out != self.serial_out[case_id]:
            self.mismatches.append("%s under %s%s differs from serial" % (
                case_id, policy, ", timing=model" if model else ""))

    def measure(self, case_id, argv, policy):
        """(virtual makespan in us or None, median wall section in us or None)."""
        virtual = None
        r = self.run(case_id, argv, policy, True)
        if r:
            v = parse_schedule(r[1]).get("makespan_us")
            virtual = float(v) if v else None
        walls = []
        for _ in range(self.runs):
            r = self.run(case_id, argv, policy, False)
            if r and parse_section(r[1]) is not None:
                walls.append(parse_section(r[1]))
        return virtual, (statistics.median(walls) if walls else None)


def fmt_time(v, scale):
    return "n/a" if v is None else "%.1f" % (v / scale)


def speedup(base, v):
    return None if base is None or v is None or v <= 0 else base / v


def fmt_x(x):
    return "n/a" if x is None else "%.2fx" % x


def geomean(xs):
    xs = [x for x in xs if x is not None]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def table(title, unit, scale, rows, policies, extra=None):
    """rows: [(label, {policy: time})]; speed-ups over serial per policy and their geomean."""
    others = [p for p in policies if p != "serial"]
    head = ["workload", "serial"] + others + ["x " + p for p in others]
    if extra:
        head.append(extra[0])
    lines = [head]
    ups = {p: [] for p in others}
    for label, times in rows:
        line = [label, fmt_time(times.get("serial"), scale)]
        line += [fmt_time(times.get(p), scale) for p in others]
        for p in others:
            x = speedup(times.get("serial"), times.get(p))
            ups[p].append(x)
            line.append(fmt_x(x))
        if extra:
            line.append(extra[1].get(label, "n/a"))
        lines.append(line)
    if len(rows) > 1:
        line = ["geomean", "", *["" for _ in others], *[fmt_x(geomean(ups[p])) for p in others]]
        if extra:
            line.append(extra[1].get("geomean", "n/a"))
        lines.append(line)
    widths = [max(len(str(l[i])) for l in lines) for i in range(len(head))]
    print("\n%s (%s)" % (title, unit))
    for l in lines:
        print("  " + "  ".join(str(c).rjust(w) if i else str(c).ljust(w)
                               for i, (c, w) in enumerate(zip(l, widths))))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--loom", required=True)
    ap.add_argument("--bin", required=True, help="where build.sh puts the programs")
    ap.add_argument("--runs", type=int, default=3, help="wall-clock runs per point (median)")
    ap.add_argument("--quick", action="store_true", help="the -small cases")
    ap.add_argument("--large", action="store_true", help="the -large cases (no H100 recordings)")
    ap.add_argument("--only", default="", help="comma-separated: " + ",".join(WORKLOADS + ["physics", "forkjoin"]))
    a = ap.parse_args()
    b = subprocess.run([os.path.join(HERE, "build.sh"), a.bin], capture_output=True, text=True)
    if b.returncode == 77:
        print("bench-sched: skipped (nvcc not found)")
        return 0
    if b.returncode:
        print("bench-sched: building the programs failed:\n" + b.stderr)
        return 1
    cases = read_cases()
    only = set(a.only.split(",")) if a.only else None
    want = lambda name: only is None or name in only
    sfx = "-small" if a.quick else "-large" if a.large else ""
    R = Runner(a.loom, a.bin, a.runs)
    print("bench-sched: %s, %d wall runs per point (median), %d cores%s" % (
        a.loom, a.runs, os.cpu_count() or 0, sfx.replace("-", ", sizes ")))

    rows = []
    for name in WORKLOADS:
        if want(name):
            cid = name + sfx
            res = {p: R.measure(cid, cases[cid], p) for p in POLICIES}
            rows.append((name, res))
    grc = {n: ("n/a" if GRCUDA[n] is None else "%.2fx" % GRCUDA[n]) for n in WORKLOADS}
    grc["geomean"] = "%.2fx (mean, abstract)" % GRCUDA_MEAN
    if rows:
        for mode, unit, scale in ((0, "virtual us, LOOM_TIMING=model", 1.0), (1, "wall ms, median", 1000.0)):
            table("GrCUDA's workloads, " + ("virtual time" if mode == 0 else "wall clock"), unit,
                  scale, [(n, {p: t[mode] for p, t in r.items()}) for n, r in rows], POLICIES,
                  ("GrCUDA dag", grc))

    if want("physics"):
        cid = "physics" + sfx if "physics" + sfx in cases else "physics"
        res = {p: R.measure(cid, cases[cid], p) for p in PHYSICS_POLICIES}
        print("\nphysics: a stream of tiny kernels (%s), acs windows" % " ".join(cases[cid]))
        print("  %-14s %12s %8s %10s %8s" % ("policy", "virtual us", "x", "wall ms", "x"))
        base = res["serial"]
        for p in PHYSICS_POLICIES:
            v, w = res[p]
            print("  %-14s %12s %8s %10s %8s" % (p, fmt_time(v, 1.0), fmt_x(speedup(base[0], v)),
                                                fmt_time(w, 1000.0), fmt_x(speedup(base[1], w))))

    if want("forkjoin"):
        frows = []
        for w in FORK_WIDTHS:
            cid = "forkjoin-w%d" % w if w != 8 else "forkjoin"
            argv = cases.get(cid) or ["forkjoin", str(w)]
            if sfx:
                argv = ["forkjoin", str(w)] + cases["forkjoin" + sfx][2:]
                cid = "forkjoin%s-w%d" % (sfx, w)
            frows.append(("W=%d" % w, {p: R.measure(cid, argv, p) for p in POLICIES}))
        for mode, unit, scale in ((0, "virtual us", 1.0), (1, "wall ms, median", 1000.0)):
            table("fork-join of width W", unit, scale,
                  [(l, {p: t[mode] for p, t in r.items()}) for l, r in frows], POLICIES)

    print()
    if R.failures:
        print("failed runs:\n  " + "\n  ".join(R.failures))
    if R.mismatches:
        print("outputs that differ:\n  " + "\n  ".join(R.mismatches))
    else:
        print("outputs: every policy printed what serial printed%s" % (
            "" if a.quick else ", and serial what the H100 printed where recorded"))
    return 1 if R.failures or R.mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
