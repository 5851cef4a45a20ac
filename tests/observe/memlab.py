#!/usr/bin/env python3
"""memlab.py -- the memory lab kit (examples/labs/memory) under `loom run --stats=json`.

Runs every row of the kit's runs.txt files (the labs, and bench_kernels.ptx at small sizes)
and compares the counters of the JSON statistics (schema loom-stats/1) with two files of the kit:

  expected.tsv   KERNEL  COUNTER  VALUE  NCU-METRIC
                 the counts derived by hand in the labs' READMEs; COUNTER is a path into the
                 kernel's object ("shared.ld_wavefronts", "occupancy.limiter"). Loom must give
                 VALUE exactly. NCU-METRIC (or "-") names the Nsight Compute metric that counts
                 the same thing on the H100: its recorded value (ncu-h100.tsv) must be VALUE too,
                 so a hand derivation that the GPU contradicts cannot stand.
  ncu-h100.tsv   KERNEL  METRIC  VALUE  (what an H100 counted, ncu-h100.txt in a table)

and, for every kernel, that the per-line counts of the "lines" array add up to the kernel's
totals (requests, wavefronts, bank conflicts, sectors per memory kind, each where the lines
carry it), and that every output
file has the checksum the H100's run gave (h100-sha256.txt).

  memlab.py [-v]      LOOM names the loom binary (default: ./loom of the source tree)
"""
import hashlib
import json
import os
import shlex
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KIT = os.path.join(TOP, "examples", "labs", "memory")
GROUPS = ["banks", "coalesce", "occupancy", "bench"]
# Per memory kind of a line ("shared.ld"), the line field and the kernel total it adds up to.
LINE_SUMS = {
    "shared.ld": [("requests", "shared.ld_requests"), ("wavefronts", "shared.ld_wavefronts"),
                  ("bank_conflicts", "shared.ld_bank_conflicts")],
    "shared.st": [("requests", "shared.st_requests"), ("wavefronts", "shared.st_wavefronts"),
                  ("bank_conflicts", "shared.st_bank_conflicts")],
    "global.ld": [("requests", "global.ld_requests"), ("sectors", "global.ld_sectors")],
    "global.st": [("requests", "global.st_requests"), ("sectors", "global.st_sectors")],
}


def table(name, width):
    """Rows of a tab-separated kit file, comments and blank lines left out."""
    rows = []
    for n, line in enumerate(open(os.path.join(KIT, name)), 1):
        line = line.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) != width:
            sys.exit("%s:%d: want %d tab-separated columns, got %d" % (name, n, width, len(cols)))
        rows.append(cols)
    return rows


def rows():
    """(group, name, args) of every runs.txt row of the kit."""
    for group in GROUPS:
        for line in open(os.path.join(KIT, group, "runs.txt")):
            line = line.split("#", 1)[0].strip()
            if line:
                name, _, rest = line.partition(":")
                yield group, name.strip(), shlex.split(rest)


def lookup(obj, path):
    for key in path.split("."):
        if not isinstance(obj, dict) or key not in obj:
            return None
        obj = obj[key]
    return obj


def same(got, want):
    """A JSON value against a TSV field: numbers as numbers, anything else as text."""
    if isinstance(got, bool) or got is None:
        return False
    if isinstance(got, (int, float)):
        try:
            return float(got) == float(want)
        except ValueError:
            return False
    return str(got) == want


def main():
    verbose = "-v" in sys.argv[1:]
    loom = os.path.abspath(os.environ.get("LOOM", os.path.join(TOP, "loom")))
    helptext = subprocess.run([loom, "run", "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              timeout=30).stdout.decode(errors="replace")
    json_ok = "--stats=json" in helptext
    if not json_ok:
        print("FAIL: loom run --help does not mention --stats=json")
        return 1
    expected, ncu = {}, {}
    for kernel, counter, value, metric in table("expected.tsv", 4):
        expected.setdefault(kernel, []).append((counter, value, metric))
    for kernel, metric, value in table("ncu-h100.tsv", 3):
        ncu[(kernel, metric)] = value
    sums = {}
    for line in open(os.path.join(KIT, "h100-sha256.txt")):
        if line.strip() and not line.startswith("#"):
            digest, fname = line.split()
            sums[fname.lstrip("*")] = digest
    bad = checked = 0

    def fail(msg):
        nonlocal bad
        print("FAIL " + msg)
        bad += 1

    # The committed data against itself: every hand count that names an ncu metric is what the H100 counted.
    for kernel, items in sorted(expected.items()):
        for counter, value, metric in items:
            if metric == "-":
                continue
            if (kernel, metric) not in ncu:
                fail("%s: %s: no recorded %s in ncu-h100.tsv" % (kernel, counter, metric))
            elif not same(float(ncu[(kernel, metric)].replace(",", "")), value):
                fail("%s: %s: expected.tsv says %s, the H100's %s is %s" % (kernel, counter, value, metric,
                                                                              ncu[(kernel, metric)]))
    seen = set()
    with tempfile.TemporaryDirectory() as tmp:
        for group, name, args in rows():
            folder = os.path.join(KIT, group)
            kernel = args[args.index("--kernel") + 1]
            stats = os.path.join(tmp, name + ".json")
            run_args = [a.replace(">OUT/", ">" + tmp + "/") for a in args]
            cmd = [loom, "run", "-q"] + (["--stats=json", stats] if json_ok else []) + run_args
            r = subprocess.run(cmd, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
            if r.returncode != 0:
                fail("%s: loom run exited %d: %s" % (name, r.returncode, r.stderr.decode(errors="replace").strip()))
                continue
            for a in args:
                if ">OUT/" in a:
                    fname = a.split(">OUT/", 1)[1]
                    digest = hashlib.sha256(open(os.path.join(tmp, fname), "rb").read()).hexdigest()
                    if fname not in sums:
                        fail("%s: no H100 checksum for %s" % (name, fname))
                    elif digest != sums[fname]:
                        fail("%s: %s differs from the H100's output" % (name, fname))
                    checked += 1
            if not json_ok:
                continue
            try:
                doc = json.load(open(stats))
            except (OSError, ValueError) as e:
                fail("%s: %s: %s" % (name, stats, e))
                continue
            if doc.get("schema") != "loom-stats/1":
                fail("%s: schema is %r, want loom-stats/1" % (name, doc.get("schema")))
            found = [k for run in doc.get("runs", []) for k in run.get("kernels", []) if k.get("name") == kernel]
            if len(found) != 1:
                fail("%s: %d kernels named %s in the statistics" % (name, len(found), kernel))
                continue
            k = found[0]
            seen.add(kernel)
            for counter, value, _ in expected.get(kernel, []):
                got = lookup(k, counter)
                checked += 1
                if not same(got, value):
                    fail("%s: %s is %s, want %s" % (name, counter, got, value))
                elif verbose:
                    print("ok %s: %s = %s" % (name, counter, value))
            for kind, pairs in LINE_SUMS.items():
                lines = [ln for ln in k.get("lines", []) if ln.get("mem") == kind]
                for field, total in pairs:
                    if lines and not any(field in ln for ln in lines):
                        continue        # the writer does not give this count per line
                    want = lookup(k, total)
                    got = sum(ln.get(field, 0) for ln in lines)
                    checked += 1
                    if want is None or got != want:
                        fail("%s: the lines' %s of %s add up to %s, the kernel's %s is %s" % (
                            name, field, kind, got, total, want))
    for kernel in sorted(set(expected) - seen if json_ok else ()):
        fail("%s: in expected.tsv but no runs.txt row ran it" % kernel)
    print("%d checks, %d failed" % (checked, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
