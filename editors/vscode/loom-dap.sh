#!/bin/sh
# loom-dap.sh -- what VS Code starts for a "loom" debug session: `loom dap` on stdio
# (the program named by LOOM, else loom on PATH).
exec "${LOOM:-loom}" dap "$@"
