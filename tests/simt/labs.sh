#!/usr/bin/env bash
# labs.sh -- the SIMT lab kit (examples/labs/simt) under loom run, once per SIMT policy named in
# LOOM_SIMT_POLICIES (default: every policy; each run exports LOOM_SIMT=<policy>), compared with the
# outputs an H100 gave (tests/run-specs.py). A lab's livelock.txt lists kernels that complete
# only under the policies its "# complete under:" line names (warplock_naive: its); under any
# other policy Loom must stop them with a report that places every warp in a loop of the kernel,
# within the time limit, instead of hanging.
set -u
src=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
loom=${LOOM:-$src/loom}
case $loom in /*) ;; *) loom=$PWD/$loom ;; esac
labs=examples/labs/simt
cd "$src" || exit 99
command -v python3 >/dev/null || exit 77
# Seconds a run may take: the runs that must complete (a livelock caught late still fails), and
# the livelocks, which Loom's --timeout stops (or a policy's own livelock report, sooner).
limit=${LABS_TIMEOUT:-20}
livelock_limit=${LABS_LIVELOCK_TIMEOUT:-2}
fail=0

# The policies under which the kernels of a livelock.txt complete ("# complete under: its ...").
complete_under() {
    sed -n 's/^# complete under://p' "$1"
}

# Runs every row of livelock file $1 and checks that Loom stops it with exit 1 and a report
# naming the kernel and each warp of the block at a PTX line inside one of the kernel's loops
# (a label and a backward branch to it), in less than the limit plus 10 s.
expect_livelock() {
    python3 - "$loom" "$1" "$livelock_limit" <<'PY'
import os, re, shlex, subprocess, sys, tempfile, time
loom, spec, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
folder = os.path.dirname(os.path.abspath(spec))
bad = 0
def loops(ptx, kernel):
    """[first, last] PTX line ranges of the kernel's loops: label ... backward bra to it."""
    lines = open(os.path.join(folder, ptx)).read().split("\n")
    labels, ranges, inside = {}, [], False
    for n, text in enumerate(lines, 1):
        if ".entry" in text:
            inside = re.search(r"\.entry\s+%s\s*\(" % re.escape(kernel), text) is not None
        if not inside:
            continue
        m = re.match(r"\s*(\$?[\w$]+):", text)
        if m:
            labels[m.group(1)] = n
        m = re.search(r"\bbra(?:\.uni)?\s+(\$?[\w$]+)\s*;", text)
        if m and m.group(1) in labels:
            ranges.append((labels[m.group(1)], n))
    return ranges
for line in open(spec):
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    name, _, rest = line.partition(":")
    args = shlex.split(rest)
    kernel, block = args[args.index("--kernel") + 1], args[args.index("--block") + 1]
    threads = 1
    for d in block.split(","):
        threads *= int(d)
    nwarps = (threads + 31) // 32
    with tempfile.TemporaryDirectory() as tmp:
        args = [a.replace(">OUT/", ">" + tmp + "/") for a in args]
        t0 = time.time()
        try:
            r = subprocess.run([loom, "run", "-q", "--timeout", str(limit)] + args, cwd=folder,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=limit + 10)
        except subprocess.TimeoutExpired:
            print("FAIL %s: %s: still running after %d s (a livelock must end with a report)" % (spec, name, limit + 10))
            bad = 1
            continue
        took = time.time() - t0
    err = r.stderr.decode(errors="replace")
    # Per warp, the lines its lanes stand at: "warp N: line L, ..." (PDOM: the running lanes
    # first) or "warp N: lanes 0x... at line L ...; lanes ... at line L2 ..." (per-lane pcs).
    where = []
    for m in re.finditer(r"warp (\d+): (.*)", err):
        first = re.match(r"line (\d+)", m.group(2))
        where.append([int(first.group(1))] if first else [int(x) for x in re.findall(r"at line (\d+)", m.group(2))])
    spans = loops(args[0], kernel)
    why = None
    if r.returncode != 1:
        why = "exit %d, want 1" % r.returncode
    elif "'%s'" % kernel not in err:
        why = "the report does not name the kernel"
    elif len(where) != nwarps:
        why = "the report places %d warps, want %d" % (len(where), nwarps)
    elif not all(any(a <= l <= b for a, b in spans for l in w) for w in where):
        why = "the report places warps at lines %s, outside the kernel's loops %s" % (where, spans)
    if why:
        print("FAIL %s: %s: %s\n%s" % (spec, name, why, err.strip()[:2000]))
        bad = 1
    else:
        print("ok   %s: %s stopped after %.1f s with a report" % (spec, name, took))
sys.exit(bad)
PY
}

for policy in ${LOOM_SIMT_POLICIES:-pdom its frontier dwf sbi swi sbi+swi}; do
    export LOOM_SIMT=$policy
    echo "== LOOM_SIMT=$policy"
    python3 tests/run-specs.py check --runner "$loom run -q --timeout $limit" $labs/*/runs.txt || fail=1
    for spec in $labs/*/livelock.txt; do
        [ -f "$spec" ] || continue
        case " $(complete_under "$spec") " in
            *" $policy "*) python3 tests/run-specs.py check --runner "$loom run -q --timeout $limit" "$spec" || fail=1 ;;
            *) expect_livelock "$spec" || fail=1 ;;
        esac
    done
done
exit $fail
