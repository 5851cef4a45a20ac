#!/usr/bin/env python3
"""run-specs.py -- run the kernels listed in runs.txt files.

Each non-comment line of a runs.txt is
    NAME: FILE.ptx --kernel K --grid X[,Y,Z] --block X[,Y,Z] [--shared N] ARG... [# approx ...]
with loom run's argument syntax; paths are relative to the runs.txt folder and
`OUT/` names the output folder.

  run-specs.py record --runner GPURUN --dest DIR RUNS.txt...   run on a real GPU, outputs to DIR/<suite>/NAME.FILE
  run-specs.py check --runner LOOM RUNS.txt...                 run under Loom, compare with expected/

Comparison is bit-exact unless the line ends with a comment such as
`# approx f32 ulp=2` or `# approx f32 abs=1e-6` (per element of out buffers of that type).
Rows whose expectation is missing are skipped (reported); check fails when a
suite has no recorded expectation at all.
"""
import os
import shlex
import struct
import subprocess
import sys
import tempfile

TYPES = {"u8": "B", "s8": "b", "u16": "H", "s16": "h", "u32": "I", "s32": "i",
         "u64": "Q", "s64": "q", "f32": "f", "f64": "d"}


def parse(path):
    rows = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            approx = None
            if "#" in line:
                line, comment = line.split("#", 1)
                comment = comment.strip()
                if comment.startswith("approx"):
                    approx = comment.split()[1:]
                line = line.strip()
            name, _, rest = line.partition(":")
            rows.append((name.strip(), shlex.split(rest), approx, n))
    return rows


def outputs(args):
    """(type, file-name) of every out/inout buffer, in order."""
    outs = []
    for a in args:
        if (a.startswith("out:") or a.startswith("inout:")) and ">OUT/" in a:
            t = a.split(":")[1]
            outs.append((t, a.split(">OUT/", 1)[1]))
    return outs


def substitute(args, outdir):
    return [a.replace(">OUT/", ">" + outdir + "/") for a in args]


def run(runner, folder, args, outdir, timeout=120):
    cmd = shlex.split(runner) + substitute(args, outdir)
    return subprocess.run(cmd, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)


def ulp_diff32(a, b):
    def key(x):
        i = struct.unpack("<i", struct.pack("<f", x))[0]
        return i if i >= 0 else -2147483648 - i
    return abs(key(a) - key(b))


def compare(exp, got, typ, approx):
    if not approx:
        return exp == got, "bytes differ"
    fmt = TYPES[typ]
    size = struct.calcsize(fmt)
    if len(exp) != len(got):
        return False, "sizes differ"
    ev = struct.unpack("<%d%s" % (len(exp) // size, fmt), exp)
    gv = struct.unpack("<%d%s" % (len(got) // size, fmt), got)
    opts = dict(o.split("=") for o in approx if "=" in o)
    for i, (e, g) in enumerate(zip(ev, gv)):
        if e == g or (e != e and g != g):
            continue
        if "ulp" in opts and typ == "f32" and ulp_diff32(e, g) <= int(opts["ulp"]):
            continue
        if "abs" in opts and abs(e - g) <= float(opts["abs"]):
            continue
        if "rel" in opts and abs(e - g) <= float(opts["rel"]) * abs(e):
            continue
        return False, "element %d: expected %r, got %r" % (i, e, g)
    return True, ""


def record(runner, dest, files):
    failures = 0
    for path in files:
        folder = os.path.dirname(os.path.abspath(path))
        suite = os.path.relpath(folder, os.getcwd())
        outdir = os.path.join(dest, suite, "expected")
        os.makedirs(outdir, exist_ok=True)
        for name, args, _, n in parse(path):
            r = run(runner, folder, args, outdir)
            if r.returncode != 0:
                failures += 1
                print("FAIL %s/%s (line %d): %s" % (suite, name, n, r.stderr.decode(errors="replace").strip()))
            else:
                with open(os.path.join(outdir, name + ".stdout"), "wb") as f:
                    f.write(r.stdout)
                print("ok   %s/%s" % (suite, name))
    return 1 if failures else 0


def known_failures(folder):
    """NAME: reason lines of known-failures.txt beside a runs.txt."""
    known = {}
    path = os.path.join(folder, "known-failures.txt")
    if os.path.exists(path):
        for line in open(path):
            line = line.strip()
            if line and not line.startswith("#"):
                name, _, why = line.partition(":")
                known[name.strip()] = why.strip()
    return known


def check(runner, files):
    failed = passed = skipped = xfailed = 0
    for path in files:
        folder = os.path.dirname(os.path.abspath(path))
        expdir = os.path.join(folder, "expected")
        known = known_failures(folder)
        have_any = False
        for name, args, approx, n in parse(path):
            outs = outputs(args)
            if not outs or not all(os.path.exists(os.path.join(expdir, f)) for _, f in outs):
                skipped += 1
                continue
            have_any = True
            with tempfile.TemporaryDirectory() as tmp:
                try:
                    r = run(runner, folder, args, tmp)
                except subprocess.TimeoutExpired:
                    print("FAIL %s: %s: timed out" % (path, name))
                    failed += 1
                    continue
                if r.returncode != 0:
                    if name in known:
                        print("XFAIL %s: %s (%s)" % (path, name, known[name]))
                        xfailed += 1
                        continue
                    print("FAIL %s: %s: exit %d: %s" % (path, name, r.returncode,
                                                        r.stderr.decode(errors="replace").strip()[:2000]))
                    failed += 1
                    continue
                ok = True
                for typ, f in outs:
                    with open(os.path.join(expdir, f), "rb") as fe, open(os.path.join(tmp, f), "rb") as fg:
                        good, why = compare(fe.read(), fg.read(), typ, approx)
                    if not good:
                        print("FAIL %s: %s: %s: %s" % (path, name, f, why))
                        ok = False
                stdout_exp = os.path.join(expdir, name + ".stdout")
                if ok and os.path.exists(stdout_exp):
                    with open(stdout_exp, "rb") as fe:
                        want = fe.read()
                    if want != r.stdout:
                        print("FAIL %s: %s: stdout differs" % (path, name))
                        ok = False
                if name in known:
                    if ok:
                        print("XPASS %s: %s is listed in known-failures.txt but passes: remove it" % (path, name))
                        failed += 1
                    else:
                        print("XFAIL %s: %s (%s)" % (path, name, known[name]))
                        xfailed += 1
                elif ok:
                    passed += 1
                else:
                    failed += 1
        if not have_any:
            print("FAIL %s: no recorded expectations" % path)
            failed += 1
    print("%d passed, %d failed, %d known failures, %d without expectations" % (passed, failed, xfailed, skipped))
    return 1 if failed else 0


def main(argv):
    if len(argv) < 4 or argv[1] not in ("record", "check"):
        print(__doc__)
        return 2
    mode = argv[1]
    runner = dest = None
    files = []
    i = 2
    while i < len(argv):
        if argv[i] == "--runner":
            parts = shlex.split(argv[i + 1])
            if os.path.exists(parts[0]):
                parts[0] = os.path.abspath(parts[0])
            runner = " ".join(shlex.quote(p) for p in parts)
            i += 2
        elif argv[i] == "--dest":
            dest = os.path.abspath(argv[i + 1])
            i += 2
        else:
            files.append(argv[i])
            i += 1
    if mode == "record":
        return record(runner, dest, files)
    return check(runner, files)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
