#!/bin/bash
# run.sh -- `make check` test over PTX that tests/suites/gen.sh compiled from public CUDA
# suites: every file `loom check` accepts must also load into the interpreter (decoded,
# every kernel ready to run), and every file the interpreter loads must pass `loom check`:
# one answer to "is this supported". Prints a table per suite and each disagreement or
# refusal with its first line of diagnostics; fails on a disagreement (a refusal both give
# is what Loom does not do yet, which the output lists).
#
#   LOOM_SUITES_PTX=DIR tests/suites/run.sh      (DIR: gen.sh's OUTDIR)
# Exits 77 (skipped) when LOOM_SUITES_PTX is unset or holds no PTX: Loom ships none of it.
set -u
dir=${LOOM_SUITES_PTX:-}
LOOM=${LOOM:-${top_builddir:-.}/loom}
if [ -z "$dir" ] || [ ! -d "$dir" ] || [ -z "$(find "$dir" -name '*.ptx' -print -quit)" ]; then
    echo "run.sh: no suite PTX (set LOOM_SUITES_PTX to the output of tests/suites/gen.sh); skipped"
    exit 77
fi
[ -x "$LOOM" ] || { echo "run.sh: $LOOM not built" >&2; exit 99; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/loom-suites.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM

# one line per file: SUITE CHECK LOAD FILE, CHECK/LOAD ok|no; diagnostics in $tmp/diag
probe() {
    f=$1 suite=$(basename "$(dirname "$1")")
    grep -q '\.entry' "$f" || return 0
    if "$LOOM" check "$f" >/dev/null 2>"$tmp/$$.c"; then c=ok; else c=no; fi
    "$LOOM" run "$f" --kernel __loom_load_probe__ --grid 1 --block 1 >/dev/null 2>"$tmp/$$.l"
    if grep -q "no kernel named '__loom_load_probe__'" "$tmp/$$.l"; then l=ok; else l=no; fi
    echo "$suite $c $l $f"
    if [ $c = no ] || [ $l = no ]; then
        { echo "== $f"; head -n 2 "$tmp/$$.c"; [ $l = no ] && head -n 2 "$tmp/$$.l"; } >>"$tmp/diag.$$"
    fi
    rm -f "$tmp/$$.c" "$tmp/$$.l"
}
export -f probe
export LOOM tmp
find "$dir" -name '*.ptx' | sort | xargs -P "${LOOM_SUITES_JOBS:-2}" -n 1 bash -c 'probe "$0"' >"$tmp/results"
cat "$tmp"/diag.* 2>/dev/null >"$tmp/diag"

printf '%-14s %7s %9s %8s %9s %9s\n' suite files "check ok" "load ok" "both ok" disagree
awk '{ n[$1]++; if ($2 == "ok") c[$1]++; if ($3 == "ok") l[$1]++; if ($2 == "ok" && $3 == "ok") b[$1]++;
       if ($2 != $3) d[$1]++ }
     END { for (s in n) printf "%-14s %7d %9d %8d %9d %9d\n", s, n[s], c[s], l[s], b[s], d[s] }' "$tmp/results" | sort
disagree=$(awk '$2 != $3' "$tmp/results" | wc -l)
refused=$(awk '$2 == "no" && $3 == "no"' "$tmp/results" | wc -l)
if [ -s "$tmp/diag" ]; then
    echo "-- refused or disagreeing files, with their first diagnostics:"
    cat "$tmp/diag"
fi
echo "$(wc -l <"$tmp/results") files with kernels; $refused refused by both; $disagree where loom check and the interpreter disagree"
[ "$disagree" -eq 0 ]
