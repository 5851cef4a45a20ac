#!/bin/sh
# exec.sh -- `make check` test: the debugger's loom exec --debug scenarios (run.sh's, whose
# first line is "# loom exec PROGRAM ARGS"): CUDA programs built with nvcc; 77 without it.
DEBUG_SCENARIOS=exec exec "$(dirname "$0")/run.sh" "$@"
