#!/usr/bin/env python3
"""lab-stats.py -- the SIMT lab kit's statistics under every policy (issue 16).

Runs each lab of examples/labs/simt (its runs.txt) under each policy with --stats and makes
the table of the issue model's counts: issue slots, SIMD efficiency, divergent branches,
reconvergences, maximum depth, and the counts of DWF and SBI/SWI. The tables live in the
kit's README.md between <!-- simt-stats --> markers:

  lab-stats.py check      (make check) fails when a count differs from the README's table
  lab-stats.py write      rewrites the README's table after a deliberate change

The counts depend on nothing but the program and the policy (one CTA runs on one worker, and
every lab's blocks are independent), so they are compared exactly.
"""
import os
import re
import shlex
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LABS = os.path.join(TOP, "examples", "labs", "simt")
POLICIES = ["pdom", "frontier", "its", "dwf", "dwf:las=off", "dwf:swizzle=on", "dwf:policy=pdom-priority",
            "sbi", "swi", "sbi+swi"]
SIMT = re.compile(r"SIMT \([^)]*\): (\d+) issue slots, SIMD efficiency ([0-9.]+)%, (\d+) divergent branches, "
                  r"(\d+) reconvergences, max depth (\d+)")
FORMED = re.compile(r"dynamic warps formed of several warps (\d+), warps split (\d+), lane conflicts (\d+)")
COISSUE = re.compile(r"co-issued slots (\d+)")


def runs():
    for lab in sorted(os.listdir(LABS)):
        path = os.path.join(LABS, lab, "runs.txt")
        if not os.path.isfile(path):
            continue
        for line in open(path):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, _, rest = line.partition(":")
            yield lab, name.strip(), shlex.split(rest.split("#")[0])


def stats(loom, folder, args, policy, tmp):
    args = [a.replace(">OUT/", ">" + tmp + "/") for a in args]
    p = subprocess.run([loom, "run", "--simt", policy, "--stats", "-q"] + args, cwd=folder,
                       capture_output=True, text=True, timeout=300)
    m = SIMT.search(p.stderr)
    if p.returncode or not m:
        return "| %s | fails (exit %d) | | | | | |" % (policy, p.returncode)
    f = FORMED.search(p.stderr)
    c = COISSUE.search(p.stderr)
    extra = []
    if f:
        extra.append("%s formed, %s split, %s conflicts" % f.groups())
    if c:
        extra.append("%s co-issued" % c.group(1))
    return "| %s | %s | %s%% | %s | %s | %s | %s |" % (policy, m.group(1), m.group(2), m.group(3), m.group(4),
                                                       m.group(5), "; ".join(extra))


def table(loom):
    import tempfile
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for lab, name, args in runs():
            out.append("")
            out.append("**%s** (`%s`)" % (name, " ".join(shlex.quote(a) for a in args)))
            out.append("")
            out.append("| policy | slots | SIMD efficiency | divergent branches | reconvergences | max depth | DWF / SBI-SWI |")
            out.append("|---|---:|---:|---:|---:|---:|---|")
            for p in POLICIES:
                out.append(stats(loom, os.path.join(LABS, lab), args, p, tmp))
    return "\n".join(out).strip("\n") + "\n"


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "check"
    loom = os.environ.get("LOOM", os.path.join(TOP, "loom"))
    readme = os.path.join(LABS, "README.md")
    text = open(readme).read()
    m = re.search(r"<!-- simt-stats -->\n(.*?)<!-- /simt-stats -->", text, re.S)
    if not m:
        print("lab-stats.py: %s has no <!-- simt-stats --> section" % readme)
        return 1
    got = table(loom)
    if mode == "write":
        open(readme, "w").write(text[:m.start(1)] + got + text[m.end(1):])
        return 0
    if got == m.group(1):
        print("PASS: the lab kit's statistics under %d policies match README.md" % len(POLICIES))
        return 0
    a, b = m.group(1).split("\n"), got.split("\n")
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else ""
        y = b[i] if i < len(b) else ""
        if x != y:
            print("FAIL: README.md says\n  %s\nbut Loom gives\n  %s" % (x, y))
    print("(tests/simt/lab-stats.py write updates the table after a deliberate change)")
    return 1


if __name__ == "__main__":
    sys.exit(main())
