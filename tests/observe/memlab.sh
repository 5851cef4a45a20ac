#!/bin/sh
# tests/observe/memlab.sh -- the memory lab kit (examples/labs/memory): the bank-conflict rule of
# banks/wavefronts.py against the H100's counts, then every kernel under loom run --stats=json:
# its shared-memory, global-memory and occupancy counters against the counts the READMEs derive
# by hand and the H100's (tests/observe/memlab.py). The second part skips (77) while loom run
# offers no --stats=json; the outputs are compared with the H100's either way.
command -v python3 >/dev/null 2>&1 || exit 77
src=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
python3 "$src/examples/labs/memory/banks/wavefronts.py" >/dev/null ||
    { python3 "$src/examples/labs/memory/banks/wavefronts.py"; echo "FAIL: banks/wavefronts.py's rule differs from the H100"; exit 1; }
exec python3 "$src/tests/observe/memlab.py" "$@"
