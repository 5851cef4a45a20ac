#!/usr/bin/env bash
# run-corpus.sh -- every corpus kernel, every example and the code-generation
# edge kernels (tests/edge/codegen, uniform, affine) under loom run, compared with the outputs
# an H100 gave (tests/run-specs.py), and every committed PTX file checks with
# zero diagnostics. The runs are made twice: as Loom runs by default, and with
# launch-constant folding, chained dispatch and scalar twins off (one vector
# dispatch per instruction).
set -u
src=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
loom=${LOOM:-$src/loom}
cd "$src" || exit 99
command -v python3 >/dev/null || exit 77
fail=0
files=$(find tests/corpus/ptx examples tests/edge/uniform tests/edge/affine -name '*.ptx' | sort)
"$loom" check $files || { echo "loom check reported diagnostics on committed PTX"; fail=1; }
specs="tests/corpus/runs.txt examples/*/runs.txt tests/edge/codegen/runs.txt tests/edge/uniform/runs.txt
       tests/edge/affine/runs.txt"
python3 tests/run-specs.py check --runner "$loom run" $specs || fail=1
# The same runs with launch-constant folding, chaining and scalar twins off
# (emu_decode.c, ptx/ptx_uniform.c; the lane-affine forms go with the twins): both decodings must give the GPU's outputs.
LOOM_FOLD=0 LOOM_CHAIN=0 LOOM_UNIFORM=0 python3 tests/run-specs.py check --runner "$loom run" $specs >/dev/null ||
    { echo "FAIL: outputs differ with LOOM_FOLD=0 LOOM_CHAIN=0 LOOM_UNIFORM=0"; fail=1; }
exit $fail
