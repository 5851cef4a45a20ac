#!/bin/sh
# policies.sh -- `make check` test (issue 16): the kernels of the PTX corpus, the examples and the
# edge-case folders (their runs.txt), the half-warp .sync kernels that PDOM refuses
# (tests/simt/halfwarp), and the CUDA programs, under each SIMT policy other than PDOM. Their expected outputs were recorded on an H100 and PDOM gives them all; a policy changes
# which lanes issue together, never what a program computes, so any difference fails.
#
#   LOOM_SIMT_POLICIES="its frontier ..."  the policies (default: all, DWF with its options varied)
#   LOOM_SIMT_CUDA=0                        leave the CUDA programs out (sanitizer builds do, and
#                                           run four policies: LOOM_SANITIZED, set by tests/local.mk)
# The CUDA programs run in one build variant (a) under each policy: the variants differ in how
# the PTX is embedded, which the policy does not see. (tests/cuda/build.sh holds a lock on the
# build folder, so this test and tests/cuda/run-tests.sh can build it at once.)
set -u
src=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$src}
loom=${LOOM:-$builddir/loom}
cd "$src" || exit 99
command -v python3 >/dev/null || exit 77
policies=${LOOM_SIMT_POLICIES:-"its frontier sbi swi sbi+swi dwf dwf:policy=minority,las=off
    dwf:policy=time,swizzle=on dwf:policy=pc,split=on dwf:policy=pdom-priority,pool=2"}
specs="tests/corpus/runs.txt examples/*/runs.txt tests/edge/codegen/runs.txt tests/edge/uniform/runs.txt
       tests/edge/affine/runs.txt tests/simt/halfwarp/runs.txt"
cuda=${LOOM_SIMT_CUDA:-1}
# Under a sanitizer (slower by 3 to 10 times): no CUDA programs, and four policies that cover
# the thread engine's paths (its: no holds; frontier; dwf: several warps in a slot; sbi+swi: pairs).
if [ -n "${LOOM_SANITIZED:-}" ]; then
    cuda=0
    policies=${LOOM_SIMT_POLICIES:-"its frontier dwf:las=off sbi+swi"}
fi
fail=0
for p in $policies; do
    t0=$(date +%s)
    if ! LOOM_SIMT=$p python3 tests/run-specs.py check --runner "$loom run" $specs > "/tmp/loom-simt-$$.log" 2>&1; then
        echo "FAIL: --simt $p: the PTX corpus"
        grep -v '^PASS' "/tmp/loom-simt-$$.log" | head -20
        fail=1
    else
        echo "PASS: --simt $p: the PTX corpus ($(tail -n 1 "/tmp/loom-simt-$$.log"), $(($(date +%s) - t0)) s)"
    fi
done
rm -f "/tmp/loom-simt-$$.log"
if [ "$cuda" = 1 ] && [ -x "$src/tests/cuda/run-tests.sh" ]; then
    for p in ${LOOM_SIMT_CUDA_POLICIES:-its frontier dwf dwf:las=off sbi swi sbi+swi}; do
        t0=$(date +%s)
        out=$(LOOM_SIMT=$p LOOM_CUDA_VARIANTS=a LOOM_CUDA_RUN_VARIANTS=a "$src/tests/cuda/run-tests.sh" 2>&1)
        rc=$?
        if [ $rc -eq 77 ]; then echo "SKIP: the CUDA programs (no nvcc)"; break; fi
        if [ $rc -ne 0 ]; then
            echo "FAIL: --simt $p: the CUDA programs"
            echo "$out" | grep -v '^PASS' | tail -30
            fail=1
        else
            echo "PASS: --simt $p: $(echo "$out" | tail -n 1) ($(($(date +%s) - t0)) s)"
        fi
    done
fi
exit $fail
